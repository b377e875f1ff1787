#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the kernel out of tree: $TREE -> $BUILD/arch/x86/boot/bzImage.
#
# The configuration is the Kconfig defaults plus fragments, merged by the
# tree's merge_config.sh: the selftests' own tools/testing/selftests/warden/config
# (what the tests need), harness/config/base.config (what the harness needs
# to boot them), harness/config/distro.config (what the Debian boot needs;
# not for the debug kernel) and harness/config/nfs.config (the NFS test's
# server and client; not for the debug kernel either, which has no INET),
# then BUILD_FLAVOR's fragment; or the fragments
# given as arguments.  A later fragment overrides an earlier one.  An option a
# fragment asks for that does not survive is an error, not a surprise at
# boot: merge_config.sh says so ("Value requested for ... not in final
# .config") and we fail on it.  The configuration is made again only when
# the fragments or the tree changed (a stamp of their hash).
#
# Then Kbuild builds, and checks security/warden with W=1e (warnings are
# errors), sparse and -Wsparse-error in a second output folder,
# $BUILD/checks, with the same .config: the main build's objects keep their
# flags, and each folder is incremental on its own.  A build stamp (the
# tree's git tree hash, the .config, the targets) lets a run on an
# unchanged tree skip make altogether: tree.sh keeps $TREE a clean checkout
# of that hash.  Everything runs under the cache's lock (env.sh).
#
# A build-only variant (BUILD_FLAVOR=nowarden, noaudit, nosysctl) starts as
# a copy of the main build: Kbuild then recompiles only the files that
# depend on the options the variant changes.  nowarden links vmlinux: the
# hooks our series adds to the VFS and the LSM core must link without
# Warden, and little changes.  AUDIT and SYSCTL reach sched.h and most of
# the kernel: noaudit and nosysctl compile only what our series touches,
# security/warden/ and the existing .c files its patches change
# (security/security.c among them), without linking (an undefined symbol
# would be found only at the link, which they skip).  The other LSMs are
# not compiled again: the main build compiles them with the series'
# headers, and the options the variants change are not the series'.
# BUILD_FLAVOR=debian is the one variant not made from the main build:
# Debian's own amd64 configuration of the tree (linux-config-*) with
# Warden added, compiling security/, fs/namei.o and fs/proc/base.o with
# W=1, as a distribution that builds Warden into its kernel would.
# Options of the other fragments that depend on what a variant takes away
# go with it: for a variant, only its own lines must survive.
. "$(dirname "$0")/env.sh"

selftests_config=$TREE/tools/testing/selftests/warden/config
fragments=("$@")
if [ ${#fragments[@]} -eq 0 ]; then
	fragments=("$selftests_config" "$REPO/harness/config/base.config")
	# The Debian boot's needs: the main kernel and its variants, not the
	# debug kernel.
	[ "$BUILD_FLAVOR" = debug ] ||
		fragments+=("$REPO/harness/config/distro.config" "$REPO/harness/config/nfs.config")
	[ -z "$FLAVOR_CONFIG" ] || fragments+=("$FLAVOR_CONFIG")
fi
case "$BUILD_FLAVOR" in
''|debug) variant= ;;
*) variant=$BUILD_FLAVOR ;;
esac
if [ "$variant" = debian ] && [ $# -eq 0 ]; then
	# Debian's own configuration of this tree, not the Kconfig defaults.
	debian_config=/usr/src/${KSRC_PACKAGE/-source-/-config-}/config.amd64_none_amd64.xz
	[ -f "$debian_config" ] || "$REPO/harness/deps.sh" "${KSRC_PACKAGE/-source-/-config-}"
	mkdir -p "$BUILD"
	xzcat "$debian_config" > "$BUILD/debian-amd64.config"
	fragments=("$BUILD/debian-amd64.config" "$FLAVOR_CONFIG")
fi
case "$variant" in
'') targets=(bzImage headers) ;;
nowarden) targets=(vmlinux) ;;
debian) targets=(W=1 security/ fs/namei.o fs/proc/base.o) ;;
*)
	mapfile -t targets < <(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "${SERIES_PATCHES[@]}" |
		grep -v -e '^tools/' -e '^security/warden/' | sort -u)
	targets+=(security/warden/)
	;;
esac

kmake=(make -C "$TREE" -j"$JOBS" "${KMAKE_VARS[@]}")
log=$BUILD/build.log
config_stamp=$BUILD/.warden-config-stamp
build_stamp=$BUILD/.warden-build-stamp

cache_lock

if [ -n "$variant" ] && [ "$variant" != debian ] && [ ! -f "$BUILD/vmlinux" ]; then
	main=$WARDEN_CACHE/build$KSRC_DIRS
	[ -f "$main/vmlinux" ] || die "variant $variant: build the main kernel first"
	say "variant $variant: starting from a copy of $main"
	rm -rf "$BUILD"
	cp -a "$main" "$BUILD"
	rm -rf "$BUILD"/guest "$BUILD"/kselftest "$BUILD"/run.* "$config_stamp" "$build_stamp"
fi
mkdir -p "$BUILD"
run() {
	"$@" >>"$log" 2>&1 || { tail -n 40 "$log" >&2; die "failed: $*"; }
}

