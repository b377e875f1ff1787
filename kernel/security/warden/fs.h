/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Filesystem rules
 */

#ifndef _SECURITY_WARDEN_FS_H
#define _SECURITY_WARDEN_FS_H

#include <linux/cache.h>
#include <linux/init.h>

extern int warden_sticky_symlinks;
extern int warden_nonaccess_hardlinks;
extern int warden_fifos;
extern int warden_regular;

void __init warden_add_fs_hooks(void);

#endif /* _SECURITY_WARDEN_FS_H */
