#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the kernel out of tree: $TREE -> $BUILD/arch/x86/boot/bzImage.
#
# The configuration is allnoconfig plus the fragments given as arguments
# (default: harness/config/base.config), merged with the tree's
# merge_config.sh.  An option a fragment asks for that does not survive is
# an error, not a surprise at boot.  Warden's own objects are then rebuilt
# with W=1 and sparse, and any warning fails the build.
. "$(dirname "$0")/env.sh"

fragments=("$@")
[ ${#fragments[@]} -gt 0 ] || fragments=("$REPO/harness/config/base.config")

kmake=(make -C "$TREE" O="$BUILD" ARCH=x86_64 -j"$JOBS")
command -v ccache >/dev/null && kmake+=(CC="ccache gcc" HOSTCC="ccache gcc")
# Paths relative to the cache, so that another cache (another checkout)
# hits the same ccache entries.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$WARDEN_CACHE}
log=$BUILD/build.log

mkdir -p "$BUILD"
: > "$log"
run() {
	"$@" >>"$log" 2>&1 || { tail -n 40 "$log" >&2; die "failed: $*"; }
}

check_config() {
	local want opt got

	grep -h '^CONFIG_' "$@" | while IFS= read -r want; do
		opt=${want%%=*}
		got=$(grep -E "^$opt=|^# $opt is not set" "$BUILD/.config" || true)
		[ "$got" = "$want" ] ||
			die "config: asked for '$want', got '${got:-nothing}'"
	done
}

say "configuring ($(basename -a "${fragments[@]}" | tr '\n' ' '))"
(cd "$TREE" && ARCH=x86_64 KCONFIG_CONFIG="$BUILD/.config" \
	scripts/kconfig/merge_config.sh -n -m -O "$BUILD" "${fragments[@]}") >>"$log" 2>&1 ||
	die "merge_config.sh failed (see $log)"
run "${kmake[@]}" olddefconfig
check_config "${fragments[@]}"

say "building $(make -s -C "$TREE" kernelversion) in $BUILD"
run "${kmake[@]}" bzImage
run "${kmake[@]}" headers_install INSTALL_HDR_PATH="$BUILD/hdr"

if grep -q '^CONFIG_SECURITY_WARDEN=y' "$BUILD/.config"; then
	say "checking security/warden with W=1 and sparse"
	touch "$TREE"/security/warden/*.c
	"${kmake[@]}" W=1 C=1 security/warden/ >"$BUILD/warden-checks.log" 2>&1 ||
		{ cat "$BUILD/warden-checks.log" >&2; die "security/warden does not build"; }
	if grep -E 'warning:|error:' "$BUILD/warden-checks.log"; then
		die "security/warden: warnings with W=1 C=1 (see above)"
	fi
fi
ls -l "$BUILD/arch/x86/boot/bzImage" >&2
