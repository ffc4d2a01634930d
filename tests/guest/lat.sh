# shellcheck shell=sh
# lat.sh - latency / starvation scenarios (issue 4, seeds 001 003 004) on
# top of lib.sh. Source after it:
#     . /tests/guest/lib.sh; . /tests/guest/lat.sh
#
# The disk: a memory-backed null_blk (1024 MB, QD1, $NULLB_NSEC per
# request, 8 KiB max request, discard so that freed blocks give their
# memory back) with ext4 on it, mounted on $MNT. One request costs the
# same whatever its size, so the disk moves 8 KiB / NULLB_NSEC (4 MB/s at
# lib.sh's default 2 ms): slow enough that the disk, not TCG's CPU, is the
# bottleneck, and the volumes fit in the guest's 2 GiB.
# Dirty limits are scaled with the disk: dirty_background_bytes 16 MiB,
# dirty_bytes 64 MiB (defaults: 10 % / 20 % of RAM, i.e. ~170/340 MB,
# which would take 40 s to write back here). lat_teardown restores them.
#
#   lat_setup NAME            null_blk + mkfs.ext4 + mount; sets DEV, MM,
#                             MNT, LAT_Q (/sys/block/X/queue)
#   lat_mkfs                  (re)make the ext4 on $DEV and mount it on $MNT
#   lat_teardown NAME         umount, destroy, restore the vm.dirty_* knobs
#   lat_sched SCHED "grp:w ..."  set_sched + cg_weight for bfq and hcfq
#                             (groups must exist); nr_requests as the kernel sets it
#   lat_cold                  sync + drop caches
#   lat_exec GRP cmd [args]   run cmd in cgroup GRP: the shell writes its
#                             pid to GRP's cgroup.procs and execs cmd
#                             (same effect as lib.sh's cg_exec, without
#                             libcgroup's cgexec, which fails here with
#                             "registration of process failed")
#   lat_spawn GRP cmd [args]  the same in the background; LAT_PID is the
#                             pid of cmd itself (killable)
#   lat_writer_start GRP FILE [MB] [BS]  buffered dd from /dev/zero in GRP,
#                             in the background; LAT_WPIDS collects pids
#   lat_writers_stop          kill the writers, wait for them
#   lat_rm FILE...            rm + fstrim (drops dirty pages of the files
#                             without writing them back)
#   lat_now                   sets LAT_T to $EPOCHREALTIME in microseconds
#                             (no fork: ash's EPOCHREALTIME)
#   lat_ms T0 T1              prints (T1 - T0) / 1000 with 2 decimals
#   lat_wbt                   wbt_lat_usec of the disk (or "none")
#   lat_disk_sectors          "read written" sectors of the disk so far
#   lat_grp_bytes "G1 G2 .."  "G1=bytes G2=bytes .." that each cgroup moved on
#                             $MM so far (lib.sh's cg_io_bytes: v2 io.stat,
#                             v1 blk-throttle's counters)
#   lat_own_wbytes DIR        bytes the cgroup in directory DIR wrote to
#                             $MM itself, not its children: v1 hcfq's
#                             blkio.io_service_bytes, v2 io.stat wbytes
#   lat_mib BYTES             BYTES in MiB, 2 decimals
#   lat_dirty_in GRP FILE MB  drop caches, dirty MB MiB of FILE with dd
#                             in GRP, sync from the root; sets LAT_ROOT_W
#                             and LAT_GRP_W to the MiB the root and GRP
#                             wrote themselves meanwhile
#   lat_grp_delta "B0" "B1"   "G bytes" lines: what each group moved
#                             between two lat_grp_bytes samples
#   lat_grp_mb "B0" "B1" SECT  per-group MB between two lat_grp_bytes
#                             samples, plus rest= (device sectors SECT
#                             minus the groups: root, flusher, jbd2)
#   lat_table FILE            "sched key=value ..." lines -> aligned table
#                             via `text`
#   lat_best FILE KEY [EXCL]  smallest KEY among lines whose sched is not
#                             EXCL (default hcfq); lat_bestmax: largest
#   lat_get FILE SCHED KEY    value of KEY on SCHED's line
#   lat_median FILE SCHED KEY..  median of the KEYs on SCHED's line;
#                             lat_pmedian FILE KEY..: over all lines
#   lat_le A B                true if A <= B (floats)
#
# LAT_SCHEDS (default "none mq-deadline bfq hcfq") is the order in which
# the scenarios measure; hcfq goes last so that the others are already
# known when its numbers are printed.

