#!/bin/sh
# budget: 900
# results: read64 read64-tput read64-jobs write64 write64-tput write64-jobs read100 read100-tput read100-jobs write100 write100-tput write100-jobs dmesg
# hcfq-many on a deep-queue disk: null_blk with hw_queue_depth=32,
# requests up to 512 KiB and 32 ms per request, so that the disk moves
# 1000 requests a second only while 32 are in flight: a scheduler that
# serves one process at a time gets a thirty-second of it. (null_blk's
# mbps cap is not used: in one of two boots with it, its throttle timer
# warned in hrtimer_forward(), called from nullb_bwtimer_fn() while
# null_handle_throttled() may restart the same timer on the other vCPU:
# a race in null_blk, and a splat fails the boot.)
# The shares bound is 7 points here, not hcfq-many's 3. Over five boots
# fio's shares were 0.2 to 5.6 points off (18 runs, 11 of them above 3).
# Recomputed over the window in which all groups ran (fair_window), the
# two boots whose samples were kept are 2.2 to 5.6 points off (8 runs;
# g1 low, at 5.8 to 8.6 %, in 6), so the error is hcfq's here, not the
# harness's: with 32 requests in flight for 32 ms each, a group's
# requests are charged only as they complete, and a slice can leave a
# queue's worth in the driver. Charging at dispatch (issue 14, item 2)
# is the fix that should bring this down. In a sixth boot write100 was
# 12.3 points off (g6 high), so this runs in make check-admission
# (tests/plan.admit), not in make check.
MANY_DISK="hw_queue_depth=32 max_sectors=1024 completion_nsec=32000000"
MANY_TOL=7
MANY_JOBS="64 100"
export MANY_DISK MANY_TOL MANY_JOBS
. /tests/scenarios/hcfq-many.sh
