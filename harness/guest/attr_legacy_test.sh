#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP tests: the legacy files of /proc/PID/attr (current, exec, ...) are
# the major LSM's whatever Warden's place in lsm=; Warden answers only in
# /proc/PID/attr/warden/.
#
# usage: attr_legacy_test.sh major   (lsm=warden,...,apparmor: AppArmor's)
#        attr_legacy_test.sh alone   (no LSM with those attributes: the
#                                     kernel's default answer, EINVAL)
mode=$1
. /warden/tap.sh
TAP_PREFIX="attr_legacy.$mode."
OUT=/tmp/attr.out
ERR=/tmp/attr.err

read_attr() {	# read_attr FILE: its text in $OUT, cat's errors in $ERR
	cat "$1" > "$OUT" 2> "$ERR"
}

# write_attr FILE TEXT: one write(2) of TEXT by dd (a program of its own:
# the shell's builtins may not report a failed write), its errors in $ERR
write_attr() {
	printf '%s' "$2" | dd of="$1" conv=notrunc 2> "$ERR"
}

failed_with() {	# failed_with MESSAGE: the last command's error was MESSAGE
	grep -q "$1" "$ERR"
}

policy_before=$(cat /proc/self/attr/warden/policy)
case $mode in
major)
	ok current_is_apparmors eval 'read_attr /proc/self/attr/current &&
		[ "$(cat $OUT)" = unconfined ]'
	ok current_same_as_apparmor_dir eval '[ "$(cat /proc/self/attr/current)" = \
		"$(cat /proc/self/attr/apparmor/current)" ]'
	;;
alone)
	ok current_read_einval eval '! read_attr /proc/self/attr/current &&
		failed_with "Invalid argument"'
	ok current_write_einval eval '! write_attr /proc/self/attr/current policy &&
		failed_with "Invalid argument"'
	ok exec_write_einval eval '! write_attr /proc/self/attr/exec protected_regular=2 &&
		failed_with "Invalid argument"'
	;;
*)
	echo "usage: attr_legacy_test.sh major|alone" >&2
	exit 2
	;;
esac
# Warden's own files are Warden's, in any order.
ok warden_policy_read eval 'read_attr /proc/self/attr/warden/policy &&
	grep -q protected_sticky_symlinks= $OUT'
ok warden_policy_bad_write_einval eval '! write_attr /proc/self/attr/warden/policy no_such_rule=1 &&
	failed_with "Invalid argument"'
ok warden_policy_unchanged eval '[ "$(cat /proc/self/attr/warden/policy)" = "$policy_before" ]'
tap_done
