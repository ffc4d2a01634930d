#!/bin/sh
# budget: 900
# results: ext4-fio-none ext4-fio-hcfq raw-fio-none raw-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-dev ext4-tput raw-dirty-none raw-dirty-hcfq raw-app raw-dev raw-tput dmesg
# Buffered writers (issue 13): three groups at weights 100/300/600, one
# buffered sequential 8 KiB fio writer each, at the kernel's default
# nr_requests. Each run lasts BW_RAMP + BW_RT s (20 + 40) and is judged
# over the last BW_RT s: fio leaves the ramp out (--ramp_time), and the
# device window starts after it. The dirty limits are an admin's for a
# slow disk: the pool (32 MiB) drains in 8 s at the disk's 4 MB/s.
# For each target in BW_TARGETS (ext4: a file per group on ext4; raw:
# a range of the block device per group), under `none` and hcfq:
#   TARGET:app     hcfq, shares of fio's bytes within +-5 points
#   TARGET:dev     hcfq, shares of the bytes hcfq counted per group
#   TARGET:tput    hcfq's total >= 0.9 x none's
#   TARGET:dirty   Dirty + Writeback, sampled every 100 ms, never above
#                  1.1 x vm.dirty_bytes (none and hcfq)
# BW_SCHEDS (default "none hcfq"): the schedulers run; the results of
# one left out are SKIP, and so is TARGET:tput without none.
# BW_DISK=deep runs on the deep-queue disk model instead (queue depth 32,
# BW_MBPS MiB/s, default 32; BW_MAXSEC sectors per request if set, else
# fair_deep_disk's 512 KiB; tests/plan.bwrite), and BW_DIRTY_MB (default
# 32) sets the pool.
# On v2 the io controller depends on the memory controller
# (io_cgrp_subsys.depends_on in block/blk-cgroup.c), so every io cgroup
# has a memcg of its own, shown in cgroup.controllers or not, and so a
# bdi_writeback of its own: leaving +memory out of subtree_control
# changes nothing here. v2 with one wb for all groups, as on v1, is a
# boot with cgroup_disable=memory.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${BW_RT:-40}
RAMP=${BW_RAMP:-20}
TOL=5
DIRTY=$((${BW_DIRTY_MB:-32} << 20))
W="g1:100 g3:300 g6:600"
WANT="g1:10 g3:30 g6:60"
JOB="--rw=write --bs=8k --direct=0 --ioengine=psync --end_fsync=0"
MNT=/mnt/bw

# three 512 MiB ranges on the raw device (fair_run)
fair_bw_disk bw || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "$W" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
dirty_limits $((DIRTY / 2)) "$DIRTY"
FAIR_RAMP=$RAMP
FAIR_UNTIL_DONE=1
mkdir -p "$MNT"

# sample Dirty + Writeback (kB) every 100 ms into $1 until killed
dirty_sampler() {
	while :; do
		awk '/^(Dirty|Writeback):/ { s += $2 } END { print s }' /proc/meminfo
		sleep 0.1
	done > "$1"
}

SCHEDS=${BW_SCHEDS:-none hcfq}
for target in ${BW_TARGETS:-ext4 raw}; do
	for s in none hcfq; do
		case " $SCHEDS " in *" $s "*) ;; *)
			result "$SCEN:$target-fio-$s" SKIP "$s not run here (BW_SCHEDS=$SCHEDS)"
			result "$SCEN:$target-dirty-$s" SKIP "$s not run here (BW_SCHEDS=$SCHEDS)"
			continue ;;
		esac
		set_sched "$DEV" "$s" || { result "$SCEN:$target" FAIL "set_sched $s failed"; continue 2; }
		FAIR_SCHED=$s
		unset FAIR_DIR
		if [ "$target" = ext4 ]; then
			ext4_new "$DEV" "$MNT" ||
				{ result "$SCEN:$target" FAIL "mkfs/mount failed"; continue 2; }
			FAIR_DIR=$MNT
		fi
		sync
		dirty_sampler "$ODIR/$target-$s.dirty" &
		dpid=$!
		fair_run "$target-$s" "$RT" "g1:$JOB;g3:$JOB;g6:$JOB"
		kill "$dpid"
		wait "$dpid" 2>/dev/null
		sync
		[ "$target" = ext4 ] && umount "$MNT"
		if [ -s "$ODIR/$target-$s.fiofail" ]; then
			result "$SCEN:$target-fio-$s" FAIL "fio failed in: $(tr '\n' ' ' < "$ODIR/$target-$s.fiofail")"
		else
			result "$SCEN:$target-fio-$s" PASS "every fio job exited 0"
		fi
		max=$(sort -n "$ODIR/$target-$s.dirty" | tail -n1)
		lim=$((DIRTY / 1024 * 11 / 10))
		metric "$SCEN:$target-dirty" "sched=$s" "max_kb=$max" "limit_kb=$((DIRTY / 1024))"
		if [ -n "$max" ] && [ "$max" -le "$lim" ]; then
			result "$SCEN:$target-dirty-$s" PASS "Dirty+Writeback peaked at $max kB (<= $lim)"
		else
			result "$SCEN:$target-dirty-$s" FAIL "Dirty+Writeback peaked at ${max:-?} kB (> $lim)"
		fi
	done
	# BW_APP_SKIP=WHY: the application shares and the throughput are
	# reported, not judged
	FAIR_SKIP=${BW_APP_SKIP-}
	fair_check "$SCEN:$target-app" "$target-hcfq" fio "$WANT" "$TOL"
	case " $SCHEDS " in
	*" none "*) fair_vs "$SCEN:$target-tput" "$target-hcfq" "$target-none" 0.9 ;;
	*) result "$SCEN:$target-tput" SKIP "none not run here (BW_SCHEDS=$SCHEDS)" ;;
	esac
	FAIR_SKIP=
	# BW_DEV=0: leave out the device shares (see hcfq-bwrite-app)
	[ "${BW_DEV:-1}" = 1 ] &&
		fair_check "$SCEN:$target-dev" "$target-hcfq" win "$WANT" "$TOL"
	[ -s "$ODIR/$target-none.fio" ] &&
		metric "$SCEN:$target-none" "shares=$(shares < "$ODIR/$target-none.fio" | tr ' \n' '=,')"
done
dirty_limits_restore
nullb_destroy bw
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
