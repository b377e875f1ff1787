#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the Debian image (image.sh: Debian 13, or 12 with DISTRO=bookworm) on the main kernel, with the LSMs
# Debian's kernel stacks and Warden first, under systemd.
#
# usage: vm.sh                 a root login on the console (leave with
#                              "poweroff", or Ctrl-a x)
#        vm.sh CMD             runs CMD as root once the system is up
#                              (systemctl is-system-running --wait), prints
#                              its output, exits with its status
#
# The image is used with -snapshot: it stays as built.  What changes more
# often than the image comes on a second, small disk made at each boot,
# mounted at /warden: wardenctl, the tree's Landlock sandboxer, the guest
# scripts of harness/guest-distro and harness/guest/tap.sh, CMD and
# run-cmd, which the image's warden-cmd.service starts after
# multi-user.target (it is wanted only when CMD is given).  run-cmd
# writes "warden-exit: N" to the second serial port and reboots, which
# ends QEMU (-no-reboot).  No verdict within DISTRO_TIMEOUT seconds is a
# failure (125).
#
# Settings: DISTRO_MEM (default 2G), DISTRO_TIMEOUT (900), DISTRO_LSM
# (the lsm= order; empty: no lsm=, the kernel's CONFIG_LSM), DISTRO_ARGS
# (more kernel parameters), DISTRO_KERNEL and DISTRO_INITRD (another
# kernel, and its initramfs: Debian's own, to compare, or one installed
# in the image).  For the install boot (install.sh): DISTRO_DISK, a disk
# to boot instead of the image, written to (a qcow2 overlay of the
# image); DISTRO_FILES, more files for /warden; DISTRO_OUT, a folder that
# receives the guest's /warden/out, as DISTRO_OUT/out.
. "$(dirname "$0")/env.sh"

DISTRO_MEM=${DISTRO_MEM:-2G}
DISTRO_TIMEOUT=${DISTRO_TIMEOUT:-900}
# Debian 12's and 13's CONFIG_LSM, Warden first; loadpin, safesetid and smack are
# not built and are ignored, as on Debian.
DISTRO_LSM=${DISTRO_LSM-warden,landlock,lockdown,yama,loadpin,safesetid,integrity,apparmor,selinux,smack,tomoyo,bpf}
DISTRO_ARGS=${DISTRO_ARGS:-}
cmd=${1:-}
kernel=${DISTRO_KERNEL:-$BUILD/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel (run: make kernel)"
img=$("$REPO/harness/image.sh") || die "no Debian image"

# The test disk.
gbin=$("$REPO/harness/progs.sh") || die "cannot build the guest's programs"
dir=$(mktemp -d "$BUILD/vm.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/disk/bin"
cp "$gbin/wardenctl" "$gbin/sandboxer" "$dir/disk/bin/"
cp "$REPO/harness/guest/tap.sh" "$REPO"/harness/guest-distro/* "$dir/disk/"
[ -z "${DISTRO_FILES:-}" ] || cp $DISTRO_FILES "$dir/disk/"
args=(root=/dev/vda rw console=ttyS0 ${DISTRO_LSM:+"lsm=$DISTRO_LSM"}
	audit_backlog_limit=8192 quiet loglevel=4 systemd.show_status=error)
if [ -n "$cmd" ]; then
	printf '%s\n' "$cmd" > "$dir/disk/cmd"
	args+=(systemd.wants=warden-cmd.service systemd.mask=serial-getty@ttyS0.service)
else
	rm -f "$dir/disk/run-cmd"
fi
mkfs.ext4 -q -L wardentest -d "$dir/disk" "$dir/test.img" 128M >/dev/null ||
	die "cannot make the test disk"

result=$dir/result
if [ -n "${DISTRO_DISK:-}" ]; then
	root_drive="file=$DISTRO_DISK,if=virtio"
else
	root_drive="file=$img,if=virtio,format=raw,snapshot=on"
fi
qemu=(qemu-system-x86_64 -accel tcg -cpu max -m "$DISTRO_MEM" -smp 2
	-display none -no-reboot -monitor none
	-kernel "$kernel" ${DISTRO_INITRD:+-initrd "$DISTRO_INITRD"}
	-append "${args[*]} $DISTRO_ARGS"
	-drive "$root_drive"
	-drive "file=$dir/test.img,if=virtio,format=raw")
: > "$result"
if [ -z "$cmd" ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial "file:$result"
fi
start=$SECONDS
timeout -k 5 "$DISTRO_TIMEOUT" "${qemu[@]}" -serial stdio \
	-serial "file:$result" </dev/null | sed -u 's/\r$//' || true
verdict=$(sed -n 's/^warden-exit: \([0-9]*\).*/\1/p' "$result" | tail -n 1)
if [ -n "${DISTRO_OUT:-}" ]; then
	mkdir -p "$DISTRO_OUT"
	debugfs -R "rdump /out $DISTRO_OUT" "$dir/test.img" 2>/dev/null ||
		die "nothing in the guest's /warden/out"
fi
if [ -z "$verdict" ]; then
	echo "warden: the Debian guest gave no verdict (hung, crashed or timed out after ${DISTRO_TIMEOUT}s)" >&2
	exit 125
fi
say "Debian guest: exit $verdict after $((SECONDS - start))s"
exit "$verdict"
