#!/bin/sh
# budget: 240
# results: requeue requeue-drained timeout timeout-drained dmesg
# null_blk's fault injection under hcfq (issue 15), on a queue depth 4
# disk with three weighted groups (100/300/600), each running a QD2
# O_DIRECT random read/write job:
# - requeue: 5 % of the requests are sent back, alternately through
#   BLK_STS_RESOURCE (blk-mq keeps them) and blk_mq_requeue_request()
#   (they come back through hcfq_requeue_request() and the insert path).
#   Every fio succeeds, the block_rq_requeue tracepoint fired, and then
#   nothing is left queued or in the driver (debugfs busy).
# - timeout: three requests are never completed; with io_timeout at 1 s
#   the block layer times them out and null_blk fails them. Every fio
#   ends within 90 s of its start (a 6 s run, but on the debug kernel
#   under TCG three fio processes took about 15 s to get going), at
#   least one with an I/O error, and the scheduler drains.
# Needs CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION (the debug kernel); SKIP
# without it.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

NB=/sys/kernel/config/nullb

# inject NAME KIND PROBABILITY TIMES
inject() {
	_f=$NB/$1/$2_inject
	echo 0 > "$_f/verbose" && echo 1 > "$_f/interval" &&
		echo "$4" > "$_f/times" && echo "$3" > "$_f/probability"
}

# load TAG RUNTIME: the three groups' jobs; $ODIR/TAG.rc.NAME = exit status
load() {
	_pids=
	_i=0
	for _g in g1 g3 g6; do
		( cg_exec "$_g" fio --name="$1$_g" --filename="$DEV" --rw=randrw \
			--bs=8k --direct=1 --ioengine=libaio --iodepth=2 \
			--time_based --runtime="$2" --offset=$((_i * 512))m \
			--size=512m --output="$ODIR/$1.fio.$_g" > /dev/null 2>&1
		  echo $? > "$ODIR/$1.rc.$_g" ) &
		_pids="$_pids $!"
		_i=$((_i + 1))
	done
	LOAD_PIDS=$_pids
}

fair_disk inj hcfq hw_queue_depth=4 || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
if [ ! -d "$NB/inj/requeue_inject" ]; then
	for r in requeue requeue-drained timeout timeout-drained; do
		result "$SCEN:$r" SKIP "no null_blk fault injection in this kernel"
	done
	nullb_destroy inj
	exit 0
fi
fair_groups hcfq "g1:100 g3:300 g6:600" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }

# ---- requeue
requeue_count_start
inject inj requeue 5 -1 || { result "$SCEN:requeue" FAIL "requeue_inject setup failed"; exit 0; }
load rq 6
wait
inject inj requeue 0 0
nreq=$(requeue_count_end "$DEV")
bad=
for g in g1 g3 g6; do
	[ "$(cat "$ODIR/rq.rc.$g" 2>/dev/null)" = 0 ] || bad="$bad $g"
done
if [ -z "$bad" ] && [ "$nreq" -gt 0 ]; then
	result "$SCEN:requeue" PASS "$nreq requeues; every fio succeeded"
else
	result "$SCEN:requeue" FAIL "$nreq requeues (want > 0); fio failed in:${bad:- none}"
fi
sched_drained "$SCEN:requeue-drained" "$DEV" "after the requeues"

# ---- timeout
q=/sys/block/$(basename "$DEV")/queue
echo 1000 > "$q/io_timeout" || { result "$SCEN:timeout" FAIL "io_timeout not set"; exit 0; }
inject inj timeout 2 3 || { result "$SCEN:timeout" FAIL "timeout_inject setup failed"; exit 0; }
t0=$(cut -d. -f1 /proc/uptime)
load to 6
# shellcheck disable=SC2086
wait_gone $((t0 + 90 - $(cut -d. -f1 /proc/uptime))) $LOAD_PIDS
left=$WAIT_LEFT
took=$(($(cut -d. -f1 /proc/uptime) - t0))
inject inj timeout 0 0
errs=0
for g in g1 g3 g6; do
	rc=$(cat "$ODIR/to.rc.$g" 2>/dev/null)
	[ -n "$rc" ] && [ "$rc" != 0 ] && errs=$((errs + 1))
done
if [ "$left" = 0 ] && [ "$errs" -ge 1 ]; then
	result "$SCEN:timeout" PASS "3 requests timed out: $errs of 3 fio runs saw an error, all ended in $took s"
else
	result "$SCEN:timeout" FAIL "$left fio runs still running after $took s; $errs saw an error (want >= 1)"
	for p in $LOAD_PIDS; do kill -9 "$p" 2>/dev/null; done
fi
wait
sched_drained "$SCEN:timeout-drained" "$DEV" "after the timeouts"
nullb_destroy inj
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
