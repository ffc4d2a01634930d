#!/bin/sh
# budget: 360
# results: nr4 nr16
# Seed 000's three groups (100/300/600, one QD1 8 KiB O_DIRECT reader
# each) on the 2 ms QD1 disk with nr_requests set to 4 and 16 (the
# kernel's default, 128, is hcfq-admit's dread case, the same run in the
# same boot, so it is not run again here): shares of the bytes the groups
# moved while all three ran (fair_window) within +-3 points at every
# depth, and the depth took effect. Not fio's bytes: each fio counts its
# own 15 s, and the three start up to a second apart under TCG, so one
# of them runs alone at the end. That put g1 (the first started, the
# last to get going) 3.3 and 4.4 points high at nr128 in two boots of
# 13, when this ran nr128; fio's shares are kept as a metric.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${SWEEP_RT:-15}
JOB="--rw=read --bs=8k --direct=1 --ioengine=psync"
fair_disk swp hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g3:300 g6:600" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
metric "$SCEN:default" "nr_requests=$(cat "/sys/block/$(basename "$DEV")/queue/nr_requests")"
for nr in 4 16; do
	set_sched "$DEV" hcfq "$nr" || { result "$SCEN:nr$nr" FAIL "nr_requests $nr not set"; continue; }
	fair_run "nr$nr" "$RT" "g1:$JOB;g3:$JOB;g6:$JOB"
	fair_check "$SCEN:nr$nr" "nr$nr" win "g1:10 g3:30 g6:60" 3
	metric "$SCEN:nr$nr-fio" "$(fair_dev "$ODIR/nr$nr.fio" "g1:10 g3:30 g6:60")"
done
nullb_destroy swp
