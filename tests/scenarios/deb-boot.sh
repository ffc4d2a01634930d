#!/bin/sh
# budget: 120
# results: hcfq biotrack weight
# The kernel of `make deb --boot` (tools/make-deb.sh), booted from its
# linux-image package with the test initramfs, and the package's modules
# appended: not in any plan. On a distribution config most of what the
# harness uses is a module, so it is loaded here first.
# - hcfq: the scheduler is registered (built in, or loaded from the
#   package on the first write of "hcfq" to queue/scheduler) and
#   attaches to a null_blk disk;
# - biotrack: it is on (its boot line);
# - weight: blkio.weight exists on a v1 blkio hierarchy and takes a
#   weight.
. /tests/guest/lib.sh

log "kernel $(uname -r): $(cat /proc/version)"
for m in configfs null_blk; do
	[ -d "/sys/module/$m" ] || modprobe "$m" || log "modprobe $m failed"
done
grep -q ' /sys/kernel/config ' /proc/mounts ||
	mount -t configfs configfs /sys/kernel/config

DEV=$(nullb_create deb) && set_sched "$DEV" hcfq
check_rc "$SCEN:hcfq" $? "hcfq attached to $DEV: $(cat "/sys/block/$(basename "${DEV:-x}")/queue/scheduler" 2>&1)"

# biotrack's boot line (block/blk-biotrack.c)
bt=$(dmesg | grep 'biotrack: charging' | tail -n1)
[ -n "$bt" ]
check_rc "$SCEN:biotrack" $? "biotrack on: '${bt:-no boot line}'"

cg_new g1 && cg_weight g1 hcfq 300 &&
	[ "$(cat "$(cg_path g1)/blkio.weight")" = 300 ]
check_rc "$SCEN:weight" $? "blkio.weight in $(cg_path g1): $(cat "$(cg_path g1)/blkio.weight" 2>&1)"
