#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: protected_regular on NFSv3.  The kernel's nfsd exports a sticky
# world-writable tmpfs folder to 127.0.0.1, Debian's rpcbind, exportfs,
# rpc.mountd and rpc.nfsd set it up (harness/deps.sh), and the kernel's
# NFS client mounts it (vers=3).  A file the attacker (uid 1000) planted
# in the export, on the server side, is then opened with O_CREAT through
# the mount by root, the first time by a name the client has never seen:
# the client sends an unchecked CREATE, the server answers it with
# success, and the open is marked FMODE_CREATED although the file is the
# attacker's.  Warden must refuse it as it refuses it on a local folder.
# Mainline's fs.protected_regular is 0: only Warden can refuse; and
# protected_sticky_writes too, which would refuse the same write: only
# protected_regular is judged here.
. /warden/tap.sh
TAP_PREFIX=nfs.
SRV=/srv/nfs
MNT=/mnt/nfs
OUT=/tmp/nfs.out
ERR=/tmp/nfs.err
REGULAR=/proc/sys/kernel/warden/protected_regular
WRITES=/proc/sys/kernel/warden/protected_sticky_writes
saved="$REGULAR=$(cat $REGULAR) $WRITES=$(cat $WRITES)"
echo 0 > $WRITES
for k in protected_regular protected_fifos; do
	saved="$saved /proc/sys/fs/$k=$(cat /proc/sys/fs/$k)"
	echo 0 > /proc/sys/fs/$k
done
echo 1 > $REGULAR

# setup: the server, then the mount.  rpcbind drops root for the user
# _rpc, whom Debian's package would add.
setup() {
	ip link set lo up &&
	mkdir -p /run /var/lib/nfs $SRV $MNT &&
	{ [ -e /var/run ] || ln -s /run /var/run; } &&
	touch /etc/exports /var/lib/nfs/etab /var/lib/nfs/rmtab &&
	{ grep -q '^_rpc:' /etc/passwd ||
	  echo '_rpc:x:100:65534:rpcbind:/run/rpcbind:/bin/false' >> /etc/passwd; } &&
	mount -t tmpfs -o mode=1777 nfs-export $SRV &&
	mount -t nfsd nfsd /proc/fs/nfsd || return 1
	rpcbind -f &
	rpcbind_pid=$!
	wait_for_rpcbind &&
	exportfs -o rw,sync,no_root_squash,no_subtree_check,insecure,fsid=1 \
		127.0.0.1:$SRV &&
	rpc.mountd -N 4 &&
	rpc.nfsd -N 4 1 &&
	mount -t nfs -o vers=3,proto=tcp,mountproto=tcp,nolock,addr=127.0.0.1 \
		127.0.0.1:$SRV $MNT
}

wait_for_rpcbind() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -S /run/rpcbind.sock ] && return 0
		sleep 1
	done
	echo "rpcbind: no /run/rpcbind.sock"
	return 1
}

# plant NAME: the attacker's file, made on the server side, never looked
# up through the mount.
plant() {
	echo planted > $SRV/$1 && chown 1000:1000 $SRV/$1 && chmod 666 $SRV/$1
}

# append_as USER NAME: an O_CREAT|O_APPEND open of $MNT/NAME by USER (the
# shell's ">>"), its error in $ERR.
append_as() {
	if [ "$1" = root ]; then
		sh -c "echo more >> $MNT/$2" 2> "$ERR"
	else
		su -s /bin/sh "$1" -c "echo more >> $MNT/$2" 2> "$ERR"
	fi
}

refused() {	# refused USER NAME: EACCES, and the file is unchanged
	! append_as "$1" "$2" && grep -q 'Permission denied' "$ERR" &&
		[ "$(cat $SRV/$2)" = planted ]
}

allowed() {	# allowed USER NAME: written
	append_as "$1" "$2" && [ "$(printf 'planted\nmore')" = "$(cat $SRV/$2)" ]
}

denied() {	# denied: protected_regular's count of denials
	sed -n 's/^rule=protected_regular denied=\([0-9]*\) .*/\1/p' \
		/sys/kernel/security/warden/counters
}

counted() {	# counted N COMMAND...: COMMAND, and N more denials counted
	want=$(($(denied) + $1))
	shift
	"$@" && [ "$(denied)" = "$want" ]
}

owned_by() {	# owned_by UID PATH
	[ "$(stat -c %u "$2")" = "$1" ]
}

ok mainline_knob_off eval '[ "$(cat /proc/sys/fs/protected_regular)" = 0 ]'
ok mounted_nfsv3 eval 'setup > "$ERR" 2>&1 && grep -q " $MNT nfs .*vers=3" /proc/mounts'

# Root's open of a name the client has not looked up: FMODE_CREATED.
plant planted
ok root_creat_uncached_refused counted 1 refused root planted
# The same once the client knows the file (a positive dentry, no CREATE).
plant known
ok known_file_owned_by_attacker owned_by 1000 $MNT/known
ok root_creat_cached_refused counted 1 refused root known
# The twins: the planter's own file, and a file root really creates.
plant own
ok owner_creat_allowed counted 0 allowed attacker own
ok root_new_file_allowed counted 0 eval 'sh -c "echo new > $MNT/new" 2> "$ERR" &&
	owned_by 0 $SRV/new && [ "$(cat $SRV/new)" = new ]'
# With Warden's rule off, nothing refuses the attacker's file.
plant off
echo 0 > $REGULAR
ok root_creat_rule_off_allowed counted 0 allowed root off
echo 1 > $REGULAR

umount $MNT 2>/dev/null
rpc.nfsd 0 2>/dev/null
exportfs -ua 2>/dev/null
for pid in $(pidof rpc.mountd) ${rpcbind_pid:-}; do
	kill "$pid"
done
umount /proc/fs/nfsd $SRV 2>/dev/null
for kv in $saved; do
	echo "${kv#*=}" > "${kv%%=*}"
done
tap_done
