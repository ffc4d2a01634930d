#!/bin/sh
# budget: 120
# results: . window leaf
# Hierarchy: A(200){A1(100), A2(300)} and B(100), one QD1 8 KiB O_DIRECT
# reader in each leaf. Leaf shares must be A1 = 1/6, A2 = 1/2, B = 1/3
# (v1 through blkio.weight, v2 through io.weight): within +-3
# points in the kernel counters' window while all three ran
# (fair_window), and within +-5 in fio's bytes. In two of six boots the
# old window, [2 s, 19 s] of the sampling loop, had A1 at 18.5 to
# 19.8 %. That loop outlasts the fio runs, which start up to a second
# apart, so such a window can end with one group running alone; in
# hcfq-nrsweep's kept samples that was the first group launched, as A1
# is here. Those two runs were not kept, so this is the likely cause,
# not a measured one. Recomputed over the all-running window, the seven
# kept runs are 0.0 to 0.5 points off. fio's own shares carry the
# start skew, so their bound is wider: 4 until 2026-12-02, when a boot on
# a slow host gave 4.3 (A1 21.0 %; its window 2.5), so 5.
# leaf (v1; SKIP on v2, which has no leaf weights): P's own task against
# its child C (blkio.weight 300), with blkio.weight 500 and
# blkio.leaf_weight 100 on P: 25/75 %, within +-3 points in the window.
# (Until 2026-12-03 a leaf weight written to a non-root group was
# ignored and P's own tasks weighed P's blkio.weight: 62.5/37.5.)
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk hier hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "A:200 B:100 A1:100:A A2:300:A" ||
	{ result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
fair_run hier 20 "A1:$JOB;A2:$JOB;B:$JOB"
fair_check "$SCEN" hier fio "A1:16.7 A2:50 B:33.3" 5
fair_check "$SCEN:window" hier win "A1:16.7 A2:50 B:33.3" 3
if [ "$CGMODE" = v1 ]; then
	fair_groups hcfq "P:500 C:300:P" || { result "$SCEN:leaf" FAIL "cgroup setup failed"; exit 0; }
	echo 100 > "$(cg_path P)/blkio.leaf_weight" ||
		{ result "$SCEN:leaf" FAIL "writing the leaf weight failed"; exit 0; }
	fair_run leaf 15 "P:$JOB;C:$JOB"
	fair_check "$SCEN:leaf" leaf win "P:25 C:75" 3
else
	result "$SCEN:leaf" SKIP "cgroup v2 has no leaf weights"
fi
nullb_destroy hier
