#!/bin/sh
# budget: 420
# results: switch nr-requests slice-idle submit-queues weights exit drained dmesg
# Queue changes under I/O with hcfq attached (issue 15, item 2). On a
# rotational QD2 null_blk (hcfq idles for a queue's next request there,
# so the idle timer is armed most of the time), g1 (weight 100) and g2
# (900) each run a loop of QD1 O_DIRECT dd readers, and g2 a buffered
# writer, from the start to the end. Meanwhile, one after the other:
# - switch: 6 round trips hcfq -> none, mq-deadline, bfq -> hcfq, each
#   0.2 s apart; every write to queue/scheduler succeeds;
# - nr-requests: nr_requests 4, 64, 8, 256, 16 (a queue freeze each;
#   4 is hcfq's minimum), each written and read back;
# - slice-idle: slice_idle 0, 8, 0, 8, 0, 8 (ms), 0.3 s apart: hcfq goes
#   from time mode to IOPS mode and back with requests in flight (the
#   first time-mode completion must not pay for the IOPS-mode period:
#   see hcfq_completed()); each value is taken and read back, and the
#   drained and dmesg checks below cover the state it leaves;
# - submit-queues: null_blk's submit_queues 2, 1, 2, 1, which remaps the
#   hardware contexts and takes the elevator off and puts it back; each
#   write succeeds, the queue has that many contexts (plus null_blk's
#   poll queues), and hcfq is the scheduler again afterwards;
# - weights: the groups' cgroup-wide weights read back unchanged after
#   all of that (they belong to the cgroup, not to the elevator). g1's
#   device weight is reported only: it belongs to the elevator's group,
#   which every switch frees, so it is gone (bfq's too);
# - exit: 5 short-lived dd readers in g3 (weight 500), one after the
#   other, two 8 KiB reads each: hcfq idles for each dd's queue after its
#   last read, and the dd exits during that wait. Every dd succeeds;
# - drained: the reader loops, told to stop, end within 60 s, no read of
#   theirs failed, and afterwards nothing is queued or in the driver
#   (debugfs busy). (fio, stopped with a signal, reports a short read as
#   an I/O error, which is why the readers are dd.)
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk qchg hcfq rotational=1 hw_queue_depth=2 ||
	{ result "$SCEN" FAIL "disk setup failed"; exit 0; }
Q=/sys/block/$(basename "$DEV")/queue
NB=/sys/kernel/config/nullb/qchg
fair_groups hcfq "g1:100 g2:900 g3:500" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
wfile=io.weight
[ "$CGMODE" = v1 ] && wfile=blkio.weight
# the cgroup-wide weight: v2's first line ("default N")
w1=$(head -n1 "$(cg_path g1)/$wfile") w2=$(head -n1 "$(cg_path g2)/$wfile")
dfile=$wfile
[ "$CGMODE" = v1 ] && dfile=blkio.weight_device
echo "$MM 200" > "$(cg_path g1)/$dfile" || log "setting a device weight failed"

# the readers: dd loops (2 MiB each, QD1 O_DIRECT) until $STOP exists,
# so that every read ends normally and an error is the kernel's
STOP=$ODIR/stop
pids=
i=0
for g in g1 g2; do
	cg_exec "$g" sh -c "n=0; while [ ! -e $STOP ]; do
		dd if=$DEV of=/dev/null bs=8k count=256 skip=\$(((n % 64) * 256 + $i * 131072)) \
			iflag=direct 2>/dev/null || echo \"dd rc=\$?\" >> $ODIR/errs.$g
		n=\$((n + 1)); done; echo \$n > $ODIR/runs.$g" &
	pids="$pids $!"
	i=$((i + 1))
done
cg_exec g2 sh -c "while [ ! -e $STOP ]; do dd if=/dev/zero of=$DEV bs=64k count=64 \
	seek=40000 conv=notrunc 2>/dev/null; sync; done" &
pids="$pids $!"
# the changes start once both readers move data
i=0
while [ $i -lt 240 ]; do
	[ "$(grp_bytes g1)" -gt 0 ] && [ "$(grp_bytes g2)" -gt 0 ] && break
	sleep 0.25
	i=$((i + 1))
done
[ $i -lt 240 ] || log "readers did not start within 60 s"

# phase durations, for the metric: "name=seconds ..."
T0=$(cut -d' ' -f1 /proc/uptime) PHASES=
phase() {
	_t=$(cut -d' ' -f1 /proc/uptime)
	PHASES="$PHASES $1=$(awk -v a="$T0" -v b="$_t" 'BEGIN { printf "%.1f", b - a }')"
	T0=$_t
}
phase start

