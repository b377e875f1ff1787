#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The check-all boot "install": the packages of make deb (deb.sh)
# installed in the Debian image (image.sh) as a sysadmin installs them,
# then the installed kernel booted.  Two boots of vm.sh on one qcow2
# overlay of the image (the image stays as built):
#   1. the harness's kernel: apt install ./linux-image-…-warden.deb
#      ./wardenctl_….deb, whose postinst has initramfs-tools make the
#      initrd; /boot's kernel and initrd come back to the host;
#   2. that kernel with its initrd and the image's root file system,
#      without lsm=: Warden up, wardenctl status, the example sysctl.d
#      file applied, no failed unit, apt purge wardenctl leaving nothing.
# harness/guest-distro/install_test.sh holds the checks; their TAP lines
# are this script's output, and it fails if any failed.
#
# usage: install.sh
. "$(dirname "$0")/env.sh"

DEB_OUT=${DEB_OUT:-$WARDEN_CACHE/deb}
shopt -s nullglob
kdeb=("$DEB_OUT"/kernel/linux-image-*-warden-*.deb)
cdeb=("$DEB_OUT"/wardenctl_*_amd64.deb)
shopt -u nullglob
[ ${#kdeb[@]} -eq 1 ] && [ ${#cdeb[@]} -eq 1 ] ||
	die "no packages in $DEB_OUT (run: make deb)"
img=$("$REPO/harness/image.sh") || die "no Debian image"
"$REPO/harness/deps.sh" qemu-utils >&2

work=$(mktemp -d "$WARDEN_CACHE/install.XXXXXX")
trap 'rm -rf "$work"' EXIT
qemu-img create -q -f qcow2 -F raw -b "$img" "$work/root.qcow2" ||
	die "cannot make an overlay of $img"
rc=0
DISTRO_DISK=$work/root.qcow2 DISTRO_FILES="${kdeb[0]} ${cdeb[0]}" \
	DISTRO_OUT=$work "$REPO/harness/vm.sh" \
	'bash /warden/install_test.sh install' || rc=$?
[ "$rc" -eq 0 ] && [ -s "$work/out/vmlinuz" ] && [ -s "$work/out/initrd.img" ] ||
	die "the install boot failed (exit $rc): no installed kernel to boot"
DISTRO_DISK=$work/root.qcow2 DISTRO_LSM= \
	DISTRO_KERNEL=$work/out/vmlinuz DISTRO_INITRD=$work/out/initrd.img \
	"$REPO/harness/vm.sh" 'bash /warden/install_test.sh installed'
