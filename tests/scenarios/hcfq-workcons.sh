#!/bin/sh
# budget: 300
# results: alone alone-qd1 come-and-go come-and-go-g1 come-and-go-total
# Work conservation.
# - alone: one backlogged group (QD8) alone under hcfq gets at least 95 %
#   of the throughput `none` gets on the same disk;
# - alone-qd1: a single QD1 reader alone (hcfq must not idle for nobody)
#   gets at least 95 % of what mq-deadline gets: at QD1 under TCG the
#   per-request cost of any elevator path shows, so the fair yardstick is
#   another elevator (none's number is printed too);
# - come-and-go: g3 and g6 (weights 300 and 600) read for 20 s, and g1
#   (weight 100) comes and goes: fio reads 45 blocks, about a second at
#   its 10 % of the disk's ~450 IOPS, then sleeps 1 s (thinktime,
#   thinktime_blocks). While g1 is there the three split 10/30/60,
#   while it is away g3 and g6 take its share, so between themselves
#   they split 1:2 throughout (33.3/66.7 +-3); g1 is served when it
#   comes back (come-and-go-g1: at least 2.5 % of the bytes, half its
#   10 % for about half the time); and the three together move at least
#   0.95 x the bytes per second of a lone QD1 reader
#   (come-and-go-total): no disk time is lost idling for a group that
#   went away. g1 gets more than that: a group that joins keeps up to
#   one slice_sync of credit (hcfq_credit()), so after each second away
#   g1 reads its 45 blocks at once, in about 0.1 s, and it got 9.0 % of
#   the bytes (9.9 % with fio's thinktime_iotime=1s). Not asserted.
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
COME="--thinktime=1s --thinktime_blocks=45"
fair_run come 20 "g1:$Q1 $COME;g3:$Q1;g6:$Q1"
grep -v '^g1 ' "$ODIR/come.fio" > "$ODIR/come.pair"
fair_check "$SCEN:come-and-go" come pair "g3:33.3 g6:66.7" 3
g1=$(shares < "$ODIR/come.fio" | awk '$1 == "g1" { print $2 }')
metric "$SCEN:come-and-go-g1" "g1_share=$g1" "min=2.5"
if awk -v s="${g1:-0}" 'BEGIN { exit !(s >= 2.5) }'; then
	result "$SCEN:come-and-go-g1" PASS "g1, there part of the time, got $g1 % of the bytes (>= 2.5)"
else
	result "$SCEN:come-and-go-g1" FAIL "g1, there part of the time, got ${g1:-no} % of the bytes (< 2.5)"
fi
# bytes per second: the come-and-go run against hcfq's lone QD1 reader
rt=$(awk -v a="$(fair_total come)" -v b="$(b hcfq-qd1)" \
	'BEGIN { printf "%.3f", b ? (a / 20) / (b / 8) : 0 }')
metric "$SCEN:come-and-go-total" "ratio=$rt" "min=0.95"
if awk -v r="$rt" 'BEGIN { exit !(r >= 0.95) }'; then
	result "$SCEN:come-and-go-total" PASS "the three moved $rt x a lone QD1 reader's bytes per second (>= 0.95)"
else
	result "$SCEN:come-and-go-total" FAIL "the three moved $rt x a lone QD1 reader's bytes per second (< 0.95)"
fi
nullb_destroy wc
