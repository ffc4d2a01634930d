#!/bin/bash
# Boot the test kernels under QEMU and run the guest scenarios.
#
#   tools/run-tests.sh [--plan FILE] [--only BOOT[,BOOT...]] [--repeat N]
#                      [--no-build]
#   tools/run-tests.sh --scenario NAME[,NAME...] [--cgmode v1|v2]
#                      [--variant VARIANT] [--repeat N] [--no-build]
#
# --scenario runs the named scenarios in one boot (BOOT "NAME-CGMODE",
# default v2 and normal) instead of a plan.
# The plan (default tests/plan) has one boot per line:
#   BOOTNAME VARIANT CGMODE SCENARIO [SCENARIO...] [KEY=VALUE...]
# (KEY=VALUE words are added to that boot's kernel command line)
# VARIANT is normal|debug (kernel built by tools/build-kernel.sh), with an
# optional +icount: one vCPU whose clock advances by instructions executed
# (-icount shift=3,sleep=off), so that guest time measures CPU work and not
# the host's load (the CPU-cost benchmark). CGMODE v1|v2. '#' starts a
# comment. Each boot gets build/results/BOOT/ with console.log (ttyS0),
# results.txt (ttyS1) and the guest's /out artifacts.
# With --repeat N every boot runs N times (BOOT.1 ... BOOT.N).
#
# Failures: a scenario RESULT FAIL (the guest adds one for a scenario that
# exits nonzero); a scenario that began but has no RESULT of its own (a
# lost serial line); a boot that timed out or did not finish; a kernel
# splat in console.log (splat:BOOT). RESULT SKIP counts as skipped.
# The last line is "N passed, N failed, N skipped"; exit status 1 on any
# failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
PLAN=$REPO/tests/plan
ONLY=""
REPEAT=1
BUILD=1
SCENARIOS=""
ONE_CGMODE=v2
ONE_VARIANT=normal
while (($#)); do
	case $1 in
	--plan) PLAN=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--repeat) REPEAT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--scenario) SCENARIOS=$2; shift ;;
	--cgmode) ONE_CGMODE=$2; shift ;;
	--variant) ONE_VARIANT=$2; shift ;;
	-h|--help) sed -n '2,25p' "$0"; exit 0 ;;
	*) echo "run-tests: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