: "${LAT_SCHEDS:=none mq-deadline bfq hcfq}"
# (also from the kernel command line, comma-separated: LAT_SCHEDS=hcfq,none)
LAT_SCHEDS=$(echo "$LAT_SCHEDS" | tr , " ")
: "${LAT_MAXSECT:=16}"
LAT_REQ_KB=$((LAT_MAXSECT / 2))

lat_setup() {
	# a mount left behind by a scenario that was killed would capture a
	# new null_blk that gets the same dev_t (sget matches the old sb)
	for _lm in $(awk '$2 ~ /^\/mnt\// { print $2 }' /proc/mounts); do
		umount -l "$_lm" 2> /dev/null
	done
	DEV=$(nullb_create "$1" size=1024 memory_backed=1 discard=1 \
		hw_queue_depth=1 max_sectors="$LAT_MAXSECT") || return 1
	MM=$(dev_majmin "$DEV")
	LAT_Q=/sys/block/$(basename "$DEV")/queue
	MNT=/mnt/$1
	mkdir -p "$MNT"
	lat_mkfs || return 1
	dirty_limits $((16 << 20)) $((64 << 20))
	LAT_WPIDS=
	return 0
}

lat_mkfs() {
	grep -q " $MNT " /proc/mounts && { umount "$MNT" || { log "umount failed"; return 1; }; }
	# small journal, lazy inode tables that are never zeroed in the
	# background (noinit_itable): no hidden I/O during the measurements
	mkfs.ext4 -q -F -J size=8 -E lazy_itable_init=1,nodiscard "$DEV" > "$ODIR/mkfs.log" 2>&1 ||
		{ log "mkfs.ext4 failed: $(cat "$ODIR/mkfs.log")"; return 1; }
	mount -t ext4 -o noinit_itable "$DEV" "$MNT" || { log "mount failed"; return 1; }
}

lat_teardown() {
	lat_writers_stop
	cd /
	umount "$MNT" 2>/dev/null
	nullb_destroy "$1"
	dirty_limits_restore
}

lat_sched() {
	set_sched "$DEV" "$1" || return 1
	case "$1" in
	bfq|hcfq)
		for _ls in $2; do
			cg_weight "${_ls%%:*}" "$1" "${_ls#*:}" || return 1
		done ;;
	esac
	return 0
}

lat_cold() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

lat_exec() {
	_le_p=$(cg_path "$1")
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$_le_p" "$@"
}

lat_spawn() {
	_le_p=$(cg_path "$1")
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$_le_p" "$@" &
	LAT_PID=$!
}

lat_writer_start() {
	lat_spawn "$1" dd if=/dev/zero of="$2" bs="${4:-1M}" \
		count=$(((${3:-600} << 20) / $(lat_bytes "${4:-1M}")))
	LAT_WPIDS="$LAT_WPIDS $LAT_PID"
}

lat_bytes() {
	case "$1" in
	*k|*K) echo $((${1%?} << 10)) ;;
	*m|*M) echo $((${1%?} << 20)) ;;
	*) echo "$1" ;;
	esac
}

lat_writers_stop() {
	for _lp in $LAT_WPIDS; do
		kill "$_lp" 2> /dev/null
	done
	for _lp in $LAT_WPIDS; do
		wait "$_lp" 2> /dev/null
	done
	LAT_WPIDS=
}

