#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The /tmp symlink attack, first without Warden's rule and then with it.
#
# A root-run job writes its report to a fixed name in /tmp.  An attacker
# with no privilege plants a symlink there first, pointing at
# /etc/shadow.  Exits 0 only if the attack works with the rule off and is
# refused with it on.

job() {	# a careless root-run job, as found in countless cron scripts
	echo "nightly backup: 42 files, 0 errors" > /tmp/backup-report.txt
}

as_attacker() {
	su -s /bin/sh attacker -c "$*"
}

reset_scene() {
	rm -f /tmp/backup-report.txt
	printf 'root:$y$j9T$secret-hash:19700:0:99999:7:::\n' > /etc/shadow
	chmod 0600 /etc/shadow
	as_attacker ln -s /etc/shadow /tmp/backup-report.txt
}

show() {
	echo "    \$ $*"
	"$@" 2>&1 | sed 's/^/    /'
}

echo 0 > /proc/sys/fs/protected_symlinks
echo
echo "Warden demo: a symlink planted in /tmp against a root-run job"
echo "(mainline's own fs.protected_symlinks is off: only Warden can refuse)"
echo
echo "The attacker (uid 1000) plants a link where root's job will write:"
reset_scene
show ls -l /tmp/backup-report.txt
echo

echo "Scene 1: kernel.warden.protected_sticky_symlinks=0"
echo 0 > /proc/sys/kernel/warden/protected_sticky_symlinks
job 2>/dev/null
echo "  root's job ran; /etc/shadow now reads:"
show cat /etc/shadow
grep -q 'nightly backup' /etc/shadow && scene1=overwritten || scene1=intact
echo "  => /etc/shadow $scene1"
echo

echo "Scene 2: kernel.warden.protected_sticky_symlinks=1"
reset_scene
echo 1 > /proc/sys/kernel/warden/protected_sticky_symlinks
echo "  root's job runs again:"
if job 2>/tmp/job.err; then denied=no; else denied=yes; fi
sed 's/^/    /' /tmp/job.err
echo "  /etc/shadow still reads:"
show cat /etc/shadow
grep -q 'secret-hash' /etc/shadow && scene2=intact || scene2=overwritten
echo "  => /etc/shadow $scene2"
echo "  and the kernel log says:"
dmesg | grep 'warden: rule=' | tail -n 1 | sed 's/^/    /'
echo

if [ "$scene1" = overwritten ] && [ "$denied" = yes ] && [ "$scene2" = intact ]; then
	echo "Warden refused the attack that succeeds without it."
	exit 0
fi
echo "demo FAILED: scene 1 $scene1, scene 2 $scene2 (denied: $denied)"
exit 1
