# shellcheck shell=sh
# lib.sh - helpers for guest test scenarios (busybox sh). Source it:
#     . /tests/guest/lib.sh
# A scenario is /tests/scenarios/NAME.sh, run by /init with SCEN=NAME in a
# session of its own; an optional header line "# budget: SECONDS" sets its
# timeout (default 60). It must report at least one result; a scenario that
# times out or exits without a result is a FAIL. Environment: SCEN, CGMODE
# (v1|v2), VARIANT (normal|debug: the kernel), OUT (/out), ODIR
# ($OUT/$SCEN, for artifacts, created here).
#
# Reporting (lines go to /dev/ttyS1 = the host's results.txt):
#   result NAME PASS|FAIL|SKIP "detail"
#                                    RESULT line; NAME is usually $SCEN or
#                                    $SCEN:subtest; SKIP: cannot run here
#                                    (counted apart, never as a pass)
#   metric NAME key=value ...        METRIC line (numbers for the host)
#   text NAME < FILE                 each line of FILE as "TEXT NAME line"
#   log MSG                          to the scenario log and the console
# null_blk:
#   nullb_create NAME [key=val ...]  configfs null_blk; defaults size=4096(MB)
#       irqmode=2 completion_nsec=$NULLB_NSEC hw_queue_depth=1 max_sectors=16
#       submit_queues=1 memory_backed=0 blocksize=512; rotational=0|1 is
#       written to queue/rotational; power=1 last. Prints /dev/NAME (6.12
#       names the disk after the configfs dir, not nullb<index>). On v1 it
#       writes "MAJ:MIN 0" (= no limit) to the root's
#       blkio.throttle.read_bps_device: that activates blk-throttle on the
#       queue, which v1's per-cgroup byte counters need (see cg_io_bytes).
#   nullb_destroy NAME
#   dev_majmin DEV                   "MAJ:MIN" of /dev/X
#   set_sched DEV SCHED [NR]         elevator (bfq, mq-deadline, hcfq, none),
#       nr_requests left at the kernel's default (what users get) unless
#       NR is given (set_depth); SCHED=iocost: elevator none + io.cost.qos
#       "MAJ:MIN enable=1" (v2)
#   set_depth DEV NR                 queue/nr_requests = NR, checked
# cgroups (the io controller: v1 blkio hierarchy, v2 unified):
#   cg_new NAME [PARENT]             create (v2: enables +io +memory, or
#                                    $CG_CTRLS, in the parent's
#                                    subtree_control; +memory only if
#                                    the kernel has it); NAME unique
#   cg_path NAME                     absolute directory of the cgroup
#   cg_rel NAME                      path relative to the hierarchy root
#   cg_weight NAME SCHED W           weight in the file SCHED uses: hcfq:
#       v1 blkio.weight / v2 io.weight (the block core's, as systemd and
#       runc write it); bfq: blkio.bfq.weight / io.bfq.weight; iocost:
#       io.weight (v2 only)
#   cg_exec NAME cmd ...             run cmd in the cgroup (libcgroup cgexec)
#   cg_io_bytes NAME MAJ:MIN         bytes read+written by the cgroup on the
#       device, kernel counters: v2 io.stat rbytes+wbytes; v1
#       blkio.throttle.io_service_bytes Read+Write (counts only while
#       blk-throttle is active on the queue: nullb_create does that)
#   cg_hcfq_time NAME MAJ:MIN        disk time in ms hcfq charged the
#       cgroup on the device: v1 blkio.time, v2 io.stat hcfq.time
# numbers:
#   fio_bytes FILE                   read+write bytes from fio
#       --output-format=terse (v3), summed over all jobs in FILE
#   fio_iops FILE                    read IOPS from the same, summed
# page cache:
#   dirty_limits BG MAX              vm.dirty_background_bytes = BG,
#       vm.dirty_bytes = MAX; the previous settings are kept for
#   dirty_limits_restore             which puts them back (bytes or ratio,
#       whichever was in force); a no-op if dirty_limits was not called
#   shares                           stdin "name value" lines -> stdout
#                                    "name percent" (one decimal)
#   dmesg_check                      nonzero (and prints them) if the
#       kernel log since this scenario began (/init's /dev/kmsg marker)
#       has a splat (the pattern in /tests/guest/splat.re, which the host
#       also applies to the whole console log). Not kmemleak's own "N new
#       suspected memory leaks" line: /init's scan at the end of a boot
#       decides, leaving out one known upstream leak (kmemleak_scan),
#       and prints the reports that count, which the pattern's
#       "unreferenced object" catches
#   kmemleak_scan FILE               (/init's, at the end of a boot)
#   check_rc NAME RC "detail"        result NAME PASS if RC is 0, else FAIL
# scheduler state and processes:
#   sched_busy DEV                   hcfq's debugfs busy line for DEV
#       ("queues N queued N in_driver N dispatch_list N withheld N")
#   sched_idle DEV                   0 if that line shows nothing queued
#   sched_drained NAME DEV "when"    result NAME PASS if that line shows
#       nothing queued, in the driver or on the dispatch list
#   wait_gone SECS PID...            waits up to SECS s of uptime for the
#       PIDs (children of this shell) to end; WAIT_LEFT = how many did not

