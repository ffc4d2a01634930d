#!/bin/bash
# Check the series' documentation; builds nothing and boots nothing.
#
#   tools/check-docs.sh
#
# 1. kernel-doc: scripts/kernel-doc -none -Wall on the series' new C
#    files and headers (KDOC_FILES); any output fails.  The script is
#    taken from the unpacked tree build/src/linux when it is there (no
#    patch touches it), else from the pristine tarball.
# 2. rst: every new .rst of the repo (under Documentation/) and every
#    .rst that a patch of `series` edits, in its version after the whole
#    series, parsed with python3's docutils at report level 2: any
#    warning or error fails.  Sphinx-only directives and roles
#    (toctree, kernel-doc, :ref:, :doc:, :c:func: ...) are no-ops,
#    except that a kernel-doc directive must name a file that exists (in
#    the repo, the post-series Documentation/ or build/src/linux).
# 3. toctree: every new .rst is listed in its directory's index.rst,
#    and every entry of that index.rst's toctrees resolves to a file.
#
# The versions after the series are made in a scratch directory: the
# files of the pristine tarball's Documentation/ that a patch touches
# (the tarball's Documentation/ and scripts/kernel-doc are unpacked once
# into build/check-docs/, again only when the tarball changes, holding
# the machine lock of run-tests.sh meanwhile), every patch of `series`
# applied in order with git apply --include='Documentation/*', then the
# repo's new Documentation/ files copied in, as build-kernel.sh and
# export-series.sh do.
#
# One line per check, "PASS name" or "FAIL name: why", then the line
# "N passed, N failed"; exit status 1 on any failure.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
CACHE=$REPO/build/check-docs
PRISTINE=$CACHE/linux
KDOC_FILES=(
	block/hcfq-iosched.c block/hcfq-cgroup.c block/hcfq-iosched.h
	block/blk-biotrack.c include/linux/biotrack.h
)

PASS=0
FAIL=0
pass() { echo "PASS $1"; PASS=$((PASS + 1)); }
fail() { echo "FAIL $1: $2"; FAIL=$((FAIL + 1)); }
log() { echo "check-docs: $*" >&2; }
summary() { SUMMARY_DONE=1; echo "$PASS passed, $FAIL failed"; }
# an unexpected exit (set -e) still ends with the count, as one more failure
SUMMARY_DONE=0
SCRATCH=""
on_exit() {
	local rc=$?
	[[ -z $SCRATCH ]] || rm -rf "$SCRATCH"
	if ((rc != 0 && !SUMMARY_DONE)); then
		log "stopped (exit $rc)"
		FAIL=$((FAIL + 1))
		summary
	fi
}
trap on_exit EXIT
die() { fail setup "$*"; summary; exit 1; }

[[ -r $TARBALL ]] || die "$TARBALL missing (run tools/install-deps.sh)"
command -v python3 >/dev/null || die "python3 missing (run tools/install-deps.sh)"
python3 -c 'import docutils' 2>/dev/null ||
	die "python3 docutils missing (python3-docutils; run tools/install-deps.sh)"

