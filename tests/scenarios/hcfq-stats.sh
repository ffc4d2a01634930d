#!/bin/sh
# budget: 120
# results: .
# hcfq's CFQ-style v1 stat files count what the scheduler did (cgroup v1).
# Groups p and p/c; two 8 KiB O_DIRECT QD1 readers run 3 s in p/c, then
# two writers 3 s in p/c. Two, so that one's request waits in hcfq while
# the other's is on the QD1 disk: a request that is dispatched as soon
# as it is queued waits 0 ns, since hcfq reads the block layer's time,
# which a submitter's plug reads once. Then:
#  - c's blkio.io_service_bytes Read/Write = fio's bytes (within 1 %),
#    and blkio.io_serviced = bytes / 8 KiB (the disk's max request);
#  - p's _recursive files (bytes, serviced, sectors, time) equal c's own;
#    p's own files count nothing;
#  - blkio.io_queued reads 0 everywhere once the I/O is over, and
#    io_wait_time / io_service_time are counted;
#  - after rmdir c, p's _recursive files still hold c's counts;
#  - blkio.reset_stats zeroes p's files.
. /tests/guest/lib.sh

only_cgmode v1 "v1 only, not on $CGMODE" || exit 0
dev=$(nullb_create st) || { result "$SCEN" FAIL "nullb_create failed"; exit 0; }
MM=$(dev_majmin "$dev")
set_sched "$dev" hcfq || { result "$SCEN" FAIL "set_sched failed"; nullb_destroy st; exit 0; }
cg_new p && cg_new c p || { result "$SCEN" FAIL "cgroup setup failed"; nullb_destroy st; exit 0; }
P=$(cg_path p) C=$(cg_path c)
fails=0
bad() { log "FAIL: $*"; fails=$((fails + 1)); }

# sum of the $2 lines (Read, Write, Total, ...) for our device in file $1
rw() { awk -v d="$MM" -v k="$2" '$1 == d && $2 == k { s += $3 } END { print s + 0 }' "$1"; }
# the value of a "MAJ:MIN N" file
one() { awk -v d="$MM" '$1 == d { s += $2 } END { print s + 0 }' "$1"; }
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }

for rwm in read write; do
	cg_exec c fio --name=st --filename="$dev" --rw=$rwm --bs=8k --direct=1 \
		--ioengine=psync --numjobs=2 --time_based --runtime=3 --size=1g \
		--output-format=terse --terse-version=3 --output="$ODIR/fio.$rwm" > /dev/null 2>&1
done
rb=$(fio_bytes "$ODIR/fio.read")
wb=$(fio_bytes "$ODIR/fio.write")
cr=$(rw "$C/blkio.io_service_bytes" Read); cw=$(rw "$C/blkio.io_service_bytes" Write)
log "fio read $rb write $wb; c: Read $cr Write $cw"
near "$cr" "$rb" 1 || bad "c Read bytes $cr vs fio $rb"
near "$cw" "$wb" 1 || bad "c Write bytes $cw vs fio $wb"
ios=$(rw "$C/blkio.io_serviced" Total)
[ "$ios" = $(((cr + cw) / 8192)) ] || bad "c io_serviced $ios vs $(((cr + cw) / 8192))"
for f in io_service_bytes io_serviced io_service_time io_wait_time; do
	a=$(rw "$C/blkio.$f" Total); b=$(rw "$P/blkio.${f}_recursive" Total)
	[ "$a" -gt 0 ] || bad "c $f is 0"
	[ "$a" = "$b" ] || bad "p ${f}_recursive $b vs c $f $a"
	[ "$(rw "$P/blkio.$f" Total)" = 0 ] || bad "p's own $f is not 0"
done
for f in sectors time; do
	a=$(one "$C/blkio.$f"); b=$(one "$P/blkio.${f}_recursive")
	[ "$a" -gt 0 ] && [ "$a" = "$b" ] || bad "p ${f}_recursive $b vs c $f $a"
done
[ "$(one "$C/blkio.sectors")" = $(((cr + cw) / 512)) ] || bad "c sectors $(one "$C/blkio.sectors")"
for g in "$P" "$C"; do
	q=$(rw "$g/blkio.io_queued_recursive" Total)
	[ "$q" = 0 ] || bad "$g io_queued_recursive $q after the I/O"
done
sb=$(rw "$C/blkio.io_service_bytes" Total)
rmdir "$C" || bad "rmdir c"
sleep 1
b=$(rw "$P/blkio.io_service_bytes_recursive" Total)
[ "$b" = "$sb" ] || bad "after rmdir c: p io_service_bytes_recursive $b vs $sb"
echo 1 > "$P/blkio.reset_stats" || bad "reset_stats write"
b=$(rw "$P/blkio.io_service_bytes_recursive" Total)
[ "$b" = 0 ] || bad "after reset_stats: p io_service_bytes_recursive $b"
set_sched "$dev" none
rmdir "$P"
nullb_destroy st
check_rc "$SCEN" "$fails" "stat files agree with fio and with each other ($fails failures)"
