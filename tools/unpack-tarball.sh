# shellcheck shell=bash
# Sourced by tools/build-kernel.sh and tools/export-series.sh.
#
#   unpack_tarball TARBALL DEST
#
# Unpack a kernel source tarball (one top directory) into DEST, through
# a scratch directory DEST.unpack next to it; DEST must not exist.
# Returns 1 if the tarball does not hold one tree with a Makefile.
unpack_tarball() {
	local tarball=$1 dest=$2 top
	rm -rf "$dest.unpack"
	mkdir -p "$dest.unpack"
	tar -xf "$tarball" -C "$dest.unpack" || return 1
	top=$(find "$dest.unpack" -mindepth 1 -maxdepth 1 -type d)
	[[ -f $top/Makefile ]] || { rm -rf "$dest.unpack"; return 1; }
	mv "$top" "$dest"
	rmdir "$dest.unpack"
}