lat_rm() {
	rm -f "$@"
	fstrim "$MNT" 2> /dev/null
	sync
}

lat_now() {
	_ln=$EPOCHREALTIME
	LAT_T=${_ln%.*}${_ln#*.}
}

lat_ms() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1000 }'
}

lat_wbt() {
	cat "$LAT_Q/wbt_lat_usec" 2> /dev/null || echo none
}

lat_own_wbytes() {
	if [ "$CGMODE" = v1 ]; then
		awk -v d="$MM" '$1 == d && $2 == "Write" { s += $3 } END { print s + 0 }' \
			"$1/blkio.io_service_bytes"
	else
		awk -v d="$MM" '$1 == d { for (i = 2; i <= NF; i++) {
			split($i, kv, "="); if (kv[1] == "wbytes") s += kv[2] } }
			END { print s + 0 }' "$1/io.stat"
	fi
}

lat_mib() {
	awk -v b="$1" 'BEGIN { printf "%.2f", b / 1048576 }'
}

lat_dirty_in() {
	lat_cold
	_ldi_r=$(lat_own_wbytes "$(cg_root)"); _ldi_g=$(lat_own_wbytes "$(cg_path "$1")")
	lat_exec "$1" dd if=/dev/zero of="$2" bs=1M count="$3" 2> /dev/null
	sync
	LAT_ROOT_W=$(lat_mib $(($(lat_own_wbytes "$(cg_root)") - _ldi_r)))
	LAT_GRP_W=$(lat_mib $(($(lat_own_wbytes "$(cg_path "$1")") - _ldi_g)))
	log "$1 dirtied $3 MiB: $1 wrote $LAT_GRP_W MiB, the root $LAT_ROOT_W MiB"
}

lat_disk_sectors() {
	awk '{ print $3, $7 }' "/sys/block/$(basename "$DEV")/stat"
}

lat_grp_bytes() {
	for _lg in $1; do printf '%s=%s ' "$_lg" "$(cg_io_bytes "$_lg" "$MM")"; done
}

lat_grp_time() {
	for _lg in $1; do printf '%s=%s ' "$_lg" "$(cg_hcfq_time "$_lg" "$MM")"; done
}

lat_grp_delta() {
	echo "$1 | $2" | awk '{
		for (i = 1; i <= NF; i++) { if ($i == "|") { p = 1; continue }
			split($i, kv, "="); if (!p) a[kv[1]] = kv[2]; else { b[kv[1]] = kv[2]; o[++n] = kv[1] } }
		for (i = 1; i <= n; i++) print o[i], b[o[i]] - a[o[i]] }'
}

lat_grp_mb() {
	lat_grp_delta "$1" "$2" | awk -v sect="$3" '
		{ d = $2 / 1048576; s += d; printf "%s_mb=%.1f ", $1, d }
		END { printf "rest_mb=%.1f\n", sect * 512 / 1048576 - s }'
}

lat_get() {
	awk -v s="$2" -v k="$3" '$1 == s { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k) print kv[2] } }' "$1"
}

lat_best() {
	awk -v k="$2" -v x="${3:-hcfq}" '$1 != x { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k && (b == "" || kv[2] + 0 < b + 0)) b = kv[2] } }
		END { print b }' "$1"
}

lat_bestmax() {
	awk -v k="$2" -v x="${3:-hcfq}" '$1 != x { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == k && (b == "" || kv[2] + 0 > b + 0)) b = kv[2] } }
		END { print b }' "$1"
}

# lat_mid FILE KEY: the median of the KEYs of the schedulers other than
# hcfq (of three, the middle one)
lat_mid() {
	awk -v k="$2" '$1 != "hcfq" { for (i = 2; i <= NF; i++) { split($i, kv, "=")
		if (kv[1] == k) print kv[2] } }' "$1" | _lat_med
}

lat_le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'
}

