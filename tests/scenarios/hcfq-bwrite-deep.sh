#!/bin/sh
# budget: 300
# results: ext4-fio-none ext4-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-tput dmesg
# hcfq-bwrite-app on the deep-queue disk (issue 13, item 9): null_blk
# with queue depth 32, capped at 16 MiB/s with requests up to 256 KiB
# (about 12.5 MiB/s; fair_bw_disk says why not hcfq-deep's 32 MiB/s),
# none and then hcfq, 20 s ramp and 40 s judged, writers' shares within
# +-5 points of 10/30/60, hcfq's total at least 0.9 x none's, and the
# dirty limits. On cgroup v1 the lightest writer got 1.4 to 6.3 points
# over its share here in five boots, since every dirtier ran free
# whenever writeback drew the pool below the free-run ceiling; patch
# 0015 paces weighted dirtiers there too (BENCHMARKS.md, "Buffered
# writers on a deep-queue disk"). At hcfq-deep's 32 MiB/s and 512 KiB
# the shares were 2.9 to 17.9 points off in eleven boots of 2026-12-07
# (0.2 to 1.0 in five when 0015 was measured): the guest's CPUs, 62 to 85 %
# busy with the writing, held the heavier writers below their paced
# rates, more so the busier the host (BENCHMARKS.md, "the CPU, not the
# disk").
BW_DISK=deep
export BW_DISK
. /tests/scenarios/hcfq-bwrite-app.sh
