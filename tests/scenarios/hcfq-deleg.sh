#!/bin/sh
# budget: 150
# results: user-children user-above user-badinput user-shares ns-root ns-child dmesg
# Delegation on cgroup v2 mounted with nsdelegate (issue 15, item 6),
# with hcfq on a QD1 null_blk. Root delegates deleg/ to uid 1000 the way
# cgroup-v2.rst says (the directory and its cgroup.procs, .threads and
# .subtree_control are chowned) and starts a uid 1000 shell in it.
# - user-children: the user creates deleg/a and deleg/b, moves itself,
#   enables io below deleg and sets io.hcfq.weight, a device weight
#   ("MAJ:MIN 200", then "MAJ:MIN default") and io.weight on its
#   children: every write succeeds;
# - user-above: the user's writes to deleg's own io.hcfq.weight and
#   io.weight and to a sibling's io.hcfq.weight fail with EACCES;
# - user-badinput: on its own child, weight 0 fails with ERANGE and
#   "abc" with EINVAL, and the weight stays;
# - user-shares: the user's fio readers in a (100) and b (300) get
#   25/75 % of the bytes within 3 points;
# - ns-root: a root shell in a cgroup namespace rooted at nsd/ cannot
#   write nsd's io.hcfq.weight or io.weight (EPERM: nsdelegate makes the
#   namespace root a delegation boundary), while root outside can;
# - ns-child: the same shell sets the weight of its namespace's child.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

only_cgmode v2 "delegation is a cgroup v2 interface" || exit 0
C=/sys/fs/cgroup
# util-linux's, by path: busybox sh runs its own applets of these names
SETPRIV=/usr/bin/setpriv UNSHARE=/usr/bin/unshare
[ -x $SETPRIV ] && [ -x $UNSHARE ] ||
	{ result "$SCEN" FAIL "util-linux setpriv or unshare missing from the initramfs"; exit 0; }
mount -o remount,nsdelegate $C ||
	{ result "$SCEN" FAIL "remount with nsdelegate failed"; exit 0; }
grep -q ' /sys/fs/cgroup cgroup2 .*nsdelegate' /proc/mounts ||
	{ result "$SCEN" FAIL "nsdelegate not in /proc/mounts"; exit 0; }

fair_disk dlg hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
chmod 666 "$DEV"
chmod 777 "$ODIR"
D=$C/deleg N=$C/nsd
mkdir $D $N $C/other || { result "$SCEN" FAIL "mkdir failed"; exit 0; }
chown 1000:1000 $D $D/cgroup.procs $D/cgroup.threads $D/cgroup.subtree_control

# try NAME CMD: run CMD, print "NAME ok|EACCES|EPERM|EINVAL|ERANGE|other:msg"
cat > "$ODIR/try.sh" <<'EOF'
try() {
	if _e=$(sh -c "$2" 2>&1); then echo "$1 ok"; return; fi
	case "$_e" in
	*"Permission denied"*) echo "$1 EACCES" ;;
	*"Operation not permitted"*) echo "$1 EPERM" ;;
	*"Invalid argument"*) echo "$1 EINVAL" ;;
	*"out of range"*) echo "$1 ERANGE" ;;
	*) echo "$1 other:$_e" ;;
	esac
}
EOF

# ---- the delegatee (uid 1000)
cat > "$ODIR/user.sh" <<EOF
. $ODIR/try.sh
try mkdir "mkdir $D/a $D/b"
try move "echo \$\$ > $D/a/cgroup.procs"
echo \$\$ > $D/a/cgroup.procs
try enable "echo +io > $D/cgroup.subtree_control"
try weight-a "echo 100 > $D/a/io.hcfq.weight"
try weight-b "echo 300 > $D/b/io.hcfq.weight"
try devweight "echo '$MM 200' > $D/a/io.hcfq.weight"
try devdefault "echo '$MM default' > $D/a/io.hcfq.weight"
try ioweight "echo 'default 100' > $D/a/io.weight"
try zero "echo 0 > $D/a/io.hcfq.weight"
try junk "echo abc > $D/a/io.hcfq.weight"
try own "echo 500 > $D/io.hcfq.weight"
try own-io "echo 'default 500' > $D/io.weight"
try sibling "echo 500 > $C/other/io.hcfq.weight"
echo "uid \$(id -u) in \$(cat /proc/self/cgroup)"
sh -c "echo \\\$\\\$ > $D/b/cgroup.procs && exec fio --name=b --filename=$DEV --rw=randread \
	--bs=8k --direct=1 --ioengine=psync --time_based --runtime=12 --size=256m \
	--output-format=terse --terse-version=3 --output=$ODIR/fio.b" > /dev/null 2>&1 &
