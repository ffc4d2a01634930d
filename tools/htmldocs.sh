#!/bin/bash
# make htmldocs: the kernel's own documentation build (Sphinx, `make
# htmldocs`) of the tree the series gives, against the same build of the
# pristine tree, so that only the warnings the series adds count.
#
#   tools/htmldocs.sh      (HTMLDOCS_DIRS="admin-guide block" by default:
#                           every directory the series' documents are in;
#                           HTMLDOCS_DIRS=. builds the whole book)
#
# 1. tools/install-deps.sh --docs (python3-sphinx; the default theme)
# 2. tools/export-series.sh: the series applied onto Debian's 6.12 tree
#    in build/export-tmp/linux (tag "base", branch "export")
# 3. make htmldocs SPHINXDIRS=$HTMLDOCS_DIRS, at "base" into
#    build/htmldocs/base and at "export" into build/htmldocs/series
#    (logs beside them); the tree is left at "export"
# 4. checks: each build exits 0; the series' pages came out as HTML
#    (every .rst the series adds, in the directories built); no warning
#    or error of the series' build is missing from the base's (compared
#    without line numbers and without the tree's and the output's paths)
#
# One line per check, "PASS name" or "FAIL name: why", then the line
# "N passed, N failed"; exit status 1 on any failure. Not part of make
# check: about 3 minutes for the default directories on 2 cores, and
# more for the whole book. It holds the machine lock while it builds.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
T=${EXPORT_WORK:-$REPO/build/export-tmp}/linux
D=$REPO/build/htmldocs
DIRS=${HTMLDOCS_DIRS:-admin-guide block}
PASS=0
FAIL=0
pass() { echo "PASS $1"; PASS=$((PASS + 1)); }
fail() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }
die() {
	echo "htmldocs: ERROR: $*" >&2
	echo "$PASS passed, $((FAIL + 1)) failed"
	exit 1
}
tgit() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$T" "$@"; }

"$REPO/tools/install-deps.sh" --docs >&2 || die "tools/install-deps.sh --docs failed"
# Debian's sphinx-build runs /usr/bin/python3, whatever python3 is first
# in PATH
command -v sphinx-build >/dev/null || die "no sphinx-build after install-deps"
mkdir -p "$D"
"$REPO/tools/export-series.sh" >"$D/export.log" 2>&1 ||
	{ tail -n 20 "$D/export.log" >&2; die "tools/export-series.sh failed (log: $D/export.log)"; }

exec 9>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
flock -n 9 || { echo "htmldocs: waiting for the machine lock" >&2; flock 9; }

# warnings without what differs between the two builds: line numbers,
# the tree's path, the output directory's path
warnings() {
	grep -E 'WARNING|ERROR' "$1" |
		sed -E -e "s|$T/||g" -e "s|$2/||g" -e 's/:[0-9]+:/::/g' |
		LC_ALL=C sort -u
}

build() { # build NAME REV
	local out=$D/$1 rc=0 t=$SECONDS
	tgit checkout -q -f "$2"
	tgit clean -q -f -d -x
	rm -rf "$out"
	mkdir -p "$out"
	nice make -s -C "$T" O="$out" SPHINXDIRS="$DIRS" htmldocs >"$out.log" 2>&1 || rc=$?
	echo "htmldocs: $1 ($2): exit $rc in $((SECONDS - t)) s, $(grep -cE 'WARNING|ERROR' "$out.log" || true) warning lines" >&2
	return "$rc"
}

if build base base; then
	pass "htmldocs of the pristine tree ($DIRS)"
else
	fail "htmldocs of the pristine tree" "make failed (log: $D/base.log)"
fi
if build series export; then
	pass "htmldocs of the series' tree ($DIRS)"
else
	fail "htmldocs of the series' tree" "make failed (log: $D/series.log)"
fi

# the series' new documents, in the directories built
mapfile -t pages < <(tgit diff --name-only --diff-filter=A base export -- 'Documentation/*.rst')
for rst in "${pages[@]}"; do
	rel=${rst#Documentation/}
	dir=""
	for d in $DIRS; do
		if [[ $d == . || $rel == "$d"/* ]]; then
			dir=$d
			break
		fi
	done
	[[ -n $dir ]] || continue
	if [[ $dir == . ]]; then
		html=$D/series/Documentation/output/${rel%.rst}.html
	else
		html=$D/series/Documentation/output/$dir/${rel#"$dir"/}
		html=${html%.rst}.html
	fi
	if [[ -s $html ]]; then
		pass "page $rst"
	else
		fail "page $rst" "no ${html#"$REPO"/}"
	fi
done

new=$(LC_ALL=C comm -13 <(warnings "$D/base.log" "$D/base") <(warnings "$D/series.log" "$D/series"))
if [[ -z $new ]]; then
	pass "no warning that the pristine tree's build does not give"
else
	echo "$new" | head -n 40
	fail "new warnings" "$(wc -l <<<"$new") (above)"
fi
tgit checkout -q -f export
echo "$PASS passed, $FAIL failed"
((FAIL == 0))
