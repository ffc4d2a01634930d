#!/bin/bash
# make check-upstream: the series applies to upstream v6.12.y, not only
# to Debian's tree.
#
#   tools/check-upstream.sh          (UPSTREAM_TARBALL=FILE to choose)
#
# Debian's linux-source-6.12, which everything else here is built from,
# is upstream v6.12.y plus Debian's own patches. The upstream tree used
# here is UPSTREAM_TARBALL, or else the .orig tarball of Debian's
# linux-6.12 source package: upstream's v6.12.y release as kernel.org
# ships it, less a few non-free firmware files, downloaded once into
# build/upstream/ from deb.debian.org (the newest version the mirror
# still has). tools/export-series.sh --check then applies every patch
# with git am onto it, in build/upstream-tmp/, and runs checkpatch.pl
# --strict on each. The last line is "N passed, N failed".
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
D=$REPO/build/upstream
MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
log() { echo "check-upstream: $*" >&2; }
die() { echo "check-upstream: ERROR: $*" >&2; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$D"

tarball=${UPSTREAM_TARBALL-}
if [[ -z $tarball ]]; then
	tarball=$(ls -1 "$D"/linux-6.12_6.12.*.orig.tar.xz 2>/dev/null | sort -V | tail -n1 || true)
fi
if [[ -z $tarball ]]; then
	curl -fsS "$MIRROR/dists/bookworm-security/main/source/Sources.xz" -o "$D/Sources.xz" ||
		die "cannot fetch $MIRROR's source index (set UPSTREAM_TARBALL=FILE)"
	# awk reads to the end: an early exit would kill xz with SIGPIPE, and
	# pipefail would then end the script without a word
	dir=$(xz -dc "$D/Sources.xz" | awk '/^Package: linux-6.12$/ { p = 1 } p && !d && /^Directory:/ { d = $2 } END { print d }') ||
		die "cannot read $D/Sources.xz"
	[[ -n $dir ]] || die "no linux-6.12 source package in $MIRROR"
	for f in $(xz -dc "$D/Sources.xz" | grep -oE 'linux-6\.12_6\.12\.[0-9]+\.orig\.tar\.xz' | sort -uV -r); do
		if curl -fsS "$MIRROR/$dir/$f" -o "$D/$f.part"; then
			mv "$D/$f.part" "$D/$f"
			tarball=$D/$f
			break
		fi
		rm -f "$D/$f.part"
		log "$f: not on the mirror"
	done
	[[ -n $tarball ]] || die "no linux-6.12 .orig tarball could be downloaded (set UPSTREAM_TARBALL=FILE)"
fi
[[ -r $tarball ]] || die "$tarball is not readable"
log "upstream tree: $tarball"
EXPORT_WORK=$REPO/build/upstream-tmp EXPORT_OUT=$D/series LINUX_TARBALL=$tarball \
	"$REPO/tools/export-series.sh" --check