# table: header from the keys of the first line, one row per scheduler
lat_table() {
	awk '{ if (NR == 1) { printf "%-12s", "sched"; for (i = 2; i <= NF; i++) {
			split($i, kv, "="); printf " %10s", kv[1] } printf "\n" }
		printf "%-12s", $1; for (i = 2; i <= NF; i++) { split($i, kv, "=")
			printf " %10s", kv[2] } printf "\n" }' "$1" | text "$SCEN"
}

# lat_reads DIR N INTERVAL LSDIR [NLS]: cold-read DIR/0 .. DIR/N-1, one
# every INTERVAL s, then `ls` LSDIR0 .. LSDIR<NLS-1> (default 3), also
# INTERVAL s apart; prints "r0=MS ... ls0=MS .. ls=MS" (ls: the median of
# the ls runs, one ls is too noisy a sample under TCG). Run it in the
# reader's cgroup: lat_exec G sh -c '. /tests/guest/lat.sh; lat_reads ..'
# Files are read with busybox head -c (a NOEXEC applet: ash forks but does
# not exec, which under TCG saves ~10 ms of noise that cat's exec adds);
# busybox ls is NOEXEC too.
lat_reads() {
	_lr_i=0 _lr_t=
	while [ $_lr_i -lt "$2" ]; do
		[ $_lr_i -gt 0 ] && sleep "$3"
		lat_now; _lr_a=$LAT_T
		head -c 1048576 "$1/$_lr_i" > /dev/null
		lat_now
		_lr_t="$_lr_t r$_lr_i:$_lr_a:$LAT_T"
		_lr_i=$((_lr_i + 1))
	done
	_lr_i=0
	while [ $_lr_i -lt "${5:-3}" ]; do
		sleep "$3"
		lat_now; _lr_a=$LAT_T
		ls "$4$_lr_i" > /dev/null
		lat_now
		_lr_t="$_lr_t ls$_lr_i:$_lr_a:$LAT_T"
		_lr_i=$((_lr_i + 1))
	done
	echo "$_lr_t" | awk '{ for (i = 1; i <= NF; i++) { split($i, f, ":")
		v = (f[3] - f[2]) / 1000
		if (f[1] ~ /^ls/) l[++n] = v
		printf "%s%s=%.2f", (i > 1 ? " " : ""), f[1], v }
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (l[j] < l[i]) { t = l[i]; l[i] = l[j]; l[j] = t }
		printf " ls=%.2f\n", (n % 2 ? l[(n + 1) / 2] : (l[n / 2] + l[n / 2 + 1]) / 2) }'
}

# lat_forkms: median over 5 of the time ash needs to fork a NOEXEC applet
# that does no I/O (head -c 1 /dev/null), in ms: the process cost that is
# part of every latency lat_reads measures
lat_forkms() {
	_lf_s=
	for _lf_i in 1 2 3 4 5; do
		lat_now; _lf_a=$LAT_T
		head -c 1 /dev/null > /dev/null
		lat_now
		_lf_s="$_lf_s $((LAT_T - _lf_a))"
	done
	echo "$_lf_s" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[3] / 1000 }'
}

# _lat_med: median of the numbers on stdin, one per line
_lat_med() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# lat_median FILE SCHED KEY...: median of the KEYs on SCHED's line
lat_median() {
	_lm_f=$1 _lm_s=$2
	shift 2
	for _lm_k in "$@"; do lat_get "$_lm_f" "$_lm_s" "$_lm_k"; done | _lat_med
}

# lat_pmedian FILE KEY...: median of the KEYs on every line (all schedulers)
lat_pmedian() {
	_lp_f=$1
	shift
	awk -v keys=" $* " '{ for (i = 2; i <= NF; i++) { split($i, kv, "=")
		if (index(keys, " " kv[1] " ")) print kv[2] } }' "$_lp_f" | _lat_med
}

# lat_max FILE SCHED KEY...: largest of the KEYs on SCHED's line
lat_max() {
	_lm_f=$1 _lm_s=$2
	shift 2
	for _lm_k in "$@"; do lat_get "$_lm_f" "$_lm_s" "$_lm_k"; done | sort -n | tail -n1
}

