#!/bin/bash
# make demo: build what is needed, boot once running the demo scenario
# (tests/scenarios/demo.sh) and print its table.
#   DEMO_SCHED=hcfq|bfq|iocost  DEMO_CGMODE=v1|v2  DEMO_RUNTIME=20
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
tools/install-deps.sh >/dev/null
tools/build-kernel.sh | tail -n1
make -s blkshare >/dev/null
tools/mkinitramfs.sh | tail -n1
mkdir -p build/demo
echo "demo normal ${DEMO_CGMODE:-v1} demo" >build/demo/plan
rc=0
EXTRA_CMDLINE="DEMO_SCHED=${DEMO_SCHED:-hcfq} DEMO_RUNTIME=${DEMO_RUNTIME:-20} ${EXTRA_CMDLINE-}" \
	tools/run-tests.sh --plan build/demo/plan --no-build >build/demo/run.log 2>&1 || rc=$?
echo
sed -n 's/^TEXT demo //p' build/results/demo/results.txt
echo
grep -E '^(PASS|FAIL) ' build/demo/run.log || true
echo "(table: build/results/demo/out/demo/table.txt, console: build/results/demo/console.log)"
# blkshare's plot of the run (tests/guest/trace.sh: trace_demo_end)
if [[ -s build/results/demo/out/demo/shares.svg ]]; then
	echo "(plot: $REPO/build/results/demo/out/demo/shares.svg, blkshare table: build/results/demo/out/demo/shares.txt)"
else
	echo "(plot: none written, see build/results/demo/out/demo/log)"
fi
tail -n1 build/demo/run.log
exit "$rc"