: "${OUT:=/out}"
: "${RESULTS:=/dev/ttyS1}"
: "${CGMODE:=v2}"
# the kernel the host booted: normal or debug (KASAN, lockdep, kmemleak)
: "${VARIANT:=normal}"
: "${SCEN:=$(basename "$0" .sh)}"
# null_blk completion time per request (2 ms = 500 IOPS at QD1). Measured
# with harness-nullb (8 KiB O_DIRECT psync reads, TCG, 2 vCPUs, one guest
# on the host): 1 ms/1 job 70-72 % of 1000 IOPS; 2 ms/3 jobs in 3 cgroups
# 86-91 % of 500 IOPS. With other guests on the host, completions arrive
# 1-2 ms late and nothing below ~8 ms reaches 75 %.
: "${NULLB_NSEC:=2000000}"
ODIR=$OUT/$SCEN
mkdir -p "$ODIR" 2>/dev/null
export OUT RESULTS CGMODE VARIANT SCEN ODIR NULLB_NSEC

# ---------------------------------------------------------------- reporting
emit() {
	echo "$*" > "$RESULTS"
	echo "$*" >&2
	case "$1" in RESULT*) echo "$*" >> "/tmp/results.$SCEN" ;; esac
}

result() {
	case "$2" in
	PASS|FAIL|SKIP) ;;
	*) log "result: bad status '$2'"; set -- "$1" FAIL "bad status $2: $3" ;;
	esac
	_n=$1 _s=$2
	shift 2
	emit "RESULT $_n $_s $*"
}

metric() {
	_n=$1
	shift
	emit "METRIC $_n $*"
}

text() {
	while IFS= read -r _l; do
		emit "TEXT $1 $_l"
	done
}

log() {
	echo "[$SCEN] $*" >&2
	echo "[$SCEN] $*" > /dev/console
}

# ---------------------------------------------------------------- ext4
# ext4_new DEV MNT: a new ext4 on DEV, mounted on MNT. mkfs zeroes the
# journal and the inode tables now, through the page cache (17 to 18 s
# on hcfq-bwrite's disk), so that no lazy init runs in a measurement;
# hcfq-bwrite-mix's fsync-p99 also leans on the writeback this leaves
# behind (BENCHMARKS.md, "fsync-p99's reference"). With EXT4_LAZY=1, for
# a scenario that judges no rate or share, nothing is zeroed, neither at
# mkfs nor later by ext4's lazy init (noinit_itable): a fresh null_blk
# reads back zeroes.
ext4_new() {
	_e4_lazy=0 _e4_opt=defaults
	[ "${EXT4_LAZY-}" = 1 ] && _e4_lazy=1 _e4_opt=noinit_itable
	mkfs.ext4 -q -F -E lazy_itable_init=$_e4_lazy,lazy_journal_init=$_e4_lazy "$1" &&
		mount -t ext4 -o $_e4_opt "$1" "$2"
}

# ---------------------------------------------------------------- null_blk
dev_majmin() {
	cat "/sys/block/$(basename "$1")/dev"
}

