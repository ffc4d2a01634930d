#!/bin/sh
# budget: 600
# results: fsync-progress fsync-p99 fsync-bytes fsync-sync starve-share starve-fsync dmesg
# Buffered writers next to other writers (issue 13, tests 5 to 7), on
# ext4 at the kernel's default nr_requests, with the dirty pool of
# hcfq-bwrite (32 MiB, 8 s of the disk):
#   fsync-*    a writer that fsyncs every 8 KiB write (weight 1000) next
#              to a buffered stream (weight 100), under hcfq and then none
#              (MIX_FSYNC_ORDER, commas between), after the disk's
#              writeback bandwidth estimate came down (MIX_WARM_MB, below):
#              both make progress under hcfq, hcfq's fsync p99 is at most
#              2 x none's, hcfq's fsync writer moves at least BYTES_MIN
#              (1.0) x the bytes it moves under none (weight 1000 beside
#              100 does no worse than no scheduler), and sync(2) then
#              returns within 60 s
#   starve-*   buffered streams at weights 10 and 1000: the weight-10
#              group gets at least half of its 1 % share of the bytes,
#              and an fsync of 1 MiB it writes meanwhile returns in 60 s
#   shared-*   two groups (100, 300) write disjoint halves of one file
#              for MIX_SH_RT s (default 60): the shares of fio's bytes
#              after the first MIX_SH_RAMP s (default 20; fio's 1 s
#              bandwidth log) are within +-5 points of 25/75, and each
#              group is charged, after sync, 0.9 to 1.1 x the bytes it
#              wrote in the whole run. The dirty throttling starts from
#              the new disk's initial bandwidth estimate and takes 15 to
#              30 s to settle here. Before patch 0016 a paced writer slept
#              holding the file's i_rwsem and the shares came out even
#              (46.9/53.1); deferring its pause only while another
#              writer waited for the lock, 24.7 to 30.3 in 13 boots; for
#              any file open for writing twice, 24.4 to 25.7 in eight.
#              hcfq-bwrite-shared runs this part (make check: after
#              hcfq-bwrite-mix, in hcfq-v1)
# MIX_PARTS picks the parts (default "fsync starve"); BW_DISK=deep
# runs them on hcfq-bwrite's deep-queue disk (fair_bw_disk,
# tests/plan.bwrite).
# fsync-p99's reference, none's p99, followed the writeback state that
# whatever ran before left: run first after hcfq-bwrite-app as in make
# check it was 31 to 98 ms (34 ms, a failure, in CI), 0.3 to 2.6 s in a
# boot of its own. hcfq's was 62 to 74 ms in every case. Run after hcfq
# on the same disk, none's was 52.2 to 66.8 ms in seven boots
# (BENCHMARKS.md, "fsync-p99's reference"); ext4_new (lib.sh) zeroes.
# The seconds-long fsyncs were ext4's commits waiting for the flusher's
# 4 MiB chunks; patch 0014 bounds them (BENCHMARKS.md, "The fsync
# writer", session 43) once the disk's bandwidth estimate has come down
# from the 100 MB/s a new disk starts with, after about 6 s of
# writeback. So 24 MiB go to the raw device first: without that, the
# first run (hcfq's) alone met the big chunks, and its writer moved 3.0
# to 3.8 MB where later runs moved 4.2 to 5.4. With it, in four boots,
# hcfq's writer moved 5.64 to 5.93 MB, 1.02 to 1.22 x none's 4.87 to
# 5.51, at a p99 of 61.6 to 63.7 ms (none's 51.6 to 63.7). With none
# first, two boots: none's 4.06 and 4.11 MB, hcfq's 6.14 and 6.23.
# Since hcfq stopped idling after jbd2's commit while the writer waited
# (session 44), hcfq's writer moved 8.31 to 9.91 MB in five boots, 1.60
# to 2.03 x none's, at a p99 of 54.3 to 55.3 ms (none's 49.0 to 68.7):
# the bound, 1.0, is 37 % under the least ratio.
# On v2 with the memory controller (which io brings along: see
# hcfq-bwrite.sh), cgroup writeback charges a file's writeback to one
# owner, so "shared" cannot hold there; plan.bwrite runs this on v2 in a
# boot with cgroup_disable=memory.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${MIX_RT:-15}
SH_RT=${MIX_SH_RT:-60}
SH_RAMP=${MIX_SH_RAMP:-20}
DIRTY=$((32 << 20))
MNT=/mnt/mix
BYTES_MIN=1.0
STREAM="--rw=write --bs=8k --direct=0 --ioengine=psync"

fair_bw_disk mix || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "hi:1000 lo:100 w10:10 w1000:1000 s1:100 s3:300" ||
	{ result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
dirty_limits $((DIRTY / 2)) "$DIRTY"
mkdir -p "$MNT"

# $1: scheduler; a fresh ext4 on the disk, mounted on $MNT
mix_fs() {
	set_sched "$DEV" "$1" && FAIR_SCHED=$1 && ext4_new "$DEV" "$MNT"
}

# p99 of fsync latency (us) in fio's JSON output $1
fsync_p99() {
	awk '/"sync" : \{/ { on = 1 } on && /"99.000000"/ {
		gsub(/[^0-9]/, "", $3); print int($3 / 1000); exit }' "$1"
}

