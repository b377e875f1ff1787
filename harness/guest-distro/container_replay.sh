#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The container replay of issue 40 (the kubelet subPath and `docker cp`
# shape, with a user namespace), on the Debian guest, run as root:
#
# alice runs a rootless podman container (a user namespace from
# /etc/subuid through newuidmap; an image imported from a root file
# system made here from the guest's /usr, no registry; --network=none;
# the vfs storage driver; no cgroups of its own).  Its user 1000, host
# uid 100999, plants two links in a volume of alice's: data ->
# /root/replay-secret.txt and subpath -> /root/replay-secret-dir.  Then
# host root follows them, as a container engine's copy and a kubelet's
# subPath mount do: cp and tar -h of data, a read through subpath,
# mount -c --bind of subpath and of data (and mount --bind, below).
# Each way prints a "# rule=N" line saying whether it reached the
# host's file.  With kernel.warden.protected_symlink_owner=0 each
# reaches it; at 1 each must be refused with EACCES, reported and
# counted.  Other rules as they are; mainline's fs.protected_symlinks
# plays no part (the volume is no sticky directory).
#
# Without podman, or if its container cannot run here, the same shape
# with util-linux's unshare and newuidmap (--map-users from alice's
# /etc/subuid range, setpriv to the mapped user 1000); the TAP names say
# which one planted the links.
#
# usage: container_replay.sh [TAG]
. /warden/tap.sh
. /warden/minroot.sh
[ "$(id -u)" = 0 ] || { echo "container_replay.sh: run as root" >&2; exit 2; }
TAP_PREFIX="${1:-container}.replay."
K=/proc/sys/kernel/warden
A=/home/alice
w=$(mktemp -d /root/replay-XXXXXX) || exit 1
OUT=$w/.out ERR=$w/.err
secret=/root/replay-secret.txt
sdir=/root/replay-secret-dir
vol=$A/replay-vol
mnt=/mnt/replay

q() {	# q COMMAND...: COMMAND, its output kept for a failure's report
	"$@" > "$OUT" 2> "$ERR"
}

alice() {	# alice COMMAND: alice's shell runs COMMAND in her home, her session's runtime folder
	runuser -u alice -- env HOME=$A XDG_RUNTIME_DIR=/run/user/1000 sh -c "cd && $1"
}

denied() {	# denied: the protected_symlink_owner refusals counted so far
	sed -n 's/^rule=protected_symlink_owner .*denied=\([0-9]*\).*/\1/p' /sys/kernel/security/warden/counters
}

old_level=$(cat $K/protected_symlink_owner)
old_complain=$(cat $K/protected_symlink_owner_complain)
umask 077
echo "host-secret-$$-$RANDOM" > $secret
mkdir -p $sdir && echo "host-key-$$" > $sdir/key
umask 022

# alice's subordinate ids (useradd gives them when /etc/subuid exists)
# and her session (lingering): rootless podman needs both.
grep -q '^alice:' /etc/subuid || usermod --add-subuids 100000-165535 alice
grep -q '^alice:' /etc/subgid || usermod --add-subgids 100000-165535 alice
sub=$(sed -n 's/^alice:\([0-9]*\):.*/\1/p' /etc/subuid | head -n 1)
mapped=$((sub + 999))	# the container's user 1000 on the host
echo "# alice's subordinate uids from $sub: the container's user 1000 is host uid $mapped"
loginctl enable-linger alice
for i in $(seq 120); do [ -d /run/user/1000 ] && break; sleep 0.5; done

how=none
if command -v podman >/dev/null; then
	P="podman --storage-driver=vfs --cgroup-manager=cgroupfs --events-backend=file"
	ok podman_rootless_import q eval "minroot $w/min && tar -C $w/min -c . |
		alice '$P import -q - localhost/replay-min'"
	ok podman_rootless_volume q alice "rm -rf $vol && mkdir $vol && $P unshare chown 1000:1000 $vol"
	if ok podman_rootless_plant_links q alice "$P run --rm --network=none --cgroups=disabled \
		--user 1000:1000 -v $vol:/vol localhost/replay-min \
		sh -c 'ln -s $secret /vol/data && ln -s $sdir /vol/subpath && id -u'"; then
		how=podman
	fi
fi
if [ $how = none ]; then
	echo "# podman could not plant the links: unshare with alice's subordinate ids instead"
	alice "$P unshare rm -rf $vol" >/dev/null 2>&1
	rm -rf $vol
	ok unshare_plant_links q alice "mkdir $vol && unshare --user --map-root-user \
		--map-users=1:$sub:65536 --map-groups=1:$sub:65536 sh -c \
		'chown 1000:1000 $vol && setpriv --reuid=1000 --regid=1000 --clear-groups \
		sh -c \"ln -s $secret $vol/data && ln -s $sdir $vol/subpath\"'" && how=unshare
