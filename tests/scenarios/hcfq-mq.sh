#!/bin/sh
# budget: 240
# results: read read-window read-stats read-time write write-window write-stats write-time dmesg
# Multi-queue: seed 000 on a null_blk with submit_queues=2, 30 s a
# run instead of 20. With two hardware queues on the two vCPUs the
# shares follow the host's load more than on one queue: in a CI boot
# whose host ran the fast blktests phases at half speed, the 20 s read
# gave g6 54.3 % of fio's bytes and 56.8 % of the time (want 60); here,
# with eight busy loops beside QEMU, 55.8 % of fio's bytes and 59.2 % of
# the time. The longer run halves the weight of fio's start-up skew and
# averages the host's stalls over more samples.
SEED000_QUEUES=2
SEED000_RT=30
export SEED000_QUEUES SEED000_RT
. /tests/scenarios/hcfq-seed000.sh
