#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the upstream series and check it as a maintainer would.
#
# patches/ is the series (tree.sh applies it as commits in $APPLY).  It
# must be in the form make save writes, so that what is reviewed here is
# what is sent.  The series is written with a cover letter and Cc lines
# from the tree's get_maintainer.pl to $SERIES_OUT; then checkpatch
# --strict must find 0 errors, 0 warnings and 0 checks in every patch;
# git am must apply it onto the pristine tree and give exactly the tree
# we test; and at every patch the kernel must build and boot, and pass
# the tests present at that patch (SERIES_BUILD=0 skips the builds and
# boots; SERIES_STEPS="4 5" does them only at those patches): the KUnit
# suites at boot, the LSM list, and the selftests the suite's boots run
# whose source is there (check.sh's boot "step").  A patch that changes
# only Documentation/ is not booted again.
. "$(dirname "$0")/env.sh"

out=${SERIES_OUT:-$WARDEN_CACHE/series$KSRC_DIRS}
am=$WARDEN_CACHE/am$KSRC_DIRS
sbuild=$WARDEN_CACHE/build$KSRC_DIRS-series
kmake=(make -C "$am" O="$sbuild" -j"$JOBS" "${KMAKE_VARS[@]}")

say "the series on $KSRC (KSRC=$KSRC): ${SERIES_DIR#"$REPO"/}/${BACKPORT_DIR:+ with ${BACKPORT_DIR#"$REPO"/}/} as make save writes it"
! series_differs "$APPLY" >&2 ||
	die "patches/ is not what make save writes (above): make edit, then make save"

rm -rf "$out"
mkdir -p "$out"
git -C "$APPLY" format-patch -q --cover-letter --subject-prefix="RFC PATCH" --zero-commit --thread \
	--base=base -o "$out" base..HEAD
cover=$(ls "$out"/0000-*.patch)
# The cover letter's subject and text, and each patch's Cc lines, from
# the people get_maintainer.pl names for the files it touches.
(cd "$APPLY" && for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	PATH=/usr/bin:$PATH scripts/get_maintainer.pl --no-rolestats --no-git \
		--no-git-fallback --nol --no-tree "$p" 2>/dev/null >"$p.cc" || true
done)
# The cover letter goes to everyone a patch goes to: the union of their
# Cc lines, in the order get_maintainer.pl first named them, after the
# text.
python3 - "$cover" "$REPO/patches/cover-letter" "$out" <<'PY'
import glob, sys
cover, text, out = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
subject, blurb = text.split("\n", 1)
everyone = []
for p in sorted(glob.glob(out + "/0*.patch")):
    if p == cover:
        continue
    cc = [l.strip() for l in open(p + ".cc") if l.strip()]
    everyone += [c for c in cc if c not in everyone]
    s = open(p).read()
    head, sep, rest = s.partition("\n---\n")
    if cc:
        head += "\n" + "".join("Cc: %s\n" % c for c in cc).rstrip("\n")
    open(p, "w").write(head + sep + rest)
