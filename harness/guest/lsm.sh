#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP checks that Warden is active, or absent, as the lsm= boot asked.
#
# usage: lsm.sh NAME EXPECTED-LSM-LIST [no-counters] [no-rules]
# no-counters, no-rules: a kernel of a patch of the series before the
# counters, or before the first rule, came.
name=$1
expected=$2
shift 2
flags=" $* "
. /warden/tap.sh
TAP_PREFIX="$name."

# A root-run cat of another user's link in a 1777 directory, with
# mainline's own rule off: only Warden can refuse it.
cat_planted_link() {
	echo 0 > /proc/sys/fs/protected_symlinks
	mkdir -p /tmp/lsm && chmod 1777 /tmp/lsm
	echo secret > /tmp/lsm-target
	ln -sf /tmp/lsm-target /tmp/lsm/link && chown -h 1000:1000 /tmp/lsm/link
	[ "$(cat /tmp/lsm/link 2>/dev/null)" = secret ]
}

ok securityfs_lists_lsms_in_order [ "$(cat /sys/kernel/security/lsm)" = "$expected" ]
case ",$expected," in
*,warden,*)
	ok sysctl_present [ -f /proc/sys/kernel/warden/protected_sticky_symlinks ]
	case $flags in
	*" no-counters "*) ;;
	*) ok counters_present [ -f /sys/kernel/security/warden/counters ] ;;
	esac
	case $flags in
	*" no-rules "*) ok planted_link_followed cat_planted_link ;;
	*) ok planted_link_denied eval '! cat_planted_link' ;;
	esac
	;;
*)
	ok sysctl_absent [ ! -e /proc/sys/kernel/warden ]
	ok securityfs_dir_absent [ ! -e /sys/kernel/security/warden ]
	ok planted_link_followed cat_planted_link
	;;
esac
tap_done
