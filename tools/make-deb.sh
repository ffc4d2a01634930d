#!/bin/bash
# make deb: installable Debian packages of the patched kernel.
#
#   tools/make-deb.sh [--boot]      (KCONFIG=FILE to choose the base config)
#
# 1. tools/export-series.sh: the series applied with git am semantics
#    onto Debian's 6.12 tree; its result (build/export-tmp/linux, branch
#    "export") is copied to build/deb/linux, so the packages are built
#    from exactly what `git am build/series/*.patch` gives
# 2. config: a full base config, by default the running machine's
#    /boot/config-$(uname -r), else Debian's amd64 config from the
#    linux-config-6.12 package, or KCONFIG=FILE (tools/install-deps.sh
#    --deb installs that package, dpkg-dev and debhelper);
#    then merge_config.sh -m with kernel-config.hcfq (hcfq built in,
#    biotrack, block cgroups, blktrace) and olddefconfig. The keyring
#    options that name Debian's own certificates are emptied (the build
#    makes its own module signing key). Never the test harness's
#    kernel-config: that one is a tinyconfig-based guest.
# 3. make bindeb-pkg LOCALVERSION=-hcfq: linux-image-*-hcfq_*.deb (the
#    kernel and its modules), linux-headers-* and linux-libc-dev, in
#    build/deb/ (debug info is turned off: it would
#    double the build time, and BTF needs pahole)
# --boot: boot the packaged kernel (vmlinuz and modules taken out of the
#    linux-image package) under QEMU with the test initramfs, once, and
#    run tests/scenarios/deb-boot.sh there: hcfq registered, attached to
#    a disk, and its cgroup files present
#
# Takes as long as the base config's kernel: Debian's full config
# builds thousands of modules (hours on 2 cores). Not part of make check.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
D=$REPO/build/deb
SRC=$D/linux
OBJ=$D/obj
BOOT=0
while (($#)); do
	case $1 in
	--boot) BOOT=1 ;;
	-h|--help) sed -n '2,29p' "$0"; exit 0 ;;
	*) echo "make-deb: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
log() { echo "make-deb: $*" >&2; }
die() { echo "make-deb: ERROR: $*" >&2; exit 1; }
T0=$SECONDS
# dpkg-dev, debhelper and rsync (bindeb-pkg) and linux-config-6.12
"$REPO/tools/install-deps.sh" --deb >&2 || die "tools/install-deps.sh --deb failed"

# ---------------------------------------------------------------- base config
if [[ -n ${KCONFIG-} ]]; then
	BASECFG=$(readlink -f "$KCONFIG")
	[[ -r $BASECFG ]] || die "KCONFIG=$KCONFIG is not readable"
elif [[ -r /boot/config-$(uname -r) ]]; then
	BASECFG=/boot/config-$(uname -r)
else
	DEBCFG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
	[[ -r $DEBCFG ]] || die "no base config: set KCONFIG=FILE"
	BASECFG=$DEBCFG
fi
log "base config: $BASECFG"

# ---------------------------------------------------------------- tree
"$REPO/tools/export-series.sh" >"$D.export.log" 2>&1 ||
	{ tail -n 20 "$D.export.log" >&2; die "tools/export-series.sh failed"; }
mkdir -p "$D"
# the tree only when the series changed, so a second run is incremental
head=$(GIT_CONFIG_GLOBAL=/dev/null git -C "$REPO/build/export-tmp/linux" rev-parse 'export^{tree}')
if [[ ! -f $D/tree.id || $(cat "$D/tree.id") != "$head" ]]; then
	log "copying the exported tree ($head) to $SRC"
	rm -rf "$SRC"
	mkdir -p "$SRC"
	GIT_CONFIG_GLOBAL=/dev/null git -C "$REPO/build/export-tmp/linux" archive export |
		tar -x -C "$SRC"
	echo "$head" >"$D/tree.id"
fi

