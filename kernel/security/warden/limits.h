/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Levels of each rule
 */

#ifndef _SECURITY_WARDEN_LIMITS_H
#define _SECURITY_WARDEN_LIMITS_H

/* kernel.warden.protected_sticky_symlinks */
#define WARDEN_SYMLINKS_OFF		0
#define WARDEN_SYMLINKS_TRAILING	1
#define WARDEN_SYMLINKS_ALL		2

/* kernel.warden.ptrace_scope, the same values as kernel.yama.ptrace_scope */
#define WARDEN_PTRACE_CLASSIC		0
#define WARDEN_PTRACE_RELATIONAL	1
#define WARDEN_PTRACE_CAPABILITY	2
#define WARDEN_PTRACE_NO_ATTACH		3

#endif /* _SECURITY_WARDEN_LIMITS_H */
