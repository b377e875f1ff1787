/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Common name and log prefix
 */

#ifndef _SECURITY_WARDEN_COMMON_H
#define _SECURITY_WARDEN_COMMON_H

#define WARDEN_NAME "warden"

#ifdef pr_fmt
#undef pr_fmt
#endif

#define pr_fmt(fmt) WARDEN_NAME ": " fmt

#endif /* _SECURITY_WARDEN_COMMON_H */
