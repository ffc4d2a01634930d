#!/bin/sh
# budget: 60
# results: off restored dmesg
# Writeback throttling (issue 4, item 5): hcfq disables blk-wbt while it
# is the device's scheduler, as bfq does, and the default comes back when
# it leaves. wbt_lat_usec is read under none (the default), then hcfq
# (must read 0), none, hcfq, mq-deadline, hcfq, bfq, none (every non-hcfq
# step except bfq must read the default again). lat-small, lat-bigread
# and lat-prio check the value during their hcfq runs too, so their
# numbers are with wbt off.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

DEV=$(nullb_create wbt) || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
LAT_Q=/sys/block/$(basename "$DEV")/queue
set_sched "$DEV" none
def=$(lat_wbt)
seq=
off=PASS back=PASS
for s in hcfq none hcfq mq-deadline hcfq bfq none; do
	set_sched "$DEV" $s || { off=FAIL; seq="$seq $s:set_sched-failed"; continue; }
	w=$(lat_wbt)
	seq="$seq $s:$w"
	case $s in
	hcfq) [ "$w" = 0 ] || off=FAIL ;;
	bfq) ;;
	*) [ "$w" = "$def" ] || back=FAIL ;;
	esac
done
metric "$SCEN" "nullb_nsec=$NULLB_NSEC" "default=$def" "seq=$(echo $seq | tr ' ' ',')"
case "$def" in ''|0|none) back=FAIL; seq="$seq (no wbt default to compare)" ;; esac
result "$SCEN:off" $off "wbt_lat_usec under hcfq must be 0; default $def;$seq"
result "$SCEN:restored" $back "default $def back after hcfq;$seq"
nullb_destroy wbt
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
