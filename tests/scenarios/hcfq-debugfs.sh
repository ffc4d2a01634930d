#!/bin/sh
# budget: 120
# results: files quiet active idling busy drained dmesg
# hcfq's debugfs files, block/<disk>/sched/{active,idling,busy}, show the
# state machine: with nothing to do nothing is queued or in the driver;
# while one ionice -c2 -n7 QD1 reader in g1 runs, the active queue is a
# sync queue of g1's cgroup (the id that blktrace shows, the cgroup
# directory's inode) at class be/7, at most one request is in the
# driver (the disk has one tag), and idling names one of the four
# kinds; once it ends, the scheduler has drained.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk dbgfs hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:500" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
D=/sys/kernel/debug/block/$(basename "$DEV")/sched
miss=
for f in active idling busy; do
	[ -r "$D/$f" ] || miss="$miss $f"
done
if [ -n "$miss" ]; then
	result "$SCEN:files" FAIL "missing in $D:$miss"
else
	result "$SCEN:files" PASS "$D has active idling busy"
fi

sched_drained "$SCEN:quiet" "$DEV" "no I/O"

id=$(stat -c %i "$(cg_path g1)")
# the samples take about 3 s once the queue is served; fio starts in
# about a second, and in seconds on the debug kernel
rt=6
[ "${VARIANT-}" = debug ] && rt=12
cg_exec g1 ionice -c2 -n7 fio --name=dbg --filename="$DEV" --rw=read \
	--bs=8k --direct=1 --ioengine=psync --time_based --runtime=$rt \
	--size=256m --output=/dev/null > /dev/null 2>&1 &
fpid=$!
# sample once the reader's queue is served (fio takes seconds to start
# on the debug kernel)
i=0
while [ $i -lt 120 ] && [ "$(cat "$D/active")" = none ]; do
	sleep 0.25
	i=$((i + 1))
done
: > "$ODIR/samples"
i=0
while [ $i -lt 15 ] && kill -0 "$fpid" 2>/dev/null; do
	{ echo "active $(cat "$D/active")"; echo "idling $(cat "$D/idling")"
	  echo "busy $(cat "$D/busy")"; } >> "$ODIR/samples" 2>&1
	sleep 0.2
	i=$((i + 1))
done
wait "$fpid"
frc=$?
text "$SCEN" < "$ODIR/samples"

# active: every sample that names a queue names g1's sync be/7 queue,
# and at least one does. (Not most: on a non-rotational disk a lone
# reader's queue may be expired "empty" while its request is in flight,
# and on the debug kernel only 4 and 5 of 15 samples showed it.)
awk -v id="$id" '
	$1 != "active" { next }
	{ n++ }
	$2 == "none" { next }
	$2 == "pid" && $4 == "sync" && $5 == "cgroup" && $6 == id &&
	    $7 == "class" && $8 == "be/7" { ok++; next }
	{ bad++; if (!first) first = $0 }
	END { printf "%d %d %d %s\n", n, ok, bad, first }' "$ODIR/samples" > "$ODIR/active"
read -r n ok bad first < "$ODIR/active"
if [ "$frc" != 0 ]; then
	result "$SCEN:active" FAIL "fio exited $frc"
elif [ "$bad" = 0 ] && [ "$ok" -ge 1 ]; then
	result "$SCEN:active" PASS "$ok of $n samples show g1's sync be/7 queue (cgroup $id), none another"
else
	result "$SCEN:active" FAIL "$ok of $n samples show g1's sync be/7 queue (cgroup $id); other: $first"
fi

# each_sample NAME KIND COND WHAT: result NAME PASS if there are KIND
# samples and none of them matches the awk condition COND
each_sample() {
	_es_bad=$(awk -v k="$2" "\$1 == k && ($3)" "$ODIR/samples" | head -1)
	_es_n=$(awk -v k="$2" '$1 == k { n++ } END { print n + 0 }' "$ODIR/samples")
	if [ -z "$_es_bad" ] && [ "$_es_n" -gt 0 ]; then
		result "$1" PASS "$_es_n samples, each $4"
	else
		result "$1" FAIL "$_es_n samples; bad: ${_es_bad:-no sample}"
	fi
}

# shellcheck disable=SC2016
each_sample "$SCEN:idling" idling '$2 !~ /^(none|queue|group|dry)$/' \
	"none, queue, group or dry"
# one reader at QD1 on a one-tag disk: one queue busy, <= 1 in the driver
# shellcheck disable=SC2016
each_sample "$SCEN:busy" busy '$2 != "queues" || $3 > 1 || $5 > 1 || $7 > 1' \
	"with <= 1 queue busy, queued and in the driver"

sched_drained "$SCEN:drained" "$DEV" "after the reader"
nullb_destroy dbgfs
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
