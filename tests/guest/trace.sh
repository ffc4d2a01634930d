# shellcheck shell=sh
# trace.sh - blktrace recording and blkshare reports for guest scenarios.
# Source after lib.sh:
#     . /tests/guest/lib.sh; . /tests/guest/trace.sh
#
#   trace_start DEV NAME
#       turns on the blk_cgroup trace option (cgroup ids on every event
#       and on hcfq's messages) and starts
#           blktrace -d DEV -D $ODIR/trace -o NAME
#       in the background, detached from this shell (a bare "wait" does
#       not wait for it); returns once the trace is running on DEV.
#       Sets TRACE_NAME and TRACE_DIR ($ODIR/trace).
#   trace_stop
#       stops blktrace (SIGTERM: it drains and writes the per-CPU files),
#       turns blk_cgroup off again. blktrace's summary goes to
#       $TRACE_DIR/$TRACE_NAME.log; TRACE_EVENTS and TRACE_DROPPED are set
#       from it. Nonzero if blktrace did not stop or wrote no files.
#   trace_report [PREFIX] [blkshare options]
#       runs blkshare on the recorded trace with --cgroup-root $(cg_root):
#       $ODIR/PREFIX.txt (tables per 1 s interval and total),
#       $ODIR/PREFIX.tsv (same, --format tsv), $ODIR/PREFIX.msgs (--msgs),
#       $ODIR/PREFIX.svg (--svg, device time). PREFIX defaults to shares.
#       Nonzero if blkshare failed.
#   Cgroup names are paths below $(cg_root) without the leading "/"
#   (blkshare prints "/g1"; these helpers take and print "g1").
#   trace_weight_file DEV
#       the cgroup file holding weights for DEV's active scheduler (hcfq:
#       blkio.weight / io.weight, bfq: blkio.bfq.weight /
#       io.bfq.weight, none: io.weight); empty if unknown. blkshare's
#       default order would read io.hcfq.weight (present whenever hcfq is
#       built in) also for BFQ.
#   trace_bytes TSV              "cgroup bytes" per cgroup, whole trace
#   trace_window TSV METRIC "cg ..." [BOUNDS]
#       "cgroup value" per listed cgroup, METRIC bytes|time, summed over
#       the 1 s intervals in which all listed cgroups were running: from
#       one interval after the last group's first dispatch to one interval
#       before the first group's last dispatch (start and end skew of the
#       workloads left out). Empty if there is no such window. BOUNDS,
#       if given, is a file that gets "first last" interval numbers.
#   trace_dev FILE "name:expected% ..."
#       FILE has "name value" lines; prints "maxdev name=share% ...", the
#       largest |share - expected| in points. maxdev is 100 if a listed
#       name is missing or FILE has others.
#   trace_demo_start DEV / trace_demo_end   the demo's recording (below)
#   blk_ftrace DEV CGID CGNAME OUT CMD...
#       runs CMD with the ftrace blk tracer on DEV (options blk_cgroup =
#       CGID, blk_cgname = CGNAME, each 0 or 1) and writes the trace to
#       OUT; returns CMD's status. Text, unlike blktrace's files, which
#       Debian's blkparse 1.2.0 cannot read when they carry cgroup ids
#   svg_check FILE "label ..."
#       nonzero unless FILE looks like a complete SVG document with a
#       plotted band (<path) and a legend entry for each label

# running and not a zombie: blktrace is detached from the scenario's shell
# (so that a plain "wait" for the workload does not wait for it too) and
# is reaped by /init only at the end
_trace_alive() {
	_ta_s=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -n "$_ta_s" ] && [ "$_ta_s" != Z ]
}

