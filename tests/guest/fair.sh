# shellcheck shell=sh
# fair.sh - proportional-share scenarios on top of lib.sh. Source after it:
#     . /tests/guest/lib.sh; . /tests/guest/fair.sh
#
#   fair_disk NAME SCHED [nullb key=val ...]
#       null_blk + scheduler; sets DEV (/dev/X) and MM (MAJ:MIN);
#       nr_requests stays at the kernel's default unless NR_REQUESTS is set
#   fair_groups SCHED "name:weight[:parent] ..."
#       creates the cgroups and sets their weights
#   fair_run TAG RUNTIME "name:fio-args;name:fio-args;..."
#       runs one fio per group, all started together, time-based; fio
#       output in $ODIR/TAG.fio.NAME; kernel byte counters are sampled
#       every second into $ODIR/TAG.samples ("t name bytes ms uptime");
#       then writes $ODIR/TAG.fio (name fio-bytes), $ODIR/TAG.cg (name
#       kernel-counted bytes over the run), $ODIR/TAG.win (name bytes in
#       the window of samples in which all groups were running, from
#       sample WIN_FROM on: see fair_window) and $ODIR/TAG.time (name ms
#       of disk time hcfq charged in the window).
#       FAIR_RAMP=S runs S seconds more first, which fio leaves out of
#       its numbers (--ramp_time) and the window too ([S, S+RUNTIME-1]);
#       FAIR_DIR=D gives each group the file D/name instead of a 512 MiB
#       range of $DEV. $ODIR/TAG.fiofail names the groups whose fio
#       exited nonzero
#   fair_bg TAG RUNTIME RW "name ..."
#       one fio per group (8 KiB O_DIRECT psync, RW, time-based, a 512 MiB
#       range of $DEV each), all at once, without sampling; waits for
#       them. $ODIR/TAG.fio.NAME (terse), TAG.rc.NAME (fio's exit status),
#       TAG.bytes.NAME; FAIR_BG_BAD lists the groups whose fio failed
#   fair_check NAME TAG FILE "name:expected% ..." TOL
#       compares the shares in $ODIR/TAG.FILE (fio, win, time) with the
#       expected ones; result NAME PASS|FAIL, metric with all shares.
#       With FAIR_SKIP=WHY set, the shares are reported, not judged:
#       result NAME SKIP "WHY; ..." (where the disk is not the bottleneck)
#   fair_agree TAG       largest |kernel - fio| bytes per group, % of fio
#       (100 if there is nothing to compare)
#   fair_agree_check NAME TAG MAX
#       result NAME PASS if fair_agree TAG is at most MAX %, with a metric
#   fair_total TAG       fio's bytes of all groups in run TAG
#   fair_vs NAME TAG BASE MIN
#       result NAME PASS if run TAG moved at least MIN x the bytes of run
#       BASE (the same workload under another scheduler, same boot);
#       with FAIR_SKIP=WHY set, the ratio is reported (SKIP)
#   fair_jobs NAME TAG "name ..." MIN [MEAN_BYTES]
#       per-process fairness inside each listed group (fio without
#       --group_reporting, one terse line per job): every job moved at
#       least MIN x its group's mean; result NAME PASS|FAIL. A group
#       whose jobs moved less than MEAN_BYTES on average (too few
#       requests per job for a minimum to mean anything) is reported but
#       not asserted; at least one group must be asserted
#   grp_bytes NAME       bytes the cgroup moved on $MM (v1: the scheduler's
#       blkio.io_service_bytes for hcfq, else blk-throttle's; v2: io.stat)
#   grp_time_ms NAME     disk time hcfq charged the cgroup on $MM

: "${WIN_FROM:=2}"

fair_disk() {
	_fd_name=$1 _fd_sched=$2
	shift 2
	DEV=$(nullb_create "$_fd_name" "$@") || return 1
	MM=$(dev_majmin "$DEV")
	FAIR_SCHED=$_fd_sched
	set_sched "$DEV" "$_fd_sched" ${NR_REQUESTS-}
}