# ---------------------------------------------------------------- config
export CCACHE_BASEDIR=$REPO
KMAKE=(make -C "$SRC" O="$OBJ" ARCH=x86_64 LOCALVERSION=-hcfq CC="ccache gcc" HOSTCC="ccache gcc")
mkdir -p "$OBJ"
case $BASECFG in
*.xz) xz -dc "$BASECFG" >"$D/base.config" ;;
*) cp "$BASECFG" "$D/base.config" ;;
esac
(cd "$SRC" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m -O "$D" \
	"$D/base.config" "$REPO/kernel-config.hcfq" >"$D/merge.log" 2>&1) ||
	{ cat "$D/merge.log" >&2; die "merge_config.sh failed"; }
# no debug info: it doubles the build, and BTF would need pahole
"$SRC/scripts/config" --file "$D/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
	--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY certs/signing_key.pem \
	-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_DWARF4 -d DEBUG_INFO_DWARF5 \
	-d DEBUG_INFO_BTF -e DEBUG_INFO_NONE
if ! cmp -s "$D/.config" "$OBJ/.config.merged" 2>/dev/null; then
	cp "$D/.config" "$OBJ/.config"
	cp "$D/.config" "$OBJ/.config.merged"
fi
"${KMAKE[@]}" -s olddefconfig >/dev/null
for sym in BLK_CGROUP MQ_IOSCHED_HCFQ BLK_BIOTRACK BLK_DEV_IO_TRACE; do
	grep -qE "^CONFIG_$sym=[ym]" "$OBJ/.config" || die "CONFIG_$sym did not come out set"
done
log "config: hcfq $(sed -n 's/^CONFIG_MQ_IOSCHED_HCFQ=//p' "$OBJ/.config"), biotrack $(sed -n 's/^CONFIG_BLK_BIOTRACK=//p' "$OBJ/.config"), $(grep -c '=m$' "$OBJ/.config") options as modules"

# ---------------------------------------------------------------- packages
exec 9>"${HCFQ_MACHINE_LOCK:-/tmp/hcfq-machine.lock}"
flock -n 9 || { log "waiting for the machine lock"; flock 9; }
rm -f "$D"/*.deb "$D"/*.buildinfo "$D"/*.changes
t=$SECONDS
"${KMAKE[@]}" -j"$(nproc)" KDEB_COMPRESS=xz bindeb-pkg \
	>"$D/build.log" 2>&1 || { tail -n 30 "$D/build.log" >&2; die "bindeb-pkg failed (log: $D/build.log)"; }
log "built in $((SECONDS - t)) s:"
ls -l "$D"/*.deb >&2
IMG=$(ls "$D"/linux-image-*-hcfq_*.deb 2>/dev/null | grep -v -- '-dbg_' | head -n1)
[[ -n $IMG ]] || die "no linux-image package in $D"
dpkg-deb -I "$IMG" | sed -n 's/^ \(Package\|Version\|Installed-Size\): /  \1: /p' >&2

# ---------------------------------------------------------------- boot
if ((BOOT)); then
	X=$D/image-root
	rm -rf "$X"
	dpkg-deb -x "$IMG" "$X"
	KIMG=$(ls "$X"/boot/vmlinuz-* | head -n1)
	[[ -f $KIMG ]] || die "no vmlinuz in $IMG"
	# its modules at /lib/modules in a cpio that run-tests appends to
	# the initramfs (the package may put them under /usr/lib)
	MODS=$D/modules.cpio
	rm -rf "$D/modroot"
	mkdir -p "$D/modroot/lib"
	for m in "$X/lib/modules" "$X/usr/lib/modules"; do
		[[ -d $m ]] && cp -a "$m" "$D/modroot/lib/"
	done
	(cd "$D/modroot" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$MODS"
	"$REPO/tools/mkinitramfs.sh" >/dev/null
	# the flock above is ours: let run-tests take it
	flock -u 9
	HCFQ_KERNEL_IMAGE=$KIMG HCFQ_KERNEL_MODULES=$MODS \
		"$REPO/tools/run-tests.sh" --no-build --scenario deb-boot --cgmode v1
fi
log "done in $((SECONDS - T0)) s"