trace_start() {
	TRACE_DEV=$1 TRACE_NAME=$2 TRACE_DIR=$ODIR/trace TRACE_PID=
	_ts_b=$(basename "$TRACE_DEV")
	mkdir -p "$TRACE_DIR"
	rm -f "$TRACE_DIR/$TRACE_NAME".blktrace.*
	# the option file works whatever the current tracer is
	echo 1 > /sys/kernel/tracing/options/blk_cgroup ||
		{ log "trace_start: cannot set options/blk_cgroup"; return 1; }
	(blktrace -d "$TRACE_DEV" -D "$TRACE_DIR" -o "$TRACE_NAME" \
		> "$TRACE_DIR/$TRACE_NAME.log" 2>&1 < /dev/null &
	 echo $! > "$TRACE_DIR/$TRACE_NAME.pid")
	TRACE_PID=$(cat "$TRACE_DIR/$TRACE_NAME.pid")
	# BLKTRACESETUP + START make trace/enable read 1
	_ts_i=0
	while [ "$(cat "/sys/block/$_ts_b/trace/enable" 2>/dev/null)" != 1 ]; do
		if [ $_ts_i -ge 100 ] || ! _trace_alive "$TRACE_PID"; then
			log "trace_start: blktrace on $TRACE_DEV did not start: $(cat "$TRACE_DIR/$TRACE_NAME.log")"
			return 1
		fi
		sleep 0.1
		_ts_i=$((_ts_i + 1))
	done
	# let the per-CPU reader threads get going
	sleep 0.5
	return 0
}

trace_stop() {
	[ -n "$TRACE_PID" ] || return 1
	kill -TERM "$TRACE_PID" 2>/dev/null
	_tp_i=0
	while _trace_alive "$TRACE_PID" && [ $_tp_i -lt 100 ]; do
		sleep 0.1
		_tp_i=$((_tp_i + 1))
	done
	_tp_rc=0
	if _trace_alive "$TRACE_PID"; then
		log "trace_stop: blktrace $TRACE_PID still running, killing it"
		kill -KILL "$TRACE_PID" 2>/dev/null
		_tp_rc=1
	fi
	TRACE_PID=
	echo 0 > /sys/kernel/tracing/options/blk_cgroup
	# "Total: N events (dropped D), X KiB data"
	TRACE_EVENTS=$(sed -n 's/.*Total:[[:space:]]*\([0-9]*\) events.*/\1/p' "$TRACE_DIR/$TRACE_NAME.log" | tail -n1)
	TRACE_DROPPED=$(sed -n 's/.*(dropped \([0-9]*\)).*/\1/p' "$TRACE_DIR/$TRACE_NAME.log" | tail -n1)
	: "${TRACE_EVENTS:=0}" "${TRACE_DROPPED:=NA}"
	ls "$TRACE_DIR/$TRACE_NAME".blktrace.* > /dev/null 2>&1 ||
		{ log "trace_stop: no trace files: $(cat "$TRACE_DIR/$TRACE_NAME.log")"; return 1; }
	return $_tp_rc
}

trace_report() {
	_tr_p=${1:-shares}
	[ $# -gt 0 ] && shift
	_tr_in=$TRACE_DIR/$TRACE_NAME
	_tr_rc=0
	blkshare --cgroup-root "$(cg_root)" "$@" "$_tr_in" \
		> "$ODIR/$_tr_p.txt" 2> "$ODIR/$_tr_p.err" || _tr_rc=1
	blkshare --cgroup-root "$(cg_root)" --format tsv "$@" "$_tr_in" \
		> "$ODIR/$_tr_p.tsv" 2>> "$ODIR/$_tr_p.err" || _tr_rc=1
	blkshare --cgroup-root "$(cg_root)" --no-intervals --msgs "$@" "$_tr_in" \
		> "$ODIR/$_tr_p.msgs" 2>> "$ODIR/$_tr_p.err" || _tr_rc=1
	blkshare --cgroup-root "$(cg_root)" --no-intervals --svg "$ODIR/$_tr_p.svg" "$@" "$_tr_in" \
		> /dev/null 2>> "$ODIR/$_tr_p.err" || _tr_rc=1
	[ $_tr_rc = 0 ] || log "trace_report: blkshare failed: $(head -n3 "$ODIR/$_tr_p.err")"
	return $_tr_rc
}

trace_weight_file() {
	_tw_s=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$(basename "$1")/queue/scheduler" 2>/dev/null)
	case "$CGMODE/$_tw_s" in
	v1/hcfq) echo blkio.weight ;;
	v2/hcfq) echo io.weight ;;
	v1/bfq) echo blkio.bfq.weight ;;
	v2/bfq) echo io.bfq.weight ;;
	v2/none) echo io.weight ;;
	esac
}

trace_bytes() {
	awk -F'\t' '$1 == "total" { c = $5; if (c != "/") sub(/^\//, "", c); print c, $11 }' "$1"
}

