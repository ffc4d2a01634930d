#!/bin/sh
# budget: 120
# results: setup requeue requeue-drained remove dmesg
# A SCSI disk's retries under hcfq (issue 14, item 6). SCSI prepares a
# request once (RQF_DONTPREP) and, when a command must be retried,
# requeues it prepared: blk-mq then sends it back to the driver past the
# scheduler (blk_mq_requeue_work()), so hcfq_requeue_request() leaves it
# counted in the driver until it completes. null_blk's requeue
# injection (hcfq-inject) never sets RQF_DONTPREP, so this takes
# scsi_debug: one 64 MiB disk, queue depth 32, 2 ms a command, sd on
# top, hcfq attached, groups g1 (weight 100) and g9 (900).
# - setup: scsi_debug loads and its sd disk takes hcfq (SKIP on a
#   kernel without scsi_debug, the normal one);
# - requeue: each group runs a QD4 O_DIRECT random read/write job for
#   SCSI_RT s (default 8) while every 25th command ends in ABORTED
#   COMMAND (scsi_debug's transport error), which sd retries. Every fio
#   ends within 60 s of its run and succeeds, the block_rq_requeue
#   tracepoint fired on the disk, and the disk's ioerr_cnt counted the
#   failed commands. A retried request counted out of the driver twice
#   stalls the disk here (a throwaway build whose requeue op dropped it
#   and still let its completion drop it again timed out);
# - requeue-drained: afterwards nothing is queued in hcfq or counted in
#   the driver (debugfs busy): a request lost from the count, or still
#   counted after it completed, shows here. A requeue op that took a
#   prepared request out of the count early (and so ignored its
#   completion) would pass: only the charge for its retry would change;
# - remove: rmmod scsi_debug removes the disk with hcfq attached.
# The bytes each group moved are reported, not judged: the two groups'
# 8 requests in flight never fill the disk's 32 tags, so it is not
# contended, and this runs on the debug kernel, which is CPU-bound under
# TCG (g9 / g1 was 0.9 to 2.4 in six boots).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

SD=/sys/bus/pseudo/drivers/scsi_debug
RT=${SCSI_RT:-8}

# statistics: every_nth counts commands with it
if ! modprobe scsi_debug dev_size_mb=64 max_queue=32 delay=0 \
	ndelay=2000000 statistics=1 2> "$ODIR/modprobe.err"; then
	for r in setup requeue requeue-drained remove; do
		result "$SCEN:$r" SKIP "no scsi_debug in this kernel: $(head -c 80 "$ODIR/modprobe.err")"
	done
	dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
	exit 0
fi
# sd probes the disk asynchronously
name=
i=0
while [ $i -lt 100 ]; do
	name=$(ls "$SD"/adapter*/host*/target*/*:*/block 2>/dev/null | head -n1)
	[ -n "$name" ] && [ -b "/dev/$name" ] && break
	sleep 0.1
	i=$((i + 1))
done
DEV=/dev/$name
if [ -z "$name" ] || ! set_sched "$DEV" hcfq ||
   ! fair_groups hcfq "g1:100 g9:900"; then
	result "$SCEN:setup" FAIL "scsi_debug's disk '${name}' did not take hcfq and the groups"
	rmmod scsi_debug
	exit 0
fi
result "$SCEN:setup" PASS "scsi_debug disk $name ($(dev_majmin "$DEV")), hcfq attached, depth $(cat "/sys/block/$name/device/queue_depth")"

# ---- requeue
requeue_count_start
err0=$(($(cat "/sys/block/$name/device/ioerr_cnt")))
echo 25 > "$SD/every_nth" && echo 16 > "$SD/opts" ||
	{ result "$SCEN:requeue" FAIL "scsi_debug's error injection not set"; exit 0; }
i=0
pids=
for g in g1 g9; do
	( cg_exec "$g" fio --name="rq$g" --filename="$DEV" --rw=randrw \
		--bs=8k --direct=1 --ioengine=libaio --iodepth=4 \
		--time_based --runtime="$RT" --offset=$((i * 32))m --size=32m \
		--output-format=terse --terse-version=3 \
		--output="$ODIR/rq.fio.$g" > /dev/null 2>&1
	  echo $? > "$ODIR/rq.rc.$g" ) &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait_gone $((RT + 60)) $pids
left=$WAIT_LEFT
echo 0 > "$SD/opts"
echo 0 > "$SD/every_nth"
nreq=$(requeue_count_end "$DEV")
nerr=$(($(cat "/sys/block/$name/device/ioerr_cnt") - err0))
bad=
bytes=
for g in g1 g9; do
	[ "$(cat "$ODIR/rq.rc.$g" 2>/dev/null)" = 0 ] || bad="$bad $g"
	# terse v3: read KiB field 6, write KiB field 47
	bytes="$bytes $g=$(awk -F';' '$1 == 3 { print $6 + $47 }' "$ODIR/rq.fio.$g" 2>/dev/null)KiB"
done
metric "$SCEN:requeue" requeues="$nreq" ioerr="$nerr"$bytes
if [ "$left" != 0 ]; then
	result "$SCEN:requeue" FAIL "$left fio runs still running $((RT + 60)) s after their start: I/O stalled ($(sched_busy "$DEV"))"
	result "$SCEN:requeue-drained" FAIL "not judged: I/O stalled"
	result "$SCEN:remove" SKIP "not tried: I/O stalled"
	dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
	exit 0
elif [ -z "$bad" ] && [ "$nreq" -gt 0 ] && [ "$nerr" -gt 0 ]; then
	result "$SCEN:requeue" PASS "$nreq requeues, $nerr failed commands retried; every fio succeeded ($bytes )"
else
	result "$SCEN:requeue" FAIL "$nreq requeues, $nerr failed commands (want > 0 each); fio failed in:${bad:- none}"
fi
sched_drained "$SCEN:requeue-drained" "$DEV" "after the retries"

# ---- remove
rmmod scsi_debug 2> "$ODIR/rmmod.err"
rc=$?
[ $rc = 0 ] && [ ! -e "/sys/block/$name" ] && [ ! -d /sys/module/scsi_debug ]
check_rc "$SCEN:remove" $? "rmmod scsi_debug with hcfq attached: rc $rc, /sys/block/$name $([ -e "/sys/block/$name" ] && echo left || echo gone) $(head -c 80 "$ODIR/rmmod.err")"
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
