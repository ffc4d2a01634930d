#!/bin/sh
# budget: 150
# results: files hcfq-via-bfq-file bfq-via-core-file systemd-IOWeight systemd-IODeviceWeight dmesg
# One weight, whichever file a tool writes (issue 16). The block cgroup
# core keeps the weights; io.weight, io.bfq.weight and io.hcfq.weight on
# v2, blkio.weight[_device] and blkio.bfq.weight[_device] on v1, all set
# them, and hcfq and bfq both read them.
#  - files: a write to one file reads back from the others; a per-device
#    weight is taken whatever runs on the disk (runc's weightDevice under
#    the other scheduler failed with EOPNOTSUPP before); each file keeps
#    its own range; hcfq's io.stat shows a weight written to io.bfq.weight
#  - hcfq-via-bfq-file: weights 100/300/600 written to the bfq file (what
#    runc and crun write on v2 whenever bfq is built in) reach hcfq: one
#    QD1 8 KiB O_DIRECT sequential reader per group for 15 s, shares within
#    +-3 points of 10/30/60 %
#  - bfq-via-core-file: the same weights written to blkio.weight (v1:
#    runc's and Docker's file) or io.weight (v2: Kubernetes', systemd's)
#    reach bfq. bfq holds no shares with the 2 scheduler tags the kernel
#    gives this disk, so it runs at nr_requests 128, as the issue's runc
#    runs did. What is judged is that the weights arrive, not how
#    closely bfq follows them: g1 gets the least and g6 at least twice
#    g1's share (fair_follows; without the weights every group gets
#    33 %; with bfq's scaled values below, 27/32/40). bfq was 0.4 to
#    1.4 points off 10/30/60 in most boots, but 13.3 in one CI run
#    (23.3/25.0/51.8, TCG) and 6.6 in one of three runs in the icount
#    guest (3.4/36.1/60.5), where hcfq in the same boots was 0.1 to 0.6
#    off; that is bfq's own dispatch, not yet explained. Its weight
#    raising (which runc-weights turns off) does not explain it: with
#    low_latency 0, four icount boots gave 3.6 to 13.4 points off
#    (5.3/43.4/51.3 the worst), g6 short each time. The distance from
#    10/30/60 is reported
#  - systemd-IOWeight, systemd-IODeviceWeight (v2; SKIP on v1, which
#    systemd 258 dropped): systemd's writes replayed in its order, for
#    IOWeight=100/300/600 "N" scaled into bfq's range (100, 118, 145)
#    to io.bfq.weight, then "default N" to io.weight, under bfq; for
#    IODeviceWeight= the same with "MAJ:MIN N", under hcfq. The last
#    write is kept, so the shares follow 100/300/600, not bfq's scaled
#    values (which would give 27/32/40 %): bounds as above (bfq:
#    fair_follows; hcfq: +-3 points)
. /tests/guest/lib.sh
. /tests/guest/fair.sh

RT=${WF_RT:-15}
W="g1:100 g3:300 g6:600"
WANT="g1:10 g3:30 g6:60"
if [ "$CGMODE" = v1 ]; then
	CORE=blkio.weight BFQ=blkio.bfq.weight
	CORE_DEV=blkio.weight_device BFQ_DEV=blkio.bfq.weight_device
else
	CORE=io.weight BFQ=io.bfq.weight CORE_DEV=io.weight BFQ_DEV=io.bfq.weight
fi

fair_disk wf bfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
cg_new wx || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
X=$(cg_path wx)
bad=
# put FILE VALUE: the write must succeed
put() { echo "$2" > "$X/$1" 2>/dev/null || bad="$bad $1<'$2'-failed"; }
# deny FILE VALUE: the write must fail
deny() { echo "$2" > "$X/$1" 2>/dev/null && bad="$bad $1<'$2'-taken"; }
# dfl FILE: the default weight FILE shows (v2's first line "default N")
dfl() { head -n1 "$X/$1" | sed 's/^default //'; }

put "$CORE" 300
[ "$(dfl "$BFQ")" = 300 ] || bad="$bad $BFQ=$(dfl "$BFQ")-after-$CORE"
put "$BFQ" 200
[ "$(dfl "$CORE")" = 200 ] || bad="$bad $CORE=$(dfl "$CORE")-after-$BFQ"
# the disk runs bfq: hcfq's per-device file must take a weight (v1)
put "$CORE_DEV" "$MM 250"
grep -q "^$MM 250$" "$X/$BFQ_DEV" || bad="$bad $BFQ_DEV-lacks-$MM"
put "$CORE_DEV" "$MM default"
if [ "$CGMODE" = v1 ]; then
	# runc writes blkio.leaf_weight_device too when a spec asks
	put blkio.leaf_weight_device "$MM 300"
	grep -q "^$MM 300$" "$X/blkio.leaf_weight_device" || bad="$bad leaf_weight_device-lacks-$MM"
	put blkio.leaf_weight_device "$MM 0"
	deny "$BFQ" 1001
	put "$BFQ" 5
	deny "$CORE" 5
	put "$CORE" 500