fi
echo "# links planted by $how"
ok links_owned_by_mapped_uid q sh -c "stat -c '%n %u %N' $vol/data $vol/subpath &&
	[ \$(stat -c %u $vol/data) = $mapped ] && [ \$(stat -c %u $vol/subpath) = $mapped ]"
sed 's/^/# /' "$OUT"

# Host root follows them, the rule off then on: each way is a command
# that succeeds only if it reached the host's file (cmp with it).
# A name with a leading "~" is a way whose program resolves the link
# itself (libmount canonicalizes a bind mount's source with realpath(3),
# readlink per component): the kernel follows no link there, and no
# rule can judge it; its verdict is printed, not tested at 1.
# `mount -c` (--no-canonicalize) hands the link to the kernel, as a
# program calling mount(2) or open_tree(2) on the volume's path does.
ways=(
	"cp	cp $vol/data $w/cp && cmp $secret $w/cp"
	"tar_h	tar -C $vol -chf $w/t.tar data && tar -xOf $w/t.tar data | cmp $secret -"
	"read_through_dir_link	cmp $sdir/key $vol/subpath/key"
	"mount_c_bind_dir	mount -c --bind $vol/subpath $mnt && { cmp $sdir/key $mnt/key; r=\$?; umount $mnt; exit \$r; }"
	"mount_c_bind_file	touch $w/mf && mount -c --bind $vol/data $w/mf && { cmp $secret $w/mf; r=\$?; umount $w/mf; exit \$r; }"
	"~mount_bind_dir	mount --bind $vol/subpath $mnt && { cmp $sdir/key $mnt/key; r=\$?; umount $mnt; exit \$r; }"
)
mkdir -p $mnt
for level in 0 1; do
	echo $level > $K/protected_symlink_owner
	echo 0 > $K/protected_symlink_owner_complain
	before=$(denied)
	cursor=$(journalctl -k -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')
	for way in "${ways[@]}"; do
		name=${way%%	*} cmd=${way#*	}
		rm -rf $w/cp $w/t.tar $w/mf
		d=$(denied)
		sh -c "$cmd" > $w/way.out 2> $w/way.err
		rc=$? d=$(($(denied) - d))
		if [ $rc = 0 ]; then
			echo "# rule=$level $name: reached the host's file"
		else
			echo "# rule=$level $name: did not reach it: $(grep -v '^$' $w/way.err | head -n 1)"
		fi
		mountpoint -q $mnt && umount $mnt
		mountpoint -q $w/mf 2>/dev/null && umount $w/mf
		OUT=$w/way.out ERR=$w/way.err
		if [ $level = 0 ]; then
			ok rule_0.${name#"~"}_reaches_host_file test $rc = 0
		elif [ "${name#"~"}" = "$name" ]; then
			# Refused and counted by Warden, with EACCES (mount(8)
			# says only "failed": its system call shown below).
			ok rule_1.${name}_refused_eacces eval '[ $rc != 0 ] && [ $d -ge 1 ] &&
				{ grep -qi "permission denied" $ERR || [ "${name#mount}" != "$name" ]; }'
		fi
		# What the kernel was asked, for the mounts: a link followed
		# (-c), or the links read by realpath(3) and no link followed.
		if [ $level = 1 ] && [ "${name#*mount}" != "$name" ]; then
			strace -f -qq -e trace=readlink,readlinkat,mount,open_tree,move_mount \
				sh -c "$cmd" 2>&1 >/dev/null | grep -E 'readlink|mount|open_tree' | grep -v -e ENOENT -e EINVAL |
				sed 's/^/#   /' | head -n 8
			mountpoint -q $mnt && umount $mnt
			mountpoint -q $w/mf 2>/dev/null && umount $w/mf
		fi
		OUT=$w/.out ERR=$w/.err
	done
	if [ $level = 1 ]; then
		ok rule_1.refusals_counted q test $(($(denied) - before)) -ge $(printf "%s\n" "${ways[@]}" | grep -vc "^~")
		journalctl -k -b -o cat -q --no-pager --after-cursor="$cursor" |
			grep -E '^warden: rule=protected_symlink_owner verdict=' |
			sed -E 's/^warden: (rule=[^ ]* verdict=[^ ]*) .* (uid=[0-9]*) .* (link_uid=[0-9]*).* (comm="[^"]*") .*( path="[^"]*").*/report: \1 \2 \3 \4\5/;t;s/^/report: /' |
			sort | uniq -c | sed 's/^ */# /'
	fi
done
echo "$old_level" > $K/protected_symlink_owner
echo "$old_complain" > $K/protected_symlink_owner_complain

alice "$P unshare rm -rf $vol" >/dev/null 2>&1
alice "$P rmi -f localhost/replay-min" >/dev/null 2>&1
rm -rf $vol $secret $sdir "$w"
rmdir $mnt 2>/dev/null
loginctl disable-linger alice
tap_done
