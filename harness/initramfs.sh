#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's programs and pack an initramfs with the tree's own
# gen_init_cpio: busybox, our init, the test programs, CMD as /warden/cmd,
# the host folder GUEST_DIR (if set) as /mnt/guest, and in /usr/bin the
# audit tools and the host programs GUEST_TOOLS (if set, as
# "trinity,stress-ng").
#
# usage: initramfs.sh OUTPUT.cpio CMD
. "$(dirname "$0")/env.sh"

out=$1
cmd=$2

busybox=$(readlink -f "$(command -v busybox)")
readelf -l "$busybox" 2>/dev/null | grep -q 'LOAD' &&
	! readelf -l "$busybox" | grep -q 'INTERP' ||
	die "need a static busybox (apt-get install busybox-static)"

cache_lock

# The selftests, as upstream builds them: their own Makefiles, against the
# headers of this build ($BUILD/usr/include, from "make headers"), into
# $BUILD/kselftest; statically linked, to run in the initramfs as they are.
selftest_targets=lsm
# Warden's come with the series' first selftests patch (series.sh boots each
# patch).
[ -d "$TREE/tools/testing/selftests/warden" ] && selftest_targets="warden lsm"
make -C "$TREE/tools/testing/selftests" O="$BUILD" TARGETS="$selftest_targets" \
	FORCE_TARGETS=1 LDFLAGS=-static >"$BUILD/kselftest.log" 2>&1 ||
	{ tail -n 40 "$BUILD/kselftest.log" >&2; die "the selftests do not build"; }
gbin=$("$REPO/harness/progs.sh")

# tool_files PROGRAM...: gen_init_cpio lines for programs the guest runs
# as they are, in /usr/bin, with the shared libraries and the dynamic
# loader that ldd finds for them, at the paths ldd gives, with every
# folder they need.  A PROGRAM is a command on the host, or a path in
# $GUEST_DEBS (packages deps.sh unpacks, not installs), whose libraries
# go where an installed package's would.
tool_files() {
	local tool path

	for tool in "$@"; do
		if [ -x "$GUEST_DEBS/$tool" ]; then
			path=$GUEST_DEBS/$tool
		else
			path=$(command -v "$tool") ||
				die "no program $tool on the host or in $GUEST_DEBS (make deps)"
		fi
		echo "/usr/bin/${tool##*/} $(readlink -f "$path")"
		LD_LIBRARY_PATH=$GUEST_DEBS/lib/x86_64-linux-gnu:$GUEST_DEBS/usr/lib/x86_64-linux-gnu \
			ldd "$path" |
			awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
			while read -r lib; do
				echo "${lib#"$GUEST_DEBS"} $(readlink -f "$lib")"
			done
	done | sort -u | awk '{
		n = split($1, part, "/")
		for (i = 2; i < n; i++) {
			d = d_at(part, i)
			if (!(d in seen)) { seen[d] = 1; print "dir " d " 0755 0 0" }
		}
		print "file " $1 " " $2 " 0755 0 0"
	}
	function d_at(part, i,   j, d) { for (j = 2; j <= i; j++) d = d "/" part[j]; return d }'
}

list=$out.list
{
	for d in /bin /dev /etc /mnt /mnt/guest /proc /root /sys /tmp /warden /warden/bin; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	for applet in $("$busybox" --list); do
		[ "$applet" = busybox ] || echo "slink /bin/$applet busybox 0777 0 0"
	done
	echo "file /init $REPO/harness/guest/init 0755 0 0"
	echo "file /etc/passwd $REPO/harness/guest/passwd 0644 0 0"
	echo "file /etc/group $REPO/harness/guest/group 0644 0 0"
	for f in "$REPO"/harness/guest/run-tests "$REPO"/harness/guest/*.sh; do
		[ -f "$f" ] || continue
		echo "file /warden/$(basename "$f") $f 0755 0 0"
	done
	echo "dir /warden/examples 0755 0 0"
	echo "file /warden/examples/99-warden.conf $REPO/examples/sysctl.d/99-warden.conf 0644 0 0"
	{
		for t in $selftest_targets; do
			find "$BUILD/kselftest/$t" -maxdepth 1 -type f -perm -u+x
		done
		echo "$gbin/wardenctl"
		echo "$gbin/warden_bench"
		echo "$gbin/forge_segv"
	} | while read -r f; do
		echo "file /warden/bin/$(basename "$f") $f 0755 0 0"
	done
	# The real audit tools, to read Warden's records as an administrator
	# does (ausearch_test.sh), and the NFS server's user space, to export
	# a folder over loopback (nfs_test.sh).
	tool_files sbin/ausearch sbin/aureport \
		sbin/rpcbind usr/sbin/exportfs usr/sbin/rpc.mountd usr/sbin/rpc.nfsd \
		${GUEST_TOOLS:+${GUEST_TOOLS//,/ }}
	for f in netconfig services; do
		echo "file /etc/$f $GUEST_DEBS/etc/$f 0644 0 0"
	done
	printf '%s\n' "$cmd" > "$out.cmd"
	echo "file /warden/cmd $out.cmd 0644 0 0"
	[ "$cmd" = "@interactive" ] && echo "file /warden/interactive /dev/null 0644 0 0"
	if [ -n "${GUEST_DIR:-}" ]; then
		[ -d "$GUEST_DIR" ] || die "GUEST_DIR=$GUEST_DIR is not a folder"
		(cd "$GUEST_DIR" && find . -mindepth 1 | sort) | while read -r p; do
			p=${p#./}
			if [ -d "$GUEST_DIR/$p" ]; then
				echo "dir /mnt/guest/$p 0755 0 0"
			elif [ -f "$GUEST_DIR/$p" ]; then
				echo "file /mnt/guest/$p $GUEST_DIR/$p $(stat -c %a "$GUEST_DIR/$p") 0 0"
			fi
		done
	fi
} > "$list"
"$BUILD/usr/gen_init_cpio" "$list" > "$out" || die "gen_init_cpio failed"
