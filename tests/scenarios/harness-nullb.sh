#!/bin/sh
# budget: 150
# results: 2xdefault-1job default-3jobs
# null_blk at a fixed completion time is the bottleneck, not the emulated
# CPU: 8 KiB O_DIRECT psync reads (QD1) must reach 66-100 % of the ideal
# 1e9/completion_nsec IOPS with three concurrent jobs in three cgroups at
# the harness default ($NULLB_NSEC, what the fairness scenarios run), and
# one job at twice the default 55-100 %. Three jobs gave 72 to 91 % over
# eight boots; 72 % on a day when the same host ran every boot 7 to 90 %
# slower, so the per-request emulated CPU path, not the disk, sets the
# lower end. Fairness is judged by shares and by ratios to `none` in the
# same boot, which such a day does not move. Under TCG each request of a
# lone QD1 job also waits for emulated completion and wakeup: 0.5 to 1.4
# ms (one job at 4 ms: 78-85 % in six local boots, 73 % on CI's
# machine, 62 and 69 % on 2026-12-02, when the host was slow and one job
# at 2 ms gave 54-56 %), so a lone job is judged against 55 %: the disk
# is busy at least as long as the CPU keeps it waiting. One job at the
# default and at 1 ms is measured too with NULLB_1JOB=1 (metrics only;
# not in make check): 66-73 % at 1 ms and 70-79 % at 2 ms, 45-56 % on
# that slow day.
# NULLB_SWEEP=N1,N2,... (kernel command line) also measures those
# completion times (ns), one job and three jobs each (metrics only).
. /tests/guest/lib.sh

RT=${NULLB_RUNTIME:-3}

# measure NSEC NJOBS SCHED -> prints total IOPS (integer)
measure() {
	_ns=$1 _nj=$2 _sch=$3 _tag=$1ns-$2j-$3
	_dev=$(nullb_create nb) || return 1
	set_sched "$_dev" "$_sch" || return 1
	_i=1
	while [ $_i -le "$_nj" ]; do
		cg_new "j$_i" 2>/dev/null
		cg_exec "j$_i" fio --name="j$_i" --filename="$_dev" --rw=read --bs=8k \
			--direct=1 --ioengine=psync --time_based --runtime="$RT" \
			--offset=$(((_i - 1) * 1024))m --size=1g \
			--output-format=terse --terse-version=3 \
			--output="$ODIR/fio.$_tag.$_i" &
		_i=$((_i + 1))
	done
	wait
	nullb_destroy nb
	cat "$ODIR"/fio."$_tag".* | fio_iops -
}

judge() { # name iops nsec min-pct
	_ideal=$((1000000000 / $3))
	_pct=$(($2 * 100 / _ideal))
	metric "$1" "iops=$2" "ideal=$_ideal" "pct=$_pct" "min=$4"
	if [ $_pct -ge "$4" ] && [ $_pct -le 102 ]; then
		result "$1" PASS "$2 IOPS = $_pct % of $_ideal"
	else
		result "$1" FAIL "$2 IOPS = $_pct % of $_ideal (want $4-100 %)"
	fi
}

DEFAULT_NSEC=$NULLB_NSEC
# one job at 1 ms and at the default: informational (see above)
[ "${NULLB_1JOB-}" = 1 ] && for ns in 1000000 "$DEFAULT_NSEC"; do
	NULLB_NSEC=$ns
	iops=$(measure "$ns" 1 mq-deadline)
	metric "$SCEN:1job" "nsec=$ns" "iops=$iops" "ideal=$((1000000000 / ns))" \
		"pct=$((iops * ns / 10000000))"
done
NULLB_NSEC=$((2 * DEFAULT_NSEC))
judge "$SCEN:2xdefault-1job" "$(measure "$NULLB_NSEC" 1 mq-deadline)" "$NULLB_NSEC" 55
NULLB_NSEC=$DEFAULT_NSEC
judge "$SCEN:default-3jobs" "$(measure "$DEFAULT_NSEC" 3 mq-deadline)" "$DEFAULT_NSEC" 66

for ns in $(echo "${NULLB_SWEEP-}" | tr ',' ' '); do
	NULLB_NSEC=$ns
	for nj in 1 3; do
		iops=$(measure "$ns" "$nj" mq-deadline)
		metric "$SCEN:sweep" "nsec=$ns" "jobs=$nj" "iops=$iops" "pct=$((iops * ns / 10000000))"
	done
done
