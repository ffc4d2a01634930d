#!/bin/sh
# budget: 120
# results: .
# Runtime weight change: g1 and g2 start at 100/300; 12 s in, g1 becomes
# 300 and g2 100 (24 s runs). Over the samples in which both jobs ran
# (fair_window: fio starts and stops the two jobs up to a second apart,
# and a stretch with one job gone is no share), by the kernel's byte
# counters:
# - before the change (samples up to the wall time of the write), g1's
#   share is 25 +-3;
# - from 2 s after it to the end, g1's share is 75 +-3, and that of every
#   window of two samples is within +-6 (a 100 ms slice is 4 % of such
#   a window: the guest samples every 1.2 to 1.4 s).
# Each part must span at least two sampling steps.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk rw hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g2:300" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
( sleep 12; cg_weight g1 hcfq 300; cg_weight g2 hcfq 100
  cut -d' ' -f1 /proc/uptime > "$ODIR/switch" ) &
fair_run rw 24 "g1:$JOB;g2:$JOB"
wait
S=$(cat "$ODIR/switch")
read -r lo hi < "$ODIR/rw.winbounds"
# "sample uptime g1-bytes g2-bytes", for the samples lo..hi
awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 <= hi && $2 == "g1" { u[$1] = $5; b1[$1] = $3 }
	$1 >= lo && $1 <= hi && $2 == "g2" { b2[$1] = $3 }
	END { for (t = lo; t <= hi; t++) if (t in u) print t, u[t], b1[t], b2[t] }' \
	"$ODIR/rw.samples" > "$ODIR/rw.both"
# windows of two samples after the change, for the log and the bound
verdict=$(awk -v s="$S" '
	{ t[NR] = $1; u[NR] = $2; a[NR] = $3; b[NR] = $4 }
	END {
		for (i = 1; i <= NR && u[i] <= s; i++) lb = i
		for (i = NR; i >= 1 && u[i] >= s + 2; i--) fa = i
		if (lb >= 2) { d1 = a[lb] - a[1]; d2 = b[lb] - b[1]
			       if (d1 + d2 > 0) before = 100 * d1 / (d1 + d2); bn = lb - 1 }
		if (fa && NR - fa >= 2) { d1 = a[NR] - a[fa]; d2 = b[NR] - b[fa]
			       if (d1 + d2 > 0) after = 100 * d1 / (d1 + d2); an = NR - fa }
		for (i = fa; fa && i + 2 <= NR; i += 2) {
			d1 = a[i + 2] - a[i]; d2 = b[i + 2] - b[i]
			if (d1 + d2 <= 0) continue
			x = 100 * d1 / (d1 + d2); printf "%s %s %.1f\n", u[i], u[i + 2], x > "/dev/stderr"
			d = x - 75; if (d < 0) d = -d; if (d > w) w = d; wn++ }
		db = before - 25; if (db < 0) db = -db; da = after - 75; if (da < 0) da = -da
		ok = (bn >= 2 && an >= 2 && wn >= 1 && db <= 3 && da <= 3 && w <= 6)
		printf "%d %.1f %.1f %.1f %d %d\n", ok, before, after, w, bn, an }' \
	"$ODIR/rw.both" 2> "$ODIR/g1.share")
text "$SCEN" < "$ODIR/g1.share"
set -- $verdict
metric "$SCEN" "switch_uptime=$S" "g1_before=$2" "g1_after=$3" "worst_window_dev=$4" "samples_before=$5" "samples_after=$6"
if [ "$1" = 1 ]; then
	result "$SCEN" PASS "g1 share $2 % before, $3 % from 2 s after the change; worst window off by $4"
else
	result "$SCEN" FAIL "g1 share $2 % before (want 25), $3 % after (want 75), worst window off by $4 (sample steps $5/$6)"
fi
nullb_destroy rw
