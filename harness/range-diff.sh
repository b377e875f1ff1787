#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What changed in the series since the series at a commit of this
# repository, as git range-diff shows a reroll (make range-diff).
#
# usage: range-diff.sh COMMIT [GIT-RANGE-DIFF-OPTION...]
#
# Both versions are applied on base in scratch worktrees of $PRISTINE,
# with tree.sh's am_series (the harness's identity, the authors' dates):
# the old one, the patches of COMMIT:patches/ (SERIES_DIR, as git show
# has them), in $WARDEN_CACHE/range-diff/old; the new one, patches/ as
# it is in the working tree, in range-diff/new.  Then
# git range-diff base..old base..new: each patch of the new series paired
# with its old version, "=" when unchanged, "!" with the diff of the two
# diffs (commit messages included) when changed, "<" dropped, ">" added.
# The worktrees are kept, so that the next run checks out only what moved.
. "$(dirname "$0")/tree.sh"

usage() {
	echo "usage: make range-diff SINCE=<commit>  (harness/range-diff.sh COMMIT [OPTION...])" >&2
	echo "  what changed in the series (${SERIES_DIR#"$REPO"/}/) since the series at COMMIT" >&2
	echo "  of this repository, as git range-diff shows it; OPTIONs go to git range-diff" >&2
	exit 2
}

since=${1:-}
[ $# -gt 0 ] && shift
[ -n "$since" ] || usage
commit=$(git -C "$REPO" rev-parse -q --verify "$since^{commit}" 2>/dev/null) ||
	{ echo "warden: '$since' is not a commit of $REPO" >&2; usage; }
dir=${SERIES_DIR#"$REPO"/}
[ "$dir" != "$SERIES_DIR" ] || die "the series, $SERIES_DIR, is not in $REPO"
mapfile -t old_names < <(git -C "$REPO" ls-tree --name-only "$commit" -- "$dir/" |
	grep -E '/[0-9]{4}-[^/]*\.patch$' || true)
[ ${#old_names[@]} -gt 0 ] ||
	{ echo "warden: no series in $dir/ at $since ($(git -C "$REPO" log -1 --format='%h %s' "$commit"))" >&2; usage; }
[ ${#SERIES_PATCHES[@]} -gt 0 ] || die "no series in $SERIES_DIR"

work=$WARDEN_CACHE/range-diff$KSRC_DIRS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old"
for f in "${old_names[@]}"; do
	git -C "$REPO" show "$commit:$f" > "$tmp/old/${f##*/}"
done

# The pristine tree is made under the cache's lock, as tree.sh makes it,
# and held while the two worktrees of it are used.
mkdir -p "$WARDEN_CACHE" "$work"
cache_lock
check_version
make_pristine
say "the series at $(git -C "$REPO" log -1 --format='%h (%cd) %s' --date=short "$commit"): ${#old_names[@]} patches"
old=$(am_series "$work/old" "$tmp/old"/*.patch) || die "the series at $since does not apply on base"
say "the series in $dir/: ${#SERIES_PATCHES[@]} patches"
new=$(am_series "$work/new" "${SERIES_PATCHES[@]}") || die "the series in $dir/ does not apply on base"
cache_unlock
git -C "$PRISTINE" range-diff "$@" "base..$old" "base..$new"
