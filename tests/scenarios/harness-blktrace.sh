#!/bin/sh
# budget: 90
# results: cgid
# The ftrace blk tracer with options/blk_cgroup records the issuing cgroup's
# id on each event, and it is the cgroup directory's inode number (printed
# as "LOW32,HIGH32" in hex); options/blk_cgname prints the cgroup path
# (v2 only: on v1 the kernel cannot resolve the id and prints "<...>").
# (Debian's blkparse 1.2.0 cannot show cgroup ids, so use ftrace.)
. /tests/guest/lib.sh
. /tests/guest/trace.sh	# blk_ftrace

dev=$(nullb_create bt) || { result "$SCEN" FAIL "nullb_create failed"; exit 0; }
mm=$(dev_majmin "$dev" | tr ':' ',')
cg_new tr || { result "$SCEN" FAIL "cg_new failed"; exit 0; }
ino=$(stat -c %i "$(cg_path tr)")
want=$(printf '%x,0' "$ino")

trace_run() { # cgname(0|1) count -> $ODIR/trace.$1
	blk_ftrace "$dev" 1 "$1" "$ODIR/trace.$1" \
		cg_exec tr dd if="$dev" of=/dev/null bs=8k count="$2" iflag=direct 2>/dev/null
}

# "cg-field" of every Q (queue) event issued by dd
q_ids() {
	awk -v d="$mm" '/ dd-[0-9]+ / { for (i = 1; i < NF - 1; i++)
		if ($i == d && $(i + 2) == "Q") print $(i + 1) }' "$1"
}

trace_run 0 20
n=$(q_ids "$ODIR/trace.0" | wc -l)
good=$(q_ids "$ODIR/trace.0" | grep -cx "$want")
metric "$SCEN" "ino=$ino" "q_events=$n" "matching=$good"
if [ "$n" -ge 20 ] && [ "$good" = "$n" ]; then
	result "$SCEN:cgid" PASS "$n Q events, all with cgroup id $want (inode $ino)"
else
	result "$SCEN:cgid" FAIL "$good of $n Q events carry $want (inode $ino); first: $(q_ids "$ODIR/trace.0" | head -n1)"
fi

# blk_cgname resolves ids on the default (v2) hierarchy only: on v1 the
# kernel prints "<...>" (cgroup_path_from_kernfs_id), so only check v2
if [ "$CGMODE" = v2 ]; then
	trace_run 1 5
	n=$(q_ids "$ODIR/trace.1" | wc -l)
	good=$(q_ids "$ODIR/trace.1" | grep -cx "/tr")
	if [ "$n" -ge 5 ] && [ "$good" = "$n" ]; then
		result "$SCEN:cgname" PASS "$n Q events named /tr"
	else
		result "$SCEN:cgname" FAIL "$good of $n Q events named /tr; first: $(q_ids "$ODIR/trace.1" | head -n1)"
	fi
fi
nullb_destroy bt
