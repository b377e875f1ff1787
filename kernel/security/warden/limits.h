/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - The rules and their levels
 */

#ifndef _SECURITY_WARDEN_LIMITS_H
#define _SECURITY_WARDEN_LIMITS_H

#define WARDEN_LEVEL_OFF	0

/*
 * Rules about shared sticky directories: protected_sticky_symlinks,
 * protected_fifos and protected_regular.  At level 1 a sticky directory is
 * shared when it is world-writable (and only the last component of a path
 * is checked for symlinks); at level 2 also when it is group-writable (and
 * every component is checked).
 */
#define WARDEN_STICKY_WORLD	1
#define WARDEN_STICKY_GROUP	2

/*
 * protected_symlink_owner: a symlink is followed only if root, the
 * follower or the owner of its target owns it.  Level 1 binds followers
 * whose fsuid is root; level 2 every follower.
 */
#define WARDEN_SYMLINK_OWNER_ROOT	1
#define WARDEN_SYMLINK_OWNER_ALL	2

/* protected_nonaccess_hardlinks */
#define WARDEN_HARDLINKS_ON	1

/* kernel.warden.ptrace_scope, the same values as kernel.yama.ptrace_scope */
#define WARDEN_PTRACE_CLASSIC		0
#define WARDEN_PTRACE_RELATIONAL	1
#define WARDEN_PTRACE_CAPABILITY	2
#define WARDEN_PTRACE_NO_ATTACH		3

/* The rules, in the order of rule_defs.h. */
#define WARDEN_RULE(ID, ...) WARDEN_RULE_##ID,
enum warden_rule {
#include "rule_defs.h"
	WARDEN_RULE_COUNT
};

#undef WARDEN_RULE

#endif /* _SECURITY_WARDEN_LIMITS_H */
