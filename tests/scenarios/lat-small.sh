#!/bin/sh
# budget: 90
# Seed 003, small files and ls. A buffered sequential writer (dd, 1 MiB
# blocks, the scaled-down "fio lays out a 2 GiB file") runs in group lw;
# meanwhile a reader cold-reads five 16 KiB files at 0.5 s intervals (the
# seed's 1 s, halved for the CI budget: still above hcfq's 300 ms
# target_latency, so every read meets a fresh round of the writer) and
# then runs `ls` on five cold 200-entry directories (ls below is the
# median of the five: the first one also pays ext4's inode-table
# readahead for all of them), first from lw itself
# ("same") and then from group lr ("other"), caches dropped before each.
# Measured under none, mq-deadline, bfq and hcfq in this boot (weights
# lw=lr=100 for bfq and hcfq), and once on the idle disk per scheduler.
# Bounds, hcfq only, per placement (one result each):
#   idle2x     every read <= 2 x max(idle, floor) + AA, idle = median of
#              the idle reads of all four schedulers (20 samples: on the
#              idle disk they run the same workload, and hcfq's own
#              samples alone once put its idle ls 30 % below the others');
#              floor = the time ash needs to fork a reader (measured,
#              lat_forkms) + 3 requests' device time (3 x NULLB_NSEC:
#              inode block and 2 x 8 KiB of data)
#   best       hcfq's worst read <= 1.2 x the best other scheduler's worst
#              read + AA (read i of one run has nothing to do with read i
#              of another: the writer's state differs, so worst vs worst)
#   ls-idle2x  ls <= 2 x max(idle ls, floor) + AA_LS; idle ls = median of
#              all schedulers' 20 idle ls runs, floor as above
#   ls-best    ls <= 1.2 x the best other scheduler's ls + AA_LS
# AA is the A/A noise of this boot: on the idle disk the schedulers run the
# identical workload, so the spread (largest - smallest) of the other
# schedulers' idle worst reads is what TCG and the host add to a worst
# read by chance (AA_LS: same for ls). Without it the 1.2 x bounds fail
# on idle-disk data, where no scheduler can be better than another, and
# mq-deadline and bfq miss the 2 x idle bound in about half the runs: cold
# reads here take 10-40 ms of emulated CPU for 3-6 ms of device time. The
# text lines show every scheduler against its own 2 x idle + AA bound.
# Also: wbt_lat_usec reads 0 while hcfq is attached (issue 4, item 5).
. /tests/guest/lib.sh
. /tests/guest/lat.sh

N=5
NLS=5
FSIZE=16k

lat_setup small || { result "$SCEN" FAIL "disk setup failed"; lat_teardown small; exit 0; }
cg_new lw && cg_new lr || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown small; exit 0; }
# A fresh file system for every scheduler, so that each one starts from
# the same on-disk and cached state. With one file system for all, the
# first scheduler measured was the only one whose fifth file found its
# inode-table block cached after drop_caches (what the earlier rounds
# left behind decides it); every later scheduler paid ext4's inode-table
# readahead on that read, about 40 ms more under each elevator and 90 ms
# more under none (measured with hcfq first and with hcfq last).
small_fs() {
	lat_mkfs || return 1
	mkdir -p "$MNT/files" || return 1
	i=0
	while [ $i -lt $N ]; do
		dd if=/dev/urandom of="$MNT/files/$i" bs=$FSIZE count=1 2> /dev/null || return 1
		i=$((i + 1))
	done
	for d in $(seq 0 $((NLS - 1))); do
		mkdir "$MNT/lsdir$d" && (cd "$MNT/lsdir$d" && touch $(seq -w 1 200 | sed 's/^/entry-/')) || return 1
	done
	sync
}

FORK=$(lat_forkms)
FLOOR=$(awk -v f="$FORK" -v n="$NULLB_NSEC" 'BEGIN { printf "%.2f", f + 3 * n / 1e6 }')

READ=". /tests/guest/lat.sh; lat_reads $MNT/files $N"
: > "$ODIR/idle" ; : > "$ODIR/same" ; : > "$ODIR/other"
for s in $LAT_SCHEDS; do
	small_fs || { result "$SCEN" FAIL "file system setup for $s failed"; lat_teardown small; exit 0; }
	lat_sched "$s" "lw:100 lr:100" || { result "$SCEN" FAIL "lat_sched $s failed"; lat_teardown small; exit 0; }
	log "$s: idle"
	lat_cold
	echo "$s $(lat_exec lr sh -c "$READ 0.2 $MNT/lsdir $NLS")" >> "$ODIR/idle"
	wbt=$(lat_wbt)
	log "$s: writer + readers"
	lat_writer_start lw "$MNT/big" 600
	sleep 2
	for p in same other; do
		g=lr
		[ $p = same ] && g=lw
		echo 3 > /proc/sys/vm/drop_caches
		echo "$s $(lat_exec $g sh -c "$READ 0.5 $MNT/lsdir $NLS")" >> "$ODIR/$p"
	done
	lat_writers_stop
	lat_rm "$MNT/big"
	echo "$s wbt=$wbt" >> "$ODIR/wbt"
