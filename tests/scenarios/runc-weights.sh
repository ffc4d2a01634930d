#!/bin/sh
# budget: 240
# results: docker-probe hcfq-weight hcfq-weightDevice bfq-weight bfq-weightDevice dmesg
# Debian's runc, unpatched and not rootless, sets container I/O weights
# (issue 16: the Docker path). Three containers at
# linux.resources.blockIO weight 100/300/600, each running one QD1
# 8 KiB O_DIRECT sequential fio reader on the same null_blk disk for
# RUNC_RT seconds (default 20; bfq's rounds RUNC_BFQ_RT, default 10),
# once with "weight" and once with "weightDevice" (weight on that disk
# only), under hcfq and under bfq.
# runc picks the file: on v1 blkio.weight (and blkio.weight_device), on
# v2 io.bfq.weight whenever it exists, which it does with bfq built in.
# Before the block core kept the weights, v1 bfq ignored blkio.weight
# (33/33/33), and a weightDevice on a disk that the scheduler named by
# the file did not run failed the container's start with EOPNOTSUPP.
# docker-probe: Docker on v1 discards weights unless blkio.weight and
# blkio.weight_device exist at the blkio hierarchy's root (SKIP on v2).
# Each share result asserts that all three containers started and ran
# fio to the end.
#  - hcfq: the shares of the bytes the kernel counted for each container
#    while all three ran (1 s samples of its cgroup's counters) are
#    within RUNC_TOL points (default 3) of 10/30/60 %. fio's whole-run
#    shares are reported: up to 1.1 points off with "weight" and up to
#    2.4 with "weightDevice" in about ten runs each, as fio starts up to
#    a second apart in the containers.
#  - bfq: the weights reach it (fair_follows: c1 gets the least, c6 at
#    least twice c1's share; the distance is reported). bfq was 0.8 to 3.7
#    points off in most boots but 17.5 in one (15.8/41.7/42.5), as in
#    weight-files. bfq runs at nr_requests 128: with the 2 tags the
#    kernel gives this disk it holds no shares (see weight-files). Its
#    rounds take 10 s, as only whether the weights reach it is judged:
#    2.0 and 3.0 points off in the first boot at 10 s (v2). A rehearsal
#    of make check then failed it on v2 at 31.2/28.7/40.1 with the
#    weights written (fio started 3 s into the round), most likely
#    through bfq's weight raising of new queues, which lasts seconds on
#    this slow disk and evens the shares out. So the bfq rounds run with
#    low_latency 0 (bfq_weights_only), which judges the weights alone.
# Containers: mount and UTS namespaces, host directories bound read-only,
# the disk as the only device (runc's device cgroup rules allow it),
# runc run --no-pivot, as the guest's root is an initramfs.
. /tests/guest/lib.sh
. /tests/guest/fair.sh

HRT=${RUNC_RT:-20}
BRT=${RUNC_BFQ_RT:-10}
# RUNTIME=crun runs the same with crun (needs CONFIG_USER_NS: not yet)
RUNTIME=${RUNTIME:-runc}
command -v "$RUNTIME" > /dev/null || { result "$SCEN" FAIL "$RUNTIME not in the initramfs"; exit 0; }

# v1: runc wants the devices and freezer hierarchies as well
V1MNT=
if [ "$CGMODE" = v1 ]; then
	for c in devices freezer; do
		mkdir -p "/sys/fs/cgroup/$c"
		mount -t cgroup -o "$c" "$c" "/sys/fs/cgroup/$c" ||
			{ result "$SCEN" FAIL "mounting the v1 $c hierarchy failed"; exit 0; }
		V1MNT="$V1MNT /sys/fs/cgroup/$c"
	done
fi

if [ "$RUNTIME" != runc ]; then
	: # Docker runs runc
elif [ "$CGMODE" = v1 ]; then
	[ -f "$(cg_root)/blkio.weight" ] && [ -f "$(cg_root)/blkio.weight_device" ]
	check_rc "$SCEN:docker-probe" $? "blkio.weight and blkio.weight_device at $(cg_root)"
