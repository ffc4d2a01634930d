#!/bin/sh
# budget: 300
# results: ext4-fio-none ext4-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-tput dmesg
# hcfq-bwrite-app on the deep-queue disk (issue 13, item 9): hcfq-deep's
# model (null_blk, queue depth 32, 32 MiB/s, requests up to 512 KiB),
# none and then hcfq, 20 s ramp and 40 s judged, writers' shares within
# +-5 points of 10/30/60, hcfq's total at least 0.9 x none's, and the
# dirty limits. On cgroup v1 the lightest writer got 1.4 to 6.3 points
# over its share here in five boots, since every dirtier ran free
# whenever writeback drew the pool below the free-run ceiling; patch
# 0015 paces weighted dirtiers there too (BENCHMARKS.md, "Buffered
# writers on a deep-queue disk").
BW_DISK=deep
export BW_DISK
. /tests/scenarios/hcfq-bwrite-app.sh
