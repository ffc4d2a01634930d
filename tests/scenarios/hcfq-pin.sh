#!/bin/sh
# budget: 120
# results: read release reuse exit dmesg
# A removed group is not kept by a process that left it (issue 14, item
# 4), cgroup v2 only, where cgroup.stat counts dying io csses. A shell
# in group "pin" reads one byte of an hcfq disk (a sync read: it gets a
# sync queue there, which holds the group's blkg, which holds the
# cgroup's io css), moves itself to the root, and waits; the group is
# removed.
# - read: the first read reached the disk in pin (its io.stat rbytes);
# - release: the root's nr_dying_subsys_io is back where it was within
#   10 s of the rmdir, while the shell is still alive. hcfq drops the
#   sync queues of a group that goes offline; before it did, the group
#   stayed dying until the process did I/O again or exited;
# - reuse: with the page cache dropped, the same shell reads again (a
#   new sync queue, in the root group) and gets its byte;
# - exit: the shell exits and the count is still where it was.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

only_cgmode v2 "needs cgroup v2's cgroup.stat" || exit 0
R=/sys/fs/cgroup
GO=/tmp/pin.go
dying() { awk '$1 == "nr_dying_subsys_io" { print $2 }' "$R/cgroup.stat"; }
# wait up to 10 s for the count to come back to $1; prints it
settle() {
	_i=0
	while [ "$(dying)" -gt "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	dying
}

fair_disk pin hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
CG_CTRLS=+io cg_new pin || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
P=$(cg_path pin)
base=$(dying)
rm -f "$GO" "$ODIR/pin.1" "$ODIR/pin.2"
# shellcheck disable=SC2016
sh -c 'echo $$ > "$1/cgroup.procs" || exit 1
	read -r -n 1 x < "$2"; echo "$?" > "$3.1"
	echo $$ > /sys/fs/cgroup/cgroup.procs || exit 1
	while [ ! -e "$4" ]; do sleep 0.1; done
	read -r -n 1 x < "$2"; echo "$?" > "$3.2"
	while [ -e "$4" ]; do sleep 0.1; done' sh "$P" "$DEV" "$ODIR/pin" "$GO" &
pid=$!
i=0
while [ ! -s "$ODIR/pin.1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
# the shell is in the root once it waits (its sleeps are children)
i=0
while ! grep -qx 0::/ "/proc/$pid/cgroup" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if [ "$(cat "$ODIR/pin.1" 2>/dev/null)" != 0 ] || ! grep -qx 0::/ "/proc/$pid/cgroup"; then
	result "$SCEN" FAIL "the reader did not read in pin and move to the root"
	kill "$pid" 2>/dev/null
	exit 0
fi
# it only reads: its io.stat bytes are its reads
rb=$(cg_io_bytes pin "$MM")
if [ "$rb" -gt 0 ]; then
	result "$SCEN:read" PASS "the reader read $rb bytes from the disk in pin"
else
	result "$SCEN:read" FAIL "pin read nothing from the disk: its queue was never made"
fi
rmdir "$P" || { result "$SCEN" FAIL "rmdir pin failed"; kill "$pid"; exit 0; }
sed -i '/^pin /d' /tmp/cg.map
after=$(settle "$base")
metric "$SCEN:release" "base=$base after_rmdir=$after"
if [ "$after" -le "$base" ]; then
	result "$SCEN:release" PASS "nr_dying_subsys_io back to $after after the rmdir, its old member still alive"
else
	result "$SCEN:release" FAIL "nr_dying_subsys_io $after, was $base: the removed group is kept by a process that left it"
fi
sync
echo 3 > /proc/sys/vm/drop_caches
touch "$GO"
i=0
while [ ! -s "$ODIR/pin.2" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ "$(cat "$ODIR/pin.2" 2>/dev/null)" = 0 ]; then
	result "$SCEN:reuse" PASS "the same process read again from the root group"
else
	result "$SCEN:reuse" FAIL "the second read did not complete: '$(cat "$ODIR/pin.2" 2>/dev/null)'"
fi
rm -f "$GO"
wait "$pid"
end=$(settle "$base")
if [ "$end" -le "$base" ]; then
	result "$SCEN:exit" PASS "nr_dying_subsys_io $end after the process exited"
else
	result "$SCEN:exit" FAIL "nr_dying_subsys_io $end after the process exited, was $base"
fi
nullb_destroy pin
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