else
	deny "$BFQ" 1001
	put "$CORE" 5000
	[ "$(dfl "$BFQ")" = 5000 ] || bad="$bad $BFQ=$(dfl "$BFQ")-after-5000"
	put "$CORE" 100
	grep -q "^$MM" "$X/$CORE_DEV" && bad="$bad $MM-not-removed"
	# hcfq on the disk: a per-device weight written to io.bfq.weight is
	# the one hcfq uses (EOPNOTSUPP before: runc's weightDevice on v2)
	set_sched "$DEV" hcfq || bad="$bad hcfq-not-set"
	put "$BFQ_DEV" "$MM 40"
	cg_exec wx dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
	hw=$(sed -n "s/^$MM .*hcfq.weight=\([0-9]*\).*/\1/p" "$X/io.stat")
	[ "$hw" = 40 ] || bad="$bad hcfq-uses-'$hw'-not-40"
	put "$BFQ_DEV" "$MM default"
fi
rmdir "$X"
[ -z "$bad" ]
check_rc "$SCEN:files" $? "weight files on $CGMODE share one setting${bad:+:$bad}"

# judge NAME SCHED TAG TOL: hcfq's shares within TOL points of WANT;
# for bfq, that the weights reach it (fair_follows)
judge() {
	if [ "$2" = bfq ]; then
		fair_follows "$1" "$3" "$WANT"
	else
		fair_check "$1" "$3" fio "$WANT" "$4"
	fi
}

# shares: hcfq with the bfq file's weights, bfq with the core file's
run_shares() { # NAME SCHED FILE TOL [NR_REQUESTS]
	set_sched "$DEV" "$2" ${5-} || { result "$1" FAIL "cannot select $2"; return; }
	for _g in $W; do
		echo "${_g#*:}" > "$(cg_path "${_g%%:*}")/$3" ||
			{ result "$1" FAIL "writing $3 failed"; return; }
	done
	JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
	fair_run "$2" "$RT" "g1:$JOB;g3:$JOB;g6:$JOB"
	judge "$1" "$2" "$2" "$4"
}
for g in $W; do
	cg_new "${g%%:*}" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
done
run_shares "$SCEN:hcfq-via-bfq-file" hcfq "$BFQ" 3
# back to the defaults, so that bfq can only see the core file's writes
for g in $W; do echo 100 > "$(cg_path "${g%%:*}")/$BFQ"; done
# bfq holds no shares with the kernel's 2 scheduler tags on this disk
# (hcfq raises its own depth): give it 128, as the issue's runc runs did
run_shares "$SCEN:bfq-via-core-file" bfq "$CORE" - 128

# systemd's BFQ scaling (src/core/cgroup.c): 1..100 -> 1..100 and
# 100..10000 -> 100..1000, integer arithmetic
bfq_scaled() {
	if [ "$1" -le 100 ]; then echo $((100 - (100 - $1) * 99 / 99))
	else echo $((100 + ($1 - 100) * 900 / 9900)); fi
}
# systemd_run NAME SCHED DEVICE(0|1) TOL [NR_REQUESTS]
systemd_run() {
	set_sched "$DEV" "$2" ${5-} || { result "$1" FAIL "cannot select $2"; return; }
	for _g in $W; do
		_p=$(cg_path "${_g%%:*}") _w=${_g#*:}
		echo 100 > "$_p/io.weight"
		if [ "$3" = 1 ]; then
			echo "$MM $(bfq_scaled "$_w")" > "$_p/io.bfq.weight" &&
				echo "$MM $_w" > "$_p/io.weight"
		else
			echo "$(bfq_scaled "$_w")" > "$_p/io.bfq.weight" &&
				echo "default $_w" > "$_p/io.weight"
		fi || { result "$1" FAIL "systemd's writes failed"; return; }
	done
	JOB="--rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1"
	fair_run "systemd$3" "$RT" "g1:$JOB;g3:$JOB;g6:$JOB"
	judge "$1" "$2" "systemd$3" "$4"
	for _g in $W; do echo "$MM default" > "$(cg_path "${_g%%:*}")/io.weight"; done
}
if [ "$CGMODE" = v2 ]; then
	systemd_run "$SCEN:systemd-IOWeight" bfq 0 - 128
	systemd_run "$SCEN:systemd-IODeviceWeight" hcfq 1 3
else
	result "$SCEN:systemd-IOWeight" SKIP "systemd sets no I/O weight on v1 since 258"
	result "$SCEN:systemd-IODeviceWeight" SKIP "systemd sets no I/O weight on v1 since 258"
fi
nullb_destroy wf
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
