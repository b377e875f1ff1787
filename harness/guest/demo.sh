#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Five attacks by an unprivileged user, each first against Warden as the
# kernel booted (every rule at its Kconfig default, protected_sticky_writes
# on, which no act changes first), or with protected_symlink_owner turned
# on where the act needs it (it ships off), and then with the rules that
# refuse it off, and a rule rolled out in complain mode; mainline's own
# fs.protected_* knobs are off, so only Warden can refuse.  Exits 0 only
# if every attack is refused and works with the rules off.

failed=0
K=/proc/sys/kernel/warden

as_attacker() {
	su -s /bin/sh attacker -c "$*"
}

knob() {	# knob RULE LEVEL
	echo "$2" > "$K/$1"
	echo "  # sysctl kernel.warden.$1=$2"
}

# The settings as the kernel booted, read before any act changes one.
BOOTED="protected_sticky_symlinks protected_nonaccess_hardlinks protected_regular protected_symlink_owner protected_sticky_writes"
for r in $BOOTED; do
	eval "booted_$r=$(cat $K/$r)"
done

rules() {	# rules booted|off RULE...: each RULE as booted, or off
	how=$1
	shift
	for r in "$@"; do
		if [ "$how" = off ]; then
			knob "$r" 0
		else
			eval "echo \$booted_$r" > "$K/$r"
		fi
	done
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
echo "Warden demo: five old tricks against root"
echo "(mainline's fs.protected_* knobs are off: only Warden can refuse)"
echo
echo "Warden's rules as the kernel booted them:"
for r in $BOOTED; do
	eval "echo \"    kernel.warden.$r = \$booted_$r\""
done
[ "$booted_protected_sticky_writes" = 1 ] && got=on || got=off
verdict "protected_sticky_writes, past mainline, at boot" on "$got"

# Act 1: a root-run job writes its report to a fixed name in /tmp, where
# the attacker planted a symlink to /etc/shadow.  protected_sticky_symlinks
# refuses it (the link is in /tmp).
ACT1="protected_sticky_symlinks"
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
for how in booted off; do
	plant_symlink
	rules $how $ACT1
	show ls -l /tmp/backup-report.txt
	echo "  root's job runs:"
	backup_job 2>&1 | sed 's/^/    /'
	show cat /etc/shadow
	[ $how = booted ] && last_log protected_sticky_symlinks
	[ $how = off ] && want=overwritten || want=intact
	verdict "/etc/shadow" $want "$(shadow_state)"
done
rules booted $ACT1

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
for how in booted off; do
	rules $how protected_nonaccess_hardlinks
	echo "    \$ ln /usr/bin/vulnerable /home/attacker/keep   (as attacker)"
	pin_setuid
	echo "  the administrator removes /usr/bin/vulnerable; the attacker still has:"
	show ls -l /home/attacker
	[ $how = booted ] && last_log protected_nonaccess_hardlinks
	[ -u /home/attacker/keep ] && got=pinned || got="not pinned"
	[ $how = off ] && want=pinned || want="not pinned"
	verdict "setuid binary" "$want" "$got"
done
rules booted protected_nonaccess_hardlinks

# Act 3: root's job appends a secret to a log in /tmp that the attacker
# created first, world-readable.  protected_regular refuses the O_CREAT
# open; protected_sticky_writes would refuse it without O_CREAT too.
ACT3="protected_regular protected_sticky_writes"
precreate() {
	rm -f /tmp/app.log
	as_attacker "touch /tmp/app.log && chmod 0666 /tmp/app.log"
}
app_job() {
	echo "db password: hunter2" >> /tmp/app.log
}

echo "Act 3: root writes its log into a file the attacker made in /tmp"
for how in booted off; do
	precreate
	rules $how $ACT3
	show ls -l /tmp/app.log
	echo "  root's job runs:"
	app_job 2>&1 | sed 's/^/    /'
	echo "  the attacker reads:"
	show "su -s /bin/sh attacker -c 'cat /tmp/app.log'"
	[ $how = booted ] && last_log protected_regular
	grep -q hunter2 /tmp/app.log && got=leaked || got=safe
	[ $how = off ] && want=leaked || want=safe
	verdict "the password" $want "$got"
done
rules booted $ACT3

# Act 4: no sticky directory at all.  The attacker owns a folder in /tmp
# that root's job tidies (systemd-tmpfiles, CVE-2018-6954), and replaced
# a folder in it with a link to root's /etc/app: root's chown of a file
# "in" the attacker's folder hands over root's file.  Mainline's
# protected_symlinks does not look here; protected_symlink_owner does,
# and judges the link by where the walk lands: the second time, through
# the attacker's own /proc/PID/fd of a descriptor of /etc/app.  It ships
# off (warden.rst, "Warden on Debian": root's backups read through users'
# links): the administrator of this machine turns it on.
plant_folder() {	# plant_folder link|magic
	rm -rf /tmp/app-cache /etc/app
	mkdir -p /etc/app
	echo "api_key=s3cr3t" > /etc/app/secret.conf
	chmod 0600 /etc/app/secret.conf
	if [ "$1" = link ]; then
		as_attacker "mkdir /tmp/app-cache && ln -s /etc/app /tmp/app-cache/data"
		return
	fi
	# The attacker's process holds /etc/app open as descriptor 3.
	as_attacker "mkdir /tmp/app-cache && exec 3< /etc/app &&
		ln -s /proc/\$\$/fd/3 /tmp/app-cache/data && exec sleep 60" &
	while [ ! -L /tmp/app-cache/data ]; do sleep 0.1; done
	holder=$(readlink /tmp/app-cache/data | cut -d/ -f3)
}
tidy_job() {
	chown attacker /tmp/app-cache/data/secret.conf
}

for shape in link magic; do
	if [ $shape = link ]; then
		echo "Act 4: a link in the attacker's own folder, and root's tidy-up job"
	else
		echo "Act 5: the same through the attacker's /proc/PID/fd/3, a descriptor of /etc/app"
	fi
	for how in on off; do
		plant_folder $shape
		if [ $how = on ]; then
			knob protected_symlink_owner 1
		else
			knob protected_symlink_owner 0
		fi
		show ls -l /tmp/app-cache
		echo "  root's job runs: chown attacker /tmp/app-cache/data/secret.conf"
		tidy_job 2>&1 | sed 's/^/    /'
		show ls -l /etc/app/secret.conf
		[ $how = on ] && last_log protected_symlink_owner
		[ "$(stat -c %U /etc/app/secret.conf)" = root ] && got="root's" || got="handed over"
		[ $how = off ] && want="handed over" || want="root's"
		verdict "/etc/app/secret.conf" "$want" "$got"
		if [ $shape = magic ]; then
			kill $holder
			wait
		fi
	done
	rules booted protected_symlink_owner
done
rm -rf /tmp/app-cache /etc/app

# Act 6: how an administrator rolls a rule out without breaking the job
# that would trip it: complain mode first, then enforce, then lock.  The
# job of act 3 trips two rules: both are rolled out together.
W=/warden/bin/wardenctl
echo "Act 6: rolling protected_regular and protected_sticky_writes out: complain, read, enforce, lock"
precreate
show $W set regular complain
show $W set writes complain
echo "  root's job runs, and is let through:"
app_job 2>&1 | sed 's/^/    /'
last_log protected_regular
last_log protected_sticky_writes
grep -q hunter2 /tmp/app.log && got=written || got="not written"
verdict "in complain mode, the job's log" written "$got"
show "$W status | sed -n '1p;/^protected_regular /p;/^protected_sticky_writes /p'"
show "$W explain -n 2"
show $W set regular enforce
show $W set writes enforce
show $W lock
show $W set regular 0
[ "$(cat $K/protected_regular)" = 1 ] && got=kept || got=lowered
verdict "after the lock, protected_regular=1" kept "$got"
echo "  and every change, and the refused one, is on the record:"
dmesg | grep "warden: setting=kernel.warden.\(protected_regular\|protected_regular_complain\|lock\) " |
	tail -n 4 | sed 's/^\[[^]]*\] /    /'

if [ $failed = 0 ]; then
	echo "Warden refused all five attacks that succeed without it, three as the"
	echo "kernel booted and two once protected_symlink_owner was on, and let a"
	echo "rule be rolled out in complain mode first."
	exit 0
fi
echo "demo FAILED"
exit 1
