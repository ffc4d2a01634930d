#!/bin/sh
# budget: 100
# Work conservation. One active group alone gets at least 95 % of the
# throughput `none` gets on the same disk; with two of three groups
# (weights 100/300/600) active, g3 and g6 split 1:2 (33.3/66.7 +-3).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
fair_disk wc none || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g3:300 g6:600" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
fair_run none 10 "g6:$JOB"
set_sched "$DEV" hcfq || { result "$SCEN" FAIL "set_sched hcfq failed"; exit 0; }
FAIR_SCHED=hcfq
fair_run alone 10 "g6:$JOB"
base=$(awk '{ print $2 }' "$ODIR/none.fio")
got=$(awk '{ print $2 }' "$ODIR/alone.fio")
ratio=$(awk -v a="$got" -v b="$base" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
metric "$SCEN:alone" "none_bytes=$base" "hcfq_bytes=$got" "ratio=$ratio"
if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95) }'; then
	result "$SCEN:alone" PASS "one group alone gets $ratio x none's throughput"
else
	result "$SCEN:alone" FAIL "one group alone gets only $ratio x none's throughput"
fi
fair_run two 20 "g3:$JOB;g6:$JOB"
fair_check "$SCEN:two-of-three" two fio "g3:33.3 g6:66.7" 3
nullb_destroy wc
