#!/bin/sh
# budget: 120
# results: cgconfig cgrules shares dmesg
# libcgroup on cgroup v1 (issue 16): the shipped examples,
# tools/examples/cgconfig.conf and cgrules.conf, used as a sysadmin would.
#  - cgconfig: cgconfigparser loads cgconfig.conf; batch/low, mid and
#    high exist with blkio.weight 100, 300 and 600;
#  - cgrules: cgrulesengd (on the proc connector) moves three programs,
#    started in the root cgroup, into those groups by name, as a
#    cgrules.conf written like the example says;
#  - shares: each program then runs one QD1 8 KiB O_DIRECT sequential
#    fio reader on an hcfq disk for LCG_RT seconds (default 15), and
#    fio's shares are within +-3 points of 10/30/60 %.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

only_cgmode v1 "the examples are for cgroup v1" || exit 0
RT=${LCG_RT:-15}
EX=/tools/examples
B=$(cg_root)/batch

# installed as a sysadmin would; cgrulesengd also reads /etc/cgconfig.d
mkdir -p /etc/cgconfig.d /etc/cgrules.d /var/run
cp "$EX/cgconfig.conf" /etc/cgconfig.conf
cgconfigparser -l /etc/cgconfig.conf > "$ODIR/cgconfigparser.log" 2>&1
rc=$?
got=
for gw in low:100 mid:300 high:600; do
	got="$got ${gw%:*}=$(cat "$B/${gw%:*}/blkio.weight" 2>/dev/null)"
done
[ $rc = 0 ] && [ "$got" = " low=100 mid=300 high=600" ]
check_rc "$SCEN:cgconfig" $? "cgconfigparser rc=$rc, blkio.weight:$got"

fair_disk lcg hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
# the example cgrules.conf, and rules for the test programs by name
{
	cat "$EX/cgrules.conf"
	echo "*:lcg-low	blkio	batch/low"
	echo "*:lcg-mid	blkio	batch/mid"
	echo "*:lcg-high	blkio	batch/high"
} > /etc/cgrules.conf
cgrulesengd -n -v --logfile="$ODIR/cgrulesengd.log" > "$ODIR/cgrulesengd.out" 2>&1 &
DPID=$!
sleep 2
bad=
kill -0 "$DPID" 2>/dev/null ||
	bad=" cgrulesengd-exited:$(tail -n2 "$ODIR/cgrulesengd.log" 2>/dev/null | tr '\n' ' ')"
# each program: a script named after its rule, which waits for
# cgrulesengd's move, records its cgroup and execs fio (which inherits it)
i=0
pids=
for n in low mid high; do
	cat > "/tmp/lcg-$n" <<SCRIPT
#!/bin/sh
sleep 2
grep blkio /proc/self/cgroup > $ODIR/lcg-$n.cgroup
exec fio --name=$n --filename=$DEV --offset=$((i * 512))m --size=512m \\
	--time_based --runtime=$RT --rw=read --bs=8k --direct=1 --ioengine=psync \\
	--iodepth=1 --output-format=terse --terse-version=3 --output=$ODIR/lcg.fio.$n
SCRIPT
	chmod +x "/tmp/lcg-$n"
	"/tmp/lcg-$n" > /dev/null 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
for p in $pids; do wait "$p" || bad="$bad fio-rc"; done
kill "$DPID" 2>/dev/null
wait "$DPID" 2>/dev/null
moved=
for n in low mid high; do
	c=$(cut -d: -f3 "$ODIR/lcg-$n.cgroup" 2>/dev/null)
	moved="$moved $n:$c"
	[ "$c" = "/batch/$n" ] || bad="$bad $n-in-'$c'"
done
[ -z "$bad" ]
check_rc "$SCEN:cgrules" $? "cgrulesengd placed the programs:$moved${bad:+ ($bad)}"
: > "$ODIR/lcg.fio"
for n in low mid high; do echo "$n $(fio_bytes "$ODIR/lcg.fio.$n")" >> "$ODIR/lcg.fio"; done
fair_check "$SCEN:shares" lcg fio "low:10 mid:30 high:60" 3
nullb_destroy lcg
for n in low mid high; do rmdir "$B/$n" 2>/dev/null; done
rmdir "$B" 2>/dev/null
rm -rf /etc/cgconfig.conf /etc/cgrules.conf /etc/cgconfig.d /etc/cgrules.d
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