else
	result "$SCEN:docker-probe" SKIP "Docker's probe is v1's"
fi

fair_disk runc hcfq || { result "$SCEN" FAIL "disk setup failed"; exit 0; }
MAJ=${MM%:*} MIN=${MM#*:}
B=/tmp/runc
mkdir -p "$B/start" "$B/state"

# bundle NAME INDEX BLKIO_JSON: config.json and an empty rootfs (a tmpfs,
# so that nothing of the guest's / shows but the bound directories)
bundle() {
	_d=$B/$1
	mkdir -p "$_d/rootfs"
	grep -q " $_d/rootfs " /proc/mounts || mount -t tmpfs tmpfs "$_d/rootfs"
	for _m in bin sbin usr lib lib64 start out proc dev; do mkdir -p "$_d/rootfs/$_m"; done
	_mounts=
	for _m in /bin /sbin /usr /lib /lib64; do
		[ -d "$_m" ] || continue
		_mounts="$_mounts{\"destination\":\"$_m\",\"type\":\"bind\",\"source\":\"$_m\",\"options\":[\"rbind\",\"ro\"]},"
	done
	cat > "$_d/config.json" <<JSON
{
  "ociVersion": "1.0.2",
  "process": {
    "terminal": false,
    "user": {"uid": 0, "gid": 0},
    "args": ["/bin/sh", "-c",
      "while [ ! -e /start/go ]; do sleep 0.05; done; exec fio --name=$1 --filename=/dev/wdisk --offset=$(($2 * 512))m --size=512m --time_based --runtime=$RT --rw=read --bs=8k --direct=1 --ioengine=psync --iodepth=1 --output-format=terse --terse-version=3 --output=/out/$1.fio"],
    "env": ["PATH=/usr/sbin:/usr/bin:/sbin:/bin"],
    "cwd": "/",
    "capabilities": {
      "bounding": ["CAP_SYS_ADMIN", "CAP_SYS_RAWIO"],
      "effective": ["CAP_SYS_ADMIN", "CAP_SYS_RAWIO"],
      "permitted": ["CAP_SYS_ADMIN", "CAP_SYS_RAWIO"]
    },
    "noNewPrivileges": true
  },
  "root": {"path": "rootfs", "readonly": true},
  "hostname": "$1",
  "mounts": [
    $_mounts
    {"destination": "/start", "type": "bind", "source": "$B/start", "options": ["rbind", "ro"]},
    {"destination": "/out", "type": "bind", "source": "$B/state", "options": ["rbind", "rw"]},
    {"destination": "/proc", "type": "proc", "source": "proc"},
    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "mode=755"]}
  ],
  "linux": {
    "cgroupsPath": "/runc/$1",
    "namespaces": [{"type": "mount"}, {"type": "uts"}],
    "devices": [
      {"path": "/dev/wdisk", "type": "b", "major": $MAJ, "minor": $MIN, "fileMode": 432, "uid": 0, "gid": 0}
    ],
    "resources": {
      "devices": [
        {"allow": false, "access": "rwm"},
        {"allow": true, "type": "b", "major": $MAJ, "minor": $MIN, "access": "rw"}
      ],
      "blockIO": $3
    }
  }
}
JSON
}

