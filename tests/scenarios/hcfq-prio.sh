#!/bin/sh
# budget: 120
# results: .
# Priorities inside one group (seed 001): an RT reader, a BE0, a BE7 and
# an IDLE reader share one cgroup. Throughput must be ordered
# RT > BE0 > BE7 > IDLE, and IDLE gets at most 5 % while the others run.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk prio hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "grp:500" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
i=0
for p in "rt:-c1 -n4" "be0:-c2 -n0" "be7:-c2 -n7" "idle:-c3"; do
	n=${p%%:*} c=${p#*:}
	# shellcheck disable=SC2086
	cg_exec grp ionice $c fio --name="$n" --filename="$DEV" --rw=read --bs=8k \
		--direct=1 --ioengine=psync --offset=$((i * 512))m --size=512m \
		--time_based --runtime=20 --output-format=terse --terse-version=3 \
		--output="$ODIR/fio.$n" > /dev/null 2>&1 &
	i=$((i + 1))
done
wait
for n in rt be0 be7 idle; do echo "$n $(fio_bytes "$ODIR/fio.$n")"; done > "$ODIR/bytes"
shares < "$ODIR/bytes" > "$ODIR/shares"
text "$SCEN" < "$ODIR/shares"
metric "$SCEN" $(awk '{ printf "%s=%s ", $1, $2 }' "$ODIR/shares")
if awk '{ s[$1] = $2 } END { exit !(s["rt"] > s["be0"] && s["be0"] > s["be7"] &&
	s["be7"] > s["idle"] && s["idle"] <= 5) }' "$ODIR/shares"; then
	result "$SCEN" PASS "RT > BE0 > BE7 > IDLE: $(tr '\n' ' ' < "$ODIR/shares")"
else
	result "$SCEN" FAIL "order or IDLE bound violated: $(tr '\n' ' ' < "$ODIR/shares")"
fi
nullb_destroy prio
