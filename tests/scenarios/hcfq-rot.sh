#!/bin/sh
# budget: 240
# results: read read-window read-stats read-time write write-window write-stats write-time dmesg
# A rotational disk (issue 14, device models): seed 000 on the QD1 2 ms
# null_blk with queue/rotational=1. There hcfq idles for a sync queue's
# next request whether or not another queue waits (on a non-rotational
# disk it idles only while someone else waits), and charges the idle
# time: the rotational path of hcfq_idle_kind(). Same bounds as seed 000:
# fio's bytes, the window and the disk time charged within +-3 points of
# 10/30/60, and the kernel's counters within 5 % of fio's.
SEED000_DISK=rotational=1
export SEED000_DISK
. /tests/scenarios/hcfq-seed000.sh
