#!/bin/bash
# Build the patched 6.12 kernel for the QEMU harness.
#
#   tools/build-kernel.sh [--debug] [--prepare-only]
#
# --prepare-only stops after step 3 and prints the tree's path (run-kunit).
# 1. unpack /usr/src/linux-source-6.12.tar.xz into build/src/linux (once;
#    again only when the tarball changes), version in build/src/VERSION
# 2. apply series/patches/ with quilt; when the series changes, pop back to
#    the first changed patch and push again (no re-unpack). A patch whose
#    hunks are all on the repo's new files (patches/new-files/) has
#    nothing for quilt and is skipped: step 3 brings those files whole
# 3. copy the repo's block/ include/ Documentation/ files to the same paths
#    in the tree, only when their content differs (keeps mtimes)
# 4. config: tinyconfig + merge_config.sh -m kernel-config.hcfq kernel-config
#    [kernel-config.debug]
#    + olddefconfig, then verify every fragment line came out as asked
# 5. make O=build/obj-<normal|debug> CC="ccache gcc" -j$(nproc) bzImage, and
#    when the config has modules, modules into build/obj-<v>/modules.cpio
#
# The last line printed is the absolute path of the bzImage.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tools/unpack-tarball.sh
. "$REPO/tools/unpack-tarball.sh"
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SRCDIR=$REPO/build/src
TREE=$SRCDIR/linux
VARIANT=normal
PREPARE_ONLY=0
FRAGS=("$REPO/kernel-config.hcfq" "$REPO/kernel-config")
ORIG_ARGS=("$@")

while (($#)); do
	case $1 in
	--debug) VARIANT=debug; FRAGS+=("$REPO/kernel-config.debug") ;;
	--prepare-only) PREPARE_ONLY=1 ;;
	-h|--help) sed -n '2,21p' "$0"; exit 0 ;;
	*) echo "build-kernel: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

OBJ=$REPO/build/obj-$VARIANT
CFGDIR=$REPO/build/cfg-$VARIANT
log() { echo "build-kernel: $*" >&2; }
die() { echo "build-kernel: ERROR: $*" >&2; exit 1; }

[[ -r $TARBALL ]] || die "$TARBALL missing (run tools/install-deps.sh)"
mkdir -p "$SRCDIR"

# Only one build-kernel.sh may touch the source tree at a time; the object
# directories are per variant but share the tree.
exec 9>"$SRCDIR/.lock"
flock 9

# quilt sees the series without the patches that have no hunk (no @@): those
# whose changes are all to files the repo carries whole (their hunks are
# in patches/new-files/, for tools/export-series.sh), which quilt cannot
# push.  A name with no file stays, for the check below.
export QUILT_PATCHES=$REPO/patches
export QUILT_SERIES=$SRCDIR/quilt.series
sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$REPO/series" | while read -r name; do
	[[ -f $QUILT_PATCHES/$name ]] && ! grep -q '^@@ ' "$QUILT_PATCHES/$name" ||
		echo "$name"
done >"$QUILT_SERIES"
# quilt records the series' path at the first push, and that record wins
# over QUILT_SERIES: a tree first patched with the repo's series file
# must be pointed at this one
[[ ! -f $TREE/.pc/.quilt_series ]] || echo "$QUILT_SERIES" >"$TREE/.pc/.quilt_series"
export QUILT_PC=.pc
quilt() { command quilt --quiltrc=/dev/null "$@"; }

# ---------------------------------------------------------------- unpack
tar_id=$(stat -c '%s %Y' "$TARBALL")
unpack() {
	log "unpacking $TARBALL"
	rm -rf "$TREE" "$SRCDIR/applied" "$SRCDIR/copied"
	unpack_tarball "$TARBALL" "$TREE" || die "unexpected tarball layout"
	(cd "$TREE" && find . -path ./.pc -prune -o -type f -print | sed 's|^\./||' | sort) \
		>"$SRCDIR/pristine.list"
	local v
	v=$(make -s -C "$TREE" kernelversion 2>/dev/null)
	{
		echo "kernel $v"
		echo "package $(dpkg-query -W -f='${Package} ${Version}' linux-source-6.12 2>/dev/null || echo unknown)"
		echo "tarball $TARBALL"
	} >"$SRCDIR/VERSION"
	echo "$tar_id" >"$SRCDIR/tarball.id"
	# everything derived from the old tree is stale
	rm -f "$REPO"/build/obj-*/.config
}
if [[ ! -f $TREE/Makefile || ! -f $SRCDIR/tarball.id || $(cat "$SRCDIR/tarball.id") != "$tar_id" ]]; then
	unpack
