#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What protected_symlink_owner and protected_sticky_writes would refuse on
# a real Debian system: a measurement, run by hand, not by check-all
# (warden.rst's "Warden on Debian" table quotes it):
#
#   DISTRO_ARGS="warden.protected_symlink_owner=2 warden.protected_symlink_owner_complain=1 \
#     warden.protected_sticky_writes=2 warden.protected_sticky_writes_complain=1" \
#     harness/vm.sh /warden/compat_test.sh
#
# Both rules at their strictest, in complain mode, from the first
# process: the boot, then workload.sh as root, alice and bob, and
# admin_workload.sh (root over the users' files: packages, backups of
# /home, tmpfiles.d, logrotate, cron, containers; issue 40).  Every
# would_deny is listed with its rule, program, parent, path and
# allowed_at= (1: level 1 would have let it through, a level-2 finding
# only).  Nothing may be denied.
. /warden/tap.sh
TAP_PREFIX=compat.
export PATH=/warden/bin:$PATH
K=/proc/sys/kernel/warden
COUNTERS=/sys/kernel/security/warden/counters

# The boot's levels: DISTRO_ARGS's until systemd-sysctl applies
# 99-warden.conf, which sets both rules (to 1) but not their complain
# knobs; back to 2 for the workloads.
for r in protected_symlink_owner protected_sticky_writes; do
	echo "# at boot: $r=$(cat $K/$r) complain=$(cat $K/${r}_complain)"
	echo 1 > $K/${r}_complain
	echo 2 > $K/$r
done
state=$(systemctl is-system-running)
ok system_running_no_failed_unit eval '[ "$state" = running ] || { systemctl --failed --no-pager; false; }'
ok both_rules_strict_complain eval '[ "$(cat $K/protected_symlink_owner)$(cat $K/protected_sticky_writes)" = 22 ] &&
	[ "$(cat $K/protected_symlink_owner_complain)$(cat $K/protected_sticky_writes_complain)" = 11 ]'
# The other rules off: only the two new ones report.
for r in protected_sticky_symlinks protected_nonaccess_hardlinks protected_fifos protected_regular; do
	echo 0 > $K/$r
done
echo 0 > $K/ptrace_scope

for u in root alice bob; do
	h=$(getent passwd $u | cut -d: -f6)
	su -s /bin/sh $u -c "mkdir -p -m 700 $h/.ssh && ssh-keygen -q -t ed25519 -N '' -f $h/.ssh/id_ed25519 &&
		cp $h/.ssh/id_ed25519.pub $h/.ssh/authorized_keys"
done
/warden/workload.sh compat
for u in alice bob; do
	su -l $u -c "/warden/workload.sh compat"
done
/warden/admin_workload.sh compat

ok nothing_denied eval '! grep -E "^rule=protected_(symlink_owner|sticky_writes) denied=[1-9]" $COUNTERS'
grep -E '^rule=protected_(symlink_owner|sticky_writes) ' $COUNTERS | sed 's/^/# /'
journalctl -k -b -o cat -q --no-pager | grep -E '^warden: rule=protected_(symlink_owner|sticky_writes) verdict=would_deny' |
	sed -E 's/^warden: (rule=[^ ]*) .*(allowed_at=[0-9]) .* (comm="[^"]*") (pcomm="[^"]*")( path="[^"]*")?.*/\1 \2 \3 \4\5/' |
	sort | uniq -c | sed 's/^ */# would_deny: /'
tap_done
