#!/bin/sh
# budget: 300
# results: ext4-fio-none ext4-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-tput dmesg
# hcfq-bwrite for `make check`: writers' shares, throughput and dirty
# limits to ext4 files, with a 20 s ramp and 40 s judged, as issue 13's
# test asks.  With 10 + 20 s the shares were 0.7 to 5.1 points off in
# seven boots and hcfq's throughput 0.81 to 1.30 x none's: a 20 s window
# holds only about two drains of the 32 MiB dirty pool.  Left to
# `make check-bwrite`'s full scenario: the device shares (on a single
# bdi_writeback the flusher writes inodes in turn, so they follow the
# weights only over windows far longer than the pool; see "Buffered
# writers" in Documentation/block/hcfq-iosched.rst) and the raw device,
# whose shares missed by 12 to 15 points in 2 of 6 v1 runs, both times
# with g6 short of its share.
# On v2, make check runs it in a boot with cgroup_disable=memory, where
# one bdi_writeback writes for all groups as on v1 (0.2 to 2.0 points
# off in six boots), and runs hcfq alone: the throughput against none
# is judged on v1. With the memory controller (and so on any v2 with io:
# see hcfq-bwrite.sh) each group has its wb, upstream's cgroup
# writeback throttles each by its own writeout, and the shares missed
# by 0.9 to 8.9 points in 13 boots, with g1 short; with patch 0013's
# weighted cap per wb they were 1.4 to 4.6 off in 9 boots, following
# the device shares, where g6 was up to 6.6 points short; with patch
# 0014's smaller chunks for cgroup wbs, which keep ext4's commits from
# waiting on g1's writeback, 0.1 to 0.5 off in 9 boots (device shares
# within 0.7). make check runs it there too, last in hcfq-v2's boot.
# On the debug kernel (KASAN, lockdep, kmemleak) the shares and the
# throughput are reported, not judged (SKIP). There they missed 10/30/60 by 6.3 and 23.8 points
# in two boots (14.5/31.8/53.7, 26.0/37.9/36.2), and hcfq moved 1.4 and
# 1.9 x none's bytes, where on the normal kernel the two move about the
# same (1.03-1.08 x): the debug kernel's writers move 1.2-2.2 MB/s
# against 3.4-3.6. That kernel is CPU-bound under TCG (see
# hcfq-seed000.sh: O_DIRECT readers there reach a quarter of the disk's
# rate), so the writers cannot dirty at their paced rates; one CI
# run gave hcfq 0.595 x none's bytes there. The rest (every fio exits 0,
# dirty limits hold, no splat, and the boot's kmemleak scan) is judged.
BW_RAMP=20 BW_RT=40 BW_DEV=0 BW_TARGETS=ext4
[ "$CGMODE" = v2 ] && BW_SCHEDS=hcfq
# the debug kernel judges no shares and no throughput, so it runs hcfq
# alone for 5 + 10 s (with none as well it took 196 s), on an ext4 whose
# mkfs zeroes nothing (51 s, against 78 with the zeroing). Its writers
# dirty slower than the disk writes, so the pool stays under the
# free-run point and hcfq's pacing path gets little KASAN and lockdep
# time here (BENCHMARKS.md, "fsync-p99's reference").
[ "${VARIANT-}" = debug ] && BW_RAMP=5 BW_RT=10 BW_SCHEDS=hcfq EXT4_LAZY=1 &&
	BW_APP_SKIP="debug kernel: reported, not judged (see hcfq-bwrite-app.sh)"
export BW_RAMP BW_RT BW_DEV BW_TARGETS BW_APP_SKIP BW_SCHEDS EXT4_LAZY
. /tests/scenarios/hcfq-bwrite.sh
