#!/bin/bash
# Install the Debian packages the build/boot/test harness needs.
# Idempotent and quick when everything is present: apt is only touched
# when some package is missing.
set -euo pipefail

PKGS=(
	linux-source-6.12
	build-essential gcc make flex bison bc libelf-dev libssl-dev kmod cpio
	xz-utils ccache quilt python3 python3-docutils
	qemu-system-x86
	busybox-static fio blktrace cgroup-tools e2fsprogs util-linux time
	runc
	sparse
)

# --deb, for make deb (tools/make-deb.sh runs it): Debian's packaging tools, which
# the kernel's bindeb-pkg uses, and Debian's kernel configs
if [[ ${1-} == --deb ]]; then
	PKGS+=(dpkg-dev debhelper rsync linux-config-6.12)
fi

# --docs, for make htmldocs (tools/htmldocs.sh runs it): Sphinx, which the
# kernel's documentation build uses with its default theme, and PyYAML,
# which its netlink spec pages (tools/net/ynl) need
if [[ ${1-} == --docs ]]; then
	PKGS+=(python3-sphinx python3-yaml)
fi

missing=()
for p in "${PKGS[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[[ "$st" == installed ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	echo "install-deps: all ${#PKGS[@]} packages present"
	exit 0
fi

echo "install-deps: installing: ${missing[*]}"
SUDO=()
((EUID == 0)) || SUDO=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
