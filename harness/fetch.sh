#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Download and unpack a kernel source package that the host's apt does not
# serve, without touching the host's apt setup.
#
# For a tree of another Debian suite (KSRC_SUITE, set by env.sh from KSRC:
# linux-source-7.3 from trixie-backports), apt runs with a configuration
# of its own under $KSRC_FETCH: its own sources list, lists, cache and an
# empty dpkg status, so that the host's sources, lists and status are
# neither read nor written.  apt checks the suite's InRelease against
# Debian's archive keyring (signed-by, the host's debian-archive-keyring)
# and the .deb against the SHA256 of the Packages index it signs.  The
# package is unpacked with dpkg-deb -x into $KSRC_FETCH/root (not
# installed), so the tarball is $KSRC_TARBALL.
#
# A warm run uses no network: the tarball is reused when its SHA256 is the
# one recorded when it was unpacked from the verified .deb.  To take a
# newer upload, remove $KSRC_FETCH, or set KSRC_VERSION.
. "$(dirname "$0")/env.sh"

[ -n "$KSRC_SUITE" ] || exit 0	# the host's own package: deps.sh installs it

dir=$KSRC_FETCH
marker=$dir/fetched	# "PACKAGE VERSION TARBALL-SHA256"

if [ -f "$marker" ] && [ -f "$KSRC_TARBALL" ]; then
	read -r p v sum < "$marker"
	if [ "$p" = "$KSRC_PACKAGE" ] && [ -z "${KSRC_VERSION:-}" -o "$v" = "${KSRC_VERSION:-}" ]; then
		[ "$(sha256sum "$KSRC_TARBALL" | cut -d' ' -f1)" = "$sum" ] &&
			exit 0
		say "$KSRC_TARBALL does not match $marker: fetching again"
	fi
fi

command -v dpkg-deb >/dev/null || die "no dpkg-deb"

apt_own_setup "$dir" "deb [signed-by=$DEBIAN_KEYRING] $KSRC_MIRROR $KSRC_SUITE main"
mkdir -p "$dir/deb"
# As root, apt downloads as its user _apt, into a folder it can write.
[ "$(id -u)" != 0 ] || ! id _apt >/dev/null 2>&1 || chown _apt "$dir/deb"

say "fetching $KSRC_PACKAGE from $KSRC_SUITE ($KSRC_MIRROR), apt's own configuration in $dir/apt"
apt-get "${APT_OWN[@]}" -q update >&2 ||
	die "apt-get update of $KSRC_SUITE failed"
# The signature apt checked, said again in words (apt only says it when
# it fails).
inrelease=("$dir"/apt/lists/*_dists_"${KSRC_SUITE}"_InRelease)
[ -f "${inrelease[0]}" ] || die "no InRelease of $KSRC_SUITE in $dir/apt/lists"
gpgv --keyring "$DEBIAN_KEYRING" "${inrelease[0]}" 2>&1 | grep -E '^gpgv: (Good|Signature made)' >&2 ||
	die "${inrelease[0]}: no good signature by $DEBIAN_KEYRING"

want=$KSRC_PACKAGE${KSRC_VERSION:+=$KSRC_VERSION}
(cd "$dir/deb" && apt-get "${APT_OWN[@]}" -q download "$want" >&2) ||
	die "cannot download $want from $KSRC_SUITE"
deb=("$dir"/deb/"${KSRC_PACKAGE}"_*.deb)
[ ${#deb[@]} -eq 1 ] && [ -f "${deb[0]}" ] || die "no single $KSRC_PACKAGE .deb in $dir/deb"
version=$(dpkg-deb -f "${deb[0]}" Version)

# apt download checked the .deb against the index; say so, with the sum.
sha=$(sha256sum "${deb[0]}" | cut -d' ' -f1)
indexed=$(apt-cache "${APT_OWN[@]}" show "$KSRC_PACKAGE=$version" | awk '/^SHA256: / { print $2; exit }')
[ "$sha" = "$indexed" ] || die "${deb[0]}: SHA256 $sha, the signed index says $indexed"
say "${deb[0]##*/}: SHA256 $sha, as in $KSRC_SUITE's signed Packages index"

dpkg-deb -x "${deb[0]}" "$dir/root"
[ -f "$KSRC_TARBALL" ] || die "${deb[0]} has no $KSRC_TARBALL"
echo "$KSRC_PACKAGE $version $(sha256sum "$KSRC_TARBALL" | cut -d' ' -f1)" > "$marker"
say "$KSRC_PACKAGE $version unpacked: $KSRC_TARBALL"
