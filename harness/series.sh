#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the upstream series and check it as a maintainer would.
#
# The series is the commits tree.sh made in $APPLY.  It is written with
# git format-patch and a cover letter to $SERIES_OUT, then: checkpatch
# --strict must find 0 errors and 0 warnings in every patch; git am must
# apply it onto the pristine tree and give exactly the tree we test; and
# the kernel must build at every patch (SERIES_BUILD=0 skips that).
. "$(dirname "$0")/env.sh"

out=${SERIES_OUT:-$WARDEN_CACHE/series}
am=$WARDEN_CACHE/am
sbuild=$WARDEN_CACHE/build-series
kmake=(make -C "$am" O="$sbuild" ARCH=x86_64 -j"$JOBS")
command -v ccache >/dev/null && kmake+=(CC="ccache gcc" HOSTCC="ccache gcc")

rm -rf "$out"
mkdir -p "$out"
git -C "$APPLY" format-patch -q --cover-letter --zero-commit \
	--base=base -o "$out" base..HEAD
cover=$(ls "$out"/0000-*.patch)
python3 - "$cover" "$REPO/patches/cover-letter" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, blurb = text.split("\n", 1)
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.strip())
open(cover, "w").write(s)
PY
say "series: $(ls "$out" | wc -l) files in $out"

say "checkpatch --strict"
# spdxcheck.py wants the distribution's python3, with python3-ply and
# python3-git, not whatever python3 comes first in PATH.
export PATH=/usr/bin:$PATH
bad=0
for p in "$out"/0*.patch; do
	[ "$p" = "$cover" ] && continue
	report=$(cd "$APPLY" && scripts/checkpatch.pl --strict --quiet "$p" || true)
	summary=$(cd "$APPLY" && scripts/checkpatch.pl --strict "$p" 2>/dev/null | grep -E '^total:' || true)
	echo "  $(basename "$p"): $summary"
	if [ -n "$report" ]; then
		echo "$report"
		bad=1
	fi
done
[ "$bad" -eq 0 ] || die "checkpatch found problems"

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

if [ "${SERIES_BUILD:-1}" = 1 ]; then
	[ -f "$BUILD/.config" ] || die "no $BUILD/.config (run: make kernel)"
	mkdir -p "$sbuild"
	for c in $(git -C "$am" rev-list --reverse base..HEAD); do
		git -C "$am" checkout -q --detach "$c"
		say "build at $(git -C "$am" log -1 --format=%s "$c")"
		cp "$BUILD/.config" "$sbuild/.config"
		"${kmake[@]}" olddefconfig bzImage >"$sbuild/build.log" 2>&1 ||
			{ tail -n 40 "$sbuild/build.log"; die "build failed at $c"; }
	done
fi
say "series OK: $out"
