#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's own programs into $BUILD/guest, statically linked,
# against the UAPI headers of this very build ($BUILD/usr/include, from
# "make headers"): wardenctl (by its own Makefile, the one recipe for it),
# warden_bench, forge_segv (a task named "warden: " that segfaults, for
# wardenctl_test.sh), and the tree's Landlock sandboxer (the Debian boot).
# The initramfs (initramfs.sh) and the Debian boot's test disk (vm.sh)
# take them from there.
#
# A program is rebuilt when its sources or the headers are not those it
# was built from: their hash, not their times.  A missing header folder
# is an error, not a quiet fall-back to the host's older <linux/*.h>.
#
# usage: progs.sh        prints the folder
. "$(dirname "$0")/env.sh"

hdr=$BUILD/usr/include
gbin=$BUILD/guest
[ -f "$hdr/linux/landlock.h" ] ||
	die "no UAPI headers in $hdr (make kernel builds them)"

cache_lock
mkdir -p "$gbin"
hdr_sum=$(cd "$hdr" && find . -type f -name '*.h' -print0 | sort -z |
	xargs -0 sha256sum | sha256sum)

# fresh NAME SOURCES...: true when $gbin/NAME was built from these very
# sources (and the headers beside them) and headers; records the new sum
# in $sum for built().
fresh() {
	local name=$1
	shift
	sum=$({ echo "$hdr_sum"; printf '%s\n' "$@"; cat "$@"
		cat "${@%/*}"/*.h 2>/dev/null || true; } | sha256sum)
	[ -x "$gbin/$name" ] && [ "$(cat "$gbin/.$name.sum" 2>/dev/null)" = "$sum" ]
}
built() { echo "$sum" > "$gbin/.$1.sum"; }

cflags="-O2 -Wall -isystem $hdr"
wardenctl=("$REPO"/wardenctl/*.[ch] "$REPO"/wardenctl/Makefile)
if ! fresh wardenctl "${wardenctl[@]}"; then
	make -s -B -C "$REPO/wardenctl" O="$gbin" CPPFLAGS="-isystem $hdr" >&2 ||
		die "cannot build wardenctl"
	built wardenctl
fi
if ! fresh warden_bench "$REPO/bench/warden_bench.c"; then
	# shellcheck disable=SC2086
	gcc -static $cflags -o "$gbin/warden_bench" "$REPO/bench/warden_bench.c" \
		-lpthread || die "cannot build warden_bench"
	built warden_bench
fi
if ! fresh forge_segv "$REPO/harness/guest/forge_segv.c"; then
	# shellcheck disable=SC2086
	gcc -static $cflags -o "$gbin/forge_segv" \
		"$REPO/harness/guest/forge_segv.c" || die "cannot build forge_segv"
	built forge_segv
fi
sandboxer=$TREE/samples/landlock/sandboxer.c
if ! fresh sandboxer "$sandboxer"; then
	# shellcheck disable=SC2086
	gcc -static $cflags -o "$gbin/sandboxer" "$sandboxer" ||
		die "cannot build samples/landlock/sandboxer"
	built sandboxer
fi
echo "$gbin"
