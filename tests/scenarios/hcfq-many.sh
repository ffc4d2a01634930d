#!/bin/sh
# budget: 900
# results: read100 read100-tput read100-jobs write100 write100-tput write100-jobs dmesg
# More processes than scheduler tags. Three cgroups at 100/300/600, each
# with N QD1 processes (fio numjobs, 8 KiB O_DIRECT, sequential), for N
# in MANY_JOBS (default 100; "64 100" ran until 2026-12, with the same
# results at 64), reads and writes, nr_requests left at
# the kernel's default. `none` runs first, then hcfq, MANY_RT s each, on
# the QD1 2 ms disk, or on MANY_DISK's null_blk parameters:
# - group shares of the bytes moved while all three groups ran
#   (fair_window) within +-MANY_TOL (3) points of 10/30/60 (fio's own
#   shares, whose 20 s windows start up to seconds apart, as a metric).
#   Recomputed from the samples of the last four boots, that window was
#   0.0 to 0.7 points off in all 16 runs, where fio's bytes were 0.7 to
#   3.7 and the old fixed window 0.6 to 3.7;
# - hcfq's total at least 0.9 x none's;
# - every process gets at least a third of its group's mean, in each
#   group whose processes averaged at least 40 requests (at 10 %, 100
#   processes move 4 requests each in 10 s: too few for a minimum to
#   mean anything).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${MANY_RT:-20}
# shellcheck disable=SC2086
fair_disk many none ${MANY_DISK-} || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g3:300 g6:600" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
for n in ${MANY_JOBS:-100}; do
	for rw in read write; do
		a="--rw=$rw --bs=8k --direct=1 --ioengine=psync --numjobs=$n"
		for s in none hcfq; do
			set_sched "$DEV" "$s" || { result "$SCEN:$rw$n" FAIL "set_sched $s failed"; continue 2; }
			FAIR_SCHED=$s
			fair_run "$s-$rw$n" "$RT" "g1:$a;g3:$a;g6:$a"
		done
		fair_check "$SCEN:$rw$n" "hcfq-$rw$n" win "g1:10 g3:30 g6:60" "${MANY_TOL:-3}"
		metric "$SCEN:$rw$n-fio" "$(fair_dev "$ODIR/hcfq-$rw$n.fio" "g1:10 g3:30 g6:60")"
		fair_vs "$SCEN:$rw$n-tput" "hcfq-$rw$n" "none-$rw$n" 0.9
		fair_jobs "$SCEN:$rw$n-jobs" "hcfq-$rw$n" "g1 g3 g6" 0.333 $((40 * 8192))
	done
done
nullb_destroy many
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