# fair_deep_disk NAME MBPS [KEY=VALUE...]: the deep-queue disk model
# (hcfq-deep, hcfq-burst) via fair_disk, with none attached: null_blk
# with queue depth 32, an MBPS MB/s cap, requests of up to 512 KiB and
# 100 us per request; more null_blk settings may follow. null_blk
# refills its byte budget, MBPS times 2^20 / 50 bytes (the quotient
# rounded down first), 50 times a second, and a request that does not
# fit in one refill never passes (the disk hangs), so MBPS must be at
# least 26 for 512 KiB requests: a model that breaks this is refused.
fair_deep_disk() {
	_fdd_n=$1 _fdd_m=$2 _fdd_s=1024
	shift 2
	for _fdd_a in "$@"; do
		case $_fdd_a in max_sectors=*) _fdd_s=${_fdd_a#max_sectors=} ;; esac
	done
	if [ $((_fdd_s * 512)) -gt $((_fdd_m * (1048576 / 50))) ]; then
		echo "fair_deep_disk: ${_fdd_s}-sector requests exceed null_blk's budget at $_fdd_m MiB/s" >&2
		return 1
	fi
	fair_disk "$_fdd_n" none hw_queue_depth=32 max_sectors=1024 \
		mbps="$_fdd_m" completion_nsec=100000 "$@"
}

# fair_bw_disk NAME: the buffered writers' disk (hcfq-bwrite,
# hcfq-bwrite-mix), memory-backed, 1.5 GiB, none attached: the QD1 disk,
# or with BW_DISK=deep the deep-queue one at BW_MBPS (16) MiB/s with
# requests of up to BW_MAXSEC (512) sectors, which is one 256 KiB
# request per refill of null_blk's budget: about 12.5 MiB/s. Not
# hcfq-deep's 32 MiB/s and 512 KiB: there the disk moves only 25.6
# MiB/s (one 512 KiB request per refill), and three buffered writers
# to ext4 keep the guest's two TCG vCPUs 62 to 85 % busy doing it, so
# the writers' CPU time, not the disk, sets how fast each can dirty
# (BENCHMARKS.md, "Buffered writers on a deep-queue disk: the CPU, not
# the disk").
fair_bw_disk() {
	if [ "${BW_DISK:-qd1}" = deep ]; then
		fair_deep_disk "$1" "${BW_MBPS:-16}" memory_backed=1 size=1536 \
			max_sectors="${BW_MAXSEC:-512}"
	else
		fair_disk "$1" none memory_backed=1 size=1536
	fi
}

fair_groups() {
	for _fg in $2; do
		_fg_n=${_fg%%:*} _fg_r=${_fg#*:}
		_fg_w=${_fg_r%%:*} _fg_p=
		[ "$_fg_r" != "$_fg_w" ] && _fg_p=${_fg_r#*:}
		cg_new "$_fg_n" $_fg_p || return 1
		cg_weight "$_fg_n" "$1" "$_fg_w" || return 1
	done
}

grp_bytes() {
	fair_sample 0 "$(fair_sources "$1")" | cut -d' ' -f3
}

grp_time_ms() {
	fair_sample 0 "$(fair_sources "$1")" | cut -d' ' -f4
}

# fair_sources NAME...: the operands of fair_sample's awk for these
# groups, "n=NAME k=KIND FILE" each: v1 under hcfq hcfq's
# blkio.io_service_bytes, v1 otherwise blk-throttle's counters, v2
# io.stat; and hcfq's disk time. fair_run finds them once per run, so a
# sample is one process (forking per group took a second a sample on
# the debug kernel under TCG)
fair_sources() {
	for _fs_n in "$@"; do
		_fs_p=$(cg_path "$_fs_n")
		if [ "$CGMODE" = v2 ]; then
			echo "n=$_fs_n k=v2 $_fs_p/io.stat"
			continue
		fi
		if [ "$FAIR_SCHED" = hcfq ]; then
			echo "n=$_fs_n k=svc $_fs_p/blkio.io_service_bytes"
		else
			echo "n=$_fs_n k=thr $_fs_p/blkio.throttle.io_service_bytes"
		fi
		[ -e "$_fs_p/blkio.time" ] && echo "n=$_fs_n k=time $_fs_p/blkio.time"
	done
}

# fair_sample T SOURCES: one line "T name bytes ms uptime" per group
fair_sample() {
	# shellcheck disable=SC2086
	awk -v t="$1" -v d="$MM" '
		BEGIN { for (i = 1; i < ARGC; i++) if (ARGV[i] ~ /^n=/) {
			g = substr(ARGV[i], 3); if (!(g in seen)) { seen[g] = 1; o[++cnt] = g } } }
		k == "up" { up = $1; next }
		$1 != d { next }
		k == "svc" && $2 == "Total" { b[n] = $3 }
		k == "thr" && ($2 == "Read" || $2 == "Write") { b[n] += $3 }
		k == "time" { ms[n] = $2 }
		k == "v2" { for (i = 2; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] == "rbytes" || kv[1] == "wbytes") b[n] += kv[2]
			if (kv[1] == "hcfq.time") ms[n] = kv[2] } }
		END { for (i = 1; i <= cnt; i++)
			printf "%s %s %.0f %.0f %s\n", t, o[i], b[o[i]], ms[o[i]], up }
	' $2 k=up /proc/uptime
}

