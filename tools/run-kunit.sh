#!/bin/bash
# Run the KUnit suites of the project, or read their results from guest
# boots.
#
#   tools/run-kunit.sh [KUNITCONFIG...]
#   tools/run-kunit.sh --log CONSOLE_LOG...
#
# Default: every tools/kunit/*.kunitconfig under UML. For each one, in
# build/src/linux (prepared by tools/build-kernel.sh --prepare-only):
#   python3 tools/testing/kunit/kunit.py run --kunitconfig=FILE \
#       --build_dir=build/kunit[/NAME] --jobs=$(nproc)
# Each KUnit test case counts as one pass, fail or skip ("KUNIT
# suite.case PASS|FAIL|SKIP"); a kunitconfig whose build or run produced
# no results, or no kunitconfig at all, counts as one failure. Only one
# kunit.py runs at a time per tree (flock).
#
# --log: the debug kernel has the cases in its hcfq module
# (kernel-config.debug), so they run whenever a debug boot loads it,
# under KASAN and lockdep; make check reads them from those boots'
# console logs rather than build a UML kernel as well. Every top-level
# KTAP run in the logs goes through kunit.py parse; each case counts
# once, and passes only if it passed in every run (hcfq-module's reload
# runs them again). A log with no KTAP run, or a run with no cases,
# counts as one failure.
#
# The last line is "N passed, N failed, N skipped"; exit status 1 on any
# failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)

# kunit_cases JSON...: a "KUNIT suite.case PASS|FAIL|SKIP" line per case
# in kunit.py's KernelCI-style json files (nested sub_groups with
# test_cases), each case once at its worst status over the files, so
# that a case passes only if it passed in every run; a case that some
# file lacks fails, and a file with no cases is one failure ("KUNIT NAME
# FAIL (no test cases ran)")
kunit_cases() {
	python3 - "$@" <<'EOF'
import json, os, sys
rank = {"PASS": 0, "SKIP": 1, "FAIL": 2}
order, worst, runs = [], {}, []
def walk(g, seen):
    for c in g.get("test_cases", []):
        st = c.get("status", "")
        st = st if st in rank else "FAIL"
        key = "%s.%s" % (g.get("name", ""), c["name"])
        seen.add(key)
        if key not in worst:
            order.append(key)
            worst[key] = st
        elif rank[st] > rank[worst[key]]:
            worst[key] = st
    for s in g.get("sub_groups", []):
        walk(s, seen)
for j in sys.argv[1:]:
    seen = set()
    try:
        walk(json.load(open(j)), seen)
    except (OSError, ValueError):
        pass
    if not seen:
        print("KUNIT %s FAIL (no test cases ran)" % os.path.basename(j)[:-5])
    runs.append(seen)
for key in order:
    if any(r and key not in r for r in runs):
        print("run-kunit: %s is missing from a run" % key, file=sys.stderr)
        worst[key] = "FAIL"
    print("KUNIT %s %s" % (key, worst[key]))
EOF
}

# count_cases LINES: add kunit_cases' lines to PASS, FAIL and SKIP
count_cases() {
	PASS=$((PASS + $(grep -c ' PASS$' <<<"$1" || true)))
	FAIL=$((FAIL + $(grep -c ' FAIL' <<<"$1" || true)))
	SKIP=$((SKIP + $(grep -c ' SKIP$' <<<"$1" || true)))
}

# from_logs LOG...: the --log mode
from_logs() {
	local tree=$REPO/build/src/linux outd=$REPO/build/kunit-results/logs
	local log name n k lines jsons=() nolog=0
	[[ -f $tree/tools/testing/kunit/kunit.py ]] ||
		tree=$("$REPO/tools/build-kernel.sh" --prepare-only | tail -n1)
	rm -rf "$outd"
	mkdir -p "$outd"
	for log in "$@"; do
		name=$(basename "$(dirname "$log")")
		# a file per top-level run: the "[ time] " prefix dropped,
		# from "KTAP version" to the last result its plan announces
		# (the built-in executor's empty "1..0" at boot is no run)
		n=0
		[[ -f $log ]] && n=$(sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$log" |
			awk -v out="$outd/$name" '
			/^KTAP version [0-9]+$/ && !on { on = 1; want = -1; got = 0; blk = "" }
			on { blk = blk $0 "\n" }
			on && want < 0 && /^1\.\.[0-9]+$/ { want = substr($0, 4) + 0; if (!want) on = 0 }
			on && /^(not )?ok [0-9]+ / && ++got >= want {
				on = 0; n++; f = out "." n ".ktap"; printf "%s", blk > f; close(f)
			}
			# a run cut short is parsed too: the cases it lacks fail
			END { if (on) { n++; f = out "." n ".ktap"; printf "%s", blk > f }
				print n + 0 }')
		if ((n == 0)); then
			echo "KUNIT $name FAIL (no KUnit output in $log)"
			nolog=$((nolog + 1))
			continue
		fi
		for k in "$outd/$name".*.ktap; do
			(cd "$tree" && python3 tools/testing/kunit/kunit.py parse \
				--json="${k%.ktap}.json" "$k") >"${k%.ktap}.log" 2>&1 || true
			jsons+=("${k%.ktap}.json")
		done
	done
	echo "run-kunit: ${#jsons[@]} KTAP runs in $# logs (in $outd)" >&2
	PASS=0 FAIL=$nolog SKIP=0
	if ((${#jsons[@]})); then
		lines=$(kunit_cases "${jsons[@]}")
		echo "$lines"
		count_cases "$lines"
	fi
	echo "$PASS passed, $FAIL failed, $SKIP skipped"
	((FAIL == 0))
}

if [[ ${1-} == --log ]]; then
	shift
	(($#)) || { echo "run-kunit: --log needs a console log" >&2; exit 2; }
	from_logs "$@"
	exit
fi

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
	lines=$(kunit_cases "$json")
	echo "$lines"
	count_cases "$lines"
	if ((rc != 0)) && ! grep -q ' FAIL' <<<"$lines"; then
		echo "KUNIT $name FAIL (kunit.py rc=$rc)"
		FAIL=$((FAIL + 1))
	fi
done
echo "$PASS passed, $FAIL failed, $SKIP skipped"
((FAIL == 0))
