#!/bin/sh
# budget: 60
# Runtime weight change: g1 and g2 start at 100/300; at 10 s g1 becomes
# 300 and g2 100. The per-second shares (kernel counters) must reach the
# new 75/25 split within 2 s and hold it (+-5 points per 1 s sample,
# averaged over the remaining window +-3).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk rw hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g2:300" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
( sleep 10; cg_weight g1 hcfq 300; cg_weight g2 hcfq 100; echo "switched at $(cat /proc/uptime)" > "$ODIR/switch" ) &
fair_run rw 20 "g1:$JOB;g2:$JOB"
wait
# share of g1 in each 1 s interval
awk '{ b[$1, $2] = $3; if ($1 > tmax) tmax = $1 }
	END { for (t = 1; t <= tmax; t++) {
		d1 = b[t, "g1"] - b[t - 1, "g1"]; d2 = b[t, "g2"] - b[t - 1, "g2"]
		if (d1 + d2 > 0) printf "%d %.1f\n", t, 100 * d1 / (d1 + d2) } }' \
	"$ODIR/rw.samples" > "$ODIR/g1.share"
text "$SCEN" < "$ODIR/g1.share"
# interval t covers [t-1, t): before = 3..9, after the switch at 10 s
# plus 2 s = 13..19
before=$(awk '$1 >= 3 && $1 <= 9 { s += $2; n++ } END { printf "%.1f", n ? s / n : 0 }' "$ODIR/g1.share")
after=$(awk '$1 >= 13 && $1 <= 19 { s += $2; n++ } END { printf "%.1f", n ? s / n : 0 }' "$ODIR/g1.share")
worst=$(awk '$1 >= 13 && $1 <= 19 { d = $2 - 75; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.1f", m + 0 }' "$ODIR/g1.share")
metric "$SCEN" "g1_before=$before" "g1_after=$after" "worst_interval_dev=$worst"
if awk -v b="$before" -v a="$after" -v w="$worst" 'BEGIN {
	db = b - 25; if (db < 0) db = -db; da = a - 75; if (da < 0) da = -da
	exit !(db <= 3 && da <= 3 && w <= 5) }'; then
	result "$SCEN" PASS "g1 share $before % before, $after % from 2 s after the change (worst 1 s sample off by $worst)"
else
	result "$SCEN" FAIL "g1 share $before % before (want 25), $after % after (want 75), worst 1 s sample off by $worst"
fi
nullb_destroy rw
