#!/bin/sh
# budget: 600
# hcfq-many on a deep-queue disk: null_blk with hw_queue_depth=32,
# requests up to 512 KiB and 32 ms per request, so that the disk moves
# 1000 requests a second only while 32 are in flight: a scheduler that
# serves one process at a time gets a thirty-second of it. (null_blk's
# mbps cap is not used: in one of two boots with it, its throttle timer
# warned in hrtimer_forward(), called from nullb_bwtimer_fn() while
# null_handle_throttled() may restart the same timer on the other vCPU:
# a race in null_blk, and a splat fails the boot.)
MANY_DISK="hw_queue_depth=32 max_sectors=1024 completion_nsec=32000000"
export MANY_DISK
. /tests/scenarios/hcfq-many.sh
