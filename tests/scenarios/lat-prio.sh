#!/bin/sh
# budget: 60
# Seed 001: priorities inside one group. In group lg, a hostile writer
# (ionice -c2 -n7, busybox dd 4 KiB blocks conv=fsync: busybox has no
# fdatasync, fsync does the same here) starts on a cold cache and an
# ionice -c2 -n0 reader reads an 8 MiB file (dd bs=64k) right after it. The writer
# writes 16 MiB, about dirty_background_bytes, so most of it goes out
# through its fsync, from the BE7 process itself (as the seed's
# fdatasync on a 2 GB file did with 2009's dirty limits).
# The read is cut off after CAP s. Reader throughput = sectors read on
# the device / read time (right also when cut off); the writer's share of the
# disk = sectors written / sectors moved on the device while the reader
# ran (/sys/block/X/stat, so it does not depend on cgroup accounting).
# Same under none, mq-deadline, bfq and hcfq.
# Bounds for hcfq: reader MB/s >= 0.95 x the best other scheduler's;
# writer share >= 10 %. Also: wbt_lat_usec reads 0 while hcfq is attached.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

RMB=8
WMB=16
CAP=10

lat_setup prio || { result "$SCEN" FAIL "disk setup failed"; lat_teardown prio; exit 0; }
cg_new lg || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown prio; exit 0; }
dd if=/dev/urandom of="$MNT/rfile" bs=1M count=$RMB 2> /dev/null
sync

: > "$ODIR/res"; : > "$ODIR/wbt"
for s in $LAT_SCHEDS; do
	lat_sched "$s" "lg:500" || { result "$SCEN" FAIL "lat_sched $s failed"; lat_teardown prio; exit 0; }
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
	echo "$s wbt=$(lat_wbt)" >> "$ODIR/wbt"
	# the writer finishes its fsync unless it is far behind
	kill $wp 2> /dev/null
	wait $wp 2> /dev/null
	lat_rm "$MNT/wfile"
	echo "$s0 $s1 $t0 $t1" | awk -v s="$s" '{
		r = $3 - $1; w = $4 - $2; t = ($6 - $5) / 1e6
		printf "%s read_s=%.2f reader_mbs=%.2f writer_pct=%.1f rd_sect=%d wr_sect=%d\n",
			s, t, r * 512 / 1048576 / t, (r + w ? 100 * w / (r + w) : 0), r, w }' > "$ODIR/line"
	echo "$(cat "$ODIR/line") $(lat_grp_mb "$g0" "$g1" "$(echo "$s0 $s1" | awk '{ print $3 - $1 + $4 - $2 }')")" >> "$ODIR/res"
	log "$s: $(tail -n1 "$ODIR/res")"
done

echo "ionice BE0 reader (${RMB} MiB) vs BE7 writer (${WMB} MiB + fsync), one group;" \
	"MB lg moved while the reader ran (rest: root: v1 writeback, jbd2)" | text "$SCEN"
lat_table "$ODIR/res"
while read -r s rest; do metric "$SCEN" "sched=$s" $rest; done < "$ODIR/res"
h=$(lat_get "$ODIR/res" hcfq reader_mbs)
best=$(lat_bestmax "$ODIR/res" reader_mbs)
lat_assert "$SCEN:reader" "$h" ge "$(awk -v b="$best" 'BEGIN { printf "%.2f", 0.95 * b }')" \
	"hcfq reader MB/s vs 0.95 x best other ($best)"
lat_assert "$SCEN:writer" "$(lat_get "$ODIR/res" hcfq writer_pct)" ge 10 \
	"hcfq writer's % of the disk while the reader ran"
lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown prio
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