fair_run() {
	_fr_tag=$1 _fr_rt=$2 _fr_specs=$3
	_fr_names=
	_fr_i=0
	_fr_ifs=$IFS
	IFS=';'
	# shellcheck disable=SC2086
	set -- $_fr_specs
	IFS=$_fr_ifs
	: > "$ODIR/$_fr_tag.pre"
	for _fr in "$@"; do
		_fr_n=${_fr%%:*}
		_fr_names="$_fr_names $_fr_n"
		echo "$_fr_n $(grp_bytes "$_fr_n")" >> "$ODIR/$_fr_tag.pre"
	done
	_fr_ramp=${FAIR_RAMP:-0}
	_fr_pids=
	for _fr in "$@"; do
		_fr_n=${_fr%%:*} _fr_a=${_fr#*:}
		if [ -n "${FAIR_DIR-}" ]; then
			_fr_where="--filename=$FAIR_DIR/$_fr_n --size=256m"
		else
			_fr_where="--filename=$DEV --offset=$((_fr_i * 512))m --size=512m"
		fi
		[ "$_fr_ramp" -gt 0 ] && _fr_where="$_fr_where --ramp_time=$_fr_ramp"
		# shellcheck disable=SC2086
		cg_exec "$_fr_n" fio --name="$_fr_n" $_fr_where \
			--time_based --runtime="$_fr_rt" $_fr_a \
			--output-format=terse --terse-version=3 \
			--output="$ODIR/$_fr_tag.fio.$_fr_n" > /dev/null 2>&1 &
		_fr_pids="$_fr_pids $!"
		_fr_i=$((_fr_i + 1))
	done
	: > "$ODIR/$_fr_tag.samples"
	# shellcheck disable=SC2086
	_fr_src=$(fair_sources $_fr_names)
	_fr_t=0
	_fr_win=$WIN_FROM
	[ "$_fr_ramp" -gt 0 ] && _fr_win=$_fr_ramp
	_fr_rt=$((_fr_rt + _fr_ramp))
	# FAIR_UNTIL_DONE=1: sample until every fio has exited (at most 3 x
	# the run) instead of for RAMP + RT passes, which on a loaded guest
	# take up to twice as long as fio does
	while :; do
		if [ "${FAIR_UNTIL_DONE:-0}" = 1 ]; then
			_fr_live=
			for _fr_p in $_fr_pids; do
				_fr_s=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$_fr_p/status" 2>/dev/null)
				[ -n "$_fr_s" ] && [ "$_fr_s" != Z ] && _fr_live=1
			done
			[ -z "$_fr_live" ] || [ $_fr_t -ge $((3 * _fr_rt)) ] && _fr_t=-1
		elif [ $_fr_t -ge "$_fr_rt" ]; then
			_fr_t=-1
		fi
		[ $_fr_t -lt 0 ] && break
		fair_sample "$_fr_t" "$_fr_src" >> "$ODIR/$_fr_tag.samples"
		sleep 1
		_fr_t=$((_fr_t + 1))
	done
	# only the fio jobs: the caller may have other children (samplers);
	# $ODIR/TAG.fiofail lists the groups whose fio exited nonzero
	: > "$ODIR/$_fr_tag.fiofail"
	# shellcheck disable=SC2086
	set -- $_fr_names
	for _fr_p in $_fr_pids; do
		wait "$_fr_p" || echo "$1" >> "$ODIR/$_fr_tag.fiofail"
		shift
	done
	: > "$ODIR/$_fr_tag.fio"
	: > "$ODIR/$_fr_tag.cg"
	for _fr_n in $_fr_names; do
		echo "$_fr_n $(fio_bytes "$ODIR/$_fr_tag.fio.$_fr_n")" >> "$ODIR/$_fr_tag.fio"
		_fr_pre=$(awk -v n="$_fr_n" '$1 == n { print $2 }' "$ODIR/$_fr_tag.pre")
		echo "$_fr_n $(($(grp_bytes "$_fr_n") - _fr_pre))" >> "$ODIR/$_fr_tag.cg"
	done
	fair_window "$ODIR/$_fr_tag" "$_fr_win"
}

fair_bg() {
	_fb_i=0
	for _fb_n in $4; do
		( cg_exec "$_fb_n" fio --name="$1$_fb_n" --filename="$DEV" --rw="$3" \
			--bs=8k --direct=1 --ioengine=psync --time_based --runtime="$2" \
			--offset=$((_fb_i * 512))m --size=512m --output-format=terse \
			--terse-version=3 --output="$ODIR/$1.fio.$_fb_n" > /dev/null 2>&1
		  echo $? > "$ODIR/$1.rc.$_fb_n" ) &
		_fb_i=$((_fb_i + 1))
	done
	wait
	FAIR_BG_BAD=
	for _fb_n in $4; do
		[ "$(cat "$ODIR/$1.rc.$_fb_n" 2>/dev/null)" = 0 ] || FAIR_BG_BAD="$FAIR_BG_BAD $_fb_n"
		fio_bytes "$ODIR/$1.fio.$_fb_n" > "$ODIR/$1.bytes.$_fb_n"
	done
}

# fair_window PREFIX FROM: the window of PREFIX.samples in which every
# group was running, and no earlier than sample FROM: from the sample
# after the last group's first progress to the sample before the first
# group's last progress (the groups' fio processes start up to a second
# apart, and the 1 s sampling loop outlasts them). Writes PREFIX.win
# (bytes), PREFIX.time (ms charged) and PREFIX.winbounds ("first last"
# sample); PREFIX.win and .time are empty if no such window is left.
fair_window() {
	awk -v from="$2" -v pre="$1" '
		!($2 in seen) { seen[$2] = 1; o[++n] = $2 }
		{ b[$2, $1] = $3; m[$2, $1] = $4; if ($1 > last) last = $1 }
		END {
			a = from; e = last
			for (i = 1; i <= n; i++) {
				g = o[i]; f = -1; l = -1
				for (t = 0; t <= last; t++) {
					if (f < 0 && b[g, t] > b[g, 0]) f = t
					if (l < 0 && b[g, t] == b[g, last]) l = t
				}
				if (f < 0) { a = last + 1; continue }
				if (f + 1 > a) a = f + 1
				if (l - 1 < e) e = l - 1
			}
			printf "" > (pre ".win"); printf "" > (pre ".time")
			print a, e > (pre ".winbounds")
			if (e - a < 2) exit
			for (i = 1; i <= n; i++) {
				g = o[i]
				print g, b[g, e] - b[g, a] > (pre ".win")
				print g, m[g, e] - m[g, a] > (pre ".time")
			}
		}' "$1.samples"
}

# max |share - expected| in points; prints "maxdev name=share ..."
fair_dev() {
	shares < "$1" | awk -v spec="$2" '
		BEGIN { n = split(spec, e, " "); for (i = 1; i <= n; i++) {
			split(e[i], kv, ":"); want[kv[1]] = kv[2] } }
		!($1 in want) { bad = 1 }
		{ d = $2 - want[$1]; if (d < 0) d = -d; if (d > m) m = d
		  out = out " " $1 "=" $2; seen++ }
		END { if (bad || seen != n) m = 100
		      printf "%.1f%s\n", m + 0, out }'
}

fair_check() {
	_fc_r=$(fair_dev "$ODIR/$2.$3" "$4")
	_fc_d=${_fc_r%% *}
	# no measurement is a failure, never a pass
	case "$_fc_d" in [0-9]*) ;; *) _fc_d=100 _fc_r="100 (no data)" ;; esac
	metric "$1" "src=$3" "maxdev=$_fc_d" "want=$(echo "$4" | tr ' ' ',')" "shares=${_fc_r#* }"
	if [ -n "${FAIR_SKIP-}" ]; then
		result "$1" SKIP "$FAIR_SKIP; $3 shares ${_fc_r#* }, off by $_fc_d"
		return
	fi
	if awk -v d="$_fc_d" -v t="$5" 'BEGIN { exit !(d <= t) }' &&
	   ! awk '$2 == 0 { z = 1 } END { exit !z }' "$ODIR/$2.$3"; then
		result "$1" PASS "$3 shares ${_fc_r#* } (want $4): off by $_fc_d <= $5 points"
	else
		result "$1" FAIL "$3 shares ${_fc_r#* } (want $4): off by $_fc_d > $5 points"
	fi
}