nullb_create() {
	_name=$1
	shift
	_d=/sys/kernel/config/nullb/$_name
	mkdir "$_d" || { log "nullb_create: mkdir $_d failed"; return 1; }
	_rot=
	for _kv in size=4096 irqmode=2 completion_nsec="$NULLB_NSEC" \
		hw_queue_depth=1 max_sectors=16 submit_queues=1 memory_backed=0 \
		blocksize=512 "$@"; do
		_k=${_kv%%=*} _v=${_kv#*=}
		case "$_k" in
		rotational) _rot=$_v; continue ;;
		power) continue ;;
		esac
		echo "$_v" > "$_d/$_k" || { log "nullb_create: $_k=$_v failed"; return 1; }
	done
	echo 1 > "$_d/power" || { log "nullb_create: power=1 failed"; return 1; }
	_dev=/dev/$_name
	[ -e "/sys/block/$_name" ] || _dev=/dev/nullb$(cat "$_d/index")
	_i=0
	while [ ! -b "$_dev" ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
	[ -b "$_dev" ] || { log "nullb_create: $_dev did not appear"; return 1; }
	if [ -n "$_rot" ]; then
		_rf=/sys/block/$(basename "$_dev")/queue/rotational
		echo "$_rot" > "$_rf" && [ "$(cat "$_rf")" = "$_rot" ] ||
			{ log "nullb_create: rotational=$_rot did not take"; return 1; }
	fi
	if [ "$CGMODE" = v1 ] && [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
		echo "$(dev_majmin "$_dev") 0" > /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ||
			log "nullb_create: could not activate blk-throttle on $_dev"
	fi
	echo "$_dev"
}

nullb_destroy() {
	_d=/sys/kernel/config/nullb/$1
	[ -d "$_d" ] || return 0
	echo 0 > "$_d/power"
	rmdir "$_d"
}

# ---------------------------------------------------------------- scheduler
# set_depth DEV NR: the scheduler's depth (queue/nr_requests), checked
set_depth() {
	_sd=/sys/block/$(basename "$1")/queue/nr_requests
	echo "$2" > "$_sd"
	[ "$(cat "$_sd")" = "$2" ] ||
		{ log "set_depth: nr_requests=$(cat "$_sd"), wanted $2"; return 1; }
}

set_sched() {
	_q=/sys/block/$(basename "$1")/queue
	_s=$2
	[ "$_s" = iocost ] && _s=none
	echo "$_s" > "$_q/scheduler" || { log "set_sched: $_s rejected"; return 1; }
	grep -q "\[$_s\]" "$_q/scheduler" || { log "set_sched: $_s not active: $(cat "$_q/scheduler")"; return 1; }
	if [ -n "${3-}" ]; then
		set_depth "$1" "$3" || return 1
	fi
	if [ "$2" = iocost ]; then
		[ "$CGMODE" = v2 ] || { log "set_sched: iocost needs cgroup v2"; return 1; }
		echo "$(dev_majmin "$1") enable=1" > /sys/fs/cgroup/io.cost.qos ||
			{ log "set_sched: io.cost.qos enable failed"; return 1; }
	fi
	return 0
}

# bfq_weights_only DEV: bfq on DEV without weight raising (low_latency
# 0). bfq raises a new or interactive queue's weight for seconds (longer
# on a slow disk), which evens out the groups' shares whatever their
# weights; runc-weights, which checks that weights reach bfq, turns it
# off.
bfq_weights_only() {
	echo 0 > "/sys/block/$(basename "$1")/queue/iosched/low_latency" ||
		{ log "bfq_weights_only: low_latency not set"; return 1; }
}

# ---------------------------------------------------------------- cgroups
# only_cgmode MODE WHY: false, with a SKIP for the scenario, on the other
# cgroup version; use as `only_cgmode v2 "why" || exit 0`
only_cgmode() {
	[ "$CGMODE" = "$1" ] && return 0
	result "$SCEN" SKIP "$2"
	return 1
}

cg_root() {
	if [ "$CGMODE" = v1 ]; then echo /sys/fs/cgroup/blkio; else echo /sys/fs/cgroup; fi
}

# relative path of a cgroup created with cg_new (or NAME itself)
cg_rel() {
	_r=$(awk -v n="$1" '$1 == n { print $2; exit }' /tmp/cg.map 2>/dev/null)
	echo "${_r:-$1}"
}

cg_path() {
	echo "$(cg_root)/$(cg_rel "$1")"
}

cg_new() {
	if [ -n "$2" ]; then _rel=$(cg_rel "$2")/$1; else _rel=$1; fi
	_p=$(cg_root)/$_rel
	if [ "$CGMODE" = v2 ]; then
		_par=$(dirname "$_p")
		_ctl=${CG_CTRLS:-+io +memory}
		# cgroup_disable=memory leaves v2 without the memory controller
		grep -qw memory "$_par/cgroup.controllers" ||
			_ctl=$(echo "$_ctl" | sed 's/ *+memory//')
		echo "$_ctl" > "$_par/cgroup.subtree_control" ||
			{ log "cg_new: subtree_control in $_par failed"; return 1; }
	fi
	mkdir -p "$_p" || return 1
	echo "$1 $_rel" >> /tmp/cg.map
}

cg_weight() {
	_p=$(cg_path "$1")
	case "$CGMODE/$2" in
	v1/hcfq) _f=blkio.weight ;;
	v2/hcfq) _f=io.weight ;;
	v1/bfq) _f=blkio.bfq.weight ;;
	v2/bfq) _f=io.bfq.weight ;;
	v2/iocost) _f=io.weight ;;
	*) log "cg_weight: no weight file for $2 on $CGMODE"; return 1 ;;
	esac
	echo "$3" > "$_p/$_f" || { log "cg_weight: writing $3 to $_p/$_f failed"; return 1; }
}

