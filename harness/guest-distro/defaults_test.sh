#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The widened workload at the Kconfig defaults, enforcing: an on-demand
# boot (make check-distro), not check-all's:
#
#   DISTRO_TIMEOUT=1800 harness/vm.sh /warden/defaults_test.sh
#
# Every rule at the Kconfig default (protected_sticky_writes 1,
# protected_symlink_owner 0, the others 1), no complain mode, mainline's
# fs.protected_* at 0 (Warden decides and reports); then workload.sh as
# root, alice and bob, admin_workload.sh (root over the users' files),
# and the container replay (container_replay.sh, which turns
# protected_symlink_owner off and on for its two halves).  Passes with no
# failed unit, every program of the workloads through, and no refusal
# before the replay; every refusal is listed ("# denied:" lines, from the
# kernel log).  WARDEN_DEFAULTS="protected_symlink_owner=1" sets levels
# first, to measure another choice of defaults.
. /warden/tap.sh
TAP_PREFIX=defaults.
export PATH=/warden/bin:$PATH
K=/proc/sys/kernel/warden
COUNTERS=/sys/kernel/security/warden/counters
RULES="protected_sticky_symlinks protected_nonaccess_hardlinks protected_fifos protected_regular ptrace_scope protected_symlink_owner protected_sticky_writes"

denied_total() {
	sed -n 's/^rule=.* denied=\([0-9]*\).*/\1/p' $COUNTERS | awk '{ s += $1 } END { print s + 0 }'
}

for f in symlinks hardlinks fifos regular; do
	sysctl -q -w fs.protected_$f=0
done
# The image's 99-warden.conf raises some rules, in complain mode: back to
# the series' Kconfig defaults (Kconfig, warden.rst), enforcing, then
# WARDEN_DEFAULTS over them.
KCONFIG_DEFAULTS="protected_sticky_symlinks=1 protected_nonaccess_hardlinks=1 protected_fifos=1 protected_regular=1 ptrace_scope=1 protected_symlink_owner=0 protected_sticky_writes=1"
for r in $RULES; do
	echo 0 > $K/${r}_complain
done
for kv in $KCONFIG_DEFAULTS ${WARDEN_DEFAULTS:-}; do
	echo "${kv#*=}" > "$K/${kv%%=*}"
done
echo "# $(for r in $RULES; do printf '%s=%s ' $r "$(cat $K/$r)"; done)"
state=$(systemctl is-system-running)
ok system_running_no_failed_unit eval '[ "$state" = running ] || { systemctl --failed --no-pager; false; }'
ok rules_at_defaults_enforcing eval '[ -n "${WARDEN_DEFAULTS:-}" ] ||
	[ "$(for r in $RULES; do cat $K/$r $K/${r}_complain; done | tr -d "\n")" = 10101010100010 ]'
ok mainline_off eval '[ "$(sysctl -n fs.protected_symlinks fs.protected_hardlinks fs.protected_fifos fs.protected_regular | tr -d "\n")" = 0000 ]'
start_denied=$(denied_total)
cursor=$(journalctl -k -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')

for u in root alice bob; do
	h=$(getent passwd $u | cut -d: -f6)
	su -s /bin/sh $u -c "mkdir -p -m 700 $h/.ssh && ssh-keygen -q -t ed25519 -N '' -f $h/.ssh/id_ed25519 &&
		cp $h/.ssh/id_ed25519.pub $h/.ssh/authorized_keys"
done
start=$SECONDS
/warden/workload.sh defaults
for u in alice bob; do
	su -l $u -c "/warden/workload.sh defaults"
done
echo "# workload.sh: $((SECONDS - start))s"
start=$SECONDS
/warden/admin_workload.sh defaults
echo "# admin_workload.sh: $((SECONDS - start))s"

ok no_refusal_of_the_workloads eval '[ "$(denied_total)" = "$start_denied" ]'
grep -E ' denied=[1-9]' $COUNTERS | sed 's/^/# /'
journalctl -k -b -o cat -q --no-pager ${cursor:+--after-cursor="$cursor"} |
	grep -E '^warden: rule=[a-z_]* verdict=denied' |
	sed -E 's/^warden: (rule=[^ ]*) .* (uid=[0-9]*) .* (comm="[^"]*") (pcomm="[^"]*")( path="[^"]*")?.*/\1 \2 \3 \4\5/' |
	sort | uniq -c | sed 's/^ */# denied: /'
journalctl -k -b -o cat -q --no-pager ${cursor:+--after-cursor="$cursor"} |
	grep -E '^warden: rule=[a-z_]* suppressed=' | sed 's/^/# /'
state=$(systemctl is-system-running)
ok no_failed_unit_after eval '[ "$state" = running ] || { systemctl --failed --no-pager; false; }'

before=$(cat $K/protected_symlink_owner $K/protected_symlink_owner_complain)
start=$SECONDS
/warden/container_replay.sh defaults
echo "# container_replay.sh: $((SECONDS - start))s"
ok rule_restored_after_replay eval '[ "$(cat $K/protected_symlink_owner $K/protected_symlink_owner_complain)" = "$before" ]'
tap_done
