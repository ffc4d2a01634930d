#!/bin/sh
# budget: 240
# results: blocking blocking-shares drained-blocking shared shared-switch shared-remove drained-shared hostwide drained-hostwide dmesg
# hcfq on the tag-set and driver variants that blktests' block group
# covers for every scheduler (issue 15, item 7), with g1 (weight 100)
# and g9 (900) each running QD1 O_DIRECT random readers:
# - blocking, blocking-shares (block/006): a QD1 2 ms null_blk with
#   blocking=1 (BLK_MQ_F_BLOCKING: dispatch runs where it may sleep).
#   Both fio runs succeed, and the shares are 10/90 within 3 points;
# - shared, shared-switch, shared-remove (block/010, 022, 035): two
#   null_blk devices on one tag set (shared_tags=1, the module's depth
#   of 64), hcfq on both, each group reading from both. Halfway through,
#   the second device's scheduler goes hcfq -> mq-deadline -> bfq ->
#   hcfq (each a queue freeze on a shared tag set): every switch
#   succeeds and every fio succeeds. Then the second device is powered
#   off and removed while the groups read from the first: their fio
#   runs succeed;
# - hostwide (block/031): one device whose two hardware queues share a
#   tag bitmap (shared_tag_bitmap=1, submit_queues=2), two jobs a group:
#   every fio succeeds;
# - drained: afterwards nothing is queued or in the driver on the
#   devices left.
# The per-device shares on the shared tag set (depth 64, so no longer
# the QD1 model) are reported, not asserted.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RD="--rw=randread --bs=8k --direct=1 --ioengine=psync"
fair_groups hcfq "g1:100 g9:900" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }

# ---- blocking
fair_disk blk hcfq blocking=1 || { result "$SCEN" FAIL "blocking disk setup failed"; exit 0; }
fair_run bl 12 "g1:$RD;g9:$RD"
[ ! -s "$ODIR/bl.fiofail" ]
check_rc "$SCEN:blocking" $? "fio failed in: $(tr '\n' ' ' < "$ODIR/bl.fiofail")"
fair_check "$SCEN:blocking-shares" bl fio "g1:10 g9:90" 3
sched_drained "$SCEN:drained-blocking" "$DEV" "blocking device"
nullb_destroy blk

# ---- shared tag set
S1=$(nullb_create sh1 shared_tags=1) && S2=$(nullb_create sh2 shared_tags=1) &&
	set_sched "$S1" hcfq && set_sched "$S2" hcfq ||
	{ result "$SCEN" FAIL "shared tag set setup failed"; exit 0; }
# shrd TAG RUNTIME DEV...: a reader per group and device; TAG.rc.G.N
shrd() {
	_t=$1 _rt=$2
	shift 2
	_n=0
	for _d in "$@"; do
		for g in g1 g9; do
			( cg_exec "$g" fio --name="$_t$g$_n" --filename="$_d" $RD \
				--time_based --runtime="$_rt" --size=256m \
				--offset=$((_n * 1024 + ${g#g} * 64))m \
				--output-format=terse --terse-version=3 \
				--output="$ODIR/$_t.fio.$g.$_n" > /dev/null 2>&1
			  echo $? > "$ODIR/$_t.rc.$g.$_n" ) &
		done
		_n=$((_n + 1))
	done
}
# rcs TAG: the groups and devices whose fio did not exit 0
rcs() {
	for _f in "$ODIR/$1".rc.*; do
		[ "$(cat "$_f")" = 0 ] || echo "${_f##*.rc.}"
	done | tr '\n' ' '
}
shrd sh 12 "$S1" "$S2"
sleep 6
sw=
Q2=/sys/block/$(basename "$S2")/queue
for s in mq-deadline bfq hcfq; do
	echo "$s" > "$Q2/scheduler" && grep -q "\[$s\]" "$Q2/scheduler" || sw="$sw $s"
	sleep 0.3
done
wait
bad=$(rcs sh)
[ -z "$bad" ]
check_rc "$SCEN:shared" $? "two devices on one tag set, fio failed in: ${bad:-none}"
[ -z "$sw" ]
check_rc "$SCEN:shared-switch" $? "scheduler switches on the second device under I/O; failed:${sw:- none}"
for n in 0 1; do
	b1=$(fio_bytes "$ODIR/sh.fio.g1.$n") b9=$(fio_bytes "$ODIR/sh.fio.g9.$n")
	metric "$SCEN:shared-dev$n" "g1 $(awk -v a="$b1" -v b="$b9" 'BEGIN { printf "%.1f", a + b ? 100 * a / (a + b) : 0 }') % of $((b1 + b9)) bytes"
done
shrd rm 8 "$S1"
sleep 3
nullb_destroy sh2
wait
bad=$(rcs rm)
[ -z "$bad" ] && [ ! -e "$S2" ]
check_rc "$SCEN:shared-remove" $? "second device removed under the first's I/O; fio failed in: ${bad:-none}"
sched_drained "$SCEN:drained-shared" "$S1" "shared tag set"
nullb_destroy sh1

# ---- host-wide tags over two hardware queues
H=$(nullb_create hw shared_tag_bitmap=1 submit_queues=2 hw_queue_depth=4) &&
	set_sched "$H" hcfq || { result "$SCEN" FAIL "host-wide tag disk setup failed"; exit 0; }
nh=$(ls -d /sys/block/$(basename "$H")/mq/* | wc -l)
for g in g1 g9; do
	( cg_exec "$g" fio --name="hw$g" --filename="$H" $RD --numjobs=2 \
		--time_based --runtime=6 --size=256m --offset=$((${g#g} * 64))m \
		--output-format=terse --terse-version=3 --output="$ODIR/hw.fio.$g" > /dev/null 2>&1
	  echo $? > "$ODIR/hw.rc.$g" ) &
done
wait
bad=$(rcs hw)
[ -z "$bad" ] && [ "$nh" -ge 2 ]
check_rc "$SCEN:hostwide" $? "$nh hardware queues on one tag bitmap, fio failed in: ${bad:-none}"
sched_drained "$SCEN:drained-hostwide" "$H" "host-wide tags"
nullb_destroy hw
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