cg_exec() {
	_n=$1
	shift
	if [ "$CGMODE" = v1 ]; then
		cgexec -g "blkio:$(cg_rel "$_n")" "$@"
	else
		cgexec -g "io:$(cg_rel "$_n")" "$@"
	fi
}

cg_io_bytes() {
	_p=$(cg_path "$1")
	if [ "$CGMODE" = v1 ]; then
		awk -v d="$2" '$1 == d && ($2 == "Read" || $2 == "Write") { s += $3 }
			END { print s + 0 }' "$_p/blkio.throttle.io_service_bytes"
	else
		awk -v d="$2" '$1 == d { for (i = 2; i <= NF; i++) {
				split($i, kv, "="); if (kv[1] == "rbytes" || kv[1] == "wbytes") s += kv[2] } }
			END { print s + 0 }' "$_p/io.stat"
	fi
}

cg_hcfq_time() {
	_p=$(cg_path "$1")
	if [ "$CGMODE" = v1 ]; then
		awk -v d="$2" '$1 == d { s = $2 } END { print s + 0 }' "$_p/blkio.time"
	else
		awk -v d="$2" '$1 == d { for (i = 2; i <= NF; i++) {
			split($i, kv, "="); if (kv[1] == "hcfq.time") s = kv[2] } }
			END { print s + 0 }' "$_p/io.stat"
	fi
}

# cg_hcfq_weight GROUP MAJ:MIN: the weight hcfq's own data for GROUP on
# the disk hold (io.stat's hcfq.weight), or "-" on v1, which has no
# per-device view of it
cg_hcfq_weight() {
	[ "$CGMODE" = v2 ] || { echo -; return; }
	awk -v d="$2" '$1 == d { for (i = 2; i <= NF; i++) if ($i ~ /^hcfq\.weight=/) {
		sub(/^hcfq\.weight=/, "", $i); print $i } }' "$(cg_path "$1")/io.stat"
}

# ---------------------------------------------------------------- numbers
fio_bytes() {
	awk -F';' '$1 == 3 { s += ($6 + $47) * 1024 } END { print s + 0 }' "$1"
}

fio_iops() {
	awk -F';' '$1 == 3 { s += $8 } END { printf "%d\n", s }' "$1"
}

dirty_limits() {
	_DL_BB=$(cat /proc/sys/vm/dirty_background_bytes)
	_DL_BR=$(cat /proc/sys/vm/dirty_background_ratio)
	_DL_B=$(cat /proc/sys/vm/dirty_bytes)
	_DL_R=$(cat /proc/sys/vm/dirty_ratio)
	echo "$1" > /proc/sys/vm/dirty_background_bytes
	echo "$2" > /proc/sys/vm/dirty_bytes
}

# writing a ratio zeroes the bytes knob and vice versa: put back the one
# that was in force (bytes if nonzero)
dirty_limits_restore() {
	[ -n "${_DL_BR-}" ] || return 0
	if [ "$_DL_BB" != 0 ]; then echo "$_DL_BB" > /proc/sys/vm/dirty_background_bytes
	else echo "$_DL_BR" > /proc/sys/vm/dirty_background_ratio; fi
	if [ "$_DL_B" != 0 ]; then echo "$_DL_B" > /proc/sys/vm/dirty_bytes
	else echo "$_DL_R" > /proc/sys/vm/dirty_ratio; fi
	_DL_BR=
}

