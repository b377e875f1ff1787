/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Levels of each rule
 */

#ifndef _SECURITY_WARDEN_LIMITS_H
#define _SECURITY_WARDEN_LIMITS_H

/* The rules, in the order of their ids, counters and reports. */
enum warden_rule {
	WARDEN_RULE_STICKY_SYMLINKS,
	WARDEN_RULE_NONACCESS_HARDLINKS,
	WARDEN_RULE_FIFOS,
	WARDEN_RULE_REGULAR,
	WARDEN_RULE_PTRACE_SCOPE,
	WARDEN_RULE_COUNT
};

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

/* protected_nonaccess_hardlinks */
#define WARDEN_HARDLINKS_ON	1

/* kernel.warden.ptrace_scope, the same values as kernel.yama.ptrace_scope */
#define WARDEN_PTRACE_CLASSIC		0
#define WARDEN_PTRACE_RELATIONAL	1
#define WARDEN_PTRACE_CAPABILITY	2
#define WARDEN_PTRACE_NO_ATTACH		3

#endif /* _SECURITY_WARDEN_LIMITS_H */