# fair_follows NAME TAG WANT: for a scheduler that is not ours (bfq),
# judge that the weights reach it, not how closely it follows them: the
# group with the smallest expected share gets the smallest share, and
# the group with the largest gets at least twice that. Equal weights
# (the weights lost) give a ratio near 1; bfq's own misses on the
# emulated disk (23.3/25.0/51.8, 15.8/41.7/42.5 for 10/30/60) still
# pass. The distance from WANT is reported.
fair_follows() {
	_ff_r=$(fair_dev "$ODIR/$2.fio" "$3")
	metric "$1" "src=fio" "maxdev=${_ff_r%% *}" "want=$(echo "$3" | tr ' ' ',')" "shares=${_ff_r#* }"
	if shares < "$ODIR/$2.fio" | awk -v spec="$3" '
		BEGIN { n = split(spec, e, " "); for (i = 1; i <= n; i++) {
			split(e[i], kv, ":"); w[kv[1]] = kv[2]
			if (lo == "" || kv[2] < w[lo]) lo = kv[1]
			if (hi == "" || kv[2] > w[hi]) hi = kv[1] } }
		{ s[$1] = $2; seen++ }
		END { if (seen != n || !(lo in s) || !(hi in s) || s[lo] <= 0) exit 1
		      for (g in s) if (g != lo && s[g] <= s[lo]) exit 1
		      exit !(s[hi] >= 2 * s[lo]) }'; then
		result "$1" PASS "the weights reach it: fio shares ${_ff_r#* }, the smallest weight's least and the largest's >= 2 x it (${_ff_r%% *} points from $3)"
	else
		result "$1" FAIL "the weights do not reach it: fio shares ${_ff_r#* } (want $3's smallest the least, its largest >= 2 x that)"
	fi
}

