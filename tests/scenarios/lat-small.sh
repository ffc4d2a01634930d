#!/bin/sh
# budget: 330
# results: same:median same:idle2x same:worst same:ls other:median other:idle2x other:worst other:ls wbt dmesg
# Seed 003, small files and ls. A buffered sequential writer (dd, 1 MiB
# blocks, the scaled-down "fio lays out a 2 GiB file") runs in group lw;
# meanwhile a reader cold-reads eight 16 KiB files at 0.5 s intervals
# (the seed's 1 s, halved for the budget: still above hcfq's 300 ms
# target_latency, so every read meets a fresh round of the writer) and
# then runs `ls` on five cold 200-entry directories (a round's ls is the
# median of the five: the first one also pays ext4's inode-table
# readahead for all of them), first from lw itself ("same") and then
# from group lr ("other"), caches dropped before each. ROUNDS
# (LAT_ROUNDS, 3) rounds of both placements while the writer runs, so 24
# reads and 3 ls per scheduler and placement. Measured under none,
# mq-deadline, bfq and hcfq in this boot (weights lw=lr=100 for bfq and
# hcfq), and once on the idle disk per scheduler.
# make check runs this on the icount guest, whose clock counts
# instructions: a read's time is then the guest's own CPU and disk work,
# not the host's load, which decided about one TCG boot in five when
# the bounds compared single worst samples (BENCHMARKS.md). Its tail is
# still the guest's: a read under the writer takes 15 to 20 ms or, one
# time in four or five under each scheduler, 25 to 35 ms. A round's
# first read (r0) also pays ext4's inode-table readahead, 60 to 110 ms
# under every scheduler. So the bounds compare medians of the other 21
# reads, and judge r0 with the worst read against the others' worst.
# hcfq's median is compared with the pooled median of the other three
# schedulers' reads (63, r1 on), which does not jump between those
# levels as the middle of their three medians did (a CI run failed on
# that: BENCHMARKS.md, "lat-small: a CI failure").
# The "others' middle" (for the worst read and ls) is the middle one of
# none's, mq-deadline's and bfq's values. Per placement, hcfq only:
#   median  hcfq's median read (r1 on) <= 1.25 x the others' pooled
#           median (r1 on);
#   idle2x  hcfq's median read (r1 on) <= 2 x max(idle, floor), idle =
#           the median of the idle reads (r1 on) of all four schedulers
#           (on the idle disk they run the same workload); floor = the
#           time ash needs to fork a reader (measured, lat_forkms) + 3
#           requests' device time (3 x NULLB_NSEC: inode block and
#           2 x 8 KiB of data) (measured 1.28 to 1.52 x idle);
#   worst   hcfq's worst read, r0 included, <= 1.25 x the others' middle
#           worst (measured 0.57 to 1.06);
#   ls      hcfq's median ls <= 1.3 x the others' middle ls (0.68 to 1.15).
# Also: wbt_lat_usec reads 0 while hcfq is attached (issue 4, item 5).
. /tests/guest/lib.sh
. /tests/guest/lat.sh

N=8
NLS=5
FSIZE=16k
ROUNDS=${LAT_ROUNDS:-3}

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
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		for p in same other; do
			g=lr
			[ $p = same ] && g=lw
			echo 3 > /proc/sys/vm/drop_caches
			echo "$s $(lat_exec $g sh -c "$READ 0.5 $MNT/lsdir $NLS")" >> "$ODIR/$p"
		done
		r=$((r + 1))
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

# RK: every read, for the worst; RM: r1 on, for the medians
RK=$(seq 0 $((N - 1)) | sed 's/^/r/' | tr '\n' ' ')
RM=${RK#r0 }
LK=$(seq 0 $((NLS - 1)) | sed 's/^/ls/' | tr '\n' ' ')
# per scheduler and placement, over all rounds: median (r1 on), 90th
# percentile and worst read, median ls
for p in same other; do
	for s in $LAT_SCHEDS; do
		p90=$(for k in $RM; do lat_get "$ODIR/$p" $s $k; done | sort -n |
			awk '{ v[NR] = $1 } END { print v[int(NR * 0.9 + 0.999)] }')
		echo "$s med=$(lat_median "$ODIR/$p" $s $RM) p90=$p90 max=$(lat_max "$ODIR/$p" $s $RK) ls=$(lat_median "$ODIR/$p" $s ls)"
	done > "$ODIR/$p.stats"
	while read -r s rest; do metric "$SCEN:$p-stats" "sched=$s" $rest; done < "$ODIR/$p.stats"
done
idle=$(lat_pmedian "$ODIR/idle" $RM)
metric "$SCEN:bounds" "fork_ms=$FORK" "floor_ms=$FLOOR" "idle_med_ms=$idle" "idle_ls_ms=$(lat_pmedian "$ODIR/idle" $LK)"
for p in same other; do
	st=$ODIR/$p.stats
	grep -v '^hcfq ' "$ODIR/$p" > "$ODIR/$p.others"
	om=$(lat_pmedian "$ODIR/$p.others" $RM)
	lat_assert "$SCEN:$p:median" "$(lat_get "$st" hcfq med)" le \
		"$(awk -v m="$om" 'BEGIN { printf "%.2f", 1.25 * m }')" \
		"hcfq median read ms (r1 on) vs 1.25 x the other schedulers' pooled median ($om)"
	lat_assert "$SCEN:$p:idle2x" "$(lat_get "$st" hcfq med)" le \
		"$(awk -v a="$idle" -v f="$FLOOR" 'BEGIN { printf "%.2f", 2 * (a > f ? a : f) }')" \
		"hcfq median read ms vs 2 x max(idle median $idle, floor $FLOOR)"
	lat_assert "$SCEN:$p:worst" "$(lat_get "$st" hcfq max)" le \
		"$(awk -v m="$(lat_mid "$st" max)" 'BEGIN { printf "%.2f", 1.25 * m }')" \
		"hcfq worst read ms vs 1.25 x the other schedulers' middle worst ($(lat_mid "$st" max))"
	lat_assert "$SCEN:$p:ls" "$(lat_get "$st" hcfq ls)" le \
		"$(awk -v m="$(lat_mid "$st" ls)" 'BEGIN { printf "%.2f", 1.3 * m }')" \
		"hcfq median ls ms vs 1.3 x the other schedulers' middle ls ($(lat_mid "$st" ls))"
done

lat_wbt_check "$SCEN:wbt" "$ODIR/wbt"
lat_teardown small
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
