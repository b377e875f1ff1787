#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make $TREE the pristine kernel tree with our series applied, as commits.
# KSRC (env.sh) picks the tree; each has its own $PRISTINE, $APPLY, $TREE.
#
# $PRISTINE is a git repository whose first commit, tagged "base", is the
# unpacked linux-source tarball.  The series, patches/[0-9]*.patch as git
# format-patch wrote them, is applied with git am in the $APPLY worktree; $TREE, where the kernel is built (out of tree, in $BUILD), is
# only moved to the result, so files that did not change keep their
# timestamps and the build stays incremental.  Each step is reused only
# when it is provably the same: the tarball's checksum for the base, the
# git tree hash of the applied series for $TREE.
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"

git_q() {
	git -c advice.detachedHead=false -c core.compression=1 \
		-c user.name="Warden harness" -c user.email=warden@example.org \
		-C "$@"
}

is_clean() {
	[ -z "$(git -C "$1" status --porcelain --ignored 2>/dev/null)" ]
}

check_version() {
	local installed

	installed=$(ksrc_version) && [ -n "$installed" ] ||
		die "$KSRC_PACKAGE is not there (run: make deps KSRC=$KSRC)"
	[ -f "$KSRC_TARBALL" ] || die "no kernel tarball at $KSRC_TARBALL"
	if [ "$installed" != "$TESTED_ON" ]; then
		echo "warden: WARNING: the series was tested on $KSRC_PACKAGE ${TESTED_ON:-(never)}," \
			"the installed one is $installed" >&2
	fi
}

# No "git gc --auto" in the cache's repositories: after the tarball's
# 90,000 loose objects, every git command would start one, a repack of
# the whole kernel in the background, and that daemon would inherit the
# cache's lock (fd 9) and hold up the build for minutes.
no_auto_gc() {
	[ "$(git -C "$PRISTINE" config gc.auto)" = 0 ] || git -C "$PRISTINE" config gc.auto 0
}

make_pristine() {
	local sum tmp

	sum=$(sha256sum "$KSRC_TARBALL" | cut -d' ' -f1)
	if [ -d "$PRISTINE/.git" ] &&
	   [ "$(git -C "$PRISTINE" tag -l base --format='%(contents:body)')" = "tarball-sha256: $sum" ] &&
	   is_clean "$PRISTINE"; then
		no_auto_gc
		return
	fi
	say "unpacking $KSRC_TARBALL into $PRISTINE"
	rm -rf "$PRISTINE" "$APPLY" "$TREE"
	git -C "$WARDEN_CACHE" worktree prune 2>/dev/null || true
	tmp=$(mktemp -d "$WARDEN_CACHE/unpack.XXXXXX")
	tar -xf "$KSRC_TARBALL" -C "$tmp"
	mv "$tmp"/* "$PRISTINE"
	rmdir "$tmp"
	git_q "$PRISTINE" init -q
	no_auto_gc
	git_q "$PRISTINE" add -f -A .
	git_q "$PRISTINE" commit -q -m "$(basename "$KSRC_TARBALL") as packaged"
	git_q "$PRISTINE" tag -a base -m "base" -m "tarball-sha256: $sum"
}

add_worktree() {
	if [ ! -d "$1" ] || ! git -C "$1" rev-parse -q --verify HEAD >/dev/null ||
	   [ "$(git -C "$1" rev-parse --git-common-dir)" != "$PRISTINE/.git" ]; then
		rm -rf "$1"
		git_q "$PRISTINE" worktree prune
		git_q "$PRISTINE" worktree add -q --detach "$1" base
	fi
}

# am_series WORKTREE PATCH...: the patches applied on base in WORKTREE,
# a worktree of $PRISTINE (made if need be); print the commit at the tip.
# git am with the harness's identity and the authors' dates gives the same
# commits from the same patches, every time.
am_series() {
	local wt=$1
	shift
	[ $# -gt 0 ] || die "no series to apply in $wt"
	add_worktree "$wt"
	git_q "$wt" am --abort >/dev/null 2>&1 || true
	git_q "$wt" reset -q --hard base
	git_q "$wt" clean -q -fdx
	git_q "$wt" am -q --whitespace=error --committer-date-is-author-date \
		"$@" >&2 ||
		die "series: a patch does not apply (git am said why, above)"
	git -C "$wt" rev-parse HEAD
}

# Print the commit at the tip of the applied series, patches/ in $APPLY.
apply_series() {
	[ ${#SERIES_PATCHES[@]} -gt 0 ] || die "no series in $SERIES_DIR"
	am_series "$APPLY" "${SERIES_PATCHES[@]}"
}

# Sourced (range-diff.sh), tree.sh only defines the functions above.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

mkdir -p "$WARDEN_CACHE"
check_version
make_pristine
tip=$(apply_series)
add_worktree "$TREE"
if [ "$(git -C "$TREE" rev-parse HEAD^{tree})" != "$(git -C "$APPLY" rev-parse "$tip^{tree}")" ] ||
   ! is_clean "$TREE"; then
	say "moving $TREE to the series"
	git_q "$TREE" checkout -q -f --detach "$tip"
	git_q "$TREE" clean -q -fdx
fi
is_clean "$TREE" || die "$TREE is not clean"
