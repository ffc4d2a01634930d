#!/bin/sh
# budget: 260
# results: wbt deadline abs dmesg
# Seed 003, big read: one reader against three buffered writers (busybox
# dd, 4 KiB blocks, as in the seed). Group la (weight 200) holds the
# reader and two writers, group lb (weight 100) the third writer. The
# writers start on a cold cache, 2 s later the reader reads an 8 MiB file
# (the seed's 290 MB, scaled to the 8 MB/s disk) with dd bs=64k; capped
# at CAP s (then the read time is reported as CAP). Same workload under
# none, mq-deadline, bfq and hcfq, plus the reader alone per scheduler
# for reference. The loaded read is repeated in REPS rounds of all four
# schedulers (none only in the first: it hits CAP) and its median is
# compared (make check runs only mq-deadline and hcfq, the two the
# bounds compare: LAT_SCHEDS in tests/plan; hcfq / mq-deadline was then
# v1 0.85 and 0.88, v2 1.10 and 1.10 in two boots each): a single
# read's time under three dd writers follows the emulated CPUs' load
# (hcfq's v1 read took 3.6-4.1 s in seven boots and 6.9 s in one CI
# boot, and its v2 read 6.9 s in a boot where none's IOPS in lat-qd1
# fell from 350 to 210).
# Bound: hcfq's median read time <= 1.25 x mq-deadline's, the kernel's
# default scheduler for this disk: seed 003's test, the read with the
# controller against the read without one. Not against bfq: bfq
# weight-raises the new reader and in some rounds all but stops the
# writers (0.35 MB/s against hcfq's 1.06), so its median ranged from
# 2.67 to 7.73 s, and a bound on it failed hcfq in CI for keeping lb's
# writeback share (weight 100 of 300). Measured hcfq / mq-deadline
# medians: v1 0.82 to 0.99 (seven boots), v2 1.09 to 1.12 (six); hcfq's
# loaded read is 1.4-1.7 (v1) to 1.8 (v2) x its idle read, printed, not
# asserted (the idle read is one sample).
# Absolute bound (abs): hcfq's median loaded read <= ABS s, i.e. the
# reader gets at least 1 MiB/s, an eighth of the disk (its due share is
# about half: its group has two thirds, shared with two writers' async
# queue at 40 % of a reader's weight). hcfq's medians were 3.26 to
# 6.55 s in 13 normal boots (BENCHMARKS.md); on the debug kernel ABS is
# 11 s and the cap 15 s.
# Also: wbt_lat_usec reads 0 while hcfq is attached.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

RMB=8
CAP=10
ABS=8
# the debug kernel's reader is CPU-bound for longer: hcfq's medians there
# were 5.63 and 6.35 s
[ "${VARIANT-}" = debug ] && CAP=15 ABS=11
# two rounds on the debug kernel, to keep make check within its hour:
# the median of two is the slower read, for every scheduler alike
REPS=${LAT_BIG_REPS:-3}
[ "${VARIANT-}" = debug ] && REPS=${LAT_BIG_REPS:-2}

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

: > "$ODIR/times"; : > "$ODIR/wbt"; : > "$ODIR/idle"
for s in $LAT_SCHEDS; do : > "$ODIR/$s.reps"; done
# round r measures every scheduler once, so that a change in the host's
# load between rounds hits all of them alike
r=0
while [ $r -lt "$REPS" ]; do
	r=$((r + 1))
	for s in $LAT_SCHEDS; do
		[ "$s" = none ] && [ $r -gt 1 ] && continue
		lat_sched "$s" "la:200 lb:100" || { result "$SCEN" FAIL "lat_sched $s failed"; lat_teardown big; exit 0; }
		if [ $r -eq 1 ]; then
			lat_cold
			echo "$s $(readit)" >> "$ODIR/idle"
		fi
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
		[ $r -eq 1 ] && echo "$s wbt=$(lat_wbt)" >> "$ODIR/wbt"
		lat_writers_stop
		lat_rm "$MNT/w1" "$MNT/w2" "$MNT/w3"
		rs=$(echo "$s0 $s1" | awk '{ print $3 - $1 }')
		ws=$(echo "$s0 $s1" | awk '{ print $4 - $2 }')
		mbs=$(awk -v t="$t" -v r="$ws" 'BEGIN { printf "%.2f", (t > 0 ? r * 512 / 1048576 / t : 0) }')
		log "$s: round $r: loaded ${t}s"
		echo "$t write_mbs=$mbs rd_sect=$rs wr_sect=$ws $(lat_grp_mb "$g0" "$g1" $((rs + ws)))" >> "$ODIR/$s.reps"
	done
done
for s in $LAT_SCHEDS; do
	# the median read (the middle one of those sorted), with its details
	med=$(sort -n "$ODIR/$s.reps" | awk -v n="$(wc -l < "$ODIR/$s.reps")" 'NR == int((n + 1) / 2)')
	all=$(awk '{ printf "%s%s", (NR > 1 ? "/" : ""), $1 }' "$ODIR/$s.reps")
	idle=$(awk -v s="$s" '$1 == s { print $2 }' "$ODIR/idle")
	echo "$s idle_s=$idle read_s=${med%% *} reads=$all ${med#* }" >> "$ODIR/times"
done

echo "reader: ${RMB} MiB alone (idle_s) and against 3 writers (read_s: the" \
	"median of reads; the other columns are the median read's);" \
	"writers' MB/s to the disk during the read; MB each cgroup moved during" \
	"the read (rest: root, i.e. writeback not charged to la/lb, jbd2)" | text "$SCEN"
lat_table "$ODIR/times"
while read -r s rest; do metric "$SCEN" "sched=$s" $rest; done < "$ODIR/times"
h=$(lat_get "$ODIR/times" hcfq read_s)
dl=$(lat_get "$ODIR/times" mq-deadline read_s)
hi=$(lat_get "$ODIR/times" hcfq idle_s)
info=$(awk -v h="$h" -v i="$hi" -v b="$(lat_best "$ODIR/times" read_s)" \
	'BEGIN { printf "best other %s, hcfq loaded/idle %.2f", b, (i > 0 ? h / i : 0) }')
if [ -z "$dl" ]; then
	result "$SCEN:deadline" FAIL "no mq-deadline median to compare with (LAT_SCHEDS=$LAT_SCHEDS)"
else
	lat_assert "$SCEN:deadline" "$h" le "$(awk -v b="$dl" 'BEGIN { printf "%.2f", 1.25 * b }')" \
		"hcfq median read time s vs 1.25 x mq-deadline's median ($dl; $info)"
fi
if [ -z "$h" ]; then
	result "$SCEN:abs" FAIL "no hcfq median read time"
else
	lat_assert "$SCEN:abs" "$h" le "$ABS" "hcfq median read time s of ${RMB} MiB"
fi
lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown big
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
