#!/bin/sh
# budget: 900
# results: cost shares
# make bench: hcfq with many active groups (issue 15, item 8). Meant for
# an icount boot (tests/plan.bench), where IOPS count instructions.
# - cost: K = 1, 100 and 1000 groups, each with one dd doing 4 KiB
#   O_DIRECT sequential reads, on a null_blk that completes at once (the
#   CPU is the bottleneck). IOPS under none and under hcfq (slice_idle
#   and group_idle 0, so that idling does not decide throughput), two
#   rounds of at least 5 s each (timed by /proc/uptime), while the same
#   K processes run. The table gives hcfq/none and hcfq's extra guest
#   time per I/O, (1/IOPS_hcfq - 1/IOPS_none); how that grows from
#   K = 100 to 1000 says whether the per-request cost grows faster than
#   log(K). Numbers only: the result reports that the table was made.
# - shares: on the QD1 2 ms null_blk at hcfq's defaults, 997 groups at
#   weight 1 each run a dd, and three groups at 100, 300 and 600 each a
#   QD1 fio reader for 30 s. Among the three, the bytes must be 10/30/60
#   within 5 points. $ODIR/state has the disk's and hcfq's state every
#   5 s.
# SCALE_COST=0 leaves the cost part out, SCALE_NR=N runs the shares at
# nr_requests N, SCALE_LOWLAT=0 with low_latency off (set on the kernel
# command line, EXTRA_CMDLINE).
. /tests/guest/lib.sh

# This shell and what it runs (sleep, awk) at SCHED_FIFO, the dd and fio
# processes at SCHED_OTHER: with 1000 runnable dd processes on one vCPU a
# normal shell waits seconds for each wakeup (util-linux's chrt, by path:
# busybox has none)
CHRT=/usr/bin/chrt
$CHRT -f -p 10 $$ || { result "$SCEN" FAIL "chrt -f failed"; exit 0; }
R=$(cg_root)/scale
mkdir -p "$R"
[ "$CGMODE" = v2 ] && echo "+io" > "$R/cgroup.subtree_control"
if [ "$CGMODE" = v1 ]; then WF=blkio.weight WMIN=10; else WF=io.weight WMIN=1; fi
# groups that could not be made or weighted: any fails the scenario
WFAIL=0

# spawn FROM TO DEV WEIGHT: groups b<FROM>..b<TO>, a dd each. The dd
# processes already running are stopped meanwhile, and each new one
# stops itself before its dd starts: on one vCPU, 100 busy dd processes
# leave the spawning shell too little CPU to start 900 more. All of them
# continue once every new one has stopped. Their pids: $ODIR/pids.
spawn() {
	touch "$ODIR/pids"
	# shellcheck disable=SC2046
	kill -STOP $(cat "$ODIR/pids") 2>/dev/null
	_i=$1
	while [ "$_i" -le "$2" ]; do
		mkdir -p "$R/b$_i" && echo "$4" > "$R/b$_i/$WF" || WFAIL=$((WFAIL + 1))
		$CHRT -o 0 sh -c "echo \$\$ > $R/b$_i/cgroup.procs && kill -STOP \$\$ &&
			exec dd if=$3 of=/dev/null bs=4k count=100000000 skip=$((_i * 4096)) iflag=direct 2>/dev/null" &
		echo $! >> "$ODIR/pids"
		_i=$((_i + 1))
	done
	# every process stopped (state T) before the CONT, or a late one
	# would stop itself after it and never run
	_w=0
	while [ $_w -lt 600 ]; do
		# shellcheck disable=SC2046
		_run=$(awk '$3 != "T" { n++ } END { print n + 0 }' \
			$(sed 's|.*|/proc/&/stat|' "$ODIR/pids") 2>/dev/null)
		[ "$_run" = 0 ] && break
		sleep 0.5
		_w=$((_w + 1))
	done
	# shellcheck disable=SC2046
	kill -CONT $(cat "$ODIR/pids")
}
stop_all() {
	# shellcheck disable=SC2046
	kill -CONT $(cat "$ODIR/pids") 2>/dev/null
	killall -q dd
	wait
	: > "$ODIR/pids"
	for _d in "$R"/b*; do rmdir "$_d" 2>/dev/null; done
}
# reads DEV: "completed-reads uptime", read by one process: with 1000
# runnable processes the shell's sleep 5 lasts far longer than 5 s
reads() {
	awk 'FILENAME == "/proc/uptime" { t = $1; next } { r = $1 } END { print r, t }' \
		"/sys/block/$(basename "$1")/stat" /proc/uptime
}

