#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A day of real programs on the Debian guest, as the user running it
# (root, or alice and bob through su): temporary files in /tmp, sort,
# tar, rsync, git, sudo, ssh to localhost, gdb and strace on their own
# children, at; and as root logrotate, cron.daily, systemd-tmpfiles,
# systemd-run, journalctl, a local .deb through apt and dpkg.  One TAP
# line a program; each must succeed.
#
# usage: workload.sh TAG     (TAG names the phase in the test names)
. /warden/tap.sh
me=$(id -un)
TAP_PREFIX="$1.$me."
w=$(mktemp -d /tmp/work-XXXXXX) || exit 1
cd "$w" || exit 1
OUT=$w/.out ERR=$w/.err

q() {	# q COMMAND...: COMMAND, its output kept for a failure's report
	"$@" > "$OUT" 2> "$ERR"
}

# Temporary files, the way scripts make them.
ok mktemp_file q sh -c 'f=$(mktemp) && echo x > "$f" && rm "$f"'
ok mktemp_dir q sh -c 'd=$(mktemp -d /tmp/wl.XXXXXX) && touch "$d/a" && rm -r "$d"'
ok tempfile q sh -c 'f=$(tempfile) && echo x > "$f" && rm "$f"'
ok mktemp_fixed_name_reuse q sh -c "echo 1 > /tmp/wl-$me.log && echo 2 >> /tmp/wl-$me.log && rm /tmp/wl-$me.log"
seq 200000 | shuf --random-source=/dev/zero > "$w/numbers"
ok sort_T_tmp q sh -c "sort -n -S 64K -T /tmp $w/numbers | tail -n 1 | grep -qx 200000"
ok tar_into_tmp q sh -c "tar -C /usr/share/doc -cf /tmp/wl-$me.tar bash coreutils && mkdir -p $w/x && tar -C $w/x -xf /tmp/wl-$me.tar && rm /tmp/wl-$me.tar"
ok rsync_into_tmp q rsync -a /usr/share/doc/bash/ "/tmp/wl-rsync-$me/"
ok rsync_inplace q sh -c "echo changed >> /tmp/wl-rsync-$me/copyright && rsync -a --inplace /usr/share/doc/bash/ /tmp/wl-rsync-$me/ && cmp /usr/share/doc/bash/copyright /tmp/wl-rsync-$me/copyright && rm -r /tmp/wl-rsync-$me"
ok git_in_tmp q sh -c "rm -rf /tmp/wl-git-$me && git init -q /tmp/wl-git-$me && cd /tmp/wl-git-$me &&
	echo hi > f && git add f && git -c user.name=w -c user.email=w@x commit -qm one &&
	git clone -q /tmp/wl-git-$me $w/clone && git gc -q && cd / && rm -rf /tmp/wl-git-$me"
ok python_tempfile q python3 -c 'import tempfile
with tempfile.NamedTemporaryFile() as f: f.write(b"x")
with tempfile.TemporaryDirectory() as d: pass'
# gdb and strace run their own child, or attach to it (the shell that
# started it became the debugger): ptrace_scope 1 allows both.
ok gdb_own_child q gdb -q -batch -ex run -ex 'info inferiors' --args /bin/true
ok gdb_attach_own_child q sh -c 'sleep 20 & exec gdb -q -batch -p $! -ex kill'
ok strace_own_child q strace -f -o /dev/null sh -c 'ls /tmp >/dev/null'
ok strace_attach_own_child q sh -c 'sleep 2 & exec strace -o /dev/null -p $!'
ok at_job q sh -c "rm -f /tmp/wl-at-$me; echo 'touch /tmp/wl-at-$me' | at now 2>/dev/null &&
	for i in \$(seq 120); do [ -e /tmp/wl-at-$me ] && break; sleep 0.5; done; [ -e /tmp/wl-at-$me ] && rm /tmp/wl-at-$me"
ok ssh_localhost q ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new localhost "echo ok-$me > /tmp/wl-ssh-$me && cat /tmp/wl-ssh-$me && rm /tmp/wl-ssh-$me"

case $me in
alice)
	ok sudo q sudo -n sh -c 'echo x > /tmp/wl-sudo && cat /tmp/wl-sudo && rm /tmp/wl-sudo'
	;;
bob)
	ok sudo_refused_to_bob q sh -c '! sudo -n true'
	;;
root)
	ok su_to_alice q su -s /bin/sh alice -c 'id -un | grep -qx alice'
	ok logrotate q logrotate -f /etc/logrotate.conf
	ok cron_daily q run-parts --report /etc/cron.daily
	ok systemd_tmpfiles q systemd-tmpfiles --create --clean --exclude-prefix=/dev
	ok systemd_run q systemd-run --wait --quiet -p PrivateTmp=yes sh -c 'echo x > /tmp/x'
	ok journalctl q sh -c 'journalctl -b -n 5 --no-pager >/dev/null'
	mkdir -p "$w/deb/DEBIAN" "$w/deb/usr/share/warden-wl"
	printf 'Package: warden-wl\nVersion: 1\nArchitecture: all\nMaintainer: w <w@x>\nDescription: workload\n' > "$w/deb/DEBIAN/control"
	echo x > "$w/deb/usr/share/warden-wl/x"
	ok dpkg_deb_build q dpkg-deb --build "$w/deb" "/tmp/warden-wl.deb"
	ok apt_install_local_deb q env DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/warden-wl.deb
	ok dpkg_remove q dpkg -r warden-wl
	rm -f /tmp/warden-wl.deb
	;;
esac
cd / && rm -rf "$w"
tap_done
