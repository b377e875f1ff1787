# SPDX-License-Identifier: GPL-2.0
# Sourced by admin_workload.sh and container_replay.sh, in the Debian
# guest: a container's root file system made from the guest's own /usr,
# no registry and no download.
#
# minroot DIR: a few programs (a shell, coreutils) and the libraries
# ldd lists for them, merged-/usr links, a passwd with root and uid 1000,
# os-release (systemd-nspawn wants it).  A few MB: podman's vfs driver
# copies it whole for each container.
minroot() {
	local d=$1 p lib
	mkdir -p "$d"/usr/bin "$d"/usr/lib "$d"/usr/lib64 "$d"/etc "$d"/proc \
		"$d"/sys "$d"/dev "$d"/tmp "$d"/run "$d"/root "$d"/vol || return
	for p in bin sbin lib lib64; do
		[ -L "$d/$p" ] || ln -s "usr/${p/sbin/bin}" "$d/$p" || return
	done
	for p in sh bash cat ln ls id sleep cp touch mkdir rm readlink stat \
		echo true env head; do
		cp -L "/usr/bin/$p" "$d/usr/bin/" || return
		for lib in $(ldd "/usr/bin/$p" | grep -o '/[^ ]*'); do
			[ -e "$d$lib" ] || cp -L --parents "$lib" "$d" || return
		done
	done
	printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000::/tmp:/bin/sh\n' > "$d/etc/passwd"
	printf 'root:x:0:\nuser:x:1000:\n' > "$d/etc/group"
	cp /usr/lib/os-release "$d/usr/lib/os-release" &&
		ln -sf ../usr/lib/os-release "$d/etc/os-release"
}
