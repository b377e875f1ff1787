/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Registration
 */

#ifndef _SECURITY_WARDEN_SETUP_H
#define _SECURITY_WARDEN_SETUP_H

#include <linux/lsm_hooks.h>
#include <linux/types.h>

extern const struct lsm_id warden_lsmid;
extern struct lsm_blob_sizes warden_blob_sizes;

#endif /* _SECURITY_WARDEN_SETUP_H */