trace_window() {
	awk -F'\t' -v m="$2" -v cgs="$3" -v bf="${4:-/dev/null}" '
		BEGIN { n = split(cgs, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
		$1 == "interval" { if ($5 != "/") sub(/^\//, "", $5) }
		$1 == "interval" && ($5 in want) {
			k = $2 + 0
			if ($12 > 0) {
				if (!($5 in first) || k < first[$5]) first[$5] = k
				if (!($5 in last) || k > last[$5]) last[$5] = k
			}
			v[$5, k] = (m == "time") ? $13 : $11
		}
		END {
			a = -1; b = -1
			for (i = 1; i <= n; i++) {
				if (!(c[i] in first)) exit
				if (a < 0 || first[c[i]] > a) a = first[c[i]]
				if (b < 0 || last[c[i]] < b) b = last[c[i]]
			}
			a++; b--
			if (a > b) exit
			print a, b > bf
			for (i = 1; i <= n; i++) {
				s = 0
				for (k = a; k <= b; k++) s += v[c[i], k]
				printf "%s %.9g\n", c[i], s
			}
		}' "$1"
}

trace_dev() {
	awk -v spec="$2" '
		BEGIN { n = split(spec, e, " "); for (i = 1; i <= n; i++) {
			split(e[i], kv, ":"); want[kv[1]] = kv[2] } }
		{ name[NR] = $1; v[NR] = $2; t += $2; if (!($1 in want)) bad = 1 }
		END {
			if (NR != n || t <= 0) bad = 1
			for (i = 1; i <= NR; i++) {
				sh = t > 0 ? 100 * v[i] / t : 0
				d = sh - want[name[i]]; if (d < 0) d = -d; if (d > m) m = d
				out = out sprintf(" %s=%.1f", name[i], sh)
			}
			printf "%.1f%s\n", bad ? 100 : m, out
		}' "$1"
}

svg_check() {
	[ -s "$1" ] || return 1
	head -c 200 "$1" | grep -q '<svg' || return 1
	tail -c 20 "$1" | grep -q '</svg>' || return 1
	grep -q '<path ' "$1" || return 1
	for _sc_l in $2; do
		grep -q ">/\{0,1\}$_sc_l</text>" "$1" || return 1
	done
	return 0
}

# For tests/scenarios/demo.sh: record the run, then write the blkshare
# tables and the plot into $ODIR and show the totals. Best effort: the
# demo's own results do not depend on it; result $SCEN:plot says whether
# the SVG was written.
#   trace_demo_start DEV   before the workload starts
#   trace_demo_end         after it has finished
trace_demo_start() {
	TRACE_DEMO=0
	trace_start "$1" "$SCEN" && TRACE_DEMO=1
}

trace_demo_end() {
	if [ "$TRACE_DEMO" != 1 ]; then
		result "$SCEN:plot" FAIL "blktrace did not start"
		return 0
	fi
	_td_w=$(trace_weight_file "$TRACE_DEV")
	if trace_stop && trace_report shares --interval 1 ${_td_w:+--weight-file "$_td_w"} &&
	   svg_check "$ODIR/shares.svg" ""; then
		{
			echo
			echo "blkshare (blktrace of the run, dropped events: $TRACE_DROPPED):"
			sed -n '/^total/,$p' "$ODIR/shares.txt"
		} > "$ODIR/blkshare.txt"
		text "$SCEN" < "$ODIR/blkshare.txt"
		result "$SCEN:plot" PASS "blkshare table $ODIR/shares.txt, plot $ODIR/shares.svg"
	else
		result "$SCEN:plot" FAIL "no blkshare plot: $(head -n1 "$ODIR/shares.err" 2>/dev/null)"
	fi
	return 0
}

blk_ftrace() {
	_bf_t=/sys/kernel/tracing _bf_b=$(basename "$1") _bf_o=$4
	echo 0 > $_bf_t/tracing_on
	echo blk > $_bf_t/current_tracer
	echo "$2" > $_bf_t/options/blk_cgroup
	echo "$3" > $_bf_t/options/blk_cgname
	echo > $_bf_t/trace
	echo 1 > "/sys/block/$_bf_b/trace/enable"
	echo 1 > $_bf_t/tracing_on
	shift 4
	"$@"
	_bf_rc=$?
	echo 0 > $_bf_t/tracing_on
	echo 0 > "/sys/block/$_bf_b/trace/enable"
	cat $_bf_t/trace > "$_bf_o"
	echo nop > $_bf_t/current_tracer
	return $_bf_rc
}
