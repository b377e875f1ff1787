#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel and run a shell command in it as root.
#
# usage: run.sh CMD [KERNEL-ARGS...]
# Exits with CMD's status in the guest; CMD "@interactive" gives a shell.
. "$(dirname "$0")/env.sh"

cmd=$1
shift
[ -n "$cmd" ] || die "usage: make run CMD='command' [GUEST_DIR=folder]"
dir=$(mktemp -d "$BUILD/run.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$REPO/harness/initramfs.sh" "$dir/initramfs.cpio" "$cmd"
[ "$cmd" = "@interactive" ] && export INTERACTIVE=1
rc=0
"$REPO/harness/qemu.sh" "$dir/initramfs.cpio" "$dir/result" "$@" || rc=$?
[ -z "${RESULT_COPY:-}" ] || cp "$dir/result" "$RESULT_COPY"
exit "$rc"
