#!/bin/sh
# budget: 900
# results: ext4-fio-none ext4-fio-hcfq raw-fio-none raw-fio-hcfq ext4-dirty-none ext4-dirty-hcfq ext4-app ext4-dev ext4-tput raw-dirty-none raw-dirty-hcfq raw-app raw-dev raw-tput dmesg
# hcfq-bwrite on cgroup v2 without the memory controller (a boot with
# cgroup_disable=memory): one bdi_writeback writes for all three groups
# and dirty throttling treats them alike, as on v1. With the memory
# controller, every io cgroup has a wb of its own (see hcfq-bwrite.sh),
# so this is not run there.
. /tests/guest/lib.sh
if [ "$CGMODE" != v2 ] || grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
	for r in $(sed -n 's/^# results: //p' "$0"); do
		result "$SCEN:$r" SKIP "needs cgroup v2 and a boot with cgroup_disable=memory"
	done
	exit 0
fi
. /tests/scenarios/hcfq-bwrite.sh
