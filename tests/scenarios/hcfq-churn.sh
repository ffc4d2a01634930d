#!/bin/sh
# budget: 240
# results: .
# Churn: switch the scheduler none -> hcfq -> mq-deadline -> hcfq under
# load, and rmdir cgroups right after their I/O ends, several times. No
# write may fail, every fio must succeed, and the kernel must not
# complain (the host also scans the console for splats).
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk churn none || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
q=/sys/block/$(basename "$DEV")/queue
errs=0 fioerr=0
for round in 1 2 3; do
	cg_new "c$round" && cg_new "d$round" || errs=$((errs + 1))
	pids=
	for g in "c$round" "d$round"; do
		cg_exec "$g" fio --name="$g" --filename="$DEV" --rw=randrw --bs=8k \
			--direct=1 --ioengine=libaio --iodepth=4 --time_based \
			--runtime=6 --size=256m --output=/dev/null > /dev/null 2>&1 &
		pids="$pids $!"
	done
	for s in none hcfq mq-deadline hcfq; do
		echo "$s" > "$q/scheduler" || errs=$((errs + 1))
		[ "$s" = hcfq ] && { cg_weight "c$round" hcfq 800 || errs=$((errs + 1)); }
		sleep 1
	done
	# every fio succeeds: a switch drains and requeues, it loses nothing
	for p in $pids; do
		wait "$p" || { errs=$((errs + 1)); fioerr=$((fioerr + 1)); }
	done
	# rmdir as soon as the I/O has ended, with hcfq still attached
	rmdir "$(cg_path "c$round")" "$(cg_path "d$round")" || errs=$((errs + 1))
done
# buffered writes through the async queues, then remove the group
cg_new wb && cg_exec wb dd if=/dev/zero of="$DEV" bs=64k count=200 2>/dev/null
sync
rmdir "$(cg_path wb)" || errs=$((errs + 1))
echo none > "$q/scheduler" || errs=$((errs + 1))
nullb_destroy churn || errs=$((errs + 1))
metric "$SCEN" "errors=$errs fio_failed=$fioerr"
dmesg_check > "$ODIR/dmesg.bad"
bad=$?
if [ "$errs" = 0 ] && [ "$bad" = 0 ]; then
	result "$SCEN" PASS "3 rounds of switches under load and rmdir: no errors"
else
	result "$SCEN" FAIL "$errs failed operations ($fioerr of them fio runs), dmesg_check=$bad"
fi
