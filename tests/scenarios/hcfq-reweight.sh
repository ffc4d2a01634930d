#!/bin/sh
# budget: 120
# results: .
# Runtime weight change: g1 and g2 start at 100/300; 10 s in, g1 becomes
# 300 and g2 100. From 2 s after the change (wall time of the write) to
# the end, g1's share of bytes (kernel counters) must average 75 +-3, and
# every 2 s window must be within +-6 (a 100 ms slice is 5 % of 2 s); the
# 2 s windows before the change average 25 +-3. Only seconds in which
# both jobs moved count (fair_window): fio starts and stops the two jobs
# up to a second apart, and a window with one job gone is no share.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk rw hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g2:300" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
( sleep 10; cg_weight g1 hcfq 300; cg_weight g2 hcfq 100
  cut -d' ' -f1 /proc/uptime > "$ODIR/switch" ) &
fair_run rw 20 "g1:$JOB;g2:$JOB"
wait
S=$(cat "$ODIR/switch")
# per 2 s window of fair_window's bounds (every group running, first and
# last partial seconds left out): end uptime, g1's share
read -r lo hi < "$ODIR/rw.winbounds"
awk -v lo="$lo" -v hi="$hi" '$2 == "g1" { u[$1] = $5; b1[$1] = $3 }
	$2 == "g2" { b2[$1] = $3 }
	END { for (t = lo; t + 2 <= hi; t += 2) {
		d1 = b1[t + 2] - b1[t]; d2 = b2[t + 2] - b2[t]
		if (d1 + d2 > 0) printf "%s %s %.1f\n", u[t], u[t + 2], 100 * d1 / (d1 + d2) } }' \
	"$ODIR/rw.samples" > "$ODIR/g1.share"
text "$SCEN" < "$ODIR/g1.share"
verdict=$(awk -v s="$S" '
	$2 <= s { bs += $3; bn++ }
	$1 >= s + 2 { as += $3; an++; d = $3 - 75; if (d < 0) d = -d; if (d > w) w = d }
	END { b = bn ? bs / bn : 0; a = an ? as / an : 0
	      db = b - 25; if (db < 0) db = -db; da = a - 75; if (da < 0) da = -da
	      ok = (bn > 0 && an > 0 && db <= 3 && da <= 3 && w <= 6)
	      printf "%d %.1f %.1f %.1f %d %d\n", ok, b, a, w, bn, an }' "$ODIR/g1.share")
set -- $verdict
metric "$SCEN" "switch_uptime=$S" "g1_before=$2" "g1_after=$3" "worst_2s_dev=$4" "windows_before=$5" "windows_after=$6"
if [ "$1" = 1 ]; then
	result "$SCEN" PASS "g1 share $2 % before, $3 % from 2 s after the change; worst 2 s window off by $4"
else
	result "$SCEN" FAIL "g1 share $2 % before (want 25), $3 % after (want 75), worst 2 s window off by $4 (windows $5/$6)"
fi
nullb_destroy rw
