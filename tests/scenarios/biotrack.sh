#!/bin/sh
# budget: 180
# results: g1-charged g1-not-more root-not-g1 dmesg
# biotrack (patches/0009, 0010): writeback is charged to the cgroup that dirtied
# the pages, whoever writes it back. ext4 on a QD1 null_blk under hcfq;
# each case dirties 8 MiB with a buffered dd and then runs sync from the
# root cgroup, so the bios come from the flusher or from sync, i.e. the
# root, and only the dirtier's record can move them.
#  1. dirtied in g1: g1's written bytes rise by 8 MiB (at least 90 %, at
#     most 125 %); on v1 the root's own by less than 2 MiB (journal,
#     metadata). Before biotrack all of it was the root's on v1.
#  2. dirtied by the root shell: the root's bytes rise by at least 90 %
#     of 8 MiB (v1), g1's by less than 0.5 MiB.
#  3. dirtied in g2, g2 removed before the sync: written back as the
#     root's on v1 (at least 90 %), no warning on either version.
#  4. dirtied in g1/g4, g4 removed before the sync: charged to g1, its
#     nearest online ancestor, on v1 (at least 90 %).
# Counters: hcfq's blkio.io_service_bytes on v1 (the root's file is its
# own I/O), io.stat wbytes on v2 (where cgroup writeback with the memory
# controller charges the dirtier too; the v2 run checks that biotrack
# leaves that alone). The debug-kernel boot runs this too (KASAN, lockdep).
. /tests/guest/lib.sh
. /tests/guest/lat.sh

MB=8
SZ=$((MB << 20))

lat_setup bt || { result "$SCEN" FAIL "disk setup failed"; lat_teardown bt; exit 0; }
cg_new g1 && cg_new g2 || { result "$SCEN" FAIL "cgroup setup failed"; lat_teardown bt; exit 0; }
set_sched "$DEV" hcfq || { result "$SCEN" FAIL "set_sched failed"; lat_teardown bt; exit 0; }
ROOT=$(cg_root)
G1=$(cg_path g1)
G2=$(cg_path g2)

# 1. dirtied in g1
lat_dirty_in g1 "$MNT/f1" $MB
r1=$(lat_own_wbytes "$ROOT"); a1=$(lat_own_wbytes "$G1")
metric "$SCEN" case=g1 "g1_mib=$LAT_GRP_W" "root_mib=$LAT_ROOT_W"
lat_assert "$SCEN:g1-charged" "$LAT_GRP_W" ge "$(lat_mib $((SZ * 9 / 10)))" "MiB of g1's writeback charged to g1"
lat_assert "$SCEN:g1-not-more" "$LAT_GRP_W" le "$(lat_mib $((SZ * 5 / 4)))" "MiB charged to g1"
[ "$CGMODE" = v1 ] && lat_assert "$SCEN:g1-root-own" "$LAT_ROOT_W" le 2 "MiB the root wrote itself meanwhile"

# 2. dirtied by the root
dd if=/dev/zero of="$MNT/f2" bs=1M count=$MB 2> /dev/null
sync
r2=$(lat_own_wbytes "$ROOT"); a2=$(lat_own_wbytes "$G1")
log "root dirtied: g1 wrote $(lat_mib $((a2 - a1))) MiB, root $(lat_mib $((r2 - r1))) MiB"
metric "$SCEN" case=root "g1_mib=$(lat_mib $((a2 - a1)))" "root_mib=$(lat_mib $((r2 - r1)))"
[ "$CGMODE" = v1 ] && lat_assert "$SCEN:root-charged" "$(lat_mib $((r2 - r1)))" ge "$(lat_mib $((SZ * 9 / 10)))" "MiB of the root's writeback charged to the root"
lat_assert "$SCEN:root-not-g1" "$(lat_mib $((a2 - a1)))" le 0.5 "MiB of the root's writeback charged to g1"

# 3. dirtied in g2, g2 removed before writeback
lat_exec g2 dd if=/dev/zero of="$MNT/f3" bs=1M count=$MB 2> /dev/null
rmdir "$G2" || log "rmdir g2 failed"
sync
r3=$(lat_own_wbytes "$ROOT")
log "g2 dirtied and removed: root wrote $(lat_mib $((r3 - r2))) MiB"
metric "$SCEN" case=removed "root_mib=$(lat_mib $((r3 - r2)))"
[ "$CGMODE" = v1 ] && lat_assert "$SCEN:removed-to-root" "$(lat_mib $((r3 - r2)))" ge "$(lat_mib $((SZ * 9 / 10)))" "MiB of a removed group's writeback charged to the root"

# 4. dirtied in g1/g4, g4 removed before writeback: its nearest online
#    ancestor, g1, is charged
cg_new g4 g1 || log "cg_new g4 failed"
b4=$(lat_own_wbytes "$G1")
lat_exec g4 dd if=/dev/zero of="$MNT/f4" bs=1M count=$MB 2> /dev/null
rmdir "$(cg_path g4)" || log "rmdir g4 failed"
sync
a4=$(lat_own_wbytes "$G1")
log "g1/g4 dirtied, g4 removed: g1 wrote $(lat_mib $((a4 - b4))) MiB"
metric "$SCEN" case=removed-child "g1_mib=$(lat_mib $((a4 - b4)))"
[ "$CGMODE" = v1 ] && lat_assert "$SCEN:removed-to-parent" "$(lat_mib $((a4 - b4)))" ge "$(lat_mib $((SZ * 9 / 10)))" "MiB of a removed child's writeback charged to its parent"

lat_rm "$MNT/f1" "$MNT/f2" "$MNT/f3" "$MNT/f4"
lat_teardown bt
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
