/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Per-process policies, in /proc/PID/attr/warden
 */

#ifndef _SECURITY_WARDEN_POLICY_H
#define _SECURITY_WARDEN_POLICY_H

#include <linux/init.h>

void __init warden_add_policy_hooks(void);

#endif /* _SECURITY_WARDEN_POLICY_H */
