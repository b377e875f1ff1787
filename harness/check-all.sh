#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What CI runs: the static gates, every kernel we build, and the suite on
# the main kernel and on the debug kernel.  Each gate is one pass or one
# failure; the suites count their tests.  The last line is the sum:
# "N passed, N failed" (", N skipped" if any were).
#
# Gates, in order:
#   snapshot   kernel/ is the files the series applied in $APPLY adds
#              (env.sh: check_snapshot); reads, builds nothing
#   build      the main kernel; W=1 and sparse on security/warden (build.sh)
#   nowarden, noaudit, nosysctl
#              build-only variants: a copy of the main build, rebuilt by
#              Kbuild for the options they change; nowarden is linked,
#              noaudit and nosysctl compile security/warden/ and the
#              other .c files our patches change, without linking
#              (build.sh)
#   debug      the debug kernel (KASAN, lockdep, UBSAN, KUnit), W=1, sparse
#   kernel-doc scripts/kernel-doc -none -Wall on security/warden
#   series     checkpatch --strict and git am of the series (series.sh,
#              without building at every patch)
#   deb        wardenctl's Debian package, built by dpkg-buildpackage (its
#              host tests included) and checked by lintian, and the main
#              kernel's, by the tree's bindeb-pkg (deb.sh)
#   backport-6.12
#              the 6.12 backport (patches/ with patches/6.12/, env.sh)
#              applied by tree.sh and compiled under Debian's own
#              configuration of 6.12: security/, fs/namei.o,
#              fs/proc/base.o with W=1 (build.sh, BUILD_FLAVOR=debian);
#              make check KSRC=6.12 boots and tests it in full
# Every other gate is on 7.3 (KSRC, env.sh).
# Suites: check.sh on the main kernel with WARDEN_STRESS_ATTEMPTS race
# attempts per test (default here 500000), then four of its boots on the
# debug kernel (check.sh: debug_boots) with
# DEBUG_STRESS_ATTEMPTS (default 5000), DEBUG_FUZZ_WRITES (the settings
# fuzz's writes, default 150), DEBUG_FLOOD_DENIALS (default 10000) and
# DEBUG_QEMU_TIMEOUT; SUITE_JOBS boots at a time (default here 2).  The
# debug kernel, emulated, runs each path 100 to 300 times slower: its
# detectors need the paths run, the volume is the main kernel's.
# Boot distro: Debian 13 (DISTRO=bookworm: 12) with systemd on the main kernel (harness/vm.sh,
# the image of harness/image.sh), harness/guest-distro/distro_test.sh
# (DISTRO_TIMEOUT, default here 1800 s).  The image is made beside the
# tree and the main build (mostly downloads), not after them.
# Boot install: the packages of gate deb installed in that image and the
# installed kernel booted (harness/install.sh).
#
# Each check runs once.  The KUnit suites run in the debug kernel's boot,
# read by the tree's kunit.py parse (check.sh); make kunit runs them on
# UML as well, as a maintainer does (harness/kunit.sh), not check-all.
. "$(dirname "$0")/env.sh"

export WARDEN_STRESS_ATTEMPTS=${CHECK_ALL_STRESS_ATTEMPTS:-500000}
DEBUG_STRESS_ATTEMPTS=${DEBUG_STRESS_ATTEMPTS:-5000}
DEBUG_FUZZ_WRITES=${DEBUG_FUZZ_WRITES:-150}
DEBUG_FLOOD_DENIALS=${DEBUG_FLOOD_DENIALS:-10000}
export QEMU_TIMEOUT=${CHECK_ALL_QEMU_TIMEOUT:-900}
DEBUG_QEMU_TIMEOUT=${DEBUG_QEMU_TIMEOUT:-1800}
# Two boots of a suite at a time (check.sh).
export SUITE_JOBS=${SUITE_JOBS:-2}

pass=0 fail=0 skip=0
report=()
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# gate NAME COMMAND...: one pass or one failure, with its time.  Its
# status is for an "if"; every other call ends in "|| true", or set -e
# would end check-all at the first failed gate, before its summary.
gate() {
	local name=$1 start=$SECONDS
	shift
	say "gate $name"
	if "$@" >"$logs/$name" 2>&1; then
		pass=$((pass + 1))
		report+=("ok     $name ($((SECONDS - start))s)")
		return 0
	fi
	tail -n 60 "$logs/$name" >&2
	echo "not ok gate $name" >&2
	fail=$((fail + 1))
	report+=("not ok $name ($((SECONDS - start))s)")
	return 1
}