# round NAME SCHED FIELD: three containers, weights through FIELD
round() {
	_r=$1 _s=$2 _f=$3
	RT=$HRT
	[ "$_s" = bfq ] && RT=$BRT
	if [ "$_s" = bfq ]; then
		set_sched "$DEV" bfq 128 && bfq_weights_only "$DEV"
	else
		set_sched "$DEV" "$_s"
	fi || { result "$SCEN:$_r" FAIL "cannot select $_s"; return; }
	rm -f "$B/start/go" "$B"/state/*
	_pids='' _i=0
	for _cw in c1:100 c3:300 c6:600; do
		_c=${_cw%%:*} _w=${_cw#*:}
		if [ "$_f" = weight ]; then
			_bio="{\"weight\": $_w}"
		else
			_bio="{\"weightDevice\": [{\"major\": $MAJ, \"minor\": $MIN, \"weight\": $_w}]}"
		fi
		bundle "$_c" "$_i" "$_bio"
		"$RUNTIME" --root "$B/root" run --no-pivot -b "$B/$_c" "$_c" \
			> "$ODIR/$SCEN.$_r.$_c.log" 2>&1 &
		_pids="$_pids $!"
		_i=$((_i + 1))
	done
	# start fio once all three run in their cgroups (a start takes
	# up to seconds under TCG); a container that failed to start exits
	_n=0
	while [ $_n -lt 300 ]; do
		_up=$("$RUNTIME" --root "$B/root" list -q 2>/dev/null | wc -l)
		[ "$_up" -ge 3 ] && break
		sleep 0.1
		_n=$((_n + 1))
	done
	# what the runtime wrote, for the log (the cgroups go when the containers
	# exit)
	for _c in c1 c3 c6; do
		for _wf in blkio.weight blkio.weight_device blkio.bfq.weight io.bfq.weight io.weight; do
			_p=$(cg_root)/runc/$_c/$_wf
			[ -r "$_p" ] && log "$_r $_c $_wf: $(tr '\n' ';' < "$_p")"
		done
	done
	# the kernel's bytes for each container, each second until a second
	# before the first fio can end: the fio processes start up to a
	# second apart, which whole-run bytes count
	FAIR_SCHED=$_s
	_src=$(fair_sources runc/c1 runc/c3 runc/c6 | sed 's,^n=runc/,n=,')
	touch "$B/start/go"
	_t0=$(cut -d' ' -f1 /proc/uptime) _t=0
	: > "$ODIR/$_r.samples"
	while awk -v s="$_t0" -v rt="$RT" '{ exit !($1 < s + rt - 1) }' /proc/uptime; do
		fair_sample "$_t" "$_src" >> "$ODIR/$_r.samples"
		sleep 1
		_t=$((_t + 1))
	done
	fair_window "$ODIR/$_r" 0
	_bad=
	set -- c1 c3 c6
	for _p in $_pids; do
		wait "$_p" || _bad="$_bad $1:rc=$?($(tail -n1 "$ODIR/$SCEN.$_r.$1.log"))"
		shift
	done
	: > "$ODIR/$_r.fio"
	for _c in c1 c3 c6; do
		cp "$B/state/$_c.fio" "$ODIR/$_r.fio.$_c" 2>/dev/null
		echo "$_c $(fio_bytes "$B/state/$_c.fio" 2>/dev/null || echo 0)" >> "$ODIR/$_r.fio"
	done
	"$RUNTIME" --root "$B/root" list >> "$ODIR/$SCEN.list" 2>&1
	for _c in c1 c3 c6; do "$RUNTIME" --root "$B/root" delete -f "$_c" > /dev/null 2>&1; done
	if [ -n "$_bad" ]; then
		result "$SCEN:$_r" FAIL "containers failed:$_bad"
		return
	fi
	if [ "$_s" = bfq ]; then
		fair_follows "$SCEN:$_r" "$_r" "c1:10 c3:30 c6:60"
	else
		_fio=$(fair_dev "$ODIR/$_r.fio" "c1:10 c3:30 c6:60")
		metric "$SCEN:$_r" "src=fio-whole-run" "maxdev=${_fio%% *}" "shares=${_fio#* }"
		fair_check "$SCEN:$_r" "$_r" win "c1:10 c3:30 c6:60" "${RUNC_TOL:-3}"
	fi
}

round hcfq-weight hcfq weight
round hcfq-weightDevice hcfq weightDevice
round bfq-weight bfq weight
round bfq-weightDevice bfq weightDevice

for c in c1 c3 c6; do umount "$B/$c/rootfs" 2>/dev/null; done
nullb_destroy runc
# runc's cgroups go with their containers; the parent is ours to remove
for r in /sys/fs/cgroup/runc /sys/fs/cgroup/*/runc; do
	[ -d "$r" ] && rmdir "$r" 2>/dev/null
done
for m in $V1MNT; do umount "$m" 2>/dev/null; done
dmesg_check > /dev/null; check_rc "$SCEN:dmesg" $? "no kernel warnings"