# ---------------------------------------------------------------- series
mapfile -t PATCHES < <(sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$REPO/series")
((${#PATCHES[@]})) || die "series is empty"
for p in "${PATCHES[@]}"; do
	[[ -f $REPO/patches/$p ]] || die "series names $p, which is not in patches/"
done

# ---------------------------------------------------------------- pristine
# Documentation/ and scripts/kernel-doc of the tarball, unpacked once
mkdir -p "$CACHE"
tar_id=$(stat -c '%s %Y' "$TARBALL")
exec 8>"$CACHE/.lock"
flock 8
if [[ ! -f $CACHE/tarball.id || $(cat "$CACHE/tarball.id") != "$tar_id" ||
	! -d $PRISTINE/Documentation ]]; then
	# decompressing the tarball would skew a timing run
	exec 9>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
	if ! flock -n 9; then
		log "waiting for the machine lock (a guest is running)"
		flock 9
	fi
	log "unpacking Documentation/ and scripts/kernel-doc from $TARBALL"
	rm -rf "$PRISTINE" "$CACHE/tarball.id" "$CACHE/unpack"
	mkdir -p "$CACHE/unpack"
	tar -xJf "$TARBALL" -C "$CACHE/unpack" --wildcards \
		'*/Documentation/*' '*/scripts/kernel-doc' ||
		die "could not unpack $TARBALL"
	top=$(find "$CACHE/unpack" -mindepth 1 -maxdepth 1 -type d)
	[[ -d $top/Documentation && -f $top/scripts/kernel-doc ]] ||
		die "unexpected layout of $TARBALL"
	mv "$top" "$PRISTINE"
	rmdir "$CACHE/unpack"
	echo "$tar_id" >"$CACHE/tarball.id"
	exec 9>&-
fi
exec 8>&-

# ---------------------------------------------------------------- kernel-doc
KDOC=$REPO/build/src/linux/scripts/kernel-doc
[[ -f $KDOC ]] || KDOC=$PRISTINE/scripts/kernel-doc
for f in "${KDOC_FILES[@]}"; do
	if [[ ! -f $REPO/$f ]]; then
		fail "kernel-doc $f" "no such file"
		continue
	fi
	rc=0
	out=$(cd "$REPO" && "$KDOC" -none -Wall "$f" 2>&1) || rc=$?
	if ((rc == 0)) && [[ -z $out ]]; then
		pass "kernel-doc $f"
	else
		[[ -z $out ]] || echo "$out" >&2
		fail "kernel-doc $f" "$(grep -c . <<<"$out") lines of warnings, exit $rc${out:+; first: $(head -n1 <<<"$out")}"
	fi
done

# ---------------------------------------------------------------- post-series
# The series' new files (those build-kernel.sh copies in) and the
# Documentation/ files its patches touch
mapfile -t NEW < <(cd "$REPO" && git ls-files -co --exclude-standard -- Documentation |
	while IFS= read -r f; do
		case ${f##*/} in .* | *~) continue ;; esac
		[[ -f $f ]] && echo "$f"
	done | sort -u)
mapfile -t TOUCHED < <(for p in "${PATCHES[@]}"; do
	sed -n -E 's|^diff --git a/(Documentation/[^ ]*) b/.*|\1|p' "$REPO/patches/$p"
done | sort -u)

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX")
POST=$SCRATCH/linux
mkdir -p "$POST"
for f in "${TOUCHED[@]}"; do
	[[ -f $PRISTINE/$f ]] || continue # created by a patch
	mkdir -p "$POST/$(dirname "$f")"
	cp "$PRISTINE/$f" "$POST/$f"
done
applied=1
for p in "${PATCHES[@]}"; do
	grep -q '^diff --git a/Documentation/' "$REPO/patches/$p" || continue
	# outside of any repository, git apply works on the directory given
	if ! out=$(cd "$POST" && GIT_CEILING_DIRECTORIES=$SCRATCH \
		git apply --include='Documentation/*' "$REPO/patches/$p" 2>&1); then
		echo "$out" >&2
		fail "apply $p" "git apply failed on its Documentation/ part"
		applied=0
		break
	fi
done
((applied)) && pass "apply the series' Documentation/ changes (${#TOUCHED[@]} files)"
for f in "${NEW[@]}"; do
	mkdir -p "$POST/$(dirname "$f")"
	cp "$REPO/$f" "$POST/$f"
done

# ---------------------------------------------------------------- rst, toctree
RST=()
for f in "${NEW[@]}" "${TOUCHED[@]}"; do
	[[ $f == *.rst ]] && RST+=("$f")
done
mapfile -t RST < <(printf '%s\n' "${RST[@]}" | sort -u)
mapfile -t NEW_RST < <(printf '%s\n' "${NEW[@]}" | grep '\.rst$' || true)
if ((!applied)); then
	# the edited files and the indexes are not in their post-series state
	keep=()
	for f in "${RST[@]}"; do
		if printf '%s\n' "${TOUCHED[@]}" | grep -qxF -- "$f"; then
			fail "rst $f" "not checked: the series' Documentation/ changes did not apply"
		else
			keep+=("$f")
		fi
	done
	RST=("${keep[@]}")
	for f in "${NEW_RST[@]}"; do
		fail "toctree $f" "not checked: the series' Documentation/ changes did not apply"
	done
	NEW_RST=()
fi

# prints PASS/FAIL lines; details of failures on stderr
py_out=$(POST=$POST PRISTINE=$PRISTINE REPO=$REPO APPLIED=$applied \
	python3 - "${#RST[@]}" "${RST[@]}" "${NEW_RST[@]}" <<'EOF'
import io
import os
import re
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles

POST, PRISTINE, REPO = os.environ["POST"], os.environ["PRISTINE"], os.environ["REPO"]
APPLIED = os.environ["APPLIED"] == "1"
n = int(sys.argv[1])
rst_files, new_rst = sys.argv[2:2 + n], sys.argv[2 + n:]


def find(path):
    """The post-series version of a file of the tree, or None."""
    for root in (POST, PRISTINE):
        if os.path.isfile(os.path.join(root, path)):
            return os.path.join(root, path)
    return None


class AnyOptions(dict):
    """An option_spec that accepts every option."""

    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


class NoOp(Directive):
    has_content = True
    optional_arguments = 100
    final_argument_whitespace = True
    option_spec = AnyOptions()

    def run(self):
        return []


class KernelDoc(NoOp):
    """kernel-doc: a no-op, but the file it names has to exist."""

    def run(self):
        path = self.arguments[0] if self.arguments else ""
        if not path:
            raise self.error("kernel-doc: no file named")
        roots = (REPO, POST, PRISTINE, os.path.join(REPO, "build/src/linux"))
        if not any(os.path.isfile(os.path.join(r, path)) for r in roots):
            raise self.error("kernel-doc: %s does not exist" % path)
        return []


SPHINX_DIRECTIVES = """
    toctree kernel-abi kernel-feat kernel-include kernel-figure
    kernel-render kernel-cmd maintainers-include only highlight index
    glossary seealso versionadded versionchanged deprecated literalinclude
    tabularcolumns flat-table cssclass productionlist centered hlist
    c:function c:type c:macro c:struct c:union c:enum c:enumerator
    c:member c:var c:namespace c:namespace-push c:namespace-pop
""".split()
SPHINX_ROLES = """
    ref doc numref any term abbr command dfn envvar file guilabel kbd
    keyword mailheader makevar manpage menuselection mimetype newsgroup
    option program regexp samp download
    c:func c:type c:macro c:struct c:union c:enum c:enumerator c:member
    c:data c:var c:expr c:texpr
""".split()


def noop_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


for name in SPHINX_DIRECTIVES:
    directives.register_directive(name, NoOp)
directives.register_directive("kernel-doc", KernelDoc)
for name in SPHINX_ROLES:
    roles.register_local_role(name, noop_role)


def say(ok, name, why=""):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))


for f in rst_files:
    path = os.path.join(POST, f)
    if not os.path.isfile(path):
        say(False, "rst " + f, "no post-series version (a patch did not apply?)")
        continue
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    out = io.StringIO()
    publish_doctree(src, source_path=f, settings_overrides={
        "report_level": 2, "halt_level": 5, "warning_stream": out,
        "syntax_highlight": "none", "input_encoding": "utf-8",
        "file_insertion_enabled": True})
    msgs = [m for m in out.getvalue().splitlines()
            if re.match(r"^\S.*:\d*: \((WARNING|ERROR|SEVERE)/\d\)", m)]
    if out.getvalue().strip():
        sys.stderr.write(out.getvalue())
        say(False, "rst " + f, "%d docutils messages; first: %s" %
            (len(msgs), msgs[0] if msgs else out.getvalue().strip().splitlines()[0]))
    else:
        say(True, "rst " + f)


def toctree_entries(path):
    """The entries of every toctree directive in an rst file."""
    entries, lines = [], open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)\.\.\s+toctree::", lines[i])
        i += 1
        if not m:
            continue
        base = len(m.group(1).expandtabs())
        while i < len(lines):
            line = lines[i]
            if line.strip() and len(line) - len(line.lstrip()) <= base:
                break
            i += 1
            text = line.strip()
            if not text or text.startswith(":"):
                continue
            t = re.match(r"^.*<([^>]+)>$", text)
            entries.append(t.group(1) if t else text)
    return entries


for f in new_rst:
    name = "toctree " + f
    d, base = os.path.dirname(f), os.path.basename(f)[:-4]
    index = os.path.join(d, "index.rst")
    ipath = find(index)
    if base == "index":
        say(True, name + " (an index itself)")
        continue
    if not ipath:
        say(False, name, "%s does not exist" % index)
        continue
    entries = toctree_entries(ipath)
    bad = []
    for e in entries:
        if e == "self" or re.match(r"^[a-z]+://", e) or any(c in e for c in "*?["):
            continue
        target = e[1:] if e.startswith("/") else os.path.normpath(os.path.join(d, e))
        if e.startswith("/"):
            target = os.path.join("Documentation", target)
        if not any(find(target + sfx) for sfx in (".rst", "")):
            bad.append(e)
    listed = base in entries
    if listed and not bad:
        say(True, "%s (in %s, whose %d entries resolve)" % (name, index, len(entries)))
    else:
        why = []
        if not listed:
            why.append("not listed in %s" % index)
        if bad:
            why.append("%s entries that resolve to no file: %s" % (index, " ".join(bad)))
        say(False, name, "; ".join(why))
EOF
) || fail "rst checker" "python3 exited with an error"
while IFS= read -r line; do
	case $line in
	"PASS "*) pass "${line#PASS }" ;;
	"FAIL "*) rest=${line#FAIL }; fail "${rest%%: *}" "${rest#*: }" ;;
	"") ;;
	*) echo "$line" >&2 ;;
	esac
done <<<"$py_out"

summary
((FAIL == 0))
