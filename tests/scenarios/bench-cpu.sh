#!/bin/sh
# budget: 200
# make bench: CPU cost. 4 jobs of 4 KiB random O_DIRECT reads (libaio,
# iodepth 4) on a null_blk that completes every request at once, so the
# CPU is the bottleneck; IOPS per scheduler relative to none. Each
# scheduler runs twice, in two rounds, to show the spread.
# Meant for a +icount boot (tests/plan.bench): there the guest clock
# counts instructions, so IOPS measure instructions per I/O and do not
# move with the host's load. Not a test: numbers only.
. /tests/guest/lib.sh

RT=${BENCH_CPU_RT:-5}
SCHEDS=$(echo "${BENCH_SCHEDS:-none mq-deadline bfq hcfq}" | tr , " ")
T=$ODIR/table.txt

dev=$(nullb_create cpu irqmode=0 completion_nsec=0 hw_queue_depth=64 submit_queues=2) ||
	{ result "$SCEN" FAIL "nullb_create cpu failed"; exit 0; }
: > "$ODIR/iops"
for round in 1 2; do
	for s in $SCHEDS; do
		set_sched "$dev" "$s" || continue
		fio --name=cpu --filename="$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=libaio --iodepth=4 --numjobs=4 --group_reporting \
			--time_based --runtime="$RT" --size=1g --output-format=terse \
			--terse-version=3 --output="$ODIR/cpu.$s.$round" > /dev/null 2>&1
		echo "$s $round $(fio_iops "$ODIR/cpu.$s.$round")" >> "$ODIR/iops"
		log "$s round $round: $(tail -n1 "$ODIR/iops")"
	done
done
nullb_destroy cpu
awk '{ n[$1]++; v[$1, n[$1]] = $3; if (!($1 in seen)) { seen[$1] = 1; o[++k] = $1 } }
END {
	base = (v["none", 1] + v["none", 2]) / 2
	printf "%-12s %9s %9s %9s %9s\n", "sched", "iops#1", "iops#2", "spread%", "iops/none"
	for (i = 1; i <= k; i++) {
		s = o[i]; a = v[s, 1]; b = v[s, 2]; m = (a + b) / 2
		printf "%-12s %9d %9d %9.1f %9.2f\n", s, a, b,
			m ? 100 * (a > b ? a - b : b - a) / m : 0, base ? m / base : 0
	}
}' "$ODIR/iops" > "$T"
text "$SCEN" < "$T"
while read -r s a b sp r; do
	[ "$s" = sched ] || metric "$SCEN" "sched=$s" "iops1=$a" "iops2=$b" "spread_pct=$sp" "ratio=$r"
done < "$T"
result "$SCEN" PASS "CPU-cost table printed ($CGMODE)"
