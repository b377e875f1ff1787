#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP tests of the settings wardenctl cannot undo, in a boot of their own:
# ptrace_scope 3, then the lock.  The kernel refuses the writes; wardenctl
# must exit 1 and say why in strerror's words.
W=/warden/bin/wardenctl
SYS=/proc/sys/kernel/warden
OUT=/tmp/wardenctl.out
ERR=/tmp/wardenctl.err
EPERM="Operation not permitted"
. /warden/tap.sh
TAP_PREFIX=wardenctl_lock.

value_is() {	# value_is SYSCTL VALUE
	[ "$(cat "$SYS/$1")" = "$2" ]
}

# ptrace_scope 3: no way back, and no complain mode.
ok ptrace_scope_3.set status_is 0 set ptrace 3
ok ptrace_scope_3.set_again_is_no_change status_is 0 set ptrace 3
ok ptrace_scope_3.lower_exits_1 \
	eval 'status_is 1 set ptrace 1 && value_is ptrace_scope 3'
ok ptrace_scope_3.lower_says_eperm \
	has_err "wardenctl: cannot set kernel.warden.ptrace_scope to 1: $EPERM"
ok ptrace_scope_3.complain_exits_1 \
	eval 'status_is 1 set ptrace complain && value_is ptrace_scope_complain 0'
ok ptrace_scope_3.complain_says_eperm \
	has_err "cannot set kernel.warden.ptrace_scope_complain to 1: $EPERM"
ok ptrace_scope_3.enforce_is_no_change status_is 0 set ptrace enforce

# The lock
ok unlocked.status_json eval 'status_is 0 status --json && grep -q "^{\"locked\":false," "$OUT"'
ok unlocked.set_works eval 'status_is 0 set symlinks 2 && value_is protected_sticky_symlinks 2'
ok lock.exits_0 status_is 0 lock
ok lock.says_until_reboot has "until reboot"
ok lock.sysctl_is_1 value_is lock 1
ok locked.status_json eval 'status_is 0 status --json && grep -q "^{\"locked\":true," "$OUT"'
ok locked.status_table eval 'status_is 0 status && has "settings: locked until reboot"'
ok locked.set_level_exits_1 \
	eval 'status_is 1 set symlinks 1 && value_is protected_sticky_symlinks 2'
ok locked.set_level_says_eperm \
	has_err "wardenctl: cannot set kernel.warden.protected_sticky_symlinks to 1: $EPERM"
ok locked.set_same_level_exits_1 status_is 1 set symlinks 2
ok locked.set_complain_exits_1 \
	eval 'status_is 1 set fifos complain && value_is protected_fifos_complain 0 && has_err "$EPERM"'
ok locked.bad_level_is_still_usage_error status_is 2 set fifos 7
ok locked.lock_again_exits_0 eval 'status_is 0 lock && has "already locked"'
ok locked.unlock_by_hand_fails eval '! echo 0 2>/dev/null > $SYS/lock && value_is lock 1'

rm -f "$OUT" "$ERR"
tap_done
