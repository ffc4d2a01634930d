#!/bin/sh
# budget: 180
# results: fsync allocs dmesg
# Sync writeback on behalf of several groups (issue 14, item 8), cgroup
# v1, where biotrack charges each page's writeback to the group that
# dirtied it. ext4 on a QD1 null_blk under hcfq: g1, g3 and g6 dirty
# one file in turn, 64 KiB at a time (7.5 MiB, half that on the debug
# kernel; below the global background dirty limit of 16 MiB), and a
# process in the root fsyncs it. Its writeback is REQ_SYNC, from one
# process, charged to three groups in turn.
# The flusher is kept asleep meanwhile, so that the fsync writes most
# of it. With dirty_writeback_centisecs at 0, as it was, the first dirty
# inode woke the flusher at once, and after hcfq-bwrite-mix it wrote
# 5.5 to 6.1 MiB of the file first (reason=background, 1.4 to 2.4 MiB
# left to the fsync; 7.53 in boots of this scenario alone).
# - fsync: the fsync returns having written at least 80 % of the file
#   (the disk's sectors written meanwhile; 7.53 MiB of 7.5 with the
#   flusher asleep): about 96 changes of group, so that a queue per
#   change would break the allocs bound; and the
#   groups are charged, after a sync, at least 90 % of what each dirtied;
# - allocs: hcfq allocates at least 3 queues (one for each group; fewer
#   means the count missed them) and at most 12 (kmem_cache_alloc events
#   called from hcfq_alloc_queue()) while the fsync runs. A process has
#   one sync queue in one group, so before hcfq kept sync writeback for
#   other groups apart, every change of group freed the process's queue
#   and made a new one, with a GFP_NOWAIT allocation that may fail.
. /tests/guest/lib.sh
. /tests/guest/lat.sh

only_cgmode v1 "biotrack's per-page charging is v1's" || exit 0
CHUNK=64 N=120
# forks are slow on the debug kernel: half the file there
[ "${VARIANT-}" = debug ] && N=60
T=/sys/kernel/tracing
EV=$T/events/kmem/kmem_cache_alloc

lat_setup wbc || { result "$SCEN" FAIL "disk setup failed"; lat_teardown wbc; exit 0; }
cg_new g1 && cg_new g3 && cg_new g6 || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown wbc; exit 0; }
set_sched "$DEV" hcfq || { result "$SCEN" FAIL "set_sched failed"; lat_teardown wbc; exit 0; }
F=$MNT/shared
: > "$F"
sync
# not 0: a first dirty inode wakes the flusher after this interval, at
# once if it is 0, and the flusher then writes the wb while the wb's
# dirty pages exceed its share of the background limit, a share that
# follows its part of recent writeout (near nothing on a new disk after
# another scenario wrote hundreds of MB). init puts both knobs back.
# Set after the file's sync, on purpose: set before it, the flusher
# still woke from a delayed-work timer during the dirtying in 4 of 5
# boots after hcfq-bwrite-mix and wrote 1.0 to 3.7 MiB of the file.
echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
echo 360000 > /proc/sys/vm/dirty_expire_centisecs
WB=$T/events/writeback/writeback_start
echo > "$T/trace"
echo 1 > "$WB/enable"
echo 1 > "$T/tracing_on"
dirty0=$(awk '/^(Dirty|Writeback):/ { s += $2 } END { print s }' /proc/meminfo)
b1=$(lat_own_wbytes "$(cg_path g1)") b3=$(lat_own_wbytes "$(cg_path g3)") b6=$(lat_own_wbytes "$(cg_path g6)")
i=0
while [ $i -lt $N ]; do
	case $((i % 3)) in 0) g=g1 ;; 1) g=g3 ;; 2) g=g6 ;; esac
	lat_exec $g dd if=/dev/zero of="$F" bs=${CHUNK}k count=1 seek=$i conv=notrunc 2> /dev/null
	i=$((i + 1))
done
echo 0 > "$T/tracing_on"
echo 0 > "$WB/enable"
# who wrote the file before the fsync: writeback started, by reason
early=$(sed -n 's/.*writeback_start: bdi \([^:]*:[^:]*\):.* reason=\([a-z_]*\).*/\1@\2/p' "$T/trace" | sort | uniq -c | awk '{ printf "%s%s:%s", s, $2, $1; s = "," }')
dirty1=$(awk '/^(Dirty|Writeback):/ { s += $2 } END { print s }' /proc/meminfo)
echo > "$T/trace"
echo 'call_site.function == hcfq_alloc_queue' > "$EV/filter" || { result "$SCEN" FAIL "cannot filter $EV"; lat_teardown wbc; exit 0; }
echo 1 > "$EV/enable"
echo 1 > "$T/tracing_on"
w0=$(awk '{ print $5, $7 }' "/sys/block/$(basename "$DEV")/stat")
dd if=/dev/null of="$F" bs=1 count=0 conv=notrunc,fsync 2> /dev/null
rc=$?
w1=$(awk '{ print $5, $7 }' "/sys/block/$(basename "$DEV")/stat")
echo 0 > "$T/tracing_on"
echo 0 > "$EV/enable"
echo 0 > "$EV/filter"
allocs=$(grep -c kmem_cache_alloc "$T/trace")
echo > "$T/trace"
echo 1 > "$T/tracing_on"
sync
w() { lat_mib $(($(lat_own_wbytes "$(cg_path "$1")") - $2)); }
c1=$(w g1 "$b1") c3=$(w g3 "$b3") c6=$(w g6 "$b6")
each=$(lat_mib $((N / 3 * CHUNK * 1024 * 9 / 10)))
reqs=$((${w1% *} - ${w0% *}))
wrote=$(lat_mib $(((${w1#* } - ${w0#* }) * 512)))
want=$(lat_mib $((N * CHUNK * 1024 * 8 / 10)))
metric "$SCEN" "fsync_rc=$rc" "write_requests=$reqs" "fsync_wrote_mib=$wrote" "hcfq_queue_allocs=$allocs" "g1_mib=$c1" "g3_mib=$c3" "g6_mib=$c6" "early_wb=${early:-none}" "dirty_kb_before=$dirty0" "dirty_kb_after=$dirty1"
if [ "$rc" = 0 ] && awk -v a="$c1" -v b="$c3" -v c="$c6" -v e="$each" -v w="$wrote" -v m="$want" \
	'BEGIN { exit !(a >= e && b >= e && c >= e && w >= m) }'; then
	result "$SCEN:fsync" PASS "fsync wrote $wrote MiB (>= $want); charged g1 $c1, g3 $c3, g6 $c6 MiB (each >= $each)"
else
	result "$SCEN:fsync" FAIL "fsync rc $rc, wrote $wrote MiB (want >= $want); charged g1 $c1, g3 $c3, g6 $c6 MiB (each >= $each)"
fi
if [ "$allocs" -ge 3 ] && [ "$allocs" -le 12 ]; then
	result "$SCEN:allocs" PASS "$allocs hcfq queues made for $reqs write requests (3 to 12)"
else
	result "$SCEN:allocs" FAIL "$allocs hcfq queues made for $reqs write requests (want 3 to 12)"
fi
lat_teardown wbc
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
