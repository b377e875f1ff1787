/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - The rules and their levels
 */

#ifndef _SECURITY_WARDEN_LIMITS_H
#define _SECURITY_WARDEN_LIMITS_H

#include <linux/types.h>

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

/**
 * struct warden_rule_info - What does not change of a rule
 * @name: Its name, and that of the sysctl and boot parameter of its level.
 * @kconfig_level: Its level at boot, before any boot parameter.
 * @max: Its highest level; the lowest is 0.
 * @cap: The capability a sysctl write of its settings needs in the
 *       initial user namespace.
 *
 * Generated from rule_defs.h, in rules.c.
 */
struct warden_rule_info {
	const char *name;
	int kconfig_level;
	int max;
	int cap;
};

extern const struct warden_rule_info warden_rules[WARDEN_RULE_COUNT];

/**
 * warden_rule_name - The name of a rule, and of the sysctl of its level
 * @rule: The rule.
 *
 * Return: The name, e.g. "protected_regular".
 */
static inline const char *warden_rule_name(const enum warden_rule rule)
{
	return warden_rules[rule].name;
}

/* What a refusal comes to: refused, or only reported (complain mode). */
enum warden_verdict {
	WARDEN_DENIED,
	WARDEN_WOULD_DENY,
	WARDEN_VERDICT_COUNT
};

/**
 * struct warden_decision - What a rule decided of an access it refuses
 * @verdict: Whether the access is refused, or only reported.
 * @by_process: Whether the process's own policy refuses it; complain
 *              mode never lets that through.
 * @allowed_at: The highest level of the rule that would allow it.
 */
struct warden_decision {
	enum warden_verdict verdict;
	bool by_process;
	int allowed_at;
};

#endif /* _SECURITY_WARDEN_LIMITS_H */