if [[ -n $SCENARIOS ]]; then
	[[ -z $ONLY ]] || { echo "run-tests: --only needs a plan, not --scenario" >&2; exit 2; }
	[[ $ONE_CGMODE == v1 || $ONE_CGMODE == v2 ]] ||
		{ echo "run-tests: bad --cgmode $ONE_CGMODE" >&2; exit 2; }
	for s in ${SCENARIOS//,/ }; do
		[[ -f $REPO/tests/scenarios/$s.sh ]] ||
			{ echo "run-tests: no scenario tests/scenarios/$s.sh" >&2; exit 2; }
	done
	PLAN=$(mktemp)
	trap 'rm -f "$PLAN"' EXIT
	echo "${SCENARIOS%%,*}-$ONE_CGMODE $ONE_VARIANT $ONE_CGMODE ${SCENARIOS//,/ }" >"$PLAN"
fi
[[ -f $PLAN ]] || { echo "run-tests: no plan $PLAN" >&2; exit 2; }

RES=$REPO/build/results
mkdir -p "$RES"
BOOT_OVERHEAD=${BOOT_OVERHEAD:-120}   # s for boot + artifact writing (TCG)
# held while a guest runs or a kernel builds (tools/build-kernel.sh)
MACHINE_LOCK=${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}

# read the plan
boots=()
while read -r line; do
	line=${line%%#*}
	read -r -a f <<<"$line"
	((${#f[@]})) || continue
	((${#f[@]} >= 4)) || { echo "run-tests: bad plan line: $line" >&2; exit 2; }
	if [[ -n $ONLY ]] && ! grep -qx "${f[0]}" <<<"${ONLY//,/$'\n'}"; then
		continue
	fi
	boots+=("${f[*]}")
done <"$PLAN"
((${#boots[@]})) || { echo "run-tests: nothing to run (plan $PLAN, only '$ONLY')" >&2; exit 2; }

# kernels and initramfs
declare -A KERNEL=()
for b in "${boots[@]}"; do
	read -r -a f <<<"$b"
	v=${f[1]%+icount}
	[[ $v == normal || $v == debug ]] || { echo "run-tests: bad variant $v" >&2; exit 2; }
	[[ -n ${KERNEL[$v]-} ]] && continue
	if ((BUILD)); then
		args=()
		[[ $v == debug ]] && args=(--debug)
		KERNEL[$v]=$("$REPO/tools/build-kernel.sh" "${args[@]}" | tail -n1)
	else
		KERNEL[$v]=$REPO/build/obj-$v/arch/x86/boot/bzImage
	fi
	# make deb --boot: the packaged kernel instead of the normal build
	if [[ $v == normal && -n ${HCFQ_KERNEL_IMAGE-} ]]; then
		KERNEL[$v]=$HCFQ_KERNEL_IMAGE
	fi
	[[ -f ${KERNEL[$v]} ]] || { echo "run-tests: no kernel for $v" >&2; exit 1; }
done
if ((BUILD)); then
	INITRD=$("$REPO/tools/mkinitramfs.sh" | tail -n1)
else
	INITRD=$REPO/build/initramfs.cpio
fi
# a kernel built with modules gets them appended (the kernel unpacks
# concatenated cpio archives in order): build/initrd-<variant>.cpio
declare -A INITRD_V=()
for v in "${!KERNEL[@]}"; do
	INITRD_V[$v]=$INITRD
	mods=$REPO/build/obj-$v/modules.cpio
	[[ $v == normal && -n ${HCFQ_KERNEL_MODULES-} ]] && mods=$HCFQ_KERNEL_MODULES
	[[ -f $mods ]] || continue
	cat "$INITRD" "$mods" >"$REPO/build/initrd-$v.cpio"
	INITRD_V[$v]=$REPO/build/initrd-$v.cpio
done

# one pattern for host and guest (dmesg_check in tests/guest/lib.sh)
SPLAT_RE=$(cat "$REPO/tests/guest/splat.re")

budget_of() {
	local s=$REPO/tests/scenarios/$1.sh b=""
	[[ -f $s ]] && b=$(sed -n 's/^# budget:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$s" | head -n1)
	echo "${b:-60}"
}

PASS=0
FAIL=0
SKIP=0
SUMMARY=()
record() { # status name detail
	case $1 in
	PASS) PASS=$((PASS + 1)) ;;
	SKIP) SKIP=$((SKIP + 1)) ;;
	*) FAIL=$((FAIL + 1)) ;;
	esac
	SUMMARY+=("$(printf '%-4s  %-36s %s' "$1" "$2" "$3")")
}

# The host as the guest saw it: once a second, the share of the host's
# CPU time that its hypervisor stole, and the share that processes other
# than this boot's QEMU used, in $1/host.txt ("uptime steal% others%").
# TCG's think times, idle windows and per-request CPU cost all follow
# these, so a failed timing check can be read against them.
host_sampler() {
	local dir=$1 qpid="" t0 prev="" cur q qprev=0
	t0=$(date +%s)
	: >"$dir/host.txt"
	while sleep 1; do
		[[ -n $qpid ]] || qpid=$(pgrep -f -- "^qemu-system-x86_64 .*file:$dir/console.log" | head -n1)
		q=0
		[[ -n $qpid && -r /proc/$qpid/stat ]] &&
			q=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$qpid/stat")
		cur=$(awk '/^cpu / { b = $2 + $3 + $4 + $7 + $8; print b, $9, b + $5 + $6 + $9; exit }' /proc/stat)
		if [[ -n $prev ]]; then
			awk -v p="$prev" -v c="$cur" -v q="$q" -v qp="$qprev" -v t="$(($(date +%s) - t0))" '
				BEGIN { split(p, a, " "); split(c, b, " ")
					tot = b[3] - a[3]; if (tot <= 0) exit
					o = (b[1] - a[1]) - (q - qp); if (o < 0) o = 0
					printf "%d %.1f %.1f\n", t, 100 * (b[2] - a[2]) / tot, 100 * o / tot }' >>"$dir/host.txt"
		fi
		prev=$cur
		qprev=$q
	done
}

# "steal A % (worst second B), other processes C % (worst second D)"
host_summary() {
	awk '{ n++; s += $2; o += $3; if ($2 > ms) ms = $2; if ($3 > mo) mo = $3 }
		END { if (!n) { print "not sampled"; exit }
			printf "steal %.1f %% (worst second %.0f), other processes %.1f %% (worst second %.0f) of its CPU time\n",
				s / n, ms, o / n, mo }' "$1" 2>/dev/null || echo "not sampled"
}

run_boot() { # name variant cgmode scenarios...
	local name=$1 variant=$2 cgmode=$3
	shift 3
	# a plan's KEY=VALUE words are this boot's kernel command line
	local scen=() bootargs=() w
	for w in "$@"; do
		if [[ $w == *=* ]]; then bootargs+=("$w"); else scen+=("$w"); fi
	done
	local dir=$RES/$name budget=$BOOT_OVERHEAD s
	local machine=(-accel "tcg,thread=multi" -smp 2)
	if [[ $variant == *+icount ]]; then
		variant=${variant%+icount}
		machine=(-accel tcg -icount "shift=3,sleep=off" -smp 1)
	fi
	[[ $variant == debug ]] && budget=$((budget * 2))
	for s in "${scen[@]}"; do
		local sb
		sb=$(budget_of "$s")
		[[ $variant == debug ]] && sb=$((sb * 3))
		budget=$((budget + sb))
	done
	# icount: one host thread, and guest seconds may take longer
	[[ ${machine[1]} == tcg ]] && budget=$((budget * 3))
	rm -rf "$dir"
	mkdir -p "$dir/out"
	truncate -s 256M "$dir/artifacts.img"
	local tests cmdline=""
	tests=$(IFS=,; echo "${scen[*]}")
	# the debug kernel evaluating the ACPI _PRT method under TCG can hit
	# AE_AML_LOOP_TIMEOUT and leave virtio without an IRQ: use the $PIR table
	[[ $variant == debug ]] && cmdline="pci=noacpi"
	cmdline+="${bootargs[*]:+ ${bootargs[*]}}"
	echo "run-tests: boot $name ($variant, $cgmode, budget ${budget}s): ${scen[*]}${bootargs[*]:+ (${bootargs[*]})}" >&2
	local start rc=0 lockfd
	# one guest at a time on this machine: timing tests need the host's
	# cores (a second TCG guest or a kernel build skews every number)
	exec {lockfd}>"$MACHINE_LOCK"
	flock "$lockfd"
	start=$(date +%s)
	host_sampler "$dir" &
	local sampler=$!
	timeout -k 10 "$budget" qemu-system-x86_64 \
		"${machine[@]}" -cpu max -m 2048 \
		-nographic -no-reboot -nodefaults \
		-kernel "${KERNEL[$variant]}" -initrd "${INITRD_V[$variant]}" \
		-append "console=ttyS0 panic=-1 reboot=t no_timer_check null_blk.nr_devices=0 TESTS=$tests CGMODE=$cgmode VARIANT=$variant $cmdline ${EXTRA_CMDLINE-}" \
		-serial "file:$dir/console.log" -serial "file:$dir/results.txt" \
		-drive "file=$dir/artifacts.img,format=raw,if=virtio,cache=unsafe" \
		-monitor none </dev/null >"$dir/qemu.log" 2>&1 || rc=$?
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	exec {lockfd}>&-
	local secs=$(($(date +%s) - start))
	echo "run-tests: boot $name ended rc=$rc after ${secs}s" >&2
	echo "$secs" >"$dir/wallclock"
	tar -xf "$dir/artifacts.img" -C "$dir/out" 2>/dev/null || true
	rm -f "$dir/artifacts.img"
	sed -i 's/\r$//' "$dir/results.txt" "$dir/console.log" 2>/dev/null || true

	# per-scenario results, in order; scenarios without a result fail
	while read -r _ rname rstat rdetail; do
		record "$rstat" "$name/$rname" "${rdetail-}"
	done < <(grep -E '^RESULT [^ ]+ (PASS|FAIL|SKIP)' "$dir/results.txt" || true)
	for s in "${scen[@]}"; do
		if ! grep -q "^BEGIN $s\$" "$dir/results.txt"; then
			record FAIL "$name/$s" "not run (boot died or timed out)"
		elif ! grep -q "^END $s " "$dir/results.txt"; then
			record FAIL "$name/$s" "did not finish (boot died or timed out)"
		elif ! grep -qE "^RESULT $s(:[^ ]*)? (PASS|FAIL|SKIP)" "$dir/results.txt"; then
			record FAIL "$name/$s" "began and ended with no result (serial line lost?)"
		fi
	done
	if ((rc == 124 || rc == 137)); then
		record FAIL "timeout:$name" "boot exceeded ${budget}s"
	elif ! grep -q '^DONE' "$dir/results.txt"; then
		record FAIL "boot:$name" "guest did not finish (qemu rc=$rc, see $dir/console.log)"
	fi
	local splat
	splat=$(grep -m1 -E "$SPLAT_RE" "$dir/console.log" || true)
	[[ -z $splat ]] || record FAIL "splat:$name" "$(cut -c1-120 <<<"$splat")"
	local up
	up=$(sed -n 's/^BOOT uptime=\([0-9.]*\).*/\1/p' "$dir/results.txt")
	echo "run-tests: boot $name: userspace after ${up:-?}s guest time, ${secs}s wall" >&2
	echo "run-tests: boot $name: host $(host_summary "$dir/host.txt")" >&2
}

for b in "${boots[@]}"; do
	read -r -a f <<<"$b"
	for ((i = 1; i <= REPEAT; i++)); do
		n=${f[0]}
		((REPEAT == 1)) || n=${f[0]}.$i
		run_boot "$n" "${f[@]:1}"
	done
done

echo
echo "==== guest scenario results ===="
printf '%s\n' "${SUMMARY[@]}"
echo "$PASS passed, $FAIL failed, $SKIP skipped"
((FAIL == 0))
