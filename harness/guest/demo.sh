#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Four attacks by an unprivileged user, each first with Warden's rule off
# and then with it on, and a rule rolled out in complain mode; mainline's own fs.protected_* knobs are off, so only
# Warden can refuse.  Exits 0 only if every attack works with the rule off
# and is refused with it on.

failed=0

as_attacker() {
	su -s /bin/sh attacker -c "$*"
}

knob() {	# knob RULE LEVEL
	echo "$2" > "/proc/sys/kernel/warden/$1"
	echo "  # sysctl kernel.warden.$1=$2"
}

show() {
	echo "    \$ $*"
	sh -c "$*" 2>&1 | sed 's/^/    /'
}

last_log() {
	echo "  and the kernel log says:"
	dmesg | grep "warden: rule=$1 verdict=" | tail -n 1 | sed 's/^\[[^]]*\] /    /'
}

verdict() {	# verdict WHAT EXPECTED GOT
	if [ "$2" = "$3" ]; then
		echo "  => $1: $3"
	else
		echo "  => $1: $3, expected $2 (FAILED)"
		failed=1
	fi
	echo
}

for k in symlinks hardlinks fifos regular; do
	echo 0 > "/proc/sys/fs/protected_$k"
done

echo
echo "Warden demo: four old tricks against root"
echo "(mainline's fs.protected_* knobs are off: only Warden can refuse)"
echo

# Act 1: a root-run job writes its report to a fixed name in /tmp, where
# the attacker planted a symlink to /etc/shadow.
plant_symlink() {
	rm -f /tmp/backup-report.txt
	printf 'root:$y$j9T$secret-hash:19700:0:99999:7:::\n' > /etc/shadow
	chmod 0600 /etc/shadow
	as_attacker ln -s /etc/shadow /tmp/backup-report.txt
}
backup_job() {
	echo "nightly backup: 42 files, 0 errors" > /tmp/backup-report.txt
}
shadow_state() {
	grep -q 'secret-hash' /etc/shadow && echo intact || echo overwritten
}

echo "Act 1: a symlink in /tmp, and root's nightly job that writes there"
for level in 0 1; do
	plant_symlink
	knob protected_sticky_symlinks $level
	show ls -l /tmp/backup-report.txt
	echo "  root's job runs:"
	backup_job 2>&1 | sed 's/^/    /'
	show cat /etc/shadow
	[ $level = 1 ] && last_log protected_sticky_symlinks
	[ $level = 0 ] && want=overwritten || want=intact
	verdict "/etc/shadow" $want "$(shadow_state)"
done

# Act 2: the attacker keeps a hard link to a setuid-root binary with a
# known hole, so that it stays runnable after the administrator upgrades
# or removes it.
mkdir -p /usr/bin /home/attacker
chown attacker:attacker /home/attacker
pin_setuid() {
	rm -f /home/attacker/keep /usr/bin/vulnerable
	cp /bin/busybox /usr/bin/vulnerable
	chmod 4755 /usr/bin/vulnerable
	as_attacker ln /usr/bin/vulnerable /home/attacker/keep 2>&1 | sed 's/^/    /'
	rm -f /usr/bin/vulnerable	# the administrator's fix
}

echo "Act 2: a hard link that pins a vulnerable setuid-root binary"
for level in 0 1; do
	knob protected_nonaccess_hardlinks $level
	echo "    \$ ln /usr/bin/vulnerable /home/attacker/keep   (as attacker)"
	pin_setuid
	echo "  the administrator removes /usr/bin/vulnerable; the attacker still has:"
	show ls -l /home/attacker
	[ $level = 1 ] && last_log protected_nonaccess_hardlinks
	[ -u /home/attacker/keep ] && got=pinned || got="not pinned"
	[ $level = 0 ] && want=pinned || want="not pinned"
	verdict "setuid binary" "$want" "$got"
done

# Act 3: root's job appends a secret to a log in /tmp that the attacker
# created first, world-readable.
precreate() {
	rm -f /tmp/app.log
	as_attacker "touch /tmp/app.log && chmod 0666 /tmp/app.log"
}
app_job() {
	echo "db password: hunter2" >> /tmp/app.log
}

echo "Act 3: root writes its log into a file the attacker made in /tmp"
for level in 0 1; do
	precreate
	knob protected_regular $level
	show ls -l /tmp/app.log
	echo "  root's job runs:"
	app_job 2>&1 | sed 's/^/    /'
	echo "  the attacker reads:"
	show "su -s /bin/sh attacker -c 'cat /tmp/app.log'"
	[ $level = 1 ] && last_log protected_regular
	grep -q hunter2 /tmp/app.log && got=leaked || got=safe
	[ $level = 0 ] && want=leaked || want=safe
	verdict "the password" $want "$got"
done

# Act 4: no sticky directory at all.  The attacker owns a folder in /tmp
# that root's job tidies (systemd-tmpfiles, CVE-2018-6954), and replaced
# a folder in it with a link to root's /etc/app: root's chown of a file
# "in" the attacker's folder hands over root's file.  Mainline's
# protected_symlinks does not look here; protected_symlink_owner does.
plant_folder() {
	rm -rf /tmp/app-cache /etc/app
	mkdir -p /etc/app
	echo "api_key=s3cr3t" > /etc/app/secret.conf
	chmod 0600 /etc/app/secret.conf
	as_attacker "mkdir /tmp/app-cache && ln -s /etc/app /tmp/app-cache/data"
}
tidy_job() {
	chown attacker /tmp/app-cache/data/secret.conf
}

echo "Act 4: a link in the attacker's own folder, and root's tidy-up job"
for level in 0 1; do
	plant_folder
	knob protected_symlink_owner $level
	show ls -l /tmp/app-cache
	echo "  root's job runs: chown attacker /tmp/app-cache/data/secret.conf"
	tidy_job 2>&1 | sed 's/^/    /'
	show ls -l /etc/app/secret.conf
	[ $level = 1 ] && last_log protected_symlink_owner
	[ "$(stat -c %U /etc/app/secret.conf)" = root ] && got="root's" || got="handed over"
	[ $level = 0 ] && want="handed over" || want="root's"
	verdict "/etc/app/secret.conf" "$want" "$got"
done
knob protected_symlink_owner 0 > /dev/null
rm -rf /tmp/app-cache /etc/app

# Act 5: how an administrator rolls a rule out without breaking the job
# that would trip it: complain mode first, then enforce, then lock.
W=/warden/bin/wardenctl
echo "Act 5: rolling protected_regular out: complain, read, enforce, lock"
precreate
show $W set regular complain
echo "  root's job runs, and is let through:"
app_job 2>&1 | sed 's/^/    /'
last_log protected_regular
grep -q hunter2 /tmp/app.log && got=written || got="not written"
verdict "in complain mode, the job's log" written "$got"
show "$W status | sed -n '1p;/^protected_regular /p'"
show "$W explain -n 1"
show $W set regular enforce
show $W lock
show $W set regular 0
[ "$(cat /proc/sys/kernel/warden/protected_regular)" = 1 ] && got=kept || got=lowered
verdict "after the lock, protected_regular=1" kept "$got"
echo "  and every change, and the refused one, is on the record:"
dmesg | grep "warden: setting=kernel.warden.\(protected_regular\|protected_regular_complain\|lock\) " |
	tail -n 4 | sed 's/^\[[^]]*\] /    /'

if [ $failed = 0 ]; then
	echo "Warden refused all four attacks that succeed without it,"
	echo "and let one be rolled out in complain mode first."
	exit 0
fi
echo "demo FAILED"
exit 1