# bytes written, from fio's JSON output $1
json_wbytes() {
	awk '/"write" : \{/ { on = 1 } on && /"io_bytes"/ {
		gsub(/[^0-9]/, "", $3); print $3 + 0; exit }' "$1"
}

for part in ${MIX_PARTS:-fsync starve}; do
	case $part in
	fsync)
		# the new disk's writeback bandwidth estimate starts at 100
		# MB/s; until writeback has brought it down, the flusher
		# writes 4 to 8 MiB chunks and ext4's commits wait for them
		# (session 43). Writing MIX_WARM_MB of the raw device first
		# (each run makes its file system afterwards) brings it to the
		# disk's speed, so that the first scheduler measured does not
		# meet them alone
		set_sched "$DEV" none &&
			dd if=/dev/zero of="$DEV" bs=1M count="${MIX_WARM_MB:-24}" \
				seek=1024 2> /dev/null && sync ||
			{ result "$SCEN:fsync-progress" FAIL "warming the disk failed"; continue; }
		for s in $(echo "${MIX_FSYNC_ORDER:-hcfq none}" | tr , " "); do
			mix_fs "$s" || { result "$SCEN:fsync-progress" FAIL "mkfs/mount under $s failed"; continue 2; }
			cg_exec lo fio --name=lo --filename="$MNT/stream" --size=1g \
				--time_based --runtime="$RT" $STREAM \
				--output-format=json --output="$ODIR/fsync-$s.lo" > /dev/null 2>&1 &
			lpid=$!
			cg_exec hi fio --name=hi --filename="$MNT/log" --size=64m \
				--time_based --runtime="$RT" $STREAM --fsync=1 \
				--output-format=json --output="$ODIR/fsync-$s.hi" > /dev/null 2>&1
			hrc=$?
			wait "$lpid"
			lrc=$?
			t0=$(cut -d' ' -f1 /proc/uptime)
			timeout 60 sync
			src=$?
			t1=$(cut -d' ' -f1 /proc/uptime)
			umount "$MNT"
			eval "p99_$s=\$(fsync_p99 \"\$ODIR/fsync-\$s.hi\")"
			eval "hi_$s=\$(json_wbytes \"\$ODIR/fsync-\$s.hi\")"
			eval "lo_$s=\$(json_wbytes \"\$ODIR/fsync-\$s.lo\")"
			eval "rc_$s=\"\$hrc \$lrc \$src\""
			metric "$SCEN:fsync" "sched=$s" "fsync_p99_us=$(eval echo \$p99_$s)" \
				"hi_bytes=$(eval echo \$hi_$s)" "lo_bytes=$(eval echo \$lo_$s)" \
				"sync_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
		done
		if [ "${rc_hcfq:-x}" = "0 0 0" ] && [ "${hi_hcfq:-0}" -gt 0 ] && [ "${lo_hcfq:-0}" -gt 0 ]; then
			result "$SCEN:fsync-progress" PASS "fsync writer ${hi_hcfq} B, stream ${lo_hcfq} B"
		else
			result "$SCEN:fsync-progress" FAIL "rc (fsync, stream, sync) ${rc_hcfq:-?}, bytes ${hi_hcfq:-?} and ${lo_hcfq:-?}"
		fi
		if [ -n "${p99_none-}" ] && [ -n "${p99_hcfq-}" ] && [ "$p99_none" -gt 0 ] &&
			[ "$p99_hcfq" -le $((2 * p99_none)) ]; then
			result "$SCEN:fsync-p99" PASS "hcfq ${p99_hcfq} us <= 2 x none's ${p99_none} us"
		else
			result "$SCEN:fsync-p99" FAIL "hcfq ${p99_hcfq:-?} us, none ${p99_none:-?} us (bound 2 x none)"
		fi
		if [ "${hi_none:-0}" -gt 0 ] && awk -v h="${hi_hcfq:-0}" -v n="$hi_none" \
			-v m="$BYTES_MIN" 'BEGIN { exit !(h >= m * n) }'; then
			result "$SCEN:fsync-bytes" PASS "hcfq's fsync writer ${hi_hcfq} B >= $BYTES_MIN x none's ${hi_none} B"
		else
			result "$SCEN:fsync-bytes" FAIL "hcfq's fsync writer ${hi_hcfq:-?} B, none's ${hi_none:-?} B (bound $BYTES_MIN x)"
		fi
		case ${rc_hcfq-} in
		*" 0") result "$SCEN:fsync-sync" PASS "sync(2) returned after the run" ;;
		*) result "$SCEN:fsync-sync" FAIL "sync(2) did not return in 60 s (rc ${rc_hcfq:-?})" ;;
		esac
		;;
	starve)
		mix_fs hcfq || { result "$SCEN:starve-share" FAIL "mkfs/mount failed"; continue; }
		FAIR_DIR=$MNT
		FAIR_RAMP=5
		FAIR_UNTIL_DONE=1
		# the fsync starts 10 s into the run and must end within 60 s
		(sleep 15; cg_exec w10 timeout 60 dd if=/dev/zero of="$MNT/w10.sync" \
			bs=64k count=16 conv=fsync 2> /dev/null; echo $? > "$ODIR/starve.ddrc") &
		ddp=$!
		fair_run starve "$RT" "w10:$STREAM;w1000:$STREAM"
		wait "$ddp"
		unset FAIR_DIR FAIR_RAMP FAIR_UNTIL_DONE
		sync
		umount "$MNT"
		sh=$(shares < "$ODIR/starve.fio" | awk '$1 == "w10" { print $2 }')
		metric "$SCEN:starve" "w10_share=$sh" "want_min=0.5"
		if [ -s "$ODIR/starve.fiofail" ]; then
			result "$SCEN:starve-share" FAIL "fio failed in: $(tr '\n' ' ' < "$ODIR/starve.fiofail")"
		elif awk -v s="${sh:-0}" 'BEGIN { exit !(s >= 0.5) }'; then
			result "$SCEN:starve-share" PASS "weight 10 got $sh % of the bytes (>= 0.5)"
		else
			result "$SCEN:starve-share" FAIL "weight 10 got ${sh:-?} % of the bytes (< 0.5)"
		fi
		ddrc=$(cat "$ODIR/starve.ddrc" 2>/dev/null)
		check_rc "$SCEN:starve-fsync" "${ddrc:-1}" "the weight-10 group's 1 MiB fsync returned (rc ${ddrc:-?})"
		;;
	shared)
		mix_fs hcfq || { result "$SCEN:shared-charge" FAIL "mkfs/mount failed"; continue; }
		truncate -s 512M "$MNT/shared"
		sync
		b1=$(grp_bytes s1) b3=$(grp_bytes s3)
		cg_exec s1 fio --name=s1 --filename="$MNT/shared" --offset=0 --size=256m \
			--time_based --runtime="$SH_RT" $STREAM \
			--write_bw_log="$ODIR/shared.s1" --log_avg_msec=1000 \
			--output-format=terse --terse-version=3 --output="$ODIR/shared.fio.s1" > /dev/null 2>&1 &
		p1=$!
		cg_exec s3 fio --name=s3 --filename="$MNT/shared" --offset=256m --size=256m \
			--time_based --runtime="$SH_RT" $STREAM \
			--write_bw_log="$ODIR/shared.s3" --log_avg_msec=1000 \
			--output-format=terse --terse-version=3 --output="$ODIR/shared.fio.s3" > /dev/null 2>&1 &
		p3=$!
		wait "$p3"
		r3=$?
		wait "$p1"
		r1=$?
		# fio's bytes from SH_RAMP s on (its 1 s bandwidth log, KiB/s):
		# the applications' shares once the dirty throttling settled
		for _g in s1 s3; do
			awk -F, -v g="$_g" -v r="$SH_RAMP" '$1 > r * 1000 { s += $2 }
				END { printf "%s %d\n", g, s * 1024 }' "$ODIR/shared.$_g"_bw.*log
		done > "$ODIR/shared.win"
		sync
		c1=$(($(grp_bytes s1) - b1)) c3=$(($(grp_bytes s3) - b3))
		umount "$MNT"
		f1=$(fio_bytes "$ODIR/shared.fio.s1") f3=$(fio_bytes "$ODIR/shared.fio.s3")
		printf 's1 %s\ns3 %s\n' "$f1" "$f3" > "$ODIR/shared.fio"
		metric "$SCEN:shared" "fio=$f1,$f3" "charged=$c1,$c3" \
			"shares=$(shares < "$ODIR/shared.fio" | tr ' \n' '=,')" \
			"window=$(tr ' \n' '=,' < "$ODIR/shared.win")"
		if [ "$r1$r3" != 00 ]; then
			result "$SCEN:shared-app" FAIL "fio failed (rc $r1 $r3)"
		else
			fair_check "$SCEN:shared-app" shared win "s1:25 s3:75" 5
		fi
		if [ "$r1$r3" = 00 ] && awk -v a="$f1" -v b="$f3" -v c="$c1" -v d="$c3" 'BEGIN {
			exit !(a > 0 && b > 0 && c >= 0.9 * a && c <= 1.1 * a &&
			       d >= 0.9 * b && d <= 1.1 * b) }'; then
			result "$SCEN:shared-charge" PASS "charged $c1 and $c3 B for $f1 and $f3 B written"
		else
			result "$SCEN:shared-charge" FAIL "charged $c1 and $c3 B for $f1 and $f3 B written (want 0.9 to 1.1 x)"
		fi
		;;
	esac
done
dirty_limits_restore
nullb_destroy mix
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
