#!/bin/sh
# budget: 90
# results: .
# Bad input to every hcfq file (and to io.weight on v2) fails with a clear errno and changes
# nothing: -ERANGE for out-of-range weights, -EINVAL for malformed input,
# -ENODEV for unknown devices. Good input is read back as written.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

fair_disk bad hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
cg_new g || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }
G=$(cg_path g)
IOS=/sys/block/$(basename "$DEV")/queue/iosched
fails=0

# expect FILE VALUE ERROR-TEXT ("" = must succeed)
expect() {
	before=$(cat "$1")
	msg=$( (echo "$2" > "$1") 2>&1 )
	rc=$?
	if [ -z "$3" ]; then
		[ $rc = 0 ] && return 0
		log "FAIL: '$2' > $1 failed: $msg"
	else
		after=$(cat "$1")
		case "$msg" in
		*"$3"*) [ $rc != 0 ] && [ "$before" = "$after" ] && return 0 ;;
		esac
		log "FAIL: '$2' > $1: rc=$rc '$msg', wanted '$3'; before '$before' after '$after'"
	fi
	fails=$((fails + 1))
}
ERANGE="out of range" EINVAL="Invalid argument" ENODEV="No such device"

if [ "$CGMODE" = v1 ]; then
	# distinct values: a leaf weight write must not be lost, nor follow
	# a later blkio.weight write
	for fw in blkio.leaf_weight:300 blkio.weight:700; do
		f=${fw%:*} w=${fw#*:}
		expect "$G/$f" 9 "$ERANGE"
		expect "$G/$f" 1001 "$ERANGE"
		expect "$G/$f" abc "$EINVAL"
		expect "$G/$f" "$w" ""
	done
	for fw in blkio.leaf_weight:300 blkio.weight:700; do
		f=${fw%:*} w=${fw#*:}
		[ "$(cat "$G/$f")" = "$w" ] || { log "FAIL: $f reads $(cat "$G/$f"), not $w"; fails=$((fails + 1)); }
	done
	for f in blkio.weight_device blkio.leaf_weight_device; do
		expect "$G/$f" "$MM 5000" "$ERANGE"
		expect "$G/$f" "$MM 5" "$ERANGE"
		expect "$G/$f" "$MM abc" "$EINVAL"
		expect "$G/$f" "abc 100" "$EINVAL"
		expect "$G/$f" "259:999 100" "$ENODEV"
		expect "$G/$f" "$MM 200" ""
		grep -q "^$MM 200$" "$G/$f" || { log "FAIL: $f: $(cat "$G/$f")"; fails=$((fails + 1)); }
		expect "$G/$f" "$MM 0" ""
		[ -z "$(cat "$G/$f")" ] || { log "FAIL: $f not removed: $(cat "$G/$f")"; fails=$((fails + 1)); }
	done
	# the v1 stat files exist and parse
	for f in time sectors io_service_bytes io_serviced io_service_time \
		io_wait_time io_merged io_queued; do
		for s in "" _recursive; do
			[ -r "$G/blkio.$f$s" ] && cat "$G/blkio.$f$s" > /dev/null ||
				{ log "FAIL: blkio.$f$s"; fails=$((fails + 1)); }
		done
	done
else
	# io.weight is the block core's (iocost reads it too); io.hcfq.weight
	# is the same file under hcfq's name
	F=$G/io.weight
	A=$G/io.hcfq.weight
	hw() { # hcfq's effective weight for g on the disk, from io.stat
		sed -n "s/^$MM .*hcfq.weight=\([0-9]*\).*/\1/p" "$G/io.stat"
	}
	cg_exec g dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
	for f in "$F" "$A"; do
		expect "$f" 0 "$ERANGE"
		expect "$f" 10001 "$ERANGE"
		expect "$f" "default 0" "$ERANGE"
		expect "$f" foo "$EINVAL"
		expect "$f" "default" "$EINVAL"
		expect "$f" "$MM 0" "$ERANGE"
		expect "$f" "$MM 10001" "$ERANGE"
		expect "$f" "$MM xyz" "$EINVAL"
		expect "$f" "259:999 50" "$ENODEV"
	done
	expect "$F" "default 250" ""
	expect "$A" "$MM 40" ""
	[ "$(head -1 "$F")" = "default 250" ] || { log "FAIL: $(cat "$F")"; fails=$((fails + 1)); }
	grep -q "^$MM 40$" "$F" || { log "FAIL: no $MM 40 in $F"; fails=$((fails + 1)); }
	[ "$(cat "$A")" = "$(cat "$F")" ] || { log "FAIL: $A '$(cat "$A")' differs from $F"; fails=$((fails + 1)); }
	[ "$(hw)" = 40 ] || { log "FAIL: hcfq uses '$(hw)', not $MM 40"; fails=$((fails + 1)); }
	expect "$F" "$MM default" ""
	grep -q "^$MM" "$F" && { log "FAIL: $MM override not removed"; fails=$((fails + 1)); }
	[ "$(hw)" = 250 ] || { log "FAIL: hcfq uses '$(hw)', not the default 250"; fails=$((fails + 1)); }
	expect "$A" 300 ""
	[ "$(head -1 "$F")" = "default 300" ] || { log "FAIL: $(cat "$F")"; fails=$((fails + 1)); }
	[ "$(hw)" = 300 ] || { log "FAIL: hcfq uses '$(hw)', not 300"; fails=$((fails + 1)); }
	grep -q "hcfq.time=" "$(cg_root)/io.stat" || { log "FAIL: no hcfq keys in io.stat"; fails=$((fails + 1)); }
fi
for t in slice_idle slice_sync group_idle quantum target_latency; do
	expect "$IOS/$t" abc "$EINVAL"
	expect "$IOS/$t" -1 "$EINVAL"
	expect "$IOS/$t" 99999999 "$ERANGE"
done
expect "$IOS/quantum" 0 "$ERANGE"
expect "$IOS/low_latency" 2 "$ERANGE"
expect "$IOS/slice_idle_us" 500 ""
[ "$(cat "$IOS/slice_idle_us")" = 500 ] || { log "FAIL: slice_idle_us"; fails=$((fails + 1)); }
set_sched "$DEV" none
if [ "$CGMODE" = v1 ]; then
	# the per-device files are the block core's: they take a device
	# weight whatever runs on the disk (runc writes them under bfq too),
	# and keep it across a switch to hcfq, each apart from the other
	expect "$G/blkio.weight_device" "$MM 200" ""
	expect "$G/blkio.leaf_weight_device" "$MM 300" ""
	set_sched "$DEV" hcfq
	grep -q "^$MM 200$" "$G/blkio.weight_device" || { log "FAIL: weight_device after a switch: $(cat "$G/blkio.weight_device")"; fails=$((fails + 1)); }
	grep -q "^$MM 300$" "$G/blkio.leaf_weight_device" || { log "FAIL: leaf_weight_device after a switch: $(cat "$G/blkio.leaf_weight_device")"; fails=$((fails + 1)); }
	expect "$G/blkio.weight_device" "$MM 0" ""
	[ -z "$(cat "$G/blkio.weight_device")" ] || { log "FAIL: weight_device not removed"; fails=$((fails + 1)); }
	grep -q "^$MM 300$" "$G/blkio.leaf_weight_device" || { log "FAIL: leaf_weight_device went with weight_device"; fails=$((fails + 1)); }
	expect "$G/blkio.leaf_weight_device" "$MM default" ""
	[ -z "$(cat "$G/blkio.leaf_weight_device")" ] || { log "FAIL: leaf_weight_device not removed"; fails=$((fails + 1)); }
	set_sched "$DEV" none
	rmdir "$G"
	nullb_destroy bad
else
	# io.weight takes a device weight whatever runs on the disk, keeps it
	# across scheduler switches, and drops it with the disk
	expect "$F" "$MM 200" ""
	set_sched "$DEV" hcfq
	cg_exec g dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
	[ "$(hw)" = 200 ] || { log "FAIL: after a switch hcfq uses '$(hw)', not 200"; fails=$((fails + 1)); }
	nullb_destroy bad
	# the disk's last reference may go a moment after rmdir
	n=0
	while grep -q "^$MM" "$F" && [ $n -lt 20 ]; do sleep 0.1; n=$((n + 1)); done
	grep -q "^$MM" "$F" && { log "FAIL: $MM kept after the disk went: $(cat "$F")"; fails=$((fails + 1)); }
	# a disk still held open when it is deleted: its weights go at
	# del_gendisk, not when its last reference does, so the next disk,
	# which null_blk gives the same dev_t, starts without them, and a
	# weight written for the new disk survives the old disk's release
	fair_disk bad hcfq || { log "FAIL: second disk setup"; fails=$((fails + 1)); }
	old=$MM
	expect "$F" "$MM 300" ""
	sleep 30 < "$DEV" &
	holder=$!
	sleep 0.5
	nullb_destroy bad
	grep -q "^$old" "$F" && { log "FAIL: $old kept while the deleted disk was held open: $(cat "$F")"; fails=$((fails + 1)); }
	fair_disk bad hcfq || { log "FAIL: third disk setup"; fails=$((fails + 1)); }
	if [ "$MM" = "$old" ]; then
		grep -q "^$MM" "$F" && { log "FAIL: the new disk $MM has the old disk's weight: $(cat "$F")"; fails=$((fails + 1)); }
		expect "$F" "$MM 400" ""
		kill "$holder"
		wait "$holder" 2> /dev/null
		sleep 0.5
		grep -q "^$MM 400\$" "$F" || { log "FAIL: the old disk's release dropped the new disk's weight: $(cat "$F")"; fails=$((fails + 1)); }
	else
		log "FAIL: null_blk gave the new disk $MM, not the deleted one's $old"
		fails=$((fails + 1))
		kill "$holder"
		wait "$holder" 2> /dev/null
	fi
	nullb_destroy bad
	rmdir "$G"
fi
metric "$SCEN" "failures=$fails"
dmesg_check > /dev/null || fails=$((fails + 1))
check_rc "$SCEN" "$fails" "bad input rejected with the right errno, nothing changed ($fails failures)"
