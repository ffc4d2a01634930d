#!/bin/sh
# budget: 60
# results: device-before-enable default per-device-survives dmesg
# io.weight is the block core's file, and iocost still follows it. The
# weights iocost uses are read from its iocg_activate tracepoint
# ("weight=ACTIVE/INUSE", in units of 1/65536), not from shares, which
# iocost does not hold on this disk model:
#  - a per-device weight written while the disk runs none, before iocost
#    is enabled on it (EOPNOTSUPP before io.weight moved to the core);
#  - the cgroup default, and a change of it while the cgroup is idle;
#  - a per-device weight kept across a switch to hcfq and back.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

only_cgmode v2 "iocost is cgroup v2 only" || exit 0
fair_disk iow none || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
T=/sys/kernel/tracing
E=$T/events/iocost/iocost_iocg_activate
[ -d "$E" ] || { result "$SCEN" FAIL "no iocost_iocg_activate tracepoint"; exit 0; }
cg_new wa && cg_new wb || { result "$SCEN" FAIL "cgroup setup failed"; exit 0; }

# iocg weight ($1's last activation on the disk) after reads in $1 (and $2)
act_weight() {
	echo > "$T/trace"
	echo 1 > "$E/enable"
	for _g in "$@"; do
		cg_exec "$_g" dd if="$DEV" of=/dev/null bs=8k count=200 iflag=direct 2>/dev/null &
	done
	wait
	echo 0 > "$E/enable"
	sed -n "s/.*\\[[^:]*:\\/$1\\] .* weight=\\([0-9]*\\)\\/.*/\\1/p" "$T/trace" |
		tail -n1 | awk '{ printf "%d", $1 / 65536 }'
}

echo "$MM 700" > "$(cg_path wb)/io.weight"
rc=$?
echo "default 200" > "$(cg_path wa)/io.weight" || rc=1
echo "$MM enable=1" > /sys/fs/cgroup/io.cost.qos || { result "$SCEN" FAIL "io.cost.qos enable failed"; exit 0; }
wa_w=$(act_weight wa wb) wb_w=$(act_weight wb wa)
[ $rc = 0 ] && [ "$wb_w" = 700 ]
check_rc "$SCEN:device-before-enable" $? "'$MM 700' written under none (rc $rc), iocost activates wb at weight '$wb_w'"
[ "$wa_w" = 200 ]
r1=$?
echo "default 50" > "$(cg_path wa)/io.weight"
wa_w2=$(act_weight wa)
[ $r1 = 0 ] && [ "$wa_w2" = 50 ]
check_rc "$SCEN:default" $? "wa at 'default 200': '$wa_w', after 'default 50': '$wa_w2'"

set_sched "$DEV" hcfq && set_sched "$DEV" none
grep -q "^$MM 700$" "$(cg_path wb)/io.weight"
r1=$?
wb_w2=$(act_weight wb)
[ $r1 = 0 ] && [ "$wb_w2" = 700 ]
check_rc "$SCEN:per-device-survives" $? "after a switch to hcfq and back: io.weight '$(tr '\n' ';' < "$(cg_path wb)/io.weight")', iocost weight '$wb_w2'"
echo "$MM enable=0" > /sys/fs/cgroup/io.cost.qos
nullb_destroy iow
dmesg_check
check_rc "$SCEN:dmesg" $? "no kernel warnings"
