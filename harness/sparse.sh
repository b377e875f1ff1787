#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the sparse the tree's checks run: the host's, when the tree's own
# test (scripts/checker-valid.sh) takes it; otherwise one built from
# Debian's newer source package.  7.3 needs a sparse that knows
# __typeof_unqual__, which Debian 12's 0.6.4 does not: without one, the
# tree's Makefile turns C=1 off with a warning, and -Wsparse-error would
# pass having checked nothing.
#
# The source package comes from $SPARSE_SUITE (default sid) by apt-get
# source with an apt configuration of its own under $WARDEN_CACHE/sparse
# (the host's apt setup is neither read nor changed): apt checks the
# Sources index's signature (Debian's archive keyring, signed-by) and the
# files' hashes against it.  Built with the host's gcc (make sparse, about
# 15 s), reused while the tree's test takes it.
. "$(dirname "$0")/env.sh"

SPARSE_SUITE=${SPARSE_SUITE:-sid}
valid=$TREE/scripts/checker-valid.sh

host_ok() {
	[ ! -f "$valid" ] || [ "$(sh "$valid" sparse 2>/dev/null)" = 1 ]
}

if host_ok; then
	command -v sparse
	exit 0
fi
dir=$WARDEN_CACHE/sparse
if [ -x "$dir/bin/sparse" ] && [ "$(sh "$valid" "$dir/bin/sparse")" = 1 ]; then
	echo "$dir/bin/sparse"
	exit 0
fi
apt_own_setup "$dir" "deb-src [signed-by=$DEBIAN_KEYRING] $KSRC_MIRROR $SPARSE_SUITE main"
mkdir -p "$dir/src"
# Downloaded as root, not as apt's user _apt, into a folder made here.
APT_OWN+=(-o APT::Sandbox::User=root)
say "the host's sparse cannot check $KSRC: building sparse from $SPARSE_SUITE's source package in $dir"
apt-get "${APT_OWN[@]}" -qq update >&2 || die "apt-get update of $SPARSE_SUITE's sources failed"
(cd "$dir/src" && apt-get "${APT_OWN[@]}" -qq source --download-only sparse) >&2 ||
	die "cannot download sparse's source from $SPARSE_SUITE"
dsc=("$dir"/src/sparse_*.dsc)
# apt checked the files against the signed index; no second check.
dpkg-source -q --no-check -x "${dsc[0]}" "$dir/src/sparse" >&2
make -C "$dir/src/sparse" -j"$JOBS" CC=gcc sparse >"$dir/make.log" 2>&1 ||
	{ tail -n 20 "$dir/make.log" >&2; die "sparse did not build"; }
mkdir -p "$dir/bin"
cp "$dir/src/sparse/sparse" "$dir/bin/sparse"
[ "$(sh "$valid" "$dir/bin/sparse")" = 1 ] || die "the sparse of $SPARSE_SUITE cannot check $KSRC either"
say "sparse $(basename "${dsc[0]}" .dsc | cut -d_ -f2): $dir/bin/sparse"
echo "$dir/bin/sparse"
