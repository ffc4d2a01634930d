#!/bin/bash
# make check: deps, both kernels, initramfs, blkshare (+ its unit tests),
# the exported series (git am + checkpatch), the docs (kernel-doc, rst,
# toctrees), guest scenarios, and KUnit's results from the debug boots.
# Every stage's log is in build/check/. The last line is the combined
# "N passed, N failed, N skipped" over KUnit + blkshare unit tests + the
# series and docs checks + guest scenarios; exit status 0 only when
# nothing failed.
# A missing stage (no blkshare, no KUnit suite) is a failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
LOGS=$REPO/build/check
mkdir -p "$LOGS"
PASS=0
FAIL=0
SKIP=0
T0=$(date +%s)

# stage NAME cmd... : run, keep the log, add its "N passed, N failed[,
# N skipped]" (a stage without such a line counts 1 pass or 1 fail by
# exit status)
stage() {
	local name=$1 rc=0 t=$SECONDS line p f s
	shift
	echo "check: == $name: $* ==" >&2
	"$@" 2>&1 | tee "$LOGS/$name.log" || rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$LOGS/$name.log" | tail -n1 || true)
	if [[ -n $line ]]; then
		read -r p _ f _ s _ <<<"${line//,/}"
		s=${s:-0}
		if ((rc != 0 && f == 0)); then f=1; fi
	elif ((rc == 0)); then
		p=1 f=0 s=0
	else
		p=0 f=1 s=0
	fi
	PASS=$((PASS + p))
	FAIL=$((FAIL + f))
	SKIP=$((SKIP + s))
	echo "check: == $name: rc=$rc, $p passed, $f failed, $s skipped, $((SECONDS - t))s ==" >&2
	return "$rc"
}

fatal() {
	echo "check: $1 failed, cannot go on (log: $LOGS)" >&2
	echo "$PASS passed, $((FAIL + 1)) failed, $SKIP skipped"
	exit 1
}

tools/install-deps.sh >"$LOGS/deps.log" 2>&1 || { cat "$LOGS/deps.log"; fatal deps; }
tools/build-kernel.sh >"$LOGS/kernel.log" 2>&1 || { tail -n 40 "$LOGS/kernel.log"; fatal kernel; }
tools/build-kernel.sh --debug >"$LOGS/kernel-debug.log" 2>&1 || { tail -n 40 "$LOGS/kernel-debug.log"; fatal kernel-debug; }
echo "check: kernels built ($((SECONDS))s)" >&2
[[ -f tools/blkshare/Makefile ]] || fatal "blkshare (no tools/blkshare/Makefile)"
make -C tools/blkshare >"$LOGS/blkshare-build.log" 2>&1 || { tail -n 40 "$LOGS/blkshare-build.log"; fatal blkshare; }
stage blkshare-check make -s -C tools/blkshare check || true
tools/mkinitramfs.sh >"$LOGS/initramfs.log" 2>&1 || { cat "$LOGS/initramfs.log"; fatal initramfs; }
stage series tools/export-series.sh --check || true
stage docs tools/check-docs.sh || true
# KUnit: hcfq's cases run whenever a debug boot loads its module (under
# KASAN and lockdep); they are read from those boots' consoles rather
# than from a UML kernel built as well (make kunit does that). An earlier
# run's logs go first, so that a boot that did not run now cannot count.
mapfile -t dbglogs < <(awk '!/^#/ && $2 == "debug" { print "build/results/" $1 "/console.log" }' tests/plan)
rm -f "${dbglogs[@]}"
stage guest tools/run-tests.sh || true
stage kunit tools/run-kunit.sh --log "${dbglogs[@]}" || true

echo "check: total $(($(date +%s) - T0))s; logs in $LOGS" >&2
# every failure again, just above the count: a CI log that keeps only its
# head and tail still names them all
if ((FAIL > 0)); then
	echo "check: the $FAIL failures:"
	grep -hE '^(FAIL |KUNIT .* FAIL|export-series: .*(FAILED|ERROR|differs|stopped|no summary line|[1-9][0-9]* (errors|warnings|checks)))' \
		"$LOGS/blkshare-check.log" "$LOGS/series.log" "$LOGS/docs.log" "$LOGS/kunit.log" \
		"$LOGS/guest.log" 2>/dev/null | awk '!seen[$0]++' | head -n 40 || true
fi
echo "$PASS passed, $FAIL failed, $SKIP skipped"
((FAIL == 0))
