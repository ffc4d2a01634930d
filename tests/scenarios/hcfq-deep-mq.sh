#!/bin/sh
# budget: 300
# results: hctx read4 read4-time read4-tput write4 write4-time write4-tput dmesg
# Multi-queue with a deep queue (issue 14, device models): hcfq-deep's
# disk with one submission queue per vCPU (submit_queues = nproc, two
# under TCG), so that the two CPUs submit and complete on their own
# hardware contexts at once. It needs patch 0012: before it, two CPUs
# that submitted at once could both restart null_blk's bandwidth timer,
# and a WARNING in hrtimer_forward() failed about one such boot in six.
# The workloads where each group runs four jobs over both CPUs (read4
# and write4), 16 s each. hcfq's charged disk time follows the weights
# closely: within 0.6 points in every run (14 runs in seven boots, v1 and
# v2, 12 and 16 s). The bytes of the writes follow it less closely on
# this model: write4 was 0.3 to 3.1 points off at 16 s in six boots (1.0
# to 3.1 at 12 s, 0.8 to 4.3 at 8 s), with g6 over its share in most
# runs, while read4 was 0.2 to 1.8 off. So g6's writes moved more bytes
# per ms of charged time than the others'. Why is not traced yet; this
# disk refills its byte budget every 20 ms, 1.3 requests' worth, so
# completions come in lumps, and hcfq-deep on one vCPU, where the timing
# is not the host's, stays within 0.8. So:
# - read4, write4: shares of the bytes within +-4 points;
# - read4-time, write4-time: shares of hcfq's charged time within +-2;
# - tput as in hcfq-deep;
# - hctx: the disk has at least that many hardware contexts.
DEEP_QUEUES=$(nproc)
DEEP_RT=16
DEEP_WL="read4:read:4 write4:write:4"
DEEP_TOL=4
DEEP_TIME_TOL=2
export DEEP_QUEUES DEEP_RT DEEP_WL DEEP_TOL DEEP_TIME_TOL
. /tests/scenarios/hcfq-deep.sh
