#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Warden as Debian packages, built the way Debian builds its own:
# - wardenctl: dpkg-buildpackage from a source package (wardenctl/debian/),
#   then lintian, which must find no error and no warning;
# - the kernel we test: the tree's own bindeb-pkg, in a copy of the main
#   build folder ($BUILD, build.sh) with LOCALVERSION=-warden, so that only
#   the release string and the link are made again:
#   linux-image-<release>-warden-g<series>.  The main kernel has no
#   modules (CONFIG_MODULES is off: everything it boots is built in), so
#   there is no linux-headers package; linux-libc-dev comes with it.
#
# usage: deb.sh     (make deb) the packages into $DEB_OUT: wardenctl's
#                   source and binary packages, the kernel's in
#                   $DEB_OUT/kernel/
. "$(dirname "$0")/env.sh"

DEB_OUT=${DEB_OUT:-$WARDEN_CACHE/deb}
"$REPO/harness/deps.sh" debhelper dpkg-dev fakeroot lintian kmod libdw-dev
[ -f "$BUILD/arch/x86/boot/bzImage" ] || die "no kernel in $BUILD (run: make kernel)"

changelog=$REPO/wardenctl/debian/changelog
version=$(dpkg-parsechangelog -l "$changelog" -S Version)
# The version is said twice, by the package and by wardenctl -V.
[ "$(sed -n 's/^#define WARDENCTL_VERSION "\(.*\)"$/\1/p' "$REPO/wardenctl/wardenctl.h")" = "$version" ] ||
	die "wardenctl.h's WARDENCTL_VERSION is not $version, the version of $changelog"

# The source package: wardenctl's files (those git does not ignore), and the example
# sysctl.d file it installs under /usr/share/doc/wardenctl/examples/.
rm -rf "$DEB_OUT"
src=$DEB_OUT/wardenctl-$version
mkdir -p "$src/examples"
git -C "$REPO/wardenctl" ls-files -z --cached --others --exclude-standard | (cd "$REPO/wardenctl" && xargs -0 cp --parents -t "$src")
cp "$REPO/examples/sysctl.d/99-warden.conf" "$src/examples/"
# and the TAP helpers of its tests (make test, run by dh_auto_test).
cp "$REPO/harness/guest/tap.sh" "$src/tests/"

say "dpkg-buildpackage wardenctl $version"
(cd "$src" && dpkg-buildpackage -us -uc -j"$JOBS") > "$DEB_OUT/build.log" 2>&1 || {
	tail -n 30 "$DEB_OUT/build.log" >&2
	die "dpkg-buildpackage failed: $DEB_OUT/build.log"
}

changes=$(ls "$DEB_OUT"/wardenctl_"$version"_*.changes)
say "lintian $(basename "$changes")"
lintian --fail-on error,warning --display-level '>=warning' "$changes" ||
	die "lintian found errors or warnings in $changes"

# The kernel.  bindeb-pkg puts the packages beside its output folder.
kout=$DEB_OUT/kernel
mkdir -p "$kout"
say "bindeb-pkg in a copy of $BUILD"
rsync -a --delete --exclude=/checks --exclude=/guest --exclude=/kselftest \
	--exclude='/vm.*' --exclude='/run.*' "$BUILD/" "$kout/build/"
make -C "$TREE" O="$kout/build" -j"$JOBS" "${KMAKE_VARS[@]}" \
	LOCALVERSION=-warden KDEB_PKGVERSION="$version" bindeb-pkg \
	> "$kout/build.log" 2>&1 || {
	tail -n 30 "$kout/build.log" >&2
	die "bindeb-pkg failed: $kout/build.log"
}
rm -rf "$kout/build"
say "packages in $DEB_OUT: $(cd "$DEB_OUT" && echo *.deb kernel/*.deb)"
