#!/bin/bash
# make check-series: the exported series, checked the way a maintainer
# would before taking it.
#
#   tools/check-series.sh
#
# 1. tools/export-series.sh --check: every patch applies with git am onto
#    Debian's 6.12 tree (build/export-tmp/linux, tag "base"), and
#    checkpatch.pl --strict is clean on every patch
# 2. bisectability: the test kernel's config (build/cfg-normal/.config,
#    made by tools/build-kernel.sh) builds at the base and after every
#    patch, in build/obj-series, with no error and no compiler warning
#    that the base build did not have
# 3. W=1 and sparse (C=2) on every .c file the series adds or changes,
#    at the base (for the files that exist there) and after the last
#    patch: no warning that the base did not have (warnings are compared
#    without their line numbers)
# 4. i386: the files the series adds, and the block and mm files it
#    changes, compiled for ARCH=i386 (i386_defconfig plus the series'
#    options) and linked into no libgcc 64-bit division helper
#    (__udivdi3, __divdi3, __umoddi3, __moddi3, ...), which the kernel
#    does not have: a 64-bit '/' or '%' has to use div64_u64() and friends
#
# One pass or fail per step and patch; the last line is
# "N passed, N failed". Logs are in build/check-series/. It holds the
# machine lock while it builds (HCFQ_MACHINE_LOCK, see run-tests.sh).
# About 25 minutes on 2 cores, most of it the base build and the patches
# that change widely included headers.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
T=$REPO/build/export-tmp/linux
OBJ=$REPO/build/obj-series
OBJ32=$REPO/build/obj-series-i386
LOGS=$REPO/build/check-series
CFG=$REPO/build/cfg-normal/.config
JOBS=$(nproc)
PASS=0
FAIL=0
T0=$SECONDS

