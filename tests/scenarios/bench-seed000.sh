#!/bin/sh
# budget: 900
# make bench: seed 000's matrix. Three cgroups at weights 100/300/600,
# one 8 KiB job each, BENCH_RT seconds, for O_DIRECT read, O_DIRECT
# write, buffered read and buffered write, under every scheduler in
# BENCH_SCHEDS (weights through each scheduler's own file: blkio.weight /
# io.weight for hcfq, blkio.bfq.weight / io.bfq.weight for bfq,
# io.weight for iocost; none and mq-deadline have none). Prints the share
# error (largest deviation from 10/30/60, points) and total throughput
# relative to none. (CPU cost: bench-cpu.sh.)
# Buffered writes run with vm.dirty_background_bytes 16 MiB and
# vm.dirty_bytes 64 MiB (as the lat-* scenarios): the defaults (10/20 %
# of RAM) let a 20 s writer dirty ~400 MB that the 4 MB/s disk needs
# 100 s to write back, so its shares would be page cache, not disk.
# Every scheduler runs at the kernel's default nr_requests, as users run
# it; the rows marked "@128" repeat it with nr_requests=128 (BENCH_NR),
# the tuning earlier versions of this harness applied everywhere.
# Not a test: numbers only (RESULT PASS once the table is printed).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${BENCH_RT:-20}
if [ "$CGMODE" = v2 ]; then
	SCHEDS=${BENCH_SCHEDS:-"none mq-deadline bfq iocost hcfq"}
else
	SCHEDS=${BENCH_SCHEDS:-"none mq-deadline bfq hcfq"}
fi
WANT="g1:10 g3:30 g6:60"
T=$ODIR/table.txt
printf '%-12s %-10s %8s %8s %8s %9s %10s\n' sched workload g1% g3% g6% err-pts tput/none > "$T"

dirty_limits $((16 << 20)) $((64 << 20))
dev=$(nullb_create bench) || { result "$SCEN" FAIL "nullb_create failed"; exit 0; }
DEV=$dev MM=$(dev_majmin "$dev")
cg_new g1 && cg_new g3 && cg_new g6 || { result "$SCEN" FAIL "cgroups"; exit 0; }
RUNS=
for s in $(echo "$SCHEDS" | tr , " "); do
	RUNS="$RUNS $s"
	case "$s" in none|iocost) ;; *) RUNS="$RUNS $s@${BENCH_NR:-128}" ;; esac
done
for r in $RUNS; do
	s=${r%@*} nr=
	[ "$r" != "$s" ] && nr=${r#*@}
	set_sched "$DEV" "$s" $nr || { echo "$r: set_sched failed" >> "$T"; continue; }
	FAIR_SCHED=$s
	case "$s" in
	hcfq|bfq|iocost) for gw in g1:100 g3:300 g6:600; do
		cg_weight "${gw%:*}" "$s" "${gw#*:}"; done ;;
	esac
	for wl in dread:"--rw=read --direct=1" dwrite:"--rw=write --direct=1" \
		bread:"--rw=read --direct=0" bwrite:"--rw=write --direct=0 --end_fsync=0"; do
		n=${wl%%:*} a="${wl#*:} --bs=8k --ioengine=psync"
		sync; echo 3 > /proc/sys/vm/drop_caches
		fair_run "$r-$n" "$RT" "g1:$a;g3:$a;g6:$a"
		tot=$(fair_total "$r-$n")
		[ "$s" = none ] && eval "base_$n=$tot"
		eval "b=\$base_$n"
		d=$(fair_dev "$ODIR/$r-$n.fio" "$WANT")
		echo "$d" | awk -v s="$r" -v n="$n" -v t="$tot" -v b="$b" '{
			split($2, a, "="); split($3, c, "="); split($4, d, "=")
			printf "%-12s %-10s %8s %8s %8s %9s %10.2f\n", s, n, a[2], c[2], d[2], $1, b ? t / b : 0 }' >> "$T"
	done
	if [ "$s" = iocost ]; then echo "$MM enable=0" > /sys/fs/cgroup/io.cost.qos; fi
done
nullb_destroy bench
dirty_limits_restore

text "$SCEN" < "$T"
result "$SCEN" PASS "benchmark table printed ($CGMODE)"