shares() {
	awk '{ n[NR] = $1; v[NR] = $2; t += $2 }
		END { for (i = 1; i <= NR; i++) printf "%s %.1f\n", n[i], t ? 100 * v[i] / t : 0 }'
}

dmesg_check() {
	! dmesg | awk -v m="hcfq-test: BEGIN $SCEN" 'index($0, m) { on = 1; next } on' |
		grep -E -f /tests/guest/splat.re
}

check_rc() {
	if [ "$2" -eq 0 ]; then result "$1" PASS "$3"; else result "$1" FAIL "$3"; fi
}

# ---------------------------------------------------------------- state
sched_busy() {
	cat "/sys/kernel/debug/block/$(basename "$1")/sched/busy" 2>&1
}

# sched_idle DEV: 0 when hcfq's busy line shows nothing queued, in the
# driver or on the dispatch list
sched_idle() {
	sched_busy "$1" | awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		END { exit !(v["queued"] == "0" && v["in_driver"] == "0" &&
			     v["dispatch_list"] == "0") }'
}

sched_drained() {
	if sched_idle "$2"; then
		result "$1" PASS "$3: $(sched_busy "$2")"
	else
		result "$1" FAIL "$3: $(sched_busy "$2")"
	fi
}

# requeue_count_start: count the block_rq_requeue tracepoint from now on
# (the trace buffer is cleared); requeue_count_end DEV stops it, prints
# how many fired for DEV and clears the buffer again
requeue_count_start() {
	echo 0 > /sys/kernel/tracing/tracing_on
	echo > /sys/kernel/tracing/trace
	echo 1 > /sys/kernel/tracing/events/block/block_rq_requeue/enable
	echo 1 > /sys/kernel/tracing/tracing_on
}

requeue_count_end() {
	echo 0 > /sys/kernel/tracing/tracing_on
	echo 0 > /sys/kernel/tracing/events/block/block_rq_requeue/enable
	grep -c "block_rq_requeue: $(dev_majmin "$1" | tr : ,) " /sys/kernel/tracing/trace
	echo > /sys/kernel/tracing/trace
}

# not in a $(...): the waiting shell itself must reap the children, or
# kill -0 finds their zombies alive
wait_gone() {
	_wg_end=$(($(cut -d. -f1 /proc/uptime) + $1))
	shift
	WAIT_LEFT=0
	for _wg_p in "$@"; do
		while kill -0 "$_wg_p" 2>/dev/null &&
		      [ "$(cut -d. -f1 /proc/uptime)" -lt "$_wg_end" ]; do
			sleep 0.2
		done
		kill -0 "$_wg_p" 2>/dev/null && WAIT_LEFT=$((WAIT_LEFT + 1))
	done
}

# ---------------------------------------------------------------- kmemleak
# kmemleak_scan FILE: scan twice, save the report in FILE, print "N K":
# N reports, and K more of the known upstream leak below, not counted.
# Two scans, because kmemleak reports an object only when it was found
# unreferenced with an unchanged checksum, and one scan only takes the
# checksums of objects it has not seen before; objects younger than 5 s
# are never reported.
# Known: Debian's 6.12.118 leaks blk-throttle's throtl_data (allocated in
# blk_throtl_init()) when a disk on which throttling was activated goes
# away: blkg_destroy_all() clears the policy bit first, and then
# blk_throtl_exit() returns before its kfree(). Fixed upstream by
# "blk-throttle: fix throtl_data leak during disk release". On v1 every
# null_blk here has throttling activated (nullb_create), so each removal
# leaks one; none of it is hcfq's or biotrack's.
kmemleak_scan() {
	_kml=/sys/kernel/debug/kmemleak
	echo scan > $_kml
	sleep 1
	echo scan > $_kml
	cat $_kml > "$1"
	# the reports that count also go to FILE.new
	awk -v new="$1.new" 'function flush() {
		if (blk != "") {
			if (blk ~ /blk_throtl_init/) k++; else { n++; printf "%s", blk > new }
		}
		blk = ""
	}
	BEGIN { printf "" > new }
	/^unreferenced object/ { flush() }
	{ blk = blk $0 "\n" }
	END { flush(); print n + 0, k + 0 }' "$1"
}

