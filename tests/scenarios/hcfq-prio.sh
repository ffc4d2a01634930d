#!/bin/sh
# budget: 120
# results: .
# Priorities inside one group (seed 001): an RT (level 4), a BE0, a BE7
# and an IDLE reader share one cgroup. hcfq weighs them 800, 180 and 40
# (RT 8 x BE4; BE0 and BE7 by CFQ's slice scaling), so the three take
# 78.4/17.6/3.9 % of the bytes; IDLE gets one request per 500 ms while
# the others run. Bounds: the order RT > BE0 > BE7 > IDLE; RT/BE0 and
# BE0/BE7 each within RTOL % of 4.44 and 4.5; IDLE at most 1.5 %.
# Measured in four boots: RT/BE0 4.29 to 4.55, BE0/BE7 4.49 to 4.67
# (3.8 % at most from the weights), IDLE 0.4 %.
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
RTOL=15
# prints "rt/be0 be0/be7 idle%" from the bytes; "0 0 100" unless BE0 and
# BE7 moved some
r=$(awk '{ b[$1] = $2; t += $2 } END {
	if (!b["be0"] || !b["be7"]) { print "0 0 100"; exit }
	printf "%.2f %.2f %.1f\n", b["rt"] / b["be0"], b["be0"] / b["be7"], 100 * b["idle"] / t }' \
	"$ODIR/bytes")
# shellcheck disable=SC2086
set -- $r
# shellcheck disable=SC2046
metric "$SCEN" $(awk '{ printf "%s=%s ", $1, $2 }' "$ODIR/shares") \
	"rt/be0=$1" "be0/be7=$2" "want=4.44,4.50" "tol=$RTOL%"
if awk -v a="$1" -v b="$2" -v i="$3" -v t="$RTOL" '
	function ok(x, w) { return x >= w * (1 - t / 100) && x <= w * (1 + t / 100) }
	BEGIN { exit !(ok(a, 800 / 180) && ok(b, 180 / 40) && i <= 1.5) }' &&
   awk '{ s[$1] = $2 } END { exit !(s["rt"] > s["be0"] && s["be0"] > s["be7"] &&
	s["be7"] > s["idle"]) }' "$ODIR/shares"; then
	result "$SCEN" PASS "RT/BE0 $1 (4.44), BE0/BE7 $2 (4.50), within $RTOL %; IDLE $3 % (<= 1.5): $(tr '\n' ' ' < "$ODIR/shares")"
else
	result "$SCEN" FAIL "RT/BE0 $1 (4.44), BE0/BE7 $2 (4.50), not both within $RTOL %, or IDLE $3 % > 1.5: $(tr '\n' ' ' < "$ODIR/shares")"
fi
nullb_destroy prio
