/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Filesystem rules
 */

#ifndef _SECURITY_WARDEN_FS_H
#define _SECURITY_WARDEN_FS_H

#include <linux/init.h>

void __init warden_add_fs_hooks(void);

#endif /* _SECURITY_WARDEN_FS_H */
