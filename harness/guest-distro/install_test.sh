#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The check-all boot "install" (harness/install.sh): Warden installed as
# a sysadmin installs it, in two boots of one copy of the Debian image.
#
# install_test.sh install    on the harness's kernel: apt installs the
#     packages of make deb (/warden/*.deb), whose postinst has
#     initramfs-tools make the initrd; the example sysctl.d file is copied
#     to /etc/sysctl.d, as its README says; /boot's kernel and initrd go
#     to /warden/out for the host to boot.
# install_test.sh installed  on that kernel and initrd, without lsm= (the
#     kernel's own CONFIG_LSM): Warden is up, wardenctl runs from
#     /usr/sbin, systemd-sysctl applied the example, no unit failed; then
#     apt purge wardenctl leaves none of its files behind and nothing
#     else changed since before the install (as piuparts checks).
. /warden/tap.sh
TAP_PREFIX=install.
OUT=/tmp/install.out ERR=/tmp/install.err
EXAMPLE=/usr/share/doc/wardenctl/examples/99-warden.conf
state=/var/lib/warden-install-test

q() { "$@" > $OUT 2> $ERR; }

# The file system as piuparts compares it: every path but those that
# change by running (logs, caches, package databases, the harness's own).
fs_list() {
	find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
		-o -path /tmp -o -path /var/tmp -o -path /var/log -o -path /var/cache \
		-o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/lib/systemd \
		-o -path /var/lib/initramfs-tools -o -path /var/lib/sudo \
		-o -path /var/lib/logrotate -o -path /var/spool -o -path /root \
		-o -path /home -o -path /warden -o -path "$state" \) -prune \
		-o -print | sort
}

install() {
	local kdeb release

	kdeb=$(ls /warden/linux-image-*.deb)
	release=${kdeb#/warden/linux-image-}
	release=${release%%_*}
	mkdir -p "$state" /warden/out
	echo "$release" > "$state/release"
	# The image's own copy of the example: the package's stands in.
	rm -f /etc/sysctl.d/99-warden.conf
	fs_list > "$state/before"
	ok apt_install q apt-get install -y "$kdeb" /warden/wardenctl_*.deb
	ok kernel_in_boot [ -s "/boot/vmlinuz-$release" ]
	ok initrd_made_by_postinst [ -s "/boot/initrd.img-$release" ]
	ok example_installed [ -s "$EXAMPLE" ]
	# Installing does not switch anything on.
	ok example_not_switched_on [ ! -e /etc/sysctl.d/99-warden.conf ]
	cp "$EXAMPLE" /etc/sysctl.d/
	cp "/boot/vmlinuz-$release" /warden/out/vmlinuz
	cp "/boot/initrd.img-$release" /warden/out/initrd.img
	tap_done
}

# example_applied: every line of the example is the running value.
example_applied() {
	local key value
	# shellcheck disable=SC2162
	grep -E '^[a-z]' "$EXAMPLE" | while IFS='= ' read key value; do
		[ "$(sysctl -n "$key")" = "$value" ] ||
			{ echo "$key is $(sysctl -n "$key"), not $value"; return 1; }
	done
}

# kernel_made_or_admin_copy RELEASE: the paths of stdin that are not the
# kernel package's, not made by its postinst, and not the admin's copy.
kernel_made_or_admin_copy() {
	local modules

	modules=$(readlink -f "/lib/modules/$1")
	grep -v -x -F -f <(dpkg -L "linux-image-$1" | xargs -r readlink -m
		echo "/boot/initrd.img-$1"; echo "${modules%/*}"
		echo /etc/sysctl.d/99-warden.conf) |
		grep -v -F "$modules/"
}

installed() {
	local release files

	release=$(cat "$state/release")
	ok installed_kernel_runs [ "$(uname -r)" = "$release" ]
	ok booted_with_initrd grep -q 'Freeing initrd memory' <(dmesg)
	ok warden_in_lsm_list grep -qw warden /sys/kernel/security/lsm
	ok wardenctl_from_usr_sbin eval '[ "$(dpkg -S /usr/sbin/wardenctl)" = "wardenctl: /usr/sbin/wardenctl" ] &&
		/usr/sbin/wardenctl status > $OUT 2> $ERR && grep -q "protected_regular" $OUT'
	ok example_applied_by_systemd_sysctl q example_applied
	# Its denied twin: a value set by hand is seen as not applied.
	ok example_check_can_fail eval 'sysctl -q -w kernel.warden.ptrace_scope=2 &&
		! example_applied > $OUT; sysctl -q -w kernel.warden.ptrace_scope=1'
	ok no_failed_unit eval 'systemctl --failed --no-legend > $OUT; [ ! -s $OUT ]'
	files=$(dpkg -L wardenctl | while read -r f; do [ -d "$f" ] || echo "$f"; done)
	ok package_files_present eval '[ -n "$files" ] && ls $files > /dev/null'
	ok apt_purge q apt-get purge -y wardenctl
	ok package_files_gone eval '! ls $files > $OUT 2> /dev/null && [ ! -s $OUT ]'
	# What is left: only the kernel package's files (by their real path:
	# /lib is /usr/lib on Debian 13), what its postinst made (the initrd,
	# depmod's files) and the admin's copy of the example.
	fs_list > "$state/after"
	ok purge_leaves_nothing eval 'diff "$state/before" "$state/after" |
		grep "^[<>]" | cut -c3- | kernel_made_or_admin_copy "$release" > $OUT; [ ! -s $OUT ]'
	tap_done
}

case "${1:-}" in
install) install ;;
installed) installed ;;
*) echo "usage: install_test.sh install|installed" >&2; exit 2 ;;
esac
