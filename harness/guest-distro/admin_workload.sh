#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What an admin does as root over users' files on the Debian guest
# (issue 40): packages with maintainer scripts from a local apt
# repository (install, upgrade, reconfigure, remove, purge),
# dpkg-reconfigure tzdata, update-initramfs, systemd-tmpfiles over
# alice's folders, logrotate of a log of alice's (su directive), backups
# of /home with rsync, tar, cp and find (with and without following
# links), a cron job in alice's crontab, sudo -u, su -, runuser,
# git and make in alice's tree, systemd-run --user and --uid,
# systemd-nspawn and rootful podman over alice's tree; and the users'
# own links into system files (alice's ~/.bashrc -> /etc/skel/.bashrc,
# ~/.config/licenses -> /usr/share/common-licenses), made by the users
# first, read by root's tools.  One TAP line a program; each must
# succeed.  Run as root (compat_test.sh, defaults_test.sh).
#
# usage: admin_workload.sh TAG     (TAG names the phase in the test names)
. /warden/tap.sh
. /warden/minroot.sh
[ "$(id -u)" = 0 ] || { echo "admin_workload.sh: run as root" >&2; exit 2; }
TAP_PREFIX="${1:-admin}.admin."
export DEBIAN_FRONTEND=noninteractive
w=$(mktemp -d /root/admin-XXXXXX) || exit 1
cd "$w" || exit 1
OUT=$w/.out ERR=$w/.err
A=/home/alice B=/home/bob

q() {	# q COMMAND...: COMMAND, its output kept for a failure's report
	"$@" > "$OUT" 2> "$ERR"
}

# Each program's own count of Warden's verdicts: the reports are
# ratelimited (10 every 5 s for root), the counters are not.  After a
# case that changed them, a line "# warden: NAME RULE denied+N
# would_deny+M".
counts() {
	sed -n 's/^rule=\([a-z_]*\) .*denied=\([0-9]*\).*would_deny=\([0-9]*\).*/\1 \2 \3/p' \
		/sys/kernel/security/warden/counters 2>/dev/null
}
eval "$(declare -f ok | sed '1s/^ok /tap_ok /')"
ok() {
	local before after
	before=$(counts)
	tap_ok "$@"
	after=$(counts)
	[ "$before" = "$after" ] ||
		printf '%s\n%s\n' "$before" "$after" | awk -v t="$TAP_PREFIX$1" '
			$1 in d { if ($2 != d[$1] || $3 != w[$1])
				printf "# warden: %s %s denied+%d would_deny+%d\n", t, $1, $2 - d[$1], $3 - w[$1]; next }
			{ d[$1] = $2; w[$1] = $3 }'
}

as() {	# as USER COMMAND: USER's login shell runs COMMAND
	su -l "$1" -c "$2"
}

# --- The users' own files, made by the users: links into system files
# (a dotfile kept as the distribution ships it, a desktop's config
# folder pointing into /usr/share), a project tree with a link of its
# own, a log, folders for tmpfiles.d.
ok setup_alice_links q as alice 'rm -f ~/.bashrc && ln -s /etc/skel/.bashrc ~/.bashrc &&
	mkdir -p ~/.config && ln -sfn /usr/share/common-licenses ~/.config/licenses &&
	ln -sfn /usr/share/doc/bash ~/.config/bash-doc'
ok setup_bob_links q as bob 'rm -f ~/.profile && ln -s /etc/skel/.profile ~/.profile &&
	mkdir -p ~/.config && ln -sfn /usr/share/common-licenses/GPL-3 ~/.config/COPYING'
ok setup_alice_tree q as alice 'set -e; mkdir -p ~/proj ~/logs ~/tmpfiles-D ~/tmpfiles-Z/sub ~/tmpfiles-d
	cd ~/proj && printf "hello\n" > in.txt && ln -sfn in.txt input &&
	printf "out.txt: input\n\ttr a-z A-Z < input > out.txt\nclean:\n\trm -f out.txt\n" > Makefile &&
	git init -q . && git add . && git -c user.name=alice -c user.email=a@x commit -qm one &&
	seq 1000 > ~/logs/app.log &&
	touch ~/tmpfiles-D/old ~/tmpfiles-Z/sub/f ~/tmpfiles-z && ln -sfn sub/f ~/tmpfiles-Z/link &&
	touch -d "3 days ago" ~/tmpfiles-d/stale && touch ~/tmpfiles-d/fresh'