fi

# ---------------------------------------------------------------- patches
# "name sha256" of every patch in the series, in order
series_state() {
	[[ -f $QUILT_SERIES ]] || return 0
	local name
	sed -e 's/#.*//' -e 's/[[:space:]].*//' "$QUILT_SERIES" | while read -r name; do
		[[ -n $name ]] || continue
		[[ -f $QUILT_PATCHES/$name ]] || { echo "MISSING $name"; continue; }
		echo "$name $(sha256sum <"$QUILT_PATCHES/$name" | cut -d' ' -f1)"
	done
}
new_state=$(series_state)
if grep -q '^MISSING ' <<<"$new_state"; then
	die "series names patches that do not exist in patches/: $(grep '^MISSING ' <<<"$new_state" | cut -d' ' -f2 | tr '\n' ' ')"
fi
old_state=$(cat "$SRCDIR/applied" 2>/dev/null || true)

if [[ $new_state != "$old_state" ]]; then
	# length of the common prefix of old and new series
	mapfile -t old_l <<<"$old_state"
	mapfile -t new_l <<<"$new_state"
	[[ -n $old_state ]] || old_l=()
	[[ -n $new_state ]] || new_l=()
	k=0
	while ((k < ${#old_l[@]} && k < ${#new_l[@]})) && [[ ${old_l[k]} == "${new_l[k]}" ]]; do
		k=$((k + 1))
	done
	cd "$TREE"
	if ((${#old_l[@]} > k)); then
		if ((k == 0)); then
			log "series changed: quilt pop -a"
			quilt pop -a -f -q >/dev/null || { log "quilt pop failed, re-unpacking"; cd "$REPO"; unpack; cd "$TREE"; }
		else
			top=${old_l[k - 1]%% *}
			log "series changed after $top: popping back to it"
			quilt pop -f -q "$top" >/dev/null || { log "quilt pop failed, re-unpacking"; cd "$REPO"; unpack; cd "$TREE"; }
		fi
	fi
	# after a pop the copied files may have been clobbered; recheck all
	rm -f "$SRCDIR/copied.sums"
	if [[ -n $new_state ]]; then
		log "applying series ($(wc -l <<<"$new_state") patches)"
		set +e
		quilt push -a -q
		rc=$?
		set -e
		# 0 = pushed, 2 = nothing to do (already applied)
		if ((rc != 0 && rc != 2)); then
			bad=$(quilt next 2>/dev/null || echo '?')
			echo "build-kernel: ERROR: patch $(basename "$bad") FAILED to apply (quilt push rc=$rc)" >&2
			# record what is applied so the next run continues from there
			quilt applied 2>/dev/null | while read -r p; do grep "^$(basename "$p") " <<<"$new_state"; done \
				>"$SRCDIR/applied" || true
			exit 1
		fi
	fi
	echo "$new_state" >"$SRCDIR/applied"
	[[ -n $new_state ]] || : >"$SRCDIR/applied"
	cd "$REPO"
fi

# ---------------------------------------------------------------- copy files
# Copy repo files at their in-tree paths, only when content differs.
mapfile -t files < <(cd "$REPO" && for d in block include Documentation; do
	[[ -d $d ]] && find "$d" -type f ! -name '.*' ! -name '*~'
done | sort)
: >"$SRCDIR/copied.new"
ncopied=0
for f in "${files[@]}"; do
	echo "$f" >>"$SRCDIR/copied.new"
	if ! cmp -s "$REPO/$f" "$TREE/$f"; then
		mkdir -p "$(dirname "$TREE/$f")"
		cp "$REPO/$f" "$TREE/$f"
		ncopied=$((ncopied + 1))
	fi
done
# Files copied by an earlier run that left the repo: remove them (or, when
# they shadowed a pristine file, restore by re-unpacking next time).
if [[ -f $SRCDIR/copied ]]; then
	mapfile -t prev <"$SRCDIR/copied"
	for f in "${prev[@]}"; do
		grep -qxF "$f" "$SRCDIR/copied.new" && continue
		if grep -qxF "$f" "$SRCDIR/pristine.list"; then
			log "$f left the repo but shadows a pristine file: forcing re-unpack"
			rm -f "$SRCDIR/tarball.id" "$SRCDIR/copied"
			exec "$0" "${ORIG_ARGS[@]}"
		fi
		log "removing $f (no longer in the repo)"
		rm -f "$TREE/$f"
	done
fi
mv "$SRCDIR/copied.new" "$SRCDIR/copied"
((ncopied == 0)) || log "copied $ncopied changed file(s) into the tree"
if ((PREPARE_ONLY)); then
	echo "$TREE"
	exit 0
fi

# ---------------------------------------------------------------- config
# paths under the checkout become relative for ccache, so that a clone in
# another folder (CI) reuses the objects this machine already compiled
export CCACHE_BASEDIR=$REPO
KMAKE=(make -C "$TREE" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc")
mkdir -p "$CFGDIR" "$OBJ"
log "generating $VARIANT config"
"${KMAKE[@]}" -s O="$CFGDIR" tinyconfig >/dev/null
(cd "$TREE" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$CFGDIR" \
	"$CFGDIR/.config" "${FRAGS[@]}" >"$CFGDIR/merge.log" 2>&1) ||
	{ cat "$CFGDIR/merge.log" >&2; die "merge_config.sh failed"; }
"${KMAKE[@]}" -s O="$CFGDIR" olddefconfig >/dev/null

# verify: last occurrence of each symbol over all fragments wins
declare -A want=()
for frag in "${FRAGS[@]}"; do
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
			[[ $val == n ]] && val="unset"
			want[$sym]=$val
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
			want[${BASH_REMATCH[1]}]="unset"
		fi
	done <"$frag"
done
declare -A got=()
while IFS= read -r line; do
	if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
		got[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
		got[${BASH_REMATCH[1]}]="unset"
	fi
done <"$CFGDIR/.config"
bad=()
for sym in $(printf '%s\n' "${!want[@]}" | sort); do
	w=${want[$sym]} g=${got[$sym]-absent}
	[[ $g == absent && $w == unset ]] && g="unset" # invisible symbol, still "not set"
	[[ $w == "$g" ]] && continue
	note=""
	if [[ $g == absent ]] && ! grep -rqsE "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}\$" \
		--include='Kconfig*' "$TREE"; then
		note=" (no such symbol in this tree's Kconfig)"
	fi
	bad+=("$sym: wanted $w, got $g$note")
done
if ((${#bad[@]})); then
	echo "build-kernel: ERROR: config mismatches for $VARIANT (fragments: ${FRAGS[*]##*/}):" >&2
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi
log "config verified: ${#want[@]} options as asked"

# install the config only if it changed, so kbuild stays incremental
if ! cmp -s "$CFGDIR/.config" "$OBJ/.config"; then
	cp "$CFGDIR/.config" "$OBJ/.config"
	"${KMAKE[@]}" -s O="$OBJ" olddefconfig >/dev/null
fi

# ---------------------------------------------------------------- build
log "building $VARIANT kernel in $OBJ"
start=$(date +%s)
# the machine lock keeps builds out of timing runs (see tools/run-tests.sh)
exec {lockfd}>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
flock "$lockfd"
"${KMAKE[@]}" O="$OBJ" -j"$(nproc)" bzImage >"$OBJ/build.log" 2>&1 ||
	{ grep -E 'error|Error' "$OBJ/build.log" | head -40 >&2; tail -20 "$OBJ/build.log" >&2; die "kernel build failed (log: $OBJ/build.log)"; }
# a config with modules (the debug variant builds hcfq as one): install
# them into modules.cpio, which run-tests.sh appends to the initramfs
rm -f "$OBJ/modules.cpio"
if grep -q '^CONFIG_MODULES=y' "$OBJ/.config"; then
	rm -rf "$OBJ/modroot"
	{ "${KMAKE[@]}" O="$OBJ" -j"$(nproc)" modules &&
	  "${KMAKE[@]}" O="$OBJ" INSTALL_MOD_PATH="$OBJ/modroot" INSTALL_MOD_STRIP=1 \
		DEPMOD=/usr/sbin/depmod modules_install; } >>"$OBJ/build.log" 2>&1 ||
		{ tail -20 "$OBJ/build.log" >&2; die "module build failed (log: $OBJ/build.log)"; }
	find "$OBJ/modroot/lib/modules" \( -name build -o -name source \) -exec rm -f {} +
	(cd "$OBJ/modroot" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$OBJ/modules.cpio"
	log "modules: $(cd "$OBJ/modroot" && find . -name '*.ko' | wc -l) in $OBJ/modules.cpio"
fi
log "built in $(($(date +%s) - start)) s"
img=$OBJ/arch/x86/boot/bzImage
[[ -f $img ]] || die "no bzImage produced"
echo "$img"
