#!/bin/bash
# Run the KUnit suites of the project under UML in the patched tree.
#
#   tools/run-kunit.sh [KUNITCONFIG...]
#
# Default: every tools/kunit/*.kunitconfig. For each one, in build/src/linux
# (prepared by tools/build-kernel.sh --prepare-only):
#   python3 tools/testing/kunit/kunit.py run --kunitconfig=FILE \
#       --build_dir=build/kunit[/NAME] --jobs=$(nproc)
# Each KUnit test case counts as one pass, fail or skip ("KUNIT
# suite.case PASS|FAIL|SKIP"); a kunitconfig whose build or run produced
# no results, or no kunitconfig at all, counts as one failure. Only one
# kunit.py runs at a time per tree (flock). The last line is "N passed,
# N failed, N skipped"; exit status 1 on any failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
if (($#)); then
	configs=("$@")
else
	shopt -s nullglob
	configs=("$REPO"/tools/kunit/*.kunitconfig)
	shopt -u nullglob
fi
if ((${#configs[@]} == 0)); then
	echo "run-kunit: no tools/kunit/*.kunitconfig: the KUnit suite is missing"
	echo "KUNIT suite FAIL (no kunitconfig)"
	echo "0 passed, 1 failed"
	exit 1
fi

TREE=$("$REPO/tools/build-kernel.sh" --prepare-only | tail -n1)
OUTD=$REPO/build/kunit-results
mkdir -p "$OUTD"
exec 8>"$REPO/build/src/.kunit.lock"
flock 8
# builds and timing runs take turns on the machine (see tools/run-tests.sh)
exec 7>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
flock 7

PASS=0
FAIL=0
SKIP=0
for cfg in "${configs[@]}"; do
	cfg=$(readlink -f "$cfg")
	name=$(basename "$cfg" .kunitconfig)
	# one build dir per kunitconfig keeps rebuilds incremental
	bdir=$REPO/build/kunit
	((${#configs[@]} == 1)) || bdir=$REPO/build/kunit/$name
	json=$OUTD/$name.json
	rm -f "$json"
	echo "run-kunit: $name ($cfg) in $bdir" >&2
	start=$(date +%s)
	rc=0
	(cd "$TREE" && python3 tools/testing/kunit/kunit.py run \
		--kunitconfig="$cfg" --build_dir="$bdir" --jobs="$(nproc)" \
		--make_options "CC=ccache gcc" --timeout=600 --json="$json") \
		>"$OUTD/$name.log" 2>&1 || rc=$?
	echo "run-kunit: $name: kunit.py rc=$rc after $(($(date +%s) - start))s (log $OUTD/$name.log)" >&2
	if [[ ! -s $json ]]; then
		tail -n 30 "$OUTD/$name.log" >&2
		echo "KUNIT $name FAIL (no results: build or boot failed)"
		FAIL=$((FAIL + 1))
		continue
	fi
	# KernelCI-style json: nested sub_groups with test_cases
	lines=$(python3 - "$json" <<'EOF'
import json, sys
def walk(g, prefix):
    name = g.get("name", "")
    for c in g.get("test_cases", []):
        st = c.get("status", "")
        st = st if st in ("PASS", "SKIP") else "FAIL"
        print("KUNIT %s.%s %s" % (name, c["name"], st))
    for s in g.get("sub_groups", []):
        walk(s, name)
walk(json.load(open(sys.argv[1])), "")
EOF
)
	if [[ -z $lines ]]; then
		echo "KUNIT $name FAIL (no test cases ran)"
		FAIL=$((FAIL + 1))
		continue
	fi
	echo "$lines"
	PASS=$((PASS + $(grep -c ' PASS$' <<<"$lines" || true)))
	FAIL=$((FAIL + $(grep -c ' FAIL$' <<<"$lines" || true)))
	SKIP=$((SKIP + $(grep -c ' SKIP$' <<<"$lines" || true)))
	if ((rc != 0)) && ! grep -q ' FAIL$' <<<"$lines"; then
		echo "KUNIT $name FAIL (kunit.py rc=$rc)"
		FAIL=$((FAIL + 1))
	fi
done
echo "$PASS passed, $FAIL failed, $SKIP skipped"
((FAIL == 0))