# lat_assert NAME A OP B "what": result NAME PASS if A OP B (OP le|ge), or
# for OP within, B "TARGET TOL": PASS if |A - TARGET| <= TOL
lat_assert() {
	if awk -v a="$2" -v b="$4" -v op="$3" 'BEGIN { if (a == "" || b == "") exit 1
		if (op == "within") { split(b, tt, " "); d = a - tt[1]
			exit !(d <= tt[2] + 0 && -d <= tt[2] + 0) }
		exit !(op == "le" ? a + 0 <= b + 0 : a + 0 >= b + 0) }'; then
		result "$1" PASS "$5: $2 (limit $3 $4)"
	else
		result "$1" FAIL "$5: $2 (limit $3 $4)"
	fi
}

# lat_wbt_check NAME FILE: FILE has "sched wbt=N" lines; PASS if hcfq's is 0
lat_wbt_check() {
	_lw=$(lat_get "$2" hcfq wbt)
	if [ "$_lw" = 0 ]; then
		result "$1" PASS "wbt_lat_usec 0 under hcfq ($(tr '\n' ' ' < "$2"))"
	else
		result "$1" FAIL "wbt_lat_usec '$_lw' under hcfq, want 0 ($(tr '\n' ' ' < "$2"))"
	fi
}

# lat_fio TAG RUNTIME GRP ARGS [GRP ARGS ...]: one fio per group on $DEV,
# all started together (lat_spawn), time-based with 1 s ramp; per group
# bytes (fio_bytes, all jobs) into $ODIR/TAG.bytes as "grp bytes". Many
# threads start staggered under TCG, so fio's windows differ per group;
# the kernel's per-cgroup counters (cg_io_bytes) sampled from 3 s after
# the start (fio's startup, the 1 s ramp and up to ~1.6 s of stagger
# between 32 threads under TCG) to RUNTIME s, when every job runs, go to
# $ODIR/TAG.win ("grp bytes") and the window's length in ms to
# $ODIR/TAG.winms: use those for shares. The disk time hcfq charged each
# group in the same window (cg_hcfq_time; 0 under other schedulers) goes
# to $ODIR/TAG.twin ("grp ms").
lat_fio() {
	_lf_t=$1 _lf_rt=$2
	shift 2
	_lf_i=0 _lf_g=
	while [ $# -ge 2 ]; do
		_lf_g="$_lf_g $1"
		# shellcheck disable=SC2086
		lat_spawn "$1" fio --name="$1" --filename="$DEV" \
			--offset=$((_lf_i * 512))m --size=512m --direct=1 \
			--time_based --ramp_time=1 --runtime="$_lf_rt" $2 \
			--group_reporting --output-format=terse --terse-version=3 \
			--output="$ODIR/$_lf_t.fio.$1" > /dev/null 2>&1
		_lf_i=$((_lf_i + 1))
		shift 2
	done
	sleep 3
	lat_now; _lf_a=$LAT_T
	_lf_b0=$(lat_grp_bytes "$_lf_g")
	_lf_t0=$(lat_grp_time "$_lf_g")
	sleep $((_lf_rt - 3))
	_lf_b1=$(lat_grp_bytes "$_lf_g")
	_lf_t1=$(lat_grp_time "$_lf_g")
	lat_now
	echo $(((LAT_T - _lf_a) / 1000)) > "$ODIR/$_lf_t.winms"
	wait
	: > "$ODIR/$_lf_t.bytes"
	for _lf_n in $_lf_g; do
		echo "$_lf_n $(fio_bytes "$ODIR/$_lf_t.fio.$_lf_n")" >> "$ODIR/$_lf_t.bytes"
	done
	lat_grp_delta "$_lf_b0" "$_lf_b1" > "$ODIR/$_lf_t.win"
	lat_grp_delta "$_lf_t0" "$_lf_t1" > "$ODIR/$_lf_t.twin"
}
