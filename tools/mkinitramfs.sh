#!/bin/bash
# Build the guest initramfs: build/initramfs.cpio (uncompressed newc).
#
#   tools/mkinitramfs.sh [--force]
#
# Contents: busybox-static (all applets, /bin/sh), fio, blktrace, blkparse,
# cgroup-tools, mkfs.ext4, ionice, taskset, runc, util-linux's setpriv,
# unshare and chrt, tools/blkshare/blkshare when built, each dynamic
# binary with its ldd libraries and the loader;
# tests/guest/init as /init, tests/guest/* under /tests/guest,
# tests/scenarios/* under /tests/scenarios and tools/examples/* (the
# libcgroup examples) under /tools/examples.
# Rebuilt only when one of the inputs (binaries, libraries, test files,
# this script) changed.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OUTF=$REPO/build/initramfs.cpio
STAGE=$REPO/build/initramfs-root
STAMP=$REPO/build/initramfs.inputs
FORCE=0
[[ ${1-} == --force ]] && FORCE=1

die() { echo "mkinitramfs: ERROR: $*" >&2; exit 1; }

BINS=(
	fio blktrace blkparse btrace
	cgexec cgcreate cgset cgget cgclassify lscgroup cgdelete
	cgconfigparser cgrulesengd
	mkfs.ext4 mke2fs ionice taskset runc setpriv unshare chrt
)

paths=()
for b in "${BINS[@]}"; do
	p=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$b") ||
		die "$b not found (run tools/install-deps.sh)"
	paths+=("$(readlink -f "$p")@${p}")
done
BUSYBOX=$(command -v busybox) || die "busybox not found"
file -L "$BUSYBOX" | grep -q 'statically linked' || die "$BUSYBOX is not static (need busybox-static)"
if [[ -x $REPO/tools/blkshare/blkshare ]]; then
	paths+=("$REPO/tools/blkshare/blkshare@/usr/bin/blkshare")
elif [[ -f $REPO/tools/blkshare/Makefile ]]; then
	echo "mkinitramfs: WARNING: tools/blkshare/blkshare not built (make blkshare)" >&2
fi

# libraries of all dynamic binaries
libs() {
	local src=${1%@*}
	ldd "$src" 2>/dev/null | awk '
		/=> \// { print $3; next }
		/^[[:space:]]*\/[^ ]+ \(0x/ { print $1 }' || true
}
mapfile -t LIBS < <(for e in "${paths[@]}"; do libs "$e"; done | sort -u)

mapfile -t TESTFILES < <(cd "$REPO" && find tests/guest tests/scenarios tools/examples -type f ! -name '*~' | sort)

# input fingerprint: name, size, mtime of everything that goes in
inputs() {
	local e
	for e in "${paths[@]}" "$BUSYBOX@" "$0@"; do
		stat -L -c '%n %s %Y' "${e%@*}"
	done
	for e in "${LIBS[@]}"; do stat -L -c '%n %s %Y' "$e"; done
	(cd "$REPO" && sha256sum "${TESTFILES[@]}")
}
fp=$(inputs | sha256sum | cut -d' ' -f1)
if ((!FORCE)) && [[ -f $OUTF && -f $STAMP && $(cat "$STAMP") == "$fp" ]]; then
	echo "mkinitramfs: up to date" >&2
	echo "$OUTF"
	exit 0
fi

rm -rf "$STAGE"
mkdir -p "$STAGE"
cd "$STAGE"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 etc dev proc sys tmp run mnt out \
	tests/guest tests/scenarios root var/tmp
ln -s ../lib usr/lib

# real binaries at their host paths
installed=()
for e in "${paths[@]}"; do
	src=${e%@*} dst=${e#*@}
	dst=${dst#/}
	case $dst in bin/* | sbin/*) dst=usr/$dst ;; esac
	mkdir -p "$(dirname "$dst")"
	cp -L "$src" "$dst"
	installed+=("$(basename "$dst")")
done
for l in "${LIBS[@]}"; do
	mkdir -p ".$(dirname "$l")"
	cp -L "$l" ".$l"
done

# busybox and its applets (real binaries win)
cp "$BUSYBOX" bin/busybox
while read -r a; do
	name=$(basename "$a")
	[[ $name == busybox ]] && continue
	skip=0
	for i in "${installed[@]}"; do [[ $i == "$name" ]] && skip=1 && break; done
	((skip)) && continue
	[[ -e $a || -L $a ]] && continue
	mkdir -p "$(dirname "$a")"
	ln -s /bin/busybox "$a"
done < <(bin/busybox --list-full)
[[ -L bin/sh ]] || ln -sf /bin/busybox bin/sh

# minimal /etc: no cgconfig, libcgroup reads /proc/mounts
cat >etc/passwd <<'EOF'
root:x:0:0:root:/root:/bin/sh
EOF
cat >etc/group <<'EOF'
root:x:0:
EOF
echo "hcfq-guest" >etc/hostname
mknod -m 600 dev/console c 5 1
mknod -m 666 dev/null c 1 3

# tests
for f in "${TESTFILES[@]}"; do
	mkdir -p "$(dirname "$f")"
	cp "$REPO/$f" "$f"
done
cp "$REPO/tests/guest/init" init
chmod 755 init tests/guest/* tests/scenarios/* 2>/dev/null || true

find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet >"$OUTF.tmp"
mv "$OUTF.tmp" "$OUTF"
echo "$fp" >"$STAMP"
echo "mkinitramfs: $(du -h "$OUTF" | cut -f1) ($(find . -mindepth 1 | wc -l) entries)" >&2
echo "$OUTF"
