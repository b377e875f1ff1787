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

#endif /* _SECURITY_WARDEN_LIMITS_H */
