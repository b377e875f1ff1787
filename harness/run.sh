#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel and run a shell command in it as root.
#
# usage: run.sh CMD [KERNEL-ARGS...]
# Exits with CMD's status in the guest; CMD "@interactive" gives a shell.
#
# The initramfs is packed, and the kernel copied, into a folder of this
# boot's own under the cache's lock; the boot itself runs without it, so
# that runs on one cache go side by side and none boots a kernel that
# another is rebuilding.
. "$(dirname "$0")/env.sh"

cmd=$1
shift
[ -n "$cmd" ] || die "usage: make run CMD='command' [GUEST_DIR=folder]"
dir=$(mktemp -d "$BUILD/run.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cache_lock
"$REPO/harness/initramfs.sh" "$dir/initramfs.cpio" "$cmd"
cp "$BUILD/arch/x86/boot/bzImage" "$dir/bzImage" ||
	die "no kernel at $BUILD/arch/x86/boot/bzImage (run: make kernel)"
cache_unlock
export KERNEL=$dir/bzImage
[ "$cmd" = "@interactive" ] && export INTERACTIVE=1
rc=0
"$REPO/harness/qemu.sh" "$dir/initramfs.cpio" "$dir/result" "$@" || rc=$?
[ -z "${RESULT_COPY:-}" ] || cp "$dir/result" "$RESULT_COPY"
exit "$rc"
