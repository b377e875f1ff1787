#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a Debian 12 machine, if it is missing.
#
# usage: deps.sh [MORE-PACKAGES...]   (what only one target needs)
. "$(dirname "$0")/env.sh"

# The kernel tree: the host's package, or fetch.sh's download (KSRC_SUITE).
ksrc_packages=("$KSRC_PACKAGE")
[ -z "$KSRC_SUITE" ] || ksrc_packages=()
packages=(
	"${ksrc_packages[@]}" gcc make bc bison flex libelf-dev libssl-dev
	cpio xz-utils python3 python3-ply python3-git perl git ccache sparse
	qemu-system-x86 busybox-static libc6-dev rsync groff-base
	# Not ours: the guest runs them on the debug kernel (fuzz.sh).
	trinity stress-ng "$@"
)

# Programs the guest runs but the host must not install (auditd would
# start its daemon on the host, nfs-kernel-server and rpcbind theirs):
# their packages are unpacked, not installed, under $GUEST_DEBS
# (initramfs.sh copies what the guest needs).  The NFS server's user
# space (nfs_test.sh): rpcbind, exportfs, rpc.mountd and rpc.nfsd, the
# TCP wrappers library they link, libtirpc's /etc/netconfig and
# netbase's /etc/services.
unpacked=(auditd libauparse0 rpcbind nfs-kernel-server libwrap0 libtirpc-common netbase)

# Each is unpacked again when apt's candidate version is not the one
# unpacked (the version is in its marker file).
unpack_guest_debs() {
	local p tmp version
	local -A candidate

	# One apt-cache for them all: "PACKAGE VERSION" lines.
	while read -r p version; do
		candidate[$p]=$version
	done < <(apt-cache policy "${unpacked[@]}" 2>/dev/null |
		awk '/^[^ ].*:$/ { p = substr($0, 1, length($0) - 1) }
		     /^ *Candidate: / { print p, $2 }')
	for p in "${unpacked[@]}"; do
		version=${candidate[$p]:-}
		[ -n "$version" ] && [ "$(cat "$GUEST_DEBS/.$p" 2>/dev/null)" = "$version" ] &&
			continue
		tmp=$(mktemp -d)
		(cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1) || {
			${SUDO:-} apt-get update -q >/dev/null
			(cd "$tmp" && apt-get download -q "$p" >/dev/null 2>&1)
		} || die "cannot download $p"
		mkdir -p "$GUEST_DEBS"
		dpkg-deb -x "$tmp"/*.deb "$GUEST_DEBS"
		dpkg-deb -f "$tmp"/*.deb Version > "$GUEST_DEBS/.$p"
		rm -rf "$tmp"
	done
}

# One dpkg-query for them all: this runs before every make run.
mapfile -t missing < <(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null |
	awk -v want="${packages[*]}" '$NF == "installed" { ok[$1] = 1 }
	     END { n = split(want, w, " "); for (i = 1; i <= n; i++) if (!(w[i] in ok)) print w[i] }')
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
	say "installing: ${missing[*]}"
	${SUDO:-} apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -q \
		--no-install-recommends "${missing[@]}" >/dev/null
fi
unpack_guest_debs
"$REPO/harness/fetch.sh"
