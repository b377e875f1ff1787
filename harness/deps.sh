#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a Debian 12 machine, if it is missing.
#
# usage: deps.sh [MORE-PACKAGES...]   (what only one target needs)
. "$(dirname "$0")/env.sh"

packages=(
	"$KSRC_PACKAGE" gcc make bc bison flex libelf-dev libssl-dev
	cpio xz-utils python3 python3-ply python3-git perl git ccache sparse
	qemu-system-x86 busybox-static libc6-dev rsync groff-base
	# Not ours: the guest runs them on the debug kernel (fuzz.sh).
	trinity stress-ng "$@"
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

say "installing: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || SUDO=sudo
${SUDO:-} apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -q \
	--no-install-recommends "${missing[@]}" >/dev/null