# largest per-group difference between fio's bytes and the kernel's
# counters over the whole run, in percent of fio's
fair_agree() {
	paste "$ODIR/$1.fio" "$ODIR/$1.cg" | awk '
		{ if ($2 > 0) { d = ($4 - $2) / $2 * 100; if (d < 0) d = -d } else d = 100
		  if (d > m) m = d }
		END { if (!NR) m = 100; printf "%.1f\n", m + 0 }'
}

fair_agree_check() {
	_fa_a=$(fair_agree "$2")
	metric "$1" "fio_vs_kernel_maxpct=$_fa_a"
	if awk -v a="$_fa_a" -v m="$3" 'BEGIN { exit !(a <= m) }'; then
		result "$1" PASS "kernel byte counters agree with fio within $_fa_a % per group"
	else
		result "$1" FAIL "kernel byte counters differ from fio by $_fa_a % (> $3)"
	fi
}

fair_total() {
	awk '{ s += $2 } END { print s + 0 }' "$ODIR/$1.fio"
}

fair_vs() {
	_fv_a=$(fair_total "$2") _fv_b=$(fair_total "$3")
	_fv_r=$(awk -v a="$_fv_a" -v b="$_fv_b" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
	metric "$1" "bytes=$_fv_a" "base_bytes=$_fv_b" "ratio=$_fv_r" "min=$4"
	if [ -n "${FAIR_SKIP-}" ]; then
		result "$1" SKIP "$FAIR_SKIP; $2 moved $_fv_r x the bytes of $3"
		return
	fi
	if awk -v r="$_fv_r" -v m="$4" 'BEGIN { exit !(r >= m) }'; then
		result "$1" PASS "$2 moved $_fv_r x the bytes of $3 (>= $4)"
	else
		result "$1" FAIL "$2 moved $_fv_r x the bytes of $3 (< $4)"
	fi
}

fair_jobs() {
	_fj_out= _fj_bad= _fj_n_ok=0
	for _fj_n in $3; do
		_fj_r=$(awk -F';' '$1 == 3 { v[++n] = ($6 + $47) * 1024; s += v[n] }
			END { if (!n || !s) { print "0 0 0"; exit }
			      m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]
			      printf "%.3f %d %d\n", m / (s / n), n, s / n }' "$ODIR/$2.fio.$_fj_n")
		set -- "$1" "$2" "$3" "$4" "${5:-0}" $_fj_r
		if [ "$8" -lt "$5" ]; then
			_fj_out="$_fj_out $_fj_n=$6(${7}jobs,not-asserted)"
			continue
		fi
		_fj_out="$_fj_out $_fj_n=$6(${7}jobs)"
		_fj_n_ok=$((_fj_n_ok + 1))
		awk -v r="$6" -v m="$4" 'BEGIN { exit !(r >= m) }' || _fj_bad=1
	done
	metric "$1" "min_job_over_mean=${_fj_out# }" "min=$4" "mean_bytes_asserted=${5:-0}"
	if [ "$_fj_n_ok" = 0 ]; then
		result "$1" FAIL "no group had enough requests per job to judge:$_fj_out"
	elif [ -z "$_fj_bad" ]; then
		result "$1" PASS "every job >= $4 x its group's mean:$_fj_out"
	else
		result "$1" FAIL "a job got < $4 x its group's mean:$_fj_out"
	fi
}
