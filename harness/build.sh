#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the kernel out of tree: $TREE -> $BUILD/arch/x86/boot/bzImage.
#
# The configuration is allnoconfig plus the fragments given as arguments
# (default: harness/config/base.config, distro.config but for the debug
# kernel, then BUILD_FLAVOR's fragment),
# merged with the tree's merge_config.sh.  An option a fragment asks for
# that does not survive is an error, not a surprise at boot (a later
# fragment overrides an earlier one).  Warden's own objects are then
# rebuilt with W=1 and sparse, and any warning fails the build.
#
# A build-only variant (BUILD_FLAVOR=nowarden, noaudit, nosysctl) starts as
# a copy of the main build: Kbuild then recompiles only the files that
# depend on the options the variant changes.  nowarden links vmlinux: the
# hooks our series adds to the VFS and the LSM core must link without
# Warden, and little changes.  AUDIT and SYSCTL reach sched.h and most of
# the kernel: noaudit and nosysctl compile only what our series touches,
# security/ and the existing .c files its patches change, without linking
# (an undefined symbol would be found only at the link, which they skip).
. "$(dirname "$0")/env.sh"

fragments=("$@")
if [ ${#fragments[@]} -eq 0 ]; then
	fragments=("$REPO/harness/config/base.config")
	# The Debian boot's needs: the main kernel and its variants, not the
	# debug kernel.
	[ "$BUILD_FLAVOR" = debug ] || fragments+=("$REPO/harness/config/distro.config")
	[ -z "$FLAVOR_CONFIG" ] || fragments+=("$FLAVOR_CONFIG")
fi
case "$BUILD_FLAVOR" in
''|debug) variant= ;;
*) variant=$BUILD_FLAVOR ;;
esac
case "$variant" in
'') targets=(bzImage) ;;
nowarden) targets=(vmlinux) ;;
*)
	mapfile -t targets < <(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$REPO"/patches/*.patch |
		grep -v -e '^tools/' -e '^security/' | sort -u)
	targets+=(security/)
	;;
esac

kmake=(make -C "$TREE" O="$BUILD" ARCH=x86_64 -j"$JOBS")
command -v ccache >/dev/null && kmake+=(CC="ccache gcc" HOSTCC="ccache gcc")
# Paths relative to the cache, so that another cache (another checkout)
# hits the same ccache entries.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$WARDEN_CACHE}
log=$BUILD/build.log

if [ -n "$variant" ] && [ ! -f "$BUILD/vmlinux" ]; then
	main=$WARDEN_CACHE/build
	[ -f "$main/vmlinux" ] || die "variant $variant: build the main kernel first"
	say "variant $variant: starting from a copy of $main"
	rm -rf "$BUILD"
	cp -a "$main" "$BUILD"
	rm -rf "$BUILD"/guest "$BUILD"/run.*
fi
mkdir -p "$BUILD"
: > "$log"
run() {
	"$@" >>"$log" 2>&1 || { tail -n 40 "$log" >&2; die "failed: $*"; }
}

# Every option the fragments set, or unset, with its last value.
wanted_config() {
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 &/p' "$@" |
		awk '{ opt = $1; sub(/^[^ ]* /, ""); if (!(opt in v)) order[n++] = opt; v[opt] = $0 }
		     END { for (i = 0; i < n; i++) print v[order[i]] }'
}

check_config() {
	local want opt got

	wanted_config "$@" | while IFS= read -r want; do
		opt=${want%%=*}
		opt=${opt#\# }
		opt=${opt%% *}
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
if [ -n "$variant" ] && [ $# -eq 0 ]; then
	# Options of base.config that depend on what the variant takes away
	# are gone with it: check the variant's own lines.
	check_config "$FLAVOR_CONFIG"
else
	check_config "${fragments[@]}"
fi

say "building $(make -s -C "$TREE" kernelversion) in $BUILD: ${targets[*]}"
run "${kmake[@]}" "${targets[@]}"
[ -n "$variant" ] || run "${kmake[@]}" headers_install INSTALL_HDR_PATH="$BUILD/hdr"

if grep -q '^CONFIG_SECURITY_WARDEN=y' "$BUILD/.config"; then
	say "checking security/warden with W=1 and sparse"
	touch "$TREE"/security/warden/*.c
	"${kmake[@]}" W=1 C=1 security/warden/ >"$BUILD/warden-checks.log" 2>&1 ||
		{ cat "$BUILD/warden-checks.log" >&2; die "security/warden does not build"; }
	if grep -E 'warning:|error:' "$BUILD/warden-checks.log"; then
		die "security/warden: warnings with W=1 C=1 (see above)"
	fi
fi
case "${targets[*]}" in
bzImage) ls -l "$BUILD/arch/x86/boot/bzImage" >&2 ;;
vmlinux) ls -l "$BUILD/vmlinux" >&2 ;;
*) echo "compiled, not linked: ${targets[*]}" >&2 ;;
esac