log() { echo "check-series: $*" >&2; }
pass() { PASS=$((PASS + 1)); echo "PASS $*"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $*"; }
summary_done=0
summary() { summary_done=1; log "done in $((SECONDS - T0)) s"; echo "$PASS passed, $FAIL failed"; }
trap 'rc=$?; if ((rc && !summary_done)); then FAIL=$((FAIL + 1)); summary; fi' EXIT
die() { fail "setup: $*"; summary; exit 1; }
tgit() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$T" "$@"; }

mkdir -p "$LOGS"

# ---------------------------------------------------------------- 1. export
if "$REPO/tools/export-series.sh" --check >"$LOGS/export.log" 2>&1; then
	pass "export: $(tail -n1 "$LOGS/export.log") (git am, checkpatch --strict)"
else
	tail -n 30 "$LOGS/export.log" >&2
	fail "export: $(tail -n1 "$LOGS/export.log") (log: $LOGS/export.log)"
	summary
	exit 1
fi
if [[ ! -f $CFG ]]; then
	log "no $CFG: building the test kernel once to make it"
	"$REPO/tools/build-kernel.sh" >"$LOGS/build-kernel.log" 2>&1 ||
		die "tools/build-kernel.sh failed (log: $LOGS/build-kernel.log)"
fi
mapfile -t COMMITS < <(tgit rev-list --reverse base..export)
((${#COMMITS[@]})) || die "the export has no commits"

exec 9>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
if ! flock -n 9; then
	log "waiting for the machine lock (a guest is running)"
	flock 9
fi

# the .c files the series adds or changes that are built as objects of
# their own (named in their directory's Makefile; hcfq-test.c, say, is
# included by hcfq-iosched.c), and those of them in the base
CFILES=()
while IFS= read -r f; do
	grep -qw "$(basename "${f%.c}").o" "$T/$(dirname "$f")/Makefile" 2>/dev/null &&
		CFILES+=("$f")
done < <(tgit diff --name-only --diff-filter=AM base export -- '*.c')
BASEFILES=()
for f in "${CFILES[@]}"; do
	tgit cat-file -e "base:$f" 2>/dev/null && BASEFILES+=("$f")
done
objs() { local f; for f in "$@"; do echo "${f%.c}.o"; done; }

KMAKE=(make -C "$T" O="$OBJ" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc")
export CCACHE_BASEDIR=$REPO

# "file: warning: text" without line and column, and with the tree's
# and the object directory's paths taken out
REL=$(realpath -m --relative-to="$OBJ" "$T")
warnings() {
	grep -E '(warning|error):' "$1" |
		sed -E -e "s|$T/||g" -e "s|$OBJ32/||g" -e "s|$OBJ/||g" -e "s|^(\./)?$REL/||" \
			-e 's/^([^:]+):[0-9]+:([0-9]+:)?/\1:/' | LC_ALL=C sort -u || true
}

checkout() {
	tgit checkout -q -f "$1"
	tgit clean -q -f -d -x
}

build_at() { # name commit: the test config's bzImage
	local name=$1 c=$2 t=$SECONDS
	checkout "$c"
	mkdir -p "$OBJ"
	cp "$CFG" "$OBJ/.config"
	"${KMAKE[@]}" -s olddefconfig >/dev/null 2>&1
	"${KMAKE[@]}" -j"$JOBS" bzImage >"$LOGS/build-$name.log" 2>&1
	local rc=$?
	log "$name: built in $((SECONDS - t)) s (rc $rc)"
	return $rc
}

# sparse and W=1 on the named objects; warnings into $LOGS/$name.warn
extra_checks() { # name file.c...
	local name=$1
	shift
	(($#)) || { : >"$LOGS/$name.warn"; return 0; }
	"${KMAKE[@]}" -j"$JOBS" W=1 C=2 CHECK=sparse $(objs "$@") \
		>"$LOGS/$name.log" 2>&1 || true
	warnings "$LOGS/$name.log" >"$LOGS/$name.warn"
}

# ---------------------------------------------------------------- 2. builds
command -v sparse >/dev/null || die "sparse is missing (run tools/install-deps.sh)"
build_at base base || die "the base tree does not build (log: $LOGS/build-base.log)"
warnings "$LOGS/build-base.log" >"$LOGS/build-base.warn"
extra_checks extra-base "${BASEFILES[@]}"
i=0
for c in "${COMMITS[@]}"; do
	i=$((i + 1))
	subj=$(tgit log -1 --format=%s "$c")
	name=$(printf 'patch-%02d' "$i")
	if ! build_at "$name" "$c"; then
		grep -E 'error' "$LOGS/build-$name.log" | head -n 20 >&2 || true
		fail "build after patch $i ($subj): does not build (log: $LOGS/build-$name.log)"
		continue
	fi
	new=$(comm -13 "$LOGS/build-base.warn" <(warnings "$LOGS/build-$name.log"))
	if [[ -n $new ]]; then
		echo "$new" >&2
		fail "build after patch $i ($subj): new warnings"
	else
		pass "build after patch $i ($subj)"
	fi
done

# ---------------------------------------------------------------- 3. W=1, sparse
extra_checks extra-final "${CFILES[@]}"
new=$(comm -13 "$LOGS/extra-base.warn" "$LOGS/extra-final.warn")
if [[ -n $new ]]; then
	echo "$new" >&2
	fail "W=1 and sparse on the series' ${#CFILES[@]} .c files: $(wc -l <<<"$new") new warnings (log: $LOGS/extra-final.log)"
elif ! grep -q 'CHECK' "$LOGS/extra-final.log"; then
	fail "W=1 and sparse: sparse did not run (log: $LOGS/extra-final.log)"
else
	pass "W=1 and sparse on the series' ${#CFILES[@]} .c files: no new warnings ($(wc -l <"$LOGS/extra-base.warn") at the base)"
fi

# ---------------------------------------------------------------- 4. i386
# the files the series adds or changes under block/ and mm/
mapfile -t F32 < <(printf '%s\n' "${CFILES[@]}" | grep -E '^(block|mm)/' || true)
# no file would make "make" build the whole kernel
((${#F32[@]})) || die "the series changes no block or mm file that is built alone"
K32=(make -C "$T" O="$OBJ32" ARCH=i386 CC="ccache gcc" HOSTCC="ccache gcc")
t=$SECONDS
mkdir -p "$OBJ32"
ok32=1
{
	"${K32[@]}" -s i386_defconfig &&
	"$T/scripts/config" --file "$OBJ32/.config" -e CGROUPS -e BLOCK -e BLK_CGROUP \
		-e MEMCG -e CGROUP_WRITEBACK -e MQ_IOSCHED_HCFQ -e BLK_BIOTRACK \
		-e BLK_DEV_IO_TRACE -e FTRACE -e DEBUG_FS -e BLK_DEBUG_FS -e KUNIT \
		-e HCFQ_KUNIT_TEST &&
	"${K32[@]}" -s olddefconfig &&
	"${K32[@]}" -s -j"$JOBS" prepare
} >"$LOGS/i386.log" 2>&1 || ok32=0
for sym in MQ_IOSCHED_HCFQ BLK_BIOTRACK HCFQ_KUNIT_TEST BLK_DEBUG_FS; do
	grep -q "^CONFIG_$sym=y" "$OBJ32/.config" 2>/dev/null || {
		ok32=0
		log "i386: CONFIG_$sym is not set"
	}
done
if ((ok32)) && "${K32[@]}" -j"$JOBS" $(objs "${F32[@]}") >>"$LOGS/i386.log" 2>&1; then
	bad=""
	for o in $(objs "${F32[@]}"); do
		u=$(nm -u "$OBJ32/$o" | grep -oE '__(u?divdi3|u?moddi3|u?divmoddi4)$' | sort -u | tr '\n' ' ' || true)
		[[ -z $u ]] || bad+="$o: $u"$'\n'
	done
	if [[ -n $bad ]]; then
		echo "$bad" >&2
		fail "i386: 64-bit divisions by libgcc in: $(tr '\n' ' ' <<<"$bad")"
	else
		pass "i386: ${#F32[@]} files built, no 64-bit libgcc division ($((SECONDS - t)) s)"
	fi
else
	tail -n 30 "$LOGS/i386.log" >&2
	fail "i386: the build failed (log: $LOGS/i386.log)"
fi

# leave the tree at the export
checkout export
summary
((FAIL == 0))
