/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Settings under /proc/sys/kernel/warden
 */

#ifndef _SECURITY_WARDEN_SYSCTL_H
#define _SECURITY_WARDEN_SYSCTL_H

#include <linux/init.h>

#ifdef CONFIG_SYSCTL

int __init warden_init_sysctl(void);

#else /* !CONFIG_SYSCTL */

static inline int warden_init_sysctl(void)
{
	return 0;
}

#endif /* CONFIG_SYSCTL */

#endif /* _SECURITY_WARDEN_SYSCTL_H */
