#!/bin/sh
# budget: 200
# results: wbt best dmesg
# Seed 003, big read: one reader against three buffered writers (busybox
# dd, 4 KiB blocks, as in the seed). Group la (weight 200) holds the
# reader and two writers, group lb (weight 100) the third writer. The
# writers start on a cold cache, 2 s later the reader reads an 8 MiB file
# (the seed's 290 MB, scaled to the 8 MB/s disk) with dd bs=64k; capped
# at CAP s (then the read time is reported as CAP). Same workload under none, mq-deadline, bfq and hcfq, plus the
# reader alone per scheduler for reference.
# Bound: hcfq's read time <= 1.2 x the best time of the other schedulers.
# Also: wbt_lat_usec reads 0 while hcfq is attached.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

RMB=8
CAP=10

lat_setup big || { result "$SCEN" FAIL "disk setup failed"; lat_teardown big; exit 0; }
cg_new la && cg_new lb || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown big; exit 0; }
dd if=/dev/urandom of="$MNT/rfile" bs=1M count=$RMB 2> /dev/null
sync

# read the file in group la, print seconds (CAP+ if cut off)
readit() {
	lat_now; _a=$LAT_T
	lat_exec la timeout $CAP dd if="$MNT/rfile" of=/dev/null bs=64k 2> /dev/null
	lat_now
	awk -v a="$_a" -v b="$LAT_T" 'BEGIN { printf "%.2f\n", (b - a) / 1e6 }'
}

: > "$ODIR/times"; : > "$ODIR/wbt"
for s in $LAT_SCHEDS; do
	lat_sched "$s" "la:200 lb:100" || { result "$SCEN" FAIL "lat_sched $s failed"; lat_teardown big; exit 0; }
	lat_cold
	idle=$(readit)
	lat_cold
	lat_writer_start lb "$MNT/w1" 400 4k
	lat_writer_start la "$MNT/w2" 400 4k
	lat_writer_start la "$MNT/w3" 400 4k
	sleep 2
	s0=$(lat_disk_sectors)
	g0=$(lat_grp_bytes "la lb")
	t=$(readit)
	g1=$(lat_grp_bytes "la lb")
	s1=$(lat_disk_sectors)
	echo "$s wbt=$(lat_wbt)" >> "$ODIR/wbt"
	lat_writers_stop
	lat_rm "$MNT/w1" "$MNT/w2" "$MNT/w3"
	rs=$(echo "$s0 $s1" | awk '{ print $3 - $1 }')
	ws=$(echo "$s0 $s1" | awk '{ print $4 - $2 }')
	mbs=$(awk -v t="$t" -v r="$ws" 'BEGIN { printf "%.2f", (t > 0 ? r * 512 / 1048576 / t : 0) }')
	log "$s: idle ${idle}s loaded ${t}s"
	echo "$s idle_s=$idle read_s=$t write_mbs=$mbs rd_sect=$rs wr_sect=$ws $(lat_grp_mb "$g0" "$g1" $((rs + ws)))" >> "$ODIR/times"
done

echo "reader: ${RMB} MiB alone (idle_s) and against 3 writers (read_s);" \
	"writers' MB/s to the disk during the read; MB each cgroup moved during" \
	"the read (rest: root, i.e. writeback not charged to la/lb, jbd2)" | text "$SCEN"
lat_table "$ODIR/times"
while read -r s rest; do metric "$SCEN" "sched=$s" $rest; done < "$ODIR/times"
h=$(lat_get "$ODIR/times" hcfq read_s)
best=$(lat_best "$ODIR/times" read_s)
lat_assert "$SCEN:best" "$h" le "$(awk -v b="$best" 'BEGIN { printf "%.2f", 1.2 * b }')" \
	"hcfq read time s vs 1.2 x best other ($best)"
lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown big
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
