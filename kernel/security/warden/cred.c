// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Per-process policies, in the credentials
 *
 * A process's policy lives in its credentials, so that it goes wherever
 * they go: to every thread created afterwards, to children on fork and
 * clone, through execve, and through keyctl(KEYCTL_SESSION_TO_PARENT).
 * Credentials are shared and refcounted: a child costs one copy of a
 * byte per rule, a check reads one byte more than the global level, and
 * there is no list to walk or to lock.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/string.h>

#include "common.h"
#include "cred.h"
#include "setup.h"

/**
 * hook_cred_transfer - Keep the policy in credentials built anew
 * @new: The credentials being built, from a blank blob.
 * @old: The credentials they replace.
 *
 * keyctl(KEYCTL_SESSION_TO_PARENT) builds the parent's new credentials
 * from cred_alloc_blank(): without this the policy would vanish.
 */
static void hook_cred_transfer(struct cred *const new,
			       const struct cred *const old)
{
	memcpy(warden_cred(new)->levels, warden_cred(old)->levels,
	       sizeof(warden_cred(new)->levels));
}

/**
 * hook_cred_prepare - Inherit the policy
 * @new: The new credentials, with a zeroed blob.
 * @old: The credentials they are made from.
 * @gfp: Unused: nothing is allocated.
 *
 * Return: 0.
 */
static int hook_cred_prepare(struct cred *const new,
			     const struct cred *const old, const gfp_t gfp)
{
	hook_cred_transfer(new, old);
	return 0;
}

static struct security_hook_list warden_cred_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, hook_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, hook_cred_transfer),
};

/**
 * warden_add_cred_hooks - Register the credential hooks
 */
void __init warden_add_cred_hooks(void)
{
	security_add_hooks(warden_cred_hooks, ARRAY_SIZE(warden_cred_hooks),
			   &warden_lsmid);
}
