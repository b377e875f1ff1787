#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# wardenctl as a Debian package, built the way Debian builds its own:
# dpkg-buildpackage from a source package (wardenctl/debian/), then
# lintian, which must find no error and no warning.
#
# usage: deb.sh     (make deb) the source and binary packages into $DEB_OUT
. "$(dirname "$0")/env.sh"

DEB_OUT=${DEB_OUT:-$WARDEN_CACHE/deb}
"$REPO/harness/deps.sh" debhelper dpkg-dev fakeroot lintian

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
say "packages in $DEB_OUT: $(cd "$DEB_OUT" && echo *.deb)"