# ---- cost
[ "${SCALE_COST:-1}" = 0 ] && result "$SCEN:cost" SKIP "SCALE_COST=0"
[ "${SCALE_COST:-1}" = 0 ] || {
	dev=$(nullb_create scl irqmode=0 completion_nsec=0 hw_queue_depth=64 size=1048576) ||
		{ result "$SCEN" FAIL "nullb_create failed"; exit 0; }
	Q=/sys/block/$(basename "$dev")/queue
	: > "$ODIR/cost"
	prev=0
	for K in 1 100 1000; do
		spawn $((prev + 1)) $K "$dev" 100
		prev=$K
		sleep 3
		for round in 1 2; do
			for s in none hcfq; do
				set_sched "$dev" "$s" || continue
				if [ "$s" = hcfq ]; then
					echo 0 > "$Q/iosched/slice_idle"
					echo 0 > "$Q/iosched/group_idle"
				fi
				sleep 1
				a=$(reads "$dev")
				sleep 5
				b=$(reads "$dev")
				iops=$(echo "$a $b" | awk '{ printf "%d", ($3 - $1) / ($4 - $2) }')
				echo "$K $s $round $iops" >> "$ODIR/cost"
				log "K=$K $s round $round: $iops IOPS over $(echo "$a $b" | awk '{ print $4 - $2 }') s"
			done
		done
	done
	stop_all
	echo none > "$Q/scheduler"
	nullb_destroy scl
	awk '{ v[$1, $2] += $4 / 2; r[$1, $2, $3] = $4; if (!($1 in seen)) { seen[$1] = 1; o[++k] = $1 } }
	END {
		printf "%6s %10s %10s %11s %9s %13s\n", "groups", "none IOPS", "hcfq IOPS", "hcfq spread", "hcfq/none", "extra us/IO"
		for (i = 1; i <= k; i++) {
			K = o[i]; n = v[K, "none"]; h = v[K, "hcfq"]
			a = r[K, "hcfq", 1]; b = r[K, "hcfq", 2]
			x[K] = (h && n) ? 1e6 / h - 1e6 / n : 0
			printf "%6d %10d %10d %10.1f%% %9.2f %13.2f\n", K, n, h,
				h ? 100 * (a > b ? a - b : b - a) / h : 0, n ? h / n : 0, x[K]
		}
		if (x[100] > 0)
			printf "extra cost from 100 to 1000 groups: x %.2f (log(1000)/log(100) = 1.50)\n", x[1000] / x[100]
	}' "$ODIR/cost" > "$ODIR/cost.txt"
	text "$SCEN:cost" < "$ODIR/cost.txt"
	n=$(wc -l < "$ODIR/cost")
	[ "$n" = 12 ] && [ "$WFAIL" = 0 ]
	check_rc "$SCEN:cost" $? "cost table for 1, 100 and 1000 groups ($n of 12 measurements, $WFAIL groups not set up)"
}

# ---- shares at 1000 groups
dev=$(nullb_create shr) && set_sched "$dev" hcfq "${SCALE_NR-}" ||
	{ result "$SCEN:shares" FAIL "disk setup failed"; exit 0; }
[ -n "${SCALE_LOWLAT-}" ] && echo "$SCALE_LOWLAT" > "/sys/block/$(basename "$dev")/queue/iosched/low_latency"
spawn 1 997 "$dev" $WMIN
sleep 5
for g in 1:100 3:300 6:600; do
	n=m${g%%:*}
	mkdir "$R/$n" && echo "${g#*:}" > "$R/$n/$WF" || WFAIL=$((WFAIL + 1))
	$CHRT -o 0 sh -c "echo \$\$ > $R/$n/cgroup.procs && exec fio --name=$n --filename=$dev \
		--rw=randread --bs=8k --direct=1 --ioengine=psync --time_based --runtime=30 \
		--offset=$((${g%%:*} * 512))m --size=512m --output-format=terse --terse-version=3 \
		--output=$ODIR/fio.$n" > /dev/null 2>&1 &
done
sleep 2
s0=$(awk '{ print $3 }' "/sys/block/$(basename "$dev")/stat")
wait_fio=0
while pidof fio > /dev/null && [ $wait_fio -lt 120 ]; do
	if [ $((wait_fio % 5)) = 3 ]; then
		# for the log: the load, the disk's counters, hcfq's state and
		# the measured groups' io.stat
		_d=/sys/kernel/debug/block/$(basename "$dev")
		{
			echo "t=$wait_fio"
			cat /proc/loadavg "/sys/block/$(basename "$dev")/stat" "$_d/sched/active" "$_d/sched/busy"
			for n in m1 m3 m6; do echo "$n $(cat "$R/$n/io.stat" 2>&1)"; done
		} >> "$ODIR/state"
	fi
	sleep 1
	wait_fio=$((wait_fio + 1))
done
s1=$(awk '{ print $3 }' "/sys/block/$(basename "$dev")/stat")
stop_all
for n in m1 m3 m6; do echo "$n $(fio_bytes "$ODIR/fio.$n")"; done > "$ODIR/shares.bytes"
shares < "$ODIR/shares.bytes" > "$ODIR/shares.pct"
dev_pts=$(awk 'BEGIN { w["m1"] = 10; w["m3"] = 30; w["m6"] = 60 }
	{ d = $2 - w[$1]; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.1f", m }' "$ODIR/shares.pct")
tot=$(awk '{ s += $2 } END { print s + 0 }' "$ODIR/shares.bytes")
# the three's part of all the disk read from 2 s after their start to
# their end (their weights' part: 1000 / (1000 + 997 x WMIN))
disk=$(awk -v t="$tot" -v a="$s0" -v b="$s1" -v w="$WMIN" \
	'BEGIN { printf("%.1f%% (weights: %.1f%%)", (b > a) ? 100 * t / ((b - a) * 512) : 0, 100000 / (1000 + 997 * w)) }')
metric "$SCEN:shares" "$(tr '\n' ' ' < "$ODIR/shares.pct") bytes $tot, of the disk $disk"
awk -v d="$dev_pts" -v t="$tot" -v f="$WFAIL" 'BEGIN { exit !(t > 0 && d <= 5 && f == 0) }'
check_rc "$SCEN:shares" $? "997 groups at weight $WMIN busy; the three measured: $(tr '\n' ' ' < "$ODIR/shares.pct")(want 10/30/60 within 5 points: off by $dev_pts; $WFAIL groups not set up)"
nullb_destroy shr