# alice's crontab, set up first: cron picks it up at the next minute,
# checked at the end.
rm -f $A/cron-ran
ok crontab_u_alice q sh -c 'echo "* * * * * id -un > \$HOME/cron-ran" | crontab -u alice - && crontab -l -u alice'

# --- Packages with maintainer scripts from a local repository: two
# versions of a package made here, a flat repository with a hand-made
# Packages and Release, apt told to use it alone.
repo=/srv/warden-repo
rm -rf $repo && mkdir -p $repo "$w/lists/partial"
mkpkg() {	# mkpkg VERSION
	local d=$w/pkg-$1
	mkdir -p $d/DEBIAN $d/usr/share/warden-admin $d/etc/warden-admin
	printf 'Package: warden-admin\nVersion: %s\nArchitecture: all\nMaintainer: w <w@x>\nPriority: optional\nSection: admin\nDescription: the admin workload'"'"'s package\n' "$1" > $d/DEBIAN/control
	echo "level = $1" > $d/etc/warden-admin/admin.conf
	echo /etc/warden-admin/admin.conf > $d/DEBIAN/conffiles
	echo "version $1" > $d/usr/share/warden-admin/README
	[ "$1" = 1 ] || echo "added in $1" > $d/usr/share/warden-admin/NEWS
	# preinst: keep the old configuration before an upgrade.
	printf '#!/bin/sh\nset -e\nif [ "$1" = upgrade ]; then cp /etc/warden-admin/admin.conf /var/lib/warden-admin/admin.conf.old; fi\n' > $d/DEBIAN/preinst
	# config: debconf-free, run by dpkg-reconfigure before postinst.
	printf '#!/bin/sh\nset -e\nmkdir -p /var/lib/warden-admin\necho "config $*" >> /var/lib/warden-admin/history\n' > $d/DEBIAN/config
	# postinst: a system user, its state in /var, a log, a file in /etc,
	# and each user's own folder in their home, chowned to them.
	cat > $d/DEBIAN/postinst <<EOF
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
	getent passwd wardenadm >/dev/null ||
		useradd --system --home-dir /var/lib/warden-admin --shell /usr/sbin/nologin wardenadm
	mkdir -p /var/lib/warden-admin /var/log/warden-admin
	echo "configure \$2 -> $1" >> /var/lib/warden-admin/history
	echo $1 > /var/lib/warden-admin/state
	chown wardenadm: /var/lib/warden-admin/state
	date >> /var/log/warden-admin/install.log
	echo "installed $1" > /etc/warden-admin/installed
	for h in /home/*; do
		[ -d "\$h" ] || continue
		u=\$(stat -c %U "\$h"); g=\$(stat -c %G "\$h")
		install -d -o "\$u" -g "\$g" -m 700 "\$h/.warden-admin"
		echo $1 > "\$h/.warden-admin/version"
		chown "\$u:\$g" "\$h/.warden-admin/version"
	done
fi
EOF
	printf '#!/bin/sh\nset -e\necho "prerm $*" >> /var/log/warden-admin/install.log\n' > $d/DEBIAN/prerm
	cat > $d/DEBIAN/postrm <<'EOF'
#!/bin/sh
set -e
case "$1" in
remove)	rm -f /etc/warden-admin/installed ;;
purge)	rm -rf /var/lib/warden-admin /var/log/warden-admin /etc/warden-admin
	for h in /home/*; do rm -rf "$h/.warden-admin"; done
	userdel wardenadm 2>/dev/null || true ;;
esac
EOF
	chmod 755 $d/DEBIAN/preinst $d/DEBIAN/config $d/DEBIAN/postinst $d/DEBIAN/prerm $d/DEBIAN/postrm
	dpkg-deb --root-owner-group --build $d $repo/warden-admin_$1_all.deb
}
mkrepo() {	# the Packages and Release files of $repo
	local deb
	(cd $repo && for deb in *.deb; do
		dpkg-deb -f "$deb"
		printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "$deb" "$(stat -c %s "$deb")" \
			"$(sha256sum < "$deb" | cut -d' ' -f1)"
	done > Packages &&
	printf 'Origin: warden\nLabel: warden\nSuite: local\nCodename: local\nDate: %s\nArchitectures: all amd64\nSHA256:\n %s %s Packages\n' \
		"$(date -Ru)" "$(sha256sum < Packages | cut -d' ' -f1)" "$(stat -c %s Packages)" > Release)
	echo "deb [trusted=yes] file:$repo ./" > $repo/sources.list
}
APT=(apt-get -q -y -o Dir::Etc::sourcelist=$repo/sources.list -o Dir::Etc::sourceparts=-
	-o Dir::State::Lists=$w/lists -o APT::Get::List-Cleanup=0)
ok dpkg_deb_build_v1 q mkpkg 1
ok local_repo_v1 q eval 'mkrepo && "${APT[@]}" update'
ok apt_install_v1 q "${APT[@]}" install warden-admin
ok postinst_made_files q sh -c "grep -qx 1 /var/lib/warden-admin/state && [ -s /var/log/warden-admin/install.log ] &&
	grep -qx 1 $A/.warden-admin/version && [ \$(stat -c %U $A/.warden-admin/version) = alice ] &&
	grep -qx 1 $B/.warden-admin/version && [ -e /etc/warden-admin/installed ]"
ok dpkg_deb_build_v2 q mkpkg 2
ok local_repo_v2 q eval 'mkrepo && "${APT[@]}" update'
ok apt_upgrade_v2 q "${APT[@]}" upgrade
ok upgraded q sh -c "dpkg-query -W -f '\${Version}' warden-admin | grep -qx 2 && grep -qx 2 $A/.warden-admin/version &&
	[ -e /var/lib/warden-admin/admin.conf.old ] && grep -q 'prerm upgrade' /var/log/warden-admin/install.log"
ok dpkg_reconfigure_own q sh -c 'dpkg-reconfigure warden-admin && grep -q "^config reconfigure" /var/lib/warden-admin/history'
ok apt_remove q "${APT[@]}" remove warden-admin
ok apt_purge q "${APT[@]}" purge warden-admin
ok purged q sh -c "! dpkg-query -W -f '\${Status}' warden-admin 2>/dev/null | grep -q installed &&
	[ ! -e /var/lib/warden-admin ] && [ ! -e $A/.warden-admin ] && [ ! -e /etc/warden-admin ]"
rm -rf $repo
if dpkg-query -W tzdata >/dev/null 2>&1; then
	ok dpkg_reconfigure_tzdata q sh -c 'ln -sfn /usr/share/zoneinfo/Europe/Paris /etc/localtime &&
		dpkg-reconfigure tzdata && readlink /etc/localtime | grep -q Europe/Paris &&
		ln -sfn /usr/share/zoneinfo/Etc/UTC /etc/localtime && dpkg-reconfigure tzdata'
fi

# --- The initrd: made, then updated, as a kernel package's postinst and
# an admin after changing /etc/initramfs-tools do (the kernel has no
# modules; mkinitramfs warns and runs depmod).
if command -v update-initramfs >/dev/null; then
	v=$(uname -r)
	ok update_initramfs_c q update-initramfs -c -k "$v"
	ok update_initramfs_u q sh -c "update-initramfs -u -k '$v' && [ -s /boot/initrd.img-$v ]"
	update-initramfs -d -k "$v" >/dev/null 2>&1
fi

# --- systemd-tmpfiles over alice's folders: d (made, cleaned by age), D
# (emptied by --remove), L (a link made), z and Z (modes and owners set,
# Z recursively, through alice's own link inside).
cat > /etc/tmpfiles.d/warden-admin.conf <<EOF
d $A/tmpfiles-d 0750 alice alice m:1d
D $A/tmpfiles-D 0700 alice alice -
L $A/tmpfiles-L - - - - /usr/share/common-licenses
z $A/tmpfiles-z 0640 alice alice -
Z $A/tmpfiles-Z 0750 alice alice -
EOF
ok systemd_tmpfiles_users q systemd-tmpfiles --create --clean --remove /etc/tmpfiles.d/warden-admin.conf
ok systemd_tmpfiles_did q sh -c "[ ! -e $A/tmpfiles-d/stale ] && [ -e $A/tmpfiles-d/fresh ] &&
	[ ! -e $A/tmpfiles-D/old ] && [ -L $A/tmpfiles-L ] && [ \$(stat -c %a $A/tmpfiles-z) = 640 ] &&
	[ \$(stat -c %a $A/tmpfiles-Z/sub/f) = 750 ]"
rm -f /etc/tmpfiles.d/warden-admin.conf

# --- logrotate of a log in alice's home, as alice (su directive).
cat > $w/logrotate.conf <<EOF
$A/logs/*.log {
	su alice alice
	rotate 2
	size 1
	compress
	missingok
	create 0640 alice alice
}
EOF
ok logrotate_su_alice q sh -c "logrotate -s $w/logrotate.state $w/logrotate.conf && [ -s $A/logs/app.log.1.gz ] &&
	[ \$(stat -c %U $A/logs/app.log) = alice ]"

# --- Backups of /home as root, without and with following links.
mkdir -p $w/bk
ok rsync_a_home q rsync -a /home/ $w/bk/rsync/
ok rsync_aL_home q rsync -aL /home/ $w/bk/rsyncL/
ok tar_home q tar -C / -cf $w/bk/home.tar home
ok tar_h_home q tar -C / -chf $w/bk/homeh.tar home
ok cp_a_home q cp -a /home $w/bk/cp
ok cp_aL_home q cp -aL /home $w/bk/cpL
ok find_L_home q find -L /home -type f -fprint $w/bk/find.list
ok du_L_home q du -sL /home
# The users' links into system files, read by root's tools.
ok cat_alice_bashrc q cat $A/.bashrc
ok grep_r_home q grep -r -l PS1 /home
ok grep_R_config q grep -R -l -m1 GNU $A/.config
ok head_bob_profile q head -n 1 $B/.profile
ok bash_sources_alice_bashrc q bash -c ". $A/.bashrc"

# --- Root running things as alice.
ok sudo_u_alice q sh -c 'sudo -u alice sh -c "cd /home/alice && cat .bashrc >/dev/null && id -un" | grep -qx alice'
ok su_login_alice q sh -c 'su - alice -c "cat ~/.bashrc >/dev/null && id -un" | grep -qx alice'
ok runuser_u_alice q sh -c 'runuser -u alice -- sh -c "cat /home/alice/.bashrc >/dev/null && id -un" | grep -qx alice'
ok runuser_l_bob q sh -c 'runuser -l bob -c "cat ~/.profile >/dev/null && id -un" | grep -qx bob'

# --- git and make as root in alice's tree.
ok git_root_in_alice_tree q sh -c "cd $A/proj && git -c safe.directory=$A/proj status --short &&
	git -c safe.directory=$A/proj log --oneline && git -c safe.directory=$A/proj fsck --no-progress &&
	git -c safe.directory=$A/proj archive -o $w/proj.tar HEAD"
ok make_root_in_alice_tree q sh -c "make -C $A/proj && grep -qx HELLO $A/proj/out.txt && make -C $A/proj clean"

# --- systemd-run: a user's manager (lingering), and a unit as alice.
ok systemd_run_uid_alice q sh -c "rm -f $A/sr-uid; systemd-run --uid=alice --wait --quiet -p WorkingDirectory=$A \
	sh -c 'id -un > sr-uid' && grep -qx alice $A/sr-uid"
loginctl enable-linger alice
ok systemd_run_user q sh -c "wait_for() { for i in \$(seq 120); do \"\$@\" && return; sleep 0.5; done; \"\$@\"; }
	wait_for systemctl -q is-active user@1000.service && wait_for test -S /run/user/1000/bus &&
	rm -f $A/sr-user && runuser -u alice -- env XDG_RUNTIME_DIR=/run/user/1000 \
	DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus \
	systemd-run --user --wait --quiet sh -c 'cat ~/.bashrc > /dev/null && echo ok > ~/sr-user' &&
	grep -qx ok $A/sr-user"
loginctl disable-linger alice

# --- Containers run by root over alice's tree: systemd-nspawn and
# rootful podman, on a root file system made from the guest's /usr.
if command -v systemd-nspawn >/dev/null || command -v podman >/dev/null; then
	ok minroot q minroot /var/lib/machines/wmin
fi
if command -v systemd-nspawn >/dev/null; then
	ok systemd_nspawn q systemd-nspawn -q --register=no -D /var/lib/machines/wmin \
		--bind=$A/proj:/vol /usr/bin/sh -c 'cat /vol/input && touch /vol/from-nspawn'
fi
if command -v podman >/dev/null; then
	P=(podman --storage-driver=vfs --cgroup-manager=cgroupfs)
	ok podman_rootful_import q sh -c "tar -C /var/lib/machines/wmin -c . | ${P[*]} import -q - localhost/wmin"
	ok podman_rootful_run q "${P[@]}" run --rm --network=none --cgroups=disabled \
		-v $A/proj:/vol localhost/wmin /usr/bin/sh -c 'cat /vol/input && touch /vol/from-podman'
	"${P[@]}" rmi -f localhost/wmin >/dev/null 2>&1
fi
rm -rf /var/lib/machines/wmin

# --- alice's cron job, set up at the start: it ran, as alice.
ok cron_job_alice q sh -c "for i in \$(seq 300); do [ -s $A/cron-ran ] && break; sleep 0.5; done; grep -qx alice $A/cron-ran"
crontab -r -u alice

cd / && rm -rf "$w"
tap_done