# ---- switch
bad=0 n=0
for _ in 1 2 3 4 5 6; do
	for s in none mq-deadline bfq; do
		grep -qw -- "$s" "$Q/scheduler" || continue
		echo "$s" > "$Q/scheduler" || bad=$((bad + 1))
		sleep 0.2
		echo hcfq > "$Q/scheduler" || bad=$((bad + 1))
		n=$((n + 2))
		sleep 0.2
	done
done
grep -q '\[hcfq\]' "$Q/scheduler" || bad=$((bad + 1))
check_rc "$SCEN:switch" "$bad" "$n scheduler switches under I/O, $bad failed"
phase switch

# ---- nr-requests
bad=0
for nr in 4 64 8 256 16; do
	set_depth "$DEV" "$nr" || bad=$((bad + 1))
	sleep 0.3
done
phase nr_requests
check_rc "$SCEN:nr-requests" "$bad" "nr_requests 4 64 8 256 16 under I/O, $bad not taken"

# ---- slice-idle
bad=0 seen=
for v in 0 8 0 8 0 8; do
	echo "$v" > "$Q/iosched/slice_idle" || { bad=$((bad + 1)); continue; }
	r=$(cat "$Q/iosched/slice_idle")
	seen="$seen $r"
	[ "$r" = "$v" ] || bad=$((bad + 1))
	sleep 0.3
done
phase slice_idle
check_rc "$SCEN:slice-idle" "$bad" "slice_idle 0 8 0 8 0 8 under I/O, read back:$seen"

# ---- submit-queues
bad=0 seen=
pq=$(cat "$NB/poll_queues" 2>/dev/null || echo 0)
for sq in 2 1 2 1; do
	echo "$sq" > "$NB/submit_queues" || { bad=$((bad + 1)); continue; }
	sleep 0.3
	nh=$(find "/sys/block/$(basename "$DEV")/mq" -mindepth 1 -maxdepth 1 -type d | wc -l)
	seen="$seen $nh"
	[ "$nh" = $((sq + pq)) ] || bad=$((bad + 1))
done
grep -q '\[hcfq\]' "$Q/scheduler" || { bad=$((bad + 1)); seen="$seen ($(cat "$Q/scheduler"))"; }
phase submit_queues
check_rc "$SCEN:submit-queues" "$bad" "submit_queues 2 1 2 1 under I/O ($pq poll queues): hardware contexts$seen, hcfq attached after"

# ---- weights
a1=$(head -n1 "$(cg_path g1)/$wfile") a2=$(head -n1 "$(cg_path g2)/$wfile")
dw=$(grep -c "^$MM 200" "$(cg_path g1)/$dfile")
metric "$SCEN:weights" "g1_device_weight_after=$dw"
# io.weight and blkio.weight_device are the block core's, which keeps
# device weights by dev_t, so they survive every switch
[ "$a1" = "$w1" ] && [ "$a2" = "$w2" ] && [ "$dw" = 1 ]
check_rc "$SCEN:weights" $? "weights before: g1 '$w1' g2 '$w2'; after: g1 '$a1' g2 '$a2'; $MM 200 kept: $dw"

# ---- exit
bad=0
for i in $(seq 5); do
	cg_exec g3 dd if="$DEV" of=/dev/null bs=8k count=2 skip=$((i * 64)) \
		iflag=direct 2>/dev/null || bad=$((bad + 1))
done
phase exit
check_rc "$SCEN:exit" "$bad" "5 dd readers exited while hcfq idled for them, $bad failed"

# ---- drained
touch "$STOP"
# shellcheck disable=SC2086
wait_gone 60 $pids
bad=$(cat "$ODIR"/errs.* 2>/dev/null | wc -l)
runs="g1:$(cat "$ODIR/runs.g1" 2>/dev/null) g2:$(cat "$ODIR/runs.g2" 2>/dev/null)"
sync
sleep 0.5
if [ "$bad" = 0 ] && [ "$WAIT_LEFT" = 0 ]; then
	sched_drained "$SCEN:drained" "$DEV" "every read of the reader loops succeeded ($runs dd runs); after them"
else
	result "$SCEN:drained" FAIL "$bad dd runs of the reader loops failed ($runs), $WAIT_LEFT loops still running 60 s after the stop"
fi
phase drain
# shellcheck disable=SC2086
metric "$SCEN" $PHASES
nullb_destroy qchg
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
