#!/bin/sh
# budget: 120
# results: .
# cg_exec puts fio (and the job process it forks) into the cgroup: checked
# through /proc/PID/cgroup while fio runs.
. /tests/guest/lib.sh

dev=$(nullb_create cgx) || { result "$SCEN" FAIL "nullb_create failed"; exit 0; }
cg_new grp || { result "$SCEN" FAIL "cg_new failed"; exit 0; }
cg_exec grp fio --name=cgx --filename="$dev" --rw=read --bs=8k --direct=1 \
	--ioengine=psync --time_based --runtime=10 --output="$ODIR/fio.txt" &
fpid=$!
# wait until fio forked its job process (slow on the debug kernel)
i=0
while [ "$(pidof fio | wc -w)" -lt 2 ] && [ $i -lt 40 ]; do sleep 0.25; i=$((i + 1)); done
pids=$(pidof fio)
if [ "$CGMODE" = v1 ]; then want=":blkio:/grp"; else want="0::/grp"; fi
rc=0 n=0 detail=""
for p in $pids; do
	n=$((n + 1))
	cat "/proc/$p/cgroup" > "$ODIR/cgroup.$p"
	grep -q "$want\$" "/proc/$p/cgroup" || { rc=1; detail="$detail pid $p: $(tr '\n' ' ' < "/proc/$p/cgroup")"; }
done
[ $n -ge 2 ] || { rc=1; detail="$detail only $n fio processes seen"; }
# shellcheck disable=SC2086 # pids is a list
kill "$fpid" $pids 2>/dev/null
wait
nullb_destroy cgx
[ $rc = 0 ] && detail="$n fio processes in $want"
check_rc "$SCEN" $rc "$detail"
