#!/bin/sh
# budget: 300
# results: alone alone-qd1 two-of-three
# Work conservation.
# - alone: one backlogged group (QD8) alone under hcfq gets at least 95 %
#   of the throughput `none` gets on the same disk;
# - alone-qd1: a single QD1 reader alone (hcfq must not idle for nobody)
#   gets at least 95 % of what mq-deadline gets: at QD1 under TCG the
#   per-request cost of any elevator path shows, so the fair yardstick is
#   another elevator (none's number is printed too);
# - two-of-three: with g3 and g6 active and g1 idle (weights
#   100/300/600), g3 and g6 split 1:2 (33.3/66.7 +-3).
# make check runs it on the icount guest (tests/plan): on TCG the lone
# group's ratios follow the host's load (see tests/plan.admit).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

Q1="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
Q8="--rw=read --bs=8k --direct=1 --ioengine=libaio --iodepth=8"
fair_disk wc none || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g3:300 g6:600" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
for s in none mq-deadline hcfq; do
	set_sched "$DEV" "$s" || { result "$SCEN" FAIL "set_sched $s failed"; exit 0; }
	FAIR_SCHED=$s
	fair_run "$s-qd8" 8 "g6:$Q8"
	fair_run "$s-qd1" 8 "g6:$Q1"
done
b() { awk '{ print $2 }' "$ODIR/$1.fio"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
r8=$(ratio "$(b hcfq-qd8)" "$(b none-qd8)")
r1=$(ratio "$(b hcfq-qd1)" "$(b mq-deadline-qd1)")
r1n=$(ratio "$(b hcfq-qd1)" "$(b none-qd1)")
rdn=$(ratio "$(b mq-deadline-qd1)" "$(b none-qd1)")
metric "$SCEN:alone" "none_qd8=$(b none-qd8)" "hcfq_qd8=$(b hcfq-qd8)" "ratio=$r8"
metric "$SCEN:alone-qd1" "none=$(b none-qd1)" "mq-deadline=$(b mq-deadline-qd1)" \
	"hcfq=$(b hcfq-qd1)" "hcfq/mq-deadline=$r1" "hcfq/none=$r1n" "mq-deadline/none=$rdn"
if awk -v r="$r8" 'BEGIN { exit !(r >= 0.95) }'; then
	result "$SCEN:alone" PASS "a backlogged group alone gets $r8 x none's throughput (>= 0.95)"
else
	result "$SCEN:alone" FAIL "a backlogged group alone gets only $r8 x none's throughput (< 0.95)"
fi
if awk -v r="$r1" 'BEGIN { exit !(r >= 0.95) }'; then
	result "$SCEN:alone-qd1" PASS "a QD1 reader alone gets $r1 x mq-deadline's (none: hcfq $r1n, mq-deadline $rdn)"
else
	result "$SCEN:alone-qd1" FAIL "a QD1 reader alone gets $r1 x mq-deadline's (< 0.95; none: hcfq $r1n, mq-deadline $rdn)"
fi
fair_run two 20 "g3:$Q1;g6:$Q1"
fair_check "$SCEN:two-of-three" two fio "g3:33.3 g6:66.7" 3
nullb_destroy wc
