#!/bin/sh
# budget: 90
# results: no-banner g1-not-charged root-charged page-owner dmesg
# biotrack=off beside another page_ext client (v1; the boot runs with
# "biotrack=off page_owner=on", see tests/plan). page_ext calls every
# client's init once any client needs its space, so biotrack's init runs
# even when biotrack=off made it ask for none; it must stay off then, or
# it writes its records at offset 0 of page_ext, over the flags that
# page_owner uses. On an ext4 null_blk under hcfq:
# - no-banner: biotrack's boot line ("charging writeback ...") is absent;
# - 8 MiB dirtied in g1 and synced from the root: g1 is charged less
#   than 0.5 MiB (g1-not-charged) and the root at least 90 % of it
#   (root-charged), as without biotrack;
# - page-owner: /sys/kernel/debug/page_owner lists allocations.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

case " $(cat /proc/cmdline) " in
*" biotrack=off "*) ;;
*) result "$SCEN" FAIL "needs biotrack=off on the kernel command line"; exit 0 ;;
esac
MB=8
SZ=$((MB << 20))

dmesg | grep -q 'biotrack: charging'
[ $? -ne 0 ]
check_rc "$SCEN:no-banner" $? "biotrack's boot line: $(dmesg | grep biotrack | tail -n1)"

lat_setup bto || { result "$SCEN" FAIL "disk setup failed"; lat_teardown bto; exit 0; }
cg_new g1 && set_sched "$DEV" hcfq ||
	{ result "$SCEN" FAIL "cgroup or scheduler setup failed"; lat_teardown bto; exit 0; }

lat_dirty_in g1 "$MNT/f1" $MB
lat_assert "$SCEN:g1-not-charged" "$LAT_GRP_W" le 0.5 "MiB of g1's writeback charged to g1 (biotrack off)"
lat_assert "$SCEN:root-charged" "$LAT_ROOT_W" ge "$(lat_mib $((SZ * 9 / 10)))" "MiB of g1's writeback charged to the root"

po=/sys/kernel/debug/page_owner
if [ -r $po ]; then
	n=$(head -c 1000000 $po | grep -c '^Page allocated')
	[ "$n" -gt 0 ]
	check_rc "$SCEN:page-owner" $? "$n allocations in the first MB of $po"
else
	result "$SCEN:page-owner" FAIL "$po missing (CONFIG_PAGE_OWNER and page_owner=on)"
fi
lat_rm "$MNT/f1"
lat_teardown bto
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
