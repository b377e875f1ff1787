#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series as git commits, to change with git, and back to patches/.
#
# usage: edit.sh        (make edit) put the series as commits on branch
#                       "warden" of the worktree $EDIT
#        edit.sh save   (make save) write the commits of $EDIT, base..HEAD,
#                       back to patches/ with git format-patch, and the
#                       files they add to kernel/ ($SNAPSHOT_DIR)
#        edit.sh snapshot
#                       (make snapshot) write kernel/ again from the
#                       series applied in $APPLY (make tree), after a
#                       merge of patches/ for example
#
# kernel/ is the files the series adds, as they stand at its last patch,
# at their paths in the tree, for grep, ctags and a browser; files the
# series no longer adds are deleted.  It is written, never edited: the
# gate snapshot (env.sh: check_snapshot) fails when it differs.
#
# patches/ is the only source: each file is one commit, new files
# included, so a file can grow over several commits.  In $EDIT, change a
# commit with `git commit --fixup=<commit>` and `git rebase -i --autosquash
# base`, or reword, split and reorder with `git rebase -i base`; then save.
# edit refuses to drop commits of $EDIT that were never saved.
. "$(dirname "$0")/env.sh"

in_progress() {
	local gd

	gd=$(git -C "$1" rev-parse --git-dir)
	[ -d "$gd/rebase-merge" ] || [ -d "$gd/rebase-apply" ]
}

edit() {
	local tip

	tip=$(git -C "$APPLY" rev-parse HEAD)
	if git -C "$EDIT" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		in_progress "$EDIT" && die "$EDIT: a rebase or am is in progress; finish it first"
		[ -z "$(git -C "$EDIT" status --porcelain)" ] ||
			die "$EDIT has uncommitted changes: commit them and make save, or remove $EDIT"
		series_differs "$EDIT" >&2 &&
			die "$EDIT has commits that are not in patches/: make save, or remove $EDIT"
		git -C "$EDIT" checkout -q -B warden "$tip"
	else
		rm -rf "$EDIT"
		git -C "$PRISTINE" worktree prune
		git -C "$PRISTINE" worktree add -q -B warden "$EDIT" "$tip"
	fi
	say "the series is branch warden in $EDIT ($(git -C "$EDIT" rev-list --count base..HEAD) commits on base, KSRC=$KSRC)"
	echo "change it with git (commit --fixup, rebase -i --autosquash base), then: make save" >&2
}

save() {
	local tmp

	git -C "$EDIT" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
		die "no series to save in $EDIT (run: make edit)"
	in_progress "$EDIT" && die "$EDIT: a rebase or am is in progress; finish it first"
	[ -z "$(git -C "$EDIT" status --porcelain --untracked-files=no)" ] ||
		die "$EDIT has uncommitted changes: commit them first"
	tmp=$(mktemp -d)
	write_series "$EDIT" "$tmp"
	if [ -n "$BACKPORT_DIR" ]; then
		save_backport "$tmp"
	else
		rm -f "${SERIES_PATCHES[@]}"
		mv "$tmp"/*.patch "$SERIES_DIR"/
		say "wrote $(git -C "$EDIT" rev-list --count base..HEAD) patches to $SERIES_DIR (KSRC=$KSRC)"
	fi
	rmdir "$tmp"
	write_snapshot "$EDIT"
	git -C "$REPO" status --short -- "$SERIES_DIR" ${SNAPSHOT_DIR:+"$SNAPSHOT_DIR"} >&2
}

# save_backport DIR: of the patches in DIR, the series on $KSRC, only those
# that differ from patches/ go to $BACKPORT_DIR; patches/ is not changed.
save_backport() {
	local p n=0

	for p in "$SERIES_DIR"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$1/${p##*/}" ] ||
			die "the $KSRC series has no ${p##*/}: a backport keeps every patch of patches/, under its name"
	done
	mkdir -p "$BACKPORT_DIR"
	rm -f "$BACKPORT_DIR"/[0-9][0-9][0-9][0-9]-*.patch
	for p in "$1"/*.patch; do
		if backport_same "$p" "$SERIES_DIR/${p##*/}"; then
			rm "$p"
		else
			mv "$p" "$BACKPORT_DIR"/
			n=$((n + 1))
		fi
	done
	say "wrote $n patches of the $KSRC backport, those that differ from $SERIES_DIR, to $BACKPORT_DIR (KSRC=$KSRC)"
}

# write_snapshot REPO-DIR: $SNAPSHOT_DIR made anew from the files
# base..HEAD of REPO-DIR adds.
write_snapshot() {
	local tmp

	[ -n "$SNAPSHOT_DIR" ] || return 0
	case "$SNAPSHOT_DIR" in
	"$REPO"/?*) ;;
	*) die "SNAPSHOT_DIR=$SNAPSHOT_DIR is not a folder of $REPO" ;;
	esac
	tmp=$(mktemp -d "$(dirname "$SNAPSHOT_DIR")/.snapshot.XXXXXX")
	snapshot_write "$1" "$tmp/s" || { rm -rf "$tmp"; die "cannot write the files of $1"; }
	rm -rf "$SNAPSHOT_DIR"
	mv "$tmp/s" "$SNAPSHOT_DIR"
	rmdir "$tmp"
	say "wrote the $(find "$SNAPSHOT_DIR" -type f | wc -l) files the series adds to $SNAPSHOT_DIR"
}

snapshot() {
	[ -n "$SNAPSHOT_DIR" ] || die "no snapshot for the series of $SERIES_DIR"
	git -C "$APPLY" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
		die "no series applied in $APPLY (run: make tree)"
	! series_differs "$APPLY" >&2 ||
		die "$APPLY is not the series of $SERIES_DIR (above; run: make tree)"
	write_snapshot "$APPLY"
	git -C "$REPO" status --short -- "$SNAPSHOT_DIR" >&2
}

case "${1:-}" in
'') edit ;;
save) save ;;
snapshot) snapshot ;;
*) die "usage: edit.sh [save|snapshot]" ;;
esac
