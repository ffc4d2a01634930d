#!/bin/sh
# budget: 150
# results: reader writer fsync wbt dmesg
# Seed 001: priorities inside one group. In group lg, a hostile writer
# (ionice -c2 -n7, busybox dd 4 KiB blocks conv=fsync: busybox has no
# fdatasync, fsync does the same here) starts on a cold cache and an
# ionice -c2 -n0 reader reads an 8 MiB file (dd bs=64k) right after it.
# As in the seed, where a 2 GB file met 2009's dirty limits of a few
# hundred MB, the writer's file is eight times the dirty limit: it is
# throttled in balance_dirty_pages() and its data goes out as writeback
# while the reader runs (dirty_background_bytes 1 MiB, dirty_bytes
# 2 MiB here, half a second of this disk; with lat.sh's 16/64 MiB the
# whole file would sit in the page cache until its fsync wrote it, as
# sync I/O of the BE7 process, which then gets its ionice weight, 40 of
# 220).
# The read is cut off after CAP s. Reader throughput = sectors read on
# the device / read time (right also when cut off); the writer's share of
# the disk = sectors written / sectors moved on the device while the
# reader ran (/sys/block/X/stat, so it does not depend on cgroup
# accounting). Then the writer's fsync must return within WAIT s.
# Each scheduler of PRIO_SCHEDS (default LAT_SCHEDS; comma-separated on
# the command line too) runs PRIO_ROUNDS times (default 2), the order
# reversed every other round, so that a drift of the host's load, which
# moves this TCG reader's throughput by up to a third between boots,
# does not favour one scheduler. A scheduler's figure is its mean.
# Bounds for hcfq (issue 14): reader MB/s >= 0.95 x the best other
# scheduler's; writer share >= 3 %; every fsync returns. Also:
# wbt_lat_usec reads 0 while hcfq is attached.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

RMB=8
WMB=16
CAP=10
WAIT=30
: "${PRIO_SCHEDS:=$LAT_SCHEDS}"
PRIO_SCHEDS=$(echo "$PRIO_SCHEDS" | tr , " ")
PRIO_REV=$(echo "$PRIO_SCHEDS" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
: "${PRIO_ROUNDS:=2}"

lat_setup prio || { result "$SCEN" FAIL "disk setup failed"; lat_teardown prio; exit 0; }
cg_new lg || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown prio; exit 0; }
dd if=/dev/urandom of="$MNT/rfile" bs=1M count=$RMB 2> /dev/null
sync
echo $((1 << 20)) > /proc/sys/vm/dirty_background_bytes
echo $((2 << 20)) > /proc/sys/vm/dirty_bytes

# prio_run SCHED ROUND: one run, a line in $ODIR/runs
prio_run() {
	lat_sched "$1" "lg:500" || return 1
	lat_cold
	s0=$(lat_disk_sectors)
	g0=$(lat_grp_bytes lg)
	lat_now; t0=$LAT_T
	lat_spawn lg ionice -c2 -n7 dd if=/dev/zero of="$MNT/wfile" bs=4k \
		count=$((WMB * 256)) conv=fsync 2> /dev/null
	wp=$LAT_PID
	lat_exec lg ionice -c2 -n0 timeout $CAP dd if="$MNT/rfile" of=/dev/null bs=64k 2> /dev/null
	lat_now; t1=$LAT_T
	g1=$(lat_grp_bytes lg)
	s1=$(lat_disk_sectors)
	[ "$2" = 1 ] && echo "$1 wbt=$(lat_wbt)" >> "$ODIR/wbt"
	# the writer's fsync returns within WAIT s, or fs=-1 (one that never
	# returns holds up the kill and the sync below: the scenario then
	# runs into its budget, which fails it too)
	wait_gone "$WAIT" "$wp"
	lat_now; t2=$LAT_T
	fs=$(lat_ms "$t1" "$t2")
	[ "$WAIT_LEFT" = 0 ] || fs=-1
	kill "$wp" 2> /dev/null
	wait "$wp" 2> /dev/null
	lat_rm "$MNT/wfile"
	echo "$s0 $s1 $t0 $t1" | awk -v s="$1" '{
		r = $3 - $1; w = $4 - $2; t = ($6 - $5) / 1e6
		printf "%s read_s=%.2f reader_mbs=%.2f writer_pct=%.1f rd_sect=%d wr_sect=%d",
			s, t, r * 512 / 1048576 / t, (r + w ? 100 * w / (r + w) : 0), r, w }' > "$ODIR/line"
	echo "$(cat "$ODIR/line") fsync_after_ms=$fs $(lat_grp_mb "$g0" "$g1" "$(echo "$s0 $s1" | awk '{ print $3 - $1 + $4 - $2 }')") round=$2" >> "$ODIR/runs"
	log "$1: $(tail -n1 "$ODIR/runs")"
}

: > "$ODIR/runs"; : > "$ODIR/wbt"
r=0
while [ $r -lt "$PRIO_ROUNDS" ]; do
	r=$((r + 1))
	order=$PRIO_SCHEDS
	[ $((r % 2)) -eq 0 ] && order=$PRIO_REV
	for s in $order; do
		prio_run "$s" $r || { result "$SCEN" FAIL "lat_sched $s failed"; lat_teardown prio; exit 0; }
	done
done
# per scheduler: the mean reader MB/s and writer %, the slowest fsync_after_ms
# (-1 if any fsync did not return)
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (!($1 in n)) o[++k] = $1
	n[$1]++; rd[$1] += v["reader_mbs"]; wr[$1] += v["writer_pct"]
	f = v["fsync_after_ms"]
	if (!($1 in fs) || (fs[$1] >= 0 && (f < 0 || f > fs[$1]))) fs[$1] = f }
	END { for (j = 1; j <= k; j++) { x = o[j]
		printf "%s reader_mbs=%.2f writer_pct=%.1f fsync_after_ms=%s runs=%d\n",
			x, rd[x] / n[x], wr[x] / n[x], fs[x], n[x] } }' "$ODIR/runs" > "$ODIR/res"

echo "ionice BE0 reader (${RMB} MiB) vs BE7 writer (${WMB} MiB + fsync, dirty limit 2 MiB), one group;" \
	"fsync_after_ms: its fsync returned that long after the read (-1: not within ${WAIT} s);" \
	"MB lg moved while the reader ran (rest: root: v1 writeback, jbd2)" | text "$SCEN"
lat_table "$ODIR/runs"
echo "per scheduler: mean reader MB/s and writer %, slowest fsync" | text "$SCEN"
lat_table "$ODIR/res"
while read -r s rest; do metric "$SCEN" "sched=$s" $rest; done < "$ODIR/res"
h=$(lat_get "$ODIR/res" hcfq reader_mbs)
best=$(lat_bestmax "$ODIR/res" reader_mbs)
# no other scheduler ran: nothing to compare with, which fails
lat_assert "$SCEN:reader" "$h" ge "$([ -n "$best" ] && awk -v b="$best" 'BEGIN { printf "%.2f", 0.95 * b }')" \
	"hcfq reader MB/s vs 0.95 x best other (${best:-none ran})"
lat_assert "$SCEN:writer" "$(lat_get "$ODIR/res" hcfq writer_pct)" ge 3 \
	"hcfq writer's % of the disk while the reader ran"
lat_assert "$SCEN:fsync" "$(lat_get "$ODIR/res" hcfq fsync_after_ms)" ge 0 \
	"hcfq writer's slowest fsync, ms after the read (-1: one not within ${WAIT} s)"
lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown prio
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
