#!/bin/sh
# budget: 420
# results: io rmdir drained slab dmesg
# Many groups come and go (issue 15, item 1): with hcfq on a QD1 null_blk,
# 1000 cgroups (200 on a kernel with kmemleak, the debug kernel, where
# each fork takes far longer) are created with weights 100 to 900; each
# runs one dd of two 8 KiB O_DIRECT reads, 25 groups at a time, so that
# hcfq serves 25 groups' queues at once; then all of them are removed.
# Two rounds (one on the debug kernel).
# - io: every dd succeeds;
# - rmdir: every group is removed;
# - drained: afterwards nothing is queued or in the driver;
# - slab: unreclaimable slab after the last round is within 1 MiB of
#   what it was after the first, so what a round's groups hold (reported:
#   SUnreclaim with the groups made, less before) is freed; on the debug
#   kernel, which runs one round, kmemleak at the end of the boot checks.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

N=1000 ROUNDS=2 BATCH=25
if [ -e /sys/kernel/debug/kmemleak ]; then N=200 ROUNDS=1; fi

fair_disk cgl hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
cg_new loop || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
L=$(cg_path loop)
if [ "$CGMODE" = v1 ]; then WF=blkio.weight; else
	WF=io.hcfq.weight
	echo "+io" > "$L/cgroup.subtree_control" || { result "$SCEN" FAIL "+io below loop failed"; exit 0; }
fi

sunreclaim() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
base=$(sunreclaim)
iofail=0 rmfail=0 made=0
r=1
while [ $r -le $ROUNDS ]; do
	: > "$ODIR/fail.$r"
	t0=$(cut -d. -f1 /proc/uptime)
	i=0
	while [ $i -lt $N ]; do
		mkdir "$L/c$i" && echo $((100 + i % 9 * 100)) > "$L/c$i/$WF" && made=$((made + 1))
		i=$((i + 1))
	done
	i=0
	while [ $i -lt $N ]; do
		j=0
		while [ $j -lt $BATCH ] && [ $i -lt $N ]; do
			sh -c "echo \$\$ > $L/c$i/cgroup.procs &&
				exec dd if=$DEV of=/dev/null bs=8k count=2 skip=$((i * 2)) iflag=direct 2>/dev/null" ||
				echo "c$i" >> "$ODIR/fail.$r" &
			i=$((i + 1)) j=$((j + 1))
		done
		wait
	done
	t1=$(cut -d. -f1 /proc/uptime)
	held=$(($(sunreclaim) - base))
	i=0
	while [ $i -lt $N ]; do
		rmdir "$L/c$i" || rmfail=$((rmfail + 1))
		i=$((i + 1))
	done
	t2=$(cut -d. -f1 /proc/uptime)
	n=$(wc -l < "$ODIR/fail.$r")
	iofail=$((iofail + n))
	# group teardown is asynchronous (RCU, css release work)
	sleep 3
	eval "slab$r=$(sunreclaim)"
	metric "$SCEN:round$r" "groups $N io_s $((t1 - t0)) rmdir_s $((t2 - t1)) dd_failed $n sunreclaim_kb $(sunreclaim) held_kb $held"
	r=$((r + 1))
done

[ $iofail = 0 ] && [ $made = $((N * ROUNDS)) ]
check_rc "$SCEN:io" $? "$made of $((N * ROUNDS)) groups made and weighted; $iofail dd runs failed (want 0)"
left=$(find "$L" -mindepth 1 -type d | wc -l)
[ $rmfail = 0 ] && [ "$left" = 0 ]
check_rc "$SCEN:rmdir" $? "$rmfail rmdir failures, $left groups left"
sched_drained "$SCEN:drained" "$DEV" "after $ROUNDS rounds"
if [ $ROUNDS -ge 2 ]; then
	eval "last=\$slab$ROUNDS"
	d=$((last - slab1))
	[ $d -le 1024 ]
	check_rc "$SCEN:slab" $? "SUnreclaim after round 1 $slab1 kB, after round $ROUNDS $last kB: grew $d kB (want <= 1024; a round's groups held $held kB)"
else
	result "$SCEN:slab" SKIP "one round on this kernel; kmemleak checks at the end of the boot"
fi
nullb_destroy cgl
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