# The tree as tree.sh left it: its git tree hash, or nothing when it has
# changes of its own (then nothing is skipped).  kernel.sh, which just
# checked, passes it in WARDEN_TREE_ID.
tree_id() {
	git -C "$TREE" diff --quiet HEAD 2>/dev/null &&
		git -C "$TREE" rev-parse HEAD^{tree} 2>/dev/null
}
tree=${WARDEN_TREE_ID:-$(tree_id || true)}

# Configure, unless the fragments, their order and the tree are those the
# .config was made from, and it was not changed since.
config_inputs=$({ echo "$tree"; for f in "${fragments[@]}"; do
	echo "$f"; sha256sum < "$f"; done; } | sha256sum | cut -d' ' -f1)
config_id() {
	echo "$config_inputs $(sha256sum < "$BUILD/.config" | cut -d' ' -f1)"
}
if [ -z "$tree" ] || [ ! -f "$BUILD/.config" ] || [ ! -f "$config_stamp" ] ||
   [ "$(cat "$config_stamp")" != "$(config_id)" ]; then
	say "configuring ($(basename -a "${fragments[@]}" | tr '\n' ' '))"
	rm -f "$config_stamp" "$build_stamp"
	# Without -m, merge_config.sh runs alldefconfig itself and then
	# reports every requested value that did not survive.  It only
	# prints that, and exits 0.
	# The make it runs gets our variables through MAKEFLAGS, so that
	# Kbuild does not rebuild its host programs for another HOSTCC.
	(cd "$TREE" && MAKEFLAGS="${KMAKE_VARS[*]// /\\ }" KCONFIG_CONFIG="$BUILD/.config" \
		scripts/kconfig/merge_config.sh -O "$BUILD" "${fragments[@]}") \
		>"$BUILD/merge_config.log" 2>&1 ||
		{ cat "$BUILD/merge_config.log" >&2; die "merge_config.sh failed"; }
	# The options whose lines must survive: a variant's own, or all.
	if [ -n "$variant" ] && [ $# -eq 0 ]; then
		must=$FLAVOR_CONFIG
	else
		must=$(printf '%s\n' "${fragments[@]}")
	fi
	lost=$(sed -n 's/^Value requested for \(CONFIG_[A-Za-z0-9_]*\) not in final .config$/\1/p' \
		"$BUILD/merge_config.log" | while read -r opt; do
			# shellcheck disable=SC2086
			if grep -q -E "^(# )?$opt[= ]" $must; then
				grep -A 2 "^Value requested for $opt " "$BUILD/merge_config.log"
			fi
		done)
	[ -z "$lost" ] || { echo "$lost" >&2; die "config: requested values not in the final .config (above)"; }
	[ -z "$tree" ] || config_id > "$config_stamp"
fi

# Build, unless this very tree, .config and targets were built already.
build_id=$(echo "$tree $(config_id) ${targets[*]}")
case "${targets[*]}" in
bzImage*) output=$BUILD/arch/x86/boot/bzImage ;;
vmlinux) output=$BUILD/vmlinux ;;
*) output=$BUILD/security/warden/built-in.a ;;
esac
if [ -n "$tree" ] && [ -f "$build_stamp" ] && [ "$(cat "$build_stamp")" = "$build_id" ] &&
   [ -f "$output" ]; then
	say "$(basename "$BUILD"): up to date (tree ${tree:0:12})"
	exit 0
fi
rm -f "$build_stamp"
: > "$log"
say "building $(make -s -C "$TREE" kernelversion) in $BUILD: ${targets[*]}"
run "${kmake[@]}" O="$BUILD" "${targets[@]}"
# W=1 warns about other LSMs' kernel-doc too: only ours must be clean.
if [ "$variant" = debian ] &&
   grep -E '(security/warden/|fs/namei\.c|fs/proc/base\.c).*warning:' "$log" >&2; then
	die "W=1 warnings in Warden's files under Debian's configuration (above)"
fi

# W=1e and sparse on Warden's objects, in their own output folder (not
# for Debian's configuration: the main kernels check them).
if [ "$variant" != debian ] && grep -q '^CONFIG_SECURITY_WARDEN=y' "$BUILD/.config"; then
	checks=$BUILD/checks
	mkdir -p "$checks"
	cmp -s "$BUILD/.config" "$checks/.config" || cp "$BUILD/.config" "$checks/.config"
	sparse=$("$REPO/harness/sparse.sh") || die "no sparse that can check this tree"
	say "checking security/warden with W=1e, $sparse and -Wsparse-error (in $checks)"
	"${kmake[@]}" O="$checks" W=1e C=1 CHECK="$sparse" CF=-Wsparse-error security/warden/ \
		>"$BUILD/warden-checks.log" 2>&1 ||
		{ grep -E -B 2 -A 6 'warning:|error:' "$BUILD/warden-checks.log" >&2 ||
			tail -n 40 "$BUILD/warden-checks.log" >&2
		  die "security/warden: warnings or errors with W=1e C=1 (see above)"; }
	# The tree turns C=1 off, with a warning, for a sparse it cannot use.
	! grep -q 'specified, but .* is not available or not up to date' "$BUILD/warden-checks.log" ||
		die "security/warden: sparse did not run ($sparse)"
fi
[ -z "$tree" ] || echo "$build_id" > "$build_stamp"
case "${targets[*]}" in
bzImage*|vmlinux) ls -l "$output" >&2 ;;
*) echo "compiled, not linked: ${targets[*]}" >&2 ;;
esac
