#!/bin/sh
# budget: 240
# results: move move-drained remove remove-rmdir dmesg
# Lifetime under I/O, with hcfq attached (issue 15):
# - move: four QD1 O_DIRECT readers (two processes each in g1 and g2,
#   weights 100 and 900) while every 100 ms all of their fio processes
#   (two mains, four jobs) are moved to the other group, until the runs
#   end, after 24 s on the debug kernel (a round took 1.7 to 3 s there
#   under TCG: 5 rounds in 10 s in one boot, and 4 rounds in 16 s on a
#   slow host on 2026-12-02) and 12 s on the normal kernel (a round
#   takes 0.1 s): at least 4 rounds and 12 moves in all, two rounds'
#   worth (on the debug kernel some writes to cgroup.procs fail while
#   fio runs: 4.2 to 5.1 moves a round in 2026-11, 2.5 and 2.8 on that
#   slow day), every fio succeeds, and then nothing is left queued or
#   in the driver (debugfs busy);
# - remove: readers and writers in three weighted groups and 12.5 MiB
#   of a buffered writer's dirty pages, then the null_blk device is
#   powered off and removed through configfs while they run: that
#   returns within 30 s (it writes the dirty pages first), every process
#   ends within 60 s after (with I/O errors; fio's exit is slow on the
#   debug kernel under TCG), and the groups can be removed afterwards.
# The host and dmesg_check fail the boot on any splat.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

# ---- move
MRT=12
[ "${VARIANT-}" = debug ] && MRT=24
fair_disk lifem hcfq hw_queue_depth=2 || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "g1:100 g2:900" || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
pids=
for g in g1 g2; do
	cg_exec "$g" fio --name="mv$g" --filename="$DEV" --rw=randread --bs=8k \
		--direct=1 --ioengine=psync --numjobs=2 --time_based --runtime=$MRT \
		--size=256m --output="$ODIR/move.$g" > /dev/null 2>&1 &
	pids="$pids $!"
done
# the fio processes (two mains, four jobs), from the groups' process
# lists, as soon as all six exist
i=0
while [ $i -lt 120 ]; do
	movers=$(cat "$(cg_path g1)/cgroup.procs" "$(cg_path g2)/cgroup.procs")
	[ "$(echo $movers | wc -w)" -ge 6 ] && break
	sleep 0.25
	i=$((i + 1))
done
P1=$(cg_path g1) P2=$(cg_path g2)
moves=0 rounds=0
# until the fio runs end (MRT s): a round takes 0.1 s on the normal
# kernel, and 1.7 to 3 s on the debug kernel, where a migration is slow
alive_any() {
	for _p in $pids; do kill -0 "$_p" 2>/dev/null && return 0; done
	return 1
}
while alive_any; do
	# odd rounds to g2, even rounds back to g1
	to=$P1
	[ $((rounds % 2)) = 0 ] && to=$P2
	for p in $movers; do
		echo "$p" > "$to/cgroup.procs" 2>/dev/null && moves=$((moves + 1))
	done
	rounds=$((rounds + 1))
	sleep 0.1
done
bad=0
for p in $pids; do
	wait "$p" || bad=$((bad + 1))
done
np=$(echo $movers | wc -w)
if [ "$bad" = 0 ] && [ "$np" -ge 6 ] && [ "$rounds" -ge 4 ] &&
   [ "$moves" -ge 12 ]; then
	result "$SCEN:move" PASS "$rounds rounds, $moves moves of $np fio processes between g1 and g2 under I/O; every fio succeeded"
else
	result "$SCEN:move" FAIL "$rounds rounds (want >= 4), $moves moves of $np processes (want 6 processes, >= 12 moves); $bad fio runs failed"
fi
sched_drained "$SCEN:move-drained" "$DEV" "after the moves"
nullb_destroy lifem
rmdir "$(cg_path g1)" "$(cg_path g2)" 2>/dev/null

# ---- remove
fair_disk lifer hcfq || { result "$SCEN:remove" FAIL "disk setup failed"; exit 0; }
fair_groups hcfq "r1:100 r3:300 r6:600" || { result "$SCEN:remove" FAIL "cgroup setup failed"; exit 0; }
pids=
i=0
for g in r1 r3 r6; do
	rw="read"
	[ "$g" = r6 ] && rw="write"
	cg_exec "$g" fio --name="rm$g" --filename="$DEV" --rw=$rw --bs=8k \
		--direct=1 --ioengine=psync --time_based --runtime=30 \
		--offset=$((i * 512))m --size=512m --output="$ODIR/remove.$g" \
		> /dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
# and a buffered writer, so that writeback is in flight too
cg_exec r3 dd if=/dev/zero of="$DEV" bs=64k count=200 seek=30000 2> /dev/null &
pids="$pids $!"
# remove it under I/O: once every group has moved data (fio takes
# seconds to start on the debug kernel)
i=0
while [ $i -lt 120 ]; do
	n=0
	for g in r1 r3 r6; do
		[ "$(grp_bytes "$g")" -gt 0 ] && n=$((n + 1))
	done
	[ "$n" = 3 ] && break
	sleep 0.25
	i=$((i + 1))
done
sleep 1
t0=$(cut -d. -f1 /proc/uptime)
echo 0 > /sys/kernel/config/nullb/lifer/power
rmdir /sys/kernel/config/nullb/lifer
# powering off waits for the dirty pages to be written first
tp=$(cut -d. -f1 /proc/uptime)
# shellcheck disable=SC2086
wait_gone 60 $pids
left=$WAIT_LEFT
took=$(($(cut -d. -f1 /proc/uptime) - tp))
if [ "$n" != 3 ]; then
	result "$SCEN:remove" FAIL "only $n of 3 groups had done I/O after 30 s"
elif [ "$left" = 0 ] && [ $((tp - t0)) -le 30 ]; then
	result "$SCEN:remove" PASS "device removed under I/O in $((tp - t0)) s; all 4 readers and writers ended $took s after"
else
	result "$SCEN:remove" FAIL "removal took $((tp - t0)) s (want <= 30); $left of 4 processes still running $took s after"
	for p in $pids; do kill -9 "$p" 2>/dev/null; done
fi
wait
rmf=
for g in r1 r3 r6; do
	rmdir "$(cg_path "$g")" 2>/dev/null || rmf="$rmf $g"
done
if [ -z "$rmf" ]; then
	result "$SCEN:remove-rmdir" PASS "groups removed after the device went away"
else
	result "$SCEN:remove-rmdir" FAIL "rmdir failed for:$rmf"
fi
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