# suite NAME [VAR=value...]: check.sh, its counts added to ours.
suite() {
	local name=$1 start=$SECONDS line p f s
	shift
	say "suite $name"
	line=$(env "$@" "$REPO/harness/check.sh" 2>&1 | tee /dev/stderr |
		grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1) || true
	if [ -z "$line" ]; then
		line="0 passed, 1 failed"
	fi
	read -r p _ f _ s _ <<<"${line//,/}"
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + ${s:-0}))
	report+=("suite  $name: $line ($((SECONDS - start))s)")
}

# boot NAME COMMAND...: a boot of the Debian image (vm.sh), its TAP lines
# counted.  No result, or a non-zero exit with no failed test, is one
# failure.
boot() {
	local name=$1 start=$SECONDS rc=0 p f
	shift
	say "boot $name"
	"$@" >"$logs/$name" 2>&1 || rc=$?
	grep -E '^(not )?ok |^# ' "$logs/$name" | grep -v -E '^ok ' >&2 || true
	p=$(grep -c -E '^ok ' "$logs/$name") || true
	f=$(grep -c -E '^not ok ' "$logs/$name") || true
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		tail -n 40 "$logs/$name" >&2
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
	report+=("boot   $name: $p passed, $f failed ($((SECONDS - start))s)")
}

# distro: the Debian boot, once the image is made.
distro() {
	# vm.sh makes the image itself, and says why, if this failed.
	wait "$image" || cat "$logs/image" >&2
	# Every rule at its Kconfig default (the two past mainline at 1) from
	# the first process, enforcing: what a distribution ships.
	boot distro env DISTRO_TIMEOUT="${DISTRO_TIMEOUT:-1800}" \
		"$REPO/harness/vm.sh" /warden/distro_test.sh
}

# backport: the 6.12 backport applied (patches/ with patches/6.12/) and
# compiled under Debian's own configuration of 6.12.  Its tree is the
# host's linux-source-6.12, which make check-all's deps (7.3's) does not
# install: deps.sh installs it here, on a machine that lacks it.
backport() {
	KSRC=6.12 "$REPO/harness/deps.sh" &&
		KSRC=6.12 "$REPO/harness/locked.sh" "$REPO/harness/tree.sh" &&
		KSRC=6.12 BUILD_FLAVOR=debian "$REPO/harness/build.sh"
}

kernel_doc() {
	local out

	out=$(cd "$TREE" && scripts/kernel-doc -none -Wall security/warden/*.[ch] 2>&1)
	[ -z "$out" ] || { echo "$out"; return 1; }
}

total=$SECONDS
# The Debian image, in the background: distro() waits for it.
"$REPO/harness/image.sh" >"$logs/image" 2>&1 &
image=$!
"$REPO/harness/locked.sh" "$REPO/harness/tree.sh" || die "the tree cannot be made"

gate snapshot check_snapshot || true
# Counted once: not again in the main suite (check.sh).
export SNAPSHOT_CHECKED=1

if gate build "$REPO/harness/build.sh"; then
	suite main
	distro
	for v in nowarden noaudit nosysctl; do
		gate "$v" env BUILD_FLAVOR="$v" "$REPO/harness/build.sh" || true
	done
	gate backport-6.12 backport || true
else
	fail=$((fail + 5))
	report+=("not ok main suite and variants: no main kernel")
fi
if gate debug env BUILD_FLAVOR=debug "$REPO/harness/build.sh"; then
	suite debug BUILD_FLAVOR=debug \
		WARDEN_STRESS_ATTEMPTS="$DEBUG_STRESS_ATTEMPTS" \
		WARDEN_FUZZ_WRITES="$DEBUG_FUZZ_WRITES" \
		WARDEN_FLOOD_DENIALS="$DEBUG_FLOOD_DENIALS" \
		QEMU_TIMEOUT="$DEBUG_QEMU_TIMEOUT"
else
	fail=$((fail + 1))
	report+=("not ok debug suite: no debug kernel")
fi
gate kernel-doc kernel_doc || true
gate series env SERIES_BUILD=0 "$REPO/harness/series.sh" || true
if gate deb "$REPO/harness/deb.sh"; then
	boot install "$REPO/harness/install.sh"
else
	fail=$((fail + 1))
	report+=("not ok install boot: no packages")
fi

echo
echo "check-all ($((SECONDS - total))s):"
printf '  %s\n' "${report[@]}"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
