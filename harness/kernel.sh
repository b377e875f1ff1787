#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tree, then the kernel: tree.sh, then build.sh, under the cache's lock.
#
# tree.sh applies the whole series again (about 25 s on a busy machine) to
# find that nothing changed.  It is skipped when nothing it could read
# did: every file of this repository but the guest's scripts, the config
# fragments, wardenctl, the bench, examples and documents (a superset of
# what it applies and runs; not kernel/, which patches/ makes), the
# kernel tarball and its package's version, and $TREE itself, still at the
# git tree it left and without changes.  The stamp is written only after
# it succeeded.
. "$(dirname "$0")/env.sh"

stamp=$WARDEN_CACHE/.warden-tree-stamp$KSRC_DIRS

tree_inputs() {
	git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 || return 1
	git -C "$TREE" diff --quiet HEAD 2>/dev/null || return 1
	{
		(cd "$REPO" && git ls-files -z -c -o --exclude-standard -- . \
			':!harness/guest' ':!harness/config' ':!wardenctl' ':!bench' \
			':!examples' ':!kernel' ':!*.md' | sort -z |
			xargs -0 -r sha256sum 2>&1) || true
		stat -c '%n %s %Y' "$KSRC_TARBALL"
		ksrc_version; echo
		git -C "$TREE" rev-parse HEAD^{tree}
	} | sha256sum | cut -d' ' -f1
}

cache_lock
if inputs=$(tree_inputs) && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ]; then
	say "tree: unchanged"
else
	rm -f "$stamp"
	"$REPO/harness/tree.sh"
	inputs=$(tree_inputs) && echo "$inputs" > "$stamp"
fi
# Clean, at this git tree, as both ways left it: build.sh need not look
# again.
WARDEN_TREE_ID=$(git -C "$TREE" rev-parse HEAD^{tree}) "$REPO/harness/build.sh"