done

for f in idle same other; do
	echo "$f latencies (ms):" | text "$SCEN"
	lat_table "$ODIR/$f"
	while read -r s rest; do
		metric "$SCEN:$f" "sched=$s" $rest
	done < "$ODIR/$f"
done

RK=$(seq 0 $((N - 1)) | sed 's/^/r/' | tr '\n' ' ')
LK=$(seq 0 $((NLS - 1)) | sed 's/^/ls/' | tr '\n' ' ')
for s in $LAT_SCHEDS; do echo "$s max=$(lat_max "$ODIR/idle" $s $RK)"; done > "$ODIR/idle.max"
AA=$(awk -v a="$(lat_best "$ODIR/idle.max" max)" -v b="$(lat_bestmax "$ODIR/idle.max" max)" 'BEGIN { printf "%.2f", b - a }')
AA_LS=$(awk -v a="$(lat_best "$ODIR/idle" ls)" -v b="$(lat_bestmax "$ODIR/idle" ls)" 'BEGIN { printf "%.2f", b - a }')
metric "$SCEN:noise" "aa_ms=$AA" "aa_ls_ms=$AA_LS"
idle=$(lat_pmedian "$ODIR/idle" $RK)
idle_ls=$(lat_pmedian "$ODIR/idle" $LK)
lim_i=$(awk -v a="$idle" -v f="$FLOOR" -v n="$AA" 'BEGIN { printf "%.2f", 2 * (a > f ? a : f) + n }')
lim_l=$(awk -v a="$idle_ls" -v f="$FLOOR" -v n="$AA_LS" 'BEGIN { printf "%.2f", 2 * (a > f ? a : f) + n }')
metric "$SCEN:bounds" "fork_ms=$FORK" "floor_ms=$FLOOR" "idle_med_ms=$idle" "idle_ls_ms=$idle_ls"
# the same idle2x bound applied to every scheduler with its own idle
# numbers: shows the bound is reachable on this host (text only)
for p in same other; do
	for s in $LAT_SCHEDS; do
		m=$(lat_max "$ODIR/$p" $s $RK)
		l=$(awk -v a="$(lat_median "$ODIR/idle" $s $RK)" -v f="$FLOOR" -v n="$AA" 'BEGIN { printf "%.2f", 2 * (a > f ? a : f) + n }')
		if lat_le "$m" "$l"; then v=meets; else v=misses; fi
		echo "$p: $s worst read $m ms, 2 x own idle + AA $l ms: $v"
	done
done | text "$SCEN"
for p in same other; do
	for s in $LAT_SCHEDS; do echo "$s max=$(lat_max "$ODIR/$p" $s $RK)"; done > "$ODIR/$p.max"
	hmax=$(lat_get "$ODIR/$p.max" hcfq max)
	lat_assert "$SCEN:$p:idle2x" "$hmax" le "$lim_i" \
		"hcfq worst read ms vs 2 x max(idle median $idle, floor $FLOOR) + AA $AA"
	best=$(lat_best "$ODIR/$p.max" max)
	lat_assert "$SCEN:$p:best" "$hmax" le "$(awk -v b="$best" -v n="$AA" 'BEGIN { printf "%.2f", 1.2 * b + n }')" \
		"hcfq worst read ms vs 1.2 x best other's worst + AA $AA ($(tr '\n' ' ' < "$ODIR/$p.max"))"
	hls=$(lat_get "$ODIR/$p" hcfq ls)
	lat_assert "$SCEN:$p:ls-idle2x" "$hls" le "$lim_l" \
		"hcfq ls ms vs 2 x max(idle $idle_ls, floor $FLOOR) + AA_LS $AA_LS"
	best=$(lat_best "$ODIR/$p" ls)
	lat_assert "$SCEN:$p:ls-best" "$hls" le "$(awk -v b="$best" -v n="$AA_LS" 'BEGIN { printf "%.2f", 1.2 * b + n }')" \
		"hcfq ls ms vs 1.2 x best other ($best) + AA_LS $AA_LS"
done

lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown small
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
