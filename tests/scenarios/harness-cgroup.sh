#!/bin/sh
# budget: 60
# results: .
# The cgroup hierarchy /init set up works: v1 has the blkio (and memory)
# hierarchy with the blkio files, v2 has io and memory in
# cgroup.controllers and enabled in the root's subtree_control; a child
# cgroup can be created and gets the io files.
. /tests/guest/lib.sh

rc=0
detail=""
if [ "$CGMODE" = v1 ]; then
	for f in blkio/blkio.throttle.io_service_bytes blkio/blkio.throttle.read_bps_device \
		blkio/cgroup.procs memory/memory.limit_in_bytes; do
		[ -e "/sys/fs/cgroup/$f" ] || { rc=1; detail="$detail missing:$f"; }
	done
	grep -q ' /sys/fs/cgroup/blkio cgroup .*blkio' /proc/mounts || { rc=1; detail="$detail no-blkio-mount"; }
	cg_new hc1 || { rc=1; detail="$detail cg_new"; }
	[ -e "$(cg_path hc1)/blkio.bfq.weight" ] || { rc=1; detail="$detail child-no-bfq.weight"; }
else
	c=$(cat /sys/fs/cgroup/cgroup.controllers)
	echo " $c " | grep -q ' io ' || { rc=1; detail="$detail io-not-in-controllers($c)"; }
	echo " $c " | grep -q ' memory ' || { rc=1; detail="$detail memory-not-in-controllers"; }
	sc=$(cat /sys/fs/cgroup/cgroup.subtree_control)
	echo " $sc " | grep -q ' io ' || { rc=1; detail="$detail io-not-enabled($sc)"; }
	cg_new hc1 || { rc=1; detail="$detail cg_new"; }
	cg_new hc2 hc1 || { rc=1; detail="$detail cg_new-nested"; }
	for f in io.stat io.bfq.weight io.weight io.max memory.max; do
		[ -e "$(cg_path hc2)/$f" ] || { rc=1; detail="$detail child-missing:$f"; }
	done
fi
ls "$(cg_path hc1)" > "$ODIR/files.txt"
[ $rc = 0 ] && detail="$CGMODE hierarchy ok ($(wc -l < "$ODIR/files.txt") files in a child)"
check_rc "$SCEN" $rc "$detail"