blurb = blurb.strip()
if everyone:
    blurb += "\n\n" + "".join("Cc: %s\n" % c for c in everyone).rstrip("\n")
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb)
open(cover, "w").write(s)
PY
rm -f "$out"/*.cc
say "series: $(ls "$out" | wc -l) files in $out"

say "checkpatch --strict"
# spdxcheck.py wants the distribution's python3, with python3-ply and
# python3-git, not whatever python3 comes first in PATH.
export PATH=/usr/bin:$PATH
# checkpatch asks "does MAINTAINERS need updating?" of every patch that
# adds a file and does not touch MAINTAINERS, without reading it: the
# files of the later patches are in the directories Warden's entry lists
# from patch 4 on.  That question is answered below, file by file, by the
# tree's get_maintainer.pl.
checkpatch=(--strict --ignore FILE_PATH_CHANGES)
bad=0
# Once per patch, JOBS at a time; said in order.
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
		wait -n || true
	done
	(cd "$APPLY" && scripts/checkpatch.pl "${checkpatch[@]}" "$p" >"$p.checkpatch" 2>&1 || true) &
done
wait
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	summary=$(grep -E '^total:' "$p.checkpatch" || true)
	echo "  $(basename "$p"): $summary"
	if [[ "$summary" != "total: 0 errors, 0 warnings, 0 checks,"* ]]; then
		cat "$p.checkpatch"
		bad=1
	fi
	rm -f "$p.checkpatch"
done
[ "$bad" -eq 0 ] || die "checkpatch found problems"

say "every file the series adds has Warden's MAINTAINERS entry"
for f in $(git -C "$APPLY" diff --name-only --diff-filter=A base HEAD); do
	(cd "$APPLY" && scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats -f "$f" 2>/dev/null) | grep -q '^Warden Developers' ||
		{ echo "  $f: no Warden entry in MAINTAINERS"; bad=1; }
done
[ "$bad" -eq 0 ] || die "files outside Warden's MAINTAINERS entry"
echo "  $(git -C "$APPLY" diff --name-only --diff-filter=A base HEAD | wc -l) files, all Warden's"

say "git am onto the pristine tree"
if [ ! -d "$am" ] || ! git -C "$am" rev-parse -q --verify HEAD >/dev/null; then
	rm -rf "$am"
	git -C "$PRISTINE" worktree prune
	git -C "$PRISTINE" worktree add -q --detach "$am" base
fi
git -C "$am" am --abort >/dev/null 2>&1 || true
git -C "$am" checkout -q -f --detach base
git -C "$am" clean -q -fdx
git -C "$am" -c user.name="Warden harness" -c user.email=warden@example.org \
	am -q --whitespace=error $(ls "$out"/0*.patch | grep -v "$cover") || die "git am failed"
[ "$(git -C "$am" rev-parse HEAD^{tree})" = "$(git -C "$APPLY" rev-parse HEAD^{tree})" ] ||
	die "the series applied with git am differs from the tested tree"
echo "  applies, and gives the tested tree"

# step_tests: the guest's test commands for the patch checked out in $am:
# the LSM list and a planted link, and its KUnit suites.  The boot names
# the LSMs (step_lsm): the main kernel's CONFIG_LSM lists Warden first
# from its first patch on, whatever the series' default lists say.
step_lsm=lsm=yama,warden
step_tests() {
	local lsms suites flags=

	lsms=capability,yama
	[ -d "$am/security/warden" ] && lsms=capability,yama,warden
	[ -f "$am/security/warden/counters.c" ] || flags=" no-counters"
	[ -f "$am/security/warden/fs.c" ] || flags="$flags no-rules"
	suites=$(sed -n 's/^[[:space:]]*\.name = "\(warden_[a-z_]*\)",$/\1/p' \
		"$am"/security/warden/*_test.c 2>/dev/null | sort -u | tr '\n' ' ')
	echo "'sh /warden/lsm.sh series_step $lsms$flags'${suites:+ 'sh /warden/kunit.sh ${suites% }'}"
}

if [ "${SERIES_BUILD:-1}" = 1 ]; then
	[ -f "$BUILD/.config" ] || die "no $BUILD/.config (run: make kernel)"
	mkdir -p "$sbuild"
	n=0
	for c in $(git -C "$am" rev-list --reverse base..HEAD); do
		n=$((n + 1))
		[ -z "${SERIES_STEPS:-}" ] || [[ " $SERIES_STEPS " == *" $n "* ]] || continue
		git -C "$am" checkout -q --detach "$c"
		subject=$(git -C "$am" log -1 --format=%s "$c")
		say "patch $n: build: $subject"
		# The main kernel's options, and KUnit, so that a patch's KUnit
		# suites run at its boot.
		{ cat "$BUILD/.config"; echo CONFIG_KUNIT=y; echo CONFIG_SECURITY_WARDEN_KUNIT_TEST=y; } \
			> "$sbuild/.config"
		"${kmake[@]}" olddefconfig bzImage headers >"$sbuild/build.log" 2>&1 ||
			{ tail -n 40 "$sbuild/build.log"; die "build failed at $c"; }
		if [ -z "$(git -C "$am" diff --name-only "$c~1" "$c" -- . ':!Documentation')" ]; then
			echo "  documentation only: not booted again"
			continue
		fi
		# Programs of another patch must not pass for this one's.
		rm -rf "$sbuild/guest" "$sbuild/kselftest"
		say "patch $n: boot"
		TREE=$am BUILD=$sbuild BOOTS=step SERIES_STEP_TESTS="$(step_tests)" \
			KERNEL_ARGS="$step_lsm" "$REPO/harness/check.sh" ||
			die "the boot fails at $c"
	done
fi
say "series OK: $out"
