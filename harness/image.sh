#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the Debian image that harness/vm.sh boots, Debian 13 (trixie) or,
# with DISTRO=bookworm, Debian 12: systemd and a small server's packages
# (harness/distro/packages), installed by
# mmdebstrap from Debian's mirror, the files of harness/distro/rootfs and
# examples/sysctl.d/99-warden.conf, two users, made into an ext4 image
# with mkfs.ext4 -d (nothing is mounted).
#
# usage: image.sh        prints the image's path
#
# The image is cached as $WARDEN_CACHE/distro/$DISTRO-KEY.img, KEY the
# hash of its recipe (this script, the package list, the files copied
# in): it is rebuilt only when one of them changes, and the packages are
# downloaded and installed again only when their list changes.  Boots use it with
# -snapshot, so it stays as built.  DISTRO_MIRROR, DISTRO_SECURITY_MIRROR
# change where packages come from; DISTRO_IMAGE_SIZE its size.
. "$(dirname "$0")/env.sh"

DISTRO=${DISTRO:-trixie}
case "$DISTRO" in
trixie | bookworm) ;;
*) die "DISTRO=$DISTRO: trixie (Debian 13) or bookworm (Debian 12)" ;;
esac
DISTRO_MIRROR=${DISTRO_MIRROR:-http://deb.debian.org/debian}
DISTRO_SECURITY_MIRROR=${DISTRO_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
DISTRO_IMAGE_SIZE=${DISTRO_IMAGE_SIZE:-4G}
d=$REPO/harness/distro
hash() { sha256sum | cut -c1-16; }
# Two stages, each cached by the hash of what makes it: the packages as
# mmdebstrap installs them (a tarball: the slow part, downloads), then
# the image with our files (a minute).
base_key=$( (cat "$d/packages"; echo "$DISTRO $DISTRO_MIRROR $DISTRO_SECURITY_MIRROR"
	sed -n '/^# stage 1/,/^# end of stage 1/p' "$REPO/harness/image.sh") | hash)
recipe=("$REPO/harness/image.sh" "$REPO/examples/sysctl.d/99-warden.conf")
mapfile -t -O ${#recipe[@]} recipe < <(find "$d/rootfs" -type f | sort)
key=$( (for f in "${recipe[@]}"; do
		echo "${f#"$REPO"/}"
		cat "$f"
	done; echo "$base_key $DISTRO_IMAGE_SIZE") | hash)
out=$WARDEN_CACHE/distro
base=$out/$DISTRO-base-$base_key.tar
img=$out/$DISTRO-$key.img
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || die "image.sh: mmdebstrap must run as root here"
"$REPO/harness/deps.sh" mmdebstrap e2fsprogs
mkdir -p "$out"
root=$out/root.$$
trap 'rm -rf "$root" "$img.tmp" "$base.tmp"' EXIT
rm -rf "$out"/root.*
start=$SECONDS
# stage 1
if [ ! -f "$base" ]; then
	say "installing $DISTRO's packages with mmdebstrap: $base"
	# mmdebstrap keeps services from starting while it installs
	# (auditd, sshd): nothing runs on the host.
	mmdebstrap --quiet --variant=minbase --format=tar \
		--include="$(grep -v '^#' "$d/packages" | xargs | tr ' ' ,)" \
		--components=main \
		--customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
		"$DISTRO" "$base.tmp" \
		"deb $DISTRO_MIRROR $DISTRO main" \
		"deb $DISTRO_MIRROR $DISTRO-updates main" \
		"deb $DISTRO_SECURITY_MIRROR $DISTRO-security main" >&2 ||
		die "mmdebstrap failed"
	mv "$base.tmp" "$base"
	find "$out" -maxdepth 1 -name "$DISTRO-base-*.tar" ! -name "${base##*/}" -delete
	say "packages installed in $((SECONDS - start))s"
fi
# end of stage 1
say "building the $DISTRO image $img"
mkdir -p "$root"
tar -C "$root" --xattrs --xattrs-include='*' --numeric-owner -xpf "$base" ||
	die "cannot unpack $base"
cp -rT --preserve=mode "$d/rootfs" "$root"
chmod 0440 "$root/etc/sudoers.d/warden"
install -m 644 "$REPO/examples/sysctl.d/99-warden.conf" "$root/etc/sysctl.d/"
mkdir -p "$root/warden"
# A fixed machine id: not a first boot each time.
echo "$key$key" > "$root/etc/machine-id"
# Root logs in on the console without a password (make vm); the
# workload's users: alice may sudo, bob may not.
chroot "$root" passwd -d root >/dev/null
chroot "$root" useradd -m -u 1000 -s /bin/bash alice
chroot "$root" useradd -m -u 1001 -s /bin/bash bob
chroot "$root" systemctl -q enable auditd ssh cron atd apparmor

rm -f "$img.tmp"
truncate -s "$DISTRO_IMAGE_SIZE" "$img.tmp"
mkfs.ext4 -q -F -L wardenroot -d "$root" "$img.tmp" ||
	die "mkfs.ext4 -d failed"
mv "$img.tmp" "$img"
find "$out" -maxdepth 1 -name "$DISTRO-*.img" ! -name "$DISTRO-base-*" ! -name "${img##*/}" -delete
say "image built in $((SECONDS - start))s ($(du -sh --apparent-size "$root" | cut -f1) of files)"
echo "$img"
