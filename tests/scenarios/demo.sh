#!/bin/sh
# budget: 90
# Seed 000's test: three cgroups at weights 100/300/600 each run one
# time-limited fio job (8 KiB, QD1 psync, O_DIRECT sequential read, 20 s)
# against one null_blk disk, all started together. The table compares the
# expected share with the measured share from fio's bytes and from the
# cgroup's own io counters (cg_io_bytes).
#   DEMO_SCHED   scheduler (default hcfq, weights through blkio.weight on v1)
#   DEMO_RUNTIME seconds per job (default 20)
#   DEMO_TOL     allowed |measured - expected| in percentage points (5)
. /tests/guest/lib.sh
# blktrace of the run -> blkshare table and plot (issue 5, trace.sh)
. /tests/guest/trace.sh

SCHED=${DEMO_SCHED:-hcfq}
RT=${DEMO_RUNTIME:-20}
TOL=${DEMO_TOL:-5}
CGS="g100:100 g300:300 g600:600"

dev=$(nullb_create demo) || { result "$SCEN" FAIL "nullb_create failed"; exit 0; }
mm=$(dev_majmin "$dev")
set_sched "$dev" "$SCHED" || { result "$SCEN" FAIL "set_sched $SCHED failed"; exit 0; }
for gw in $CGS; do
	g=${gw%:*} w=${gw#*:}
	if ! cg_new "$g" || ! cg_weight "$g" "$SCHED" "$w"; then
		result "$SCEN" FAIL "cgroup $g weight $w ($SCHED) failed"
		exit 0
	fi
done

trace_demo_start "$dev"
i=0
for gw in $CGS; do
	g=${gw%:*}
	cg_exec "$g" fio --name="$g" --filename="$dev" --rw=read --bs=8k --direct=1 \
		--ioengine=psync --iodepth=1 --time_based --runtime="$RT" \
		--offset=$((i * 1024))m --size=1g \
		--output-format=terse --terse-version=3 --output="$ODIR/fio.$g" &
	i=$((i + 1))
done
wait
trace_demo_end

: > "$ODIR/fio.bytes"
: > "$ODIR/cg.bytes"
for gw in $CGS; do
	g=${gw%:*}
	echo "$g $(fio_bytes "$ODIR/fio.$g")" >> "$ODIR/fio.bytes"
	echo "$g $(cg_io_bytes "$g" "$mm")" >> "$ODIR/cg.bytes"
done
shares < "$ODIR/fio.bytes" > "$ODIR/fio.share"
shares < "$ODIR/cg.bytes" > "$ODIR/cg.share"

{
	echo "demo: $SCHED, cgroup $CGMODE, null_blk $((NULLB_NSEC / 1000)) us/req QD1, 8 KiB O_DIRECT seq read, ${RT}s"
	printf '%-8s %6s %9s %11s %11s %10s\n' cgroup weight expected% fio-share% cg-share% fio-MiB
	for gw in $CGS; do
		g=${gw%:*} w=${gw#*:}
		awk -v g="$g" -v w="$w" -v tot=1000 \
			-v fs="$(awk -v g="$g" '$1 == g { print $2 }' "$ODIR/fio.share")" \
			-v cs="$(awk -v g="$g" '$1 == g { print $2 }' "$ODIR/cg.share")" \
			-v fb="$(awk -v g="$g" '$1 == g { print $2 }' "$ODIR/fio.bytes")" \
			'BEGIN { printf "%-8s %6d %9.1f %11.1f %11.1f %10.1f\n", g, w, 100 * w / tot, fs, cs, fb / 1048576 }'
	done
} > "$ODIR/table.txt"
text "$SCEN" < "$ODIR/table.txt"

# fio and the kernel's counters must agree; all groups must have done I/O
maxdiff=$(paste "$ODIR/fio.share" "$ODIR/cg.share" |
	awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.1f", m + 0 }')
zero=$(awk '$2 == 0' "$ODIR/fio.bytes" "$ODIR/cg.bytes" | wc -l)
# deviation from the expected shares (weights 100/300/600 of 1000)
maxdev=$(paste "$ODIR/fio.share" - <<EOW | awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.1f", m + 0 }'
10
30
60
EOW
)
metric "$SCEN" "sched=$SCHED" "fio_vs_cg_maxdiff=$maxdiff" "max_dev_from_expected=$maxdev" \
	"$(tr '\n' ' ' < "$ODIR/fio.bytes")"
if [ "$zero" = 0 ] && awk -v d="$maxdiff" 'BEGIN { exit !(d <= 2) }'; then
	result "$SCEN:counters" PASS "fio and cgroup io counters agree within $maxdiff points"
else
	result "$SCEN:counters" FAIL "fio vs cgroup counters differ by $maxdiff points ($zero zero counters)"
fi
if awk -v d="$maxdev" -v t="$TOL" 'BEGIN { exit !(d <= t) }'; then
	result "$SCEN:shares" PASS "$SCHED within $maxdev points of 10/30/60"
else
	result "$SCEN:shares" FAIL "$SCHED off by $maxdev points from 10/30/60 (tolerance $TOL)"
fi
nullb_destroy demo