fio --name=a --filename=$DEV --rw=randread --bs=8k --direct=1 --ioengine=psync \
	--time_based --runtime=12 --offset=512m --size=256m \
	--output-format=terse --terse-version=3 --output=$ODIR/fio.a > /dev/null 2>&1
echo "fio-a \$?"
wait
EOF
sh -c "echo \$\$ > $D/cgroup.procs && exec $SETPRIV --reuid=1000 --regid=1000 --clear-groups sh $ODIR/user.sh" \
	> "$ODIR/user.out" 2>&1
text "$SCEN:user" < "$ODIR/user.out"

# outcome NAME: what the try of that name got
outcome() { awk -v n="$1" '$1 == n { print $2; exit }' "$2"; }
# expect FILE "name:want ...": empty when all match, else "name=got"
expect() {
	_bad=
	for _p in $2; do
		_g=$(outcome "${_p%%:*}" "$1")
		[ "$_g" = "${_p#*:}" ] || _bad="$_bad ${_p%%:*}=${_g:-missing}"
	done
	echo "$_bad"
}
bad=$(expect "$ODIR/user.out" "mkdir:ok move:ok enable:ok weight-a:ok weight-b:ok devweight:ok devdefault:ok ioweight:ok")
[ -z "$bad" ]
check_rc "$SCEN:user-children" $? "mkdir, move, enable io, io.hcfq.weight, device weight, io.weight on its own children:${bad:- all succeeded}"
bad=$(expect "$ODIR/user.out" "own:EACCES own-io:EACCES sibling:EACCES")
[ -z "$bad" ]
check_rc "$SCEN:user-above" $? "deleg's own weights and a sibling's:${bad:- all EACCES}"
bad=$(expect "$ODIR/user.out" "zero:ERANGE junk:EINVAL")
[ -z "$bad" ] && [ "$(cat $D/a/io.hcfq.weight | head -n1)" = "default 100" ]
check_rc "$SCEN:user-badinput" $? "weight 0 and 'abc' on its child:${bad:- ERANGE and EINVAL}, weight unchanged"

wa=$(cat $D/a/io.hcfq.weight 2>/dev/null | head -n1)
ba=$(fio_bytes "$ODIR/fio.a") bb=$(fio_bytes "$ODIR/fio.b")
sa=$(awk -v a="$ba" -v b="$bb" 'BEGIN { printf "%.1f", a + b ? 100 * a / (a + b) : 0 }')
metric "$SCEN:user-shares" "a $sa b $(awk -v s="$sa" 'BEGIN { printf "%.1f", 100 - s }') bytes $ba $bb"
awk -v s="$sa" -v b="$bb" 'BEGIN { exit !(b > 0 && s >= 22 && s <= 28) }'
check_rc "$SCEN:user-shares" $? "a (100) $sa % of the bytes, b (300) the rest (want 25 +- 3); a's weight file: $wa"

# ---- a root shell in a cgroup namespace rooted at nsd
cat > "$ODIR/ns.sh" <<EOF
. $ODIR/try.sh
try root-weight "echo 500 > $N/io.hcfq.weight"
try root-io "echo 'default 500' > $N/io.weight"
mkdir $N/c
echo \$\$ > $N/c/cgroup.procs
echo +io > $N/cgroup.subtree_control
try child "echo 200 > $N/c/io.hcfq.weight"
echo "cgroup \$(cat /proc/self/cgroup)"
EOF
sh -c "echo \$\$ > $N/cgroup.procs && exec $UNSHARE -C sh $ODIR/ns.sh" > "$ODIR/ns.out" 2>&1
text "$SCEN:ns" < "$ODIR/ns.out"
. "$ODIR/try.sh"
try outside "echo 500 > $N/io.hcfq.weight" >> "$ODIR/ns.out"
bad=$(expect "$ODIR/ns.out" "root-weight:EPERM root-io:EPERM outside:ok")
[ -z "$bad" ]
check_rc "$SCEN:ns-root" $? "namespace root's weights from inside EPERM, from outside ok:${bad:- as expected}"
c=$(cat $N/c/io.hcfq.weight 2>/dev/null | head -n1)
bad=$(expect "$ODIR/ns.out" "child:ok")
[ -z "$bad" ] && [ "$c" = "default 200" ]
check_rc "$SCEN:ns-child" $? "namespace child's weight set from inside:${bad:- ok}, reads '$c'"

mount -o remount $C
grep -q ' /sys/fs/cgroup cgroup2 .*nsdelegate' /proc/mounts && log "nsdelegate still set"
nullb_destroy dlg
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
