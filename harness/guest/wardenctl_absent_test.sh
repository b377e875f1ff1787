#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP tests of wardenctl on a kernel booted without Warden (lsm=yama):
# every command that needs the sysctls says so and exits 1, and bad usage
# is still 2.
W=/warden/bin/wardenctl
OUT=/tmp/wardenctl.out
ERR=/tmp/wardenctl.err
. /warden/tap.sh
TAP_PREFIX=wardenctl_absent.

absent() {	# absent ARGS...: exit 1, the reason on stderr, nothing on stdout
	status_is 1 "$@" && grep -q "Warden is not active" "$ERR" && [ ! -s "$OUT" ]
}

# With --json the reason is JSON on stdout instead, nothing on stderr.
absent_json() {	# absent_json ARGS...: exit 1, {"error":...} on stdout
	status_is 1 "$@" && grep -q '^{"error":"Warden is not active' "$OUT" &&
		[ ! -s "$ERR" ]
}

ok status_says_absent absent status
ok status_json_says_absent absent_json status --json
ok set_says_absent absent set symlinks 1
ok lock_says_absent absent lock
ok bad_level_is_still_usage_error status_is 2 set symlinks 3
ok exec_says_absent_and_runs_nothing \
	eval 'absent exec --ptrace=1 -- touch /tmp/wardenctl.ran && [ ! -e /tmp/wardenctl.ran ]'
ok status_pid_says_absent absent status --pid 1
ok status_pid_json_says_absent absent_json status --pid 1 --json
ok exec_bad_level_is_still_usage_error status_is 2 exec --ptrace=4 -- true

rm -f "$OUT" "$ERR"
tap_done
