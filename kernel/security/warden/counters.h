/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Counters of denials
 */

#ifndef _SECURITY_WARDEN_COUNTERS_H
#define _SECURITY_WARDEN_COUNTERS_H

#include <linux/init.h>
#include <linux/types.h>

#include "limits.h"

void warden_count(enum warden_rule rule, enum warden_verdict verdict);
int __init warden_init_securityfs(void);

#endif /* _SECURITY_WARDEN_COUNTERS_H */
