/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Per-process policies, in the credentials
 */

#ifndef _SECURITY_WARDEN_CRED_H
#define _SECURITY_WARDEN_CRED_H

#include <linux/cred.h>
#include <linux/init.h>
#include <linux/types.h>

#include "limits.h"
#include "setup.h"

/**
 * struct warden_cred_security - Warden's part of a cred's security blob
 * @levels: The level each rule has at least for the tasks with these
 *          credentials, 0 when their process raised nothing.  Set only in
 *          new credentials, before commit_creds(), and never lowered:
 *          credentials are shared and immutable once committed, so a
 *          check reads it without a lock.  Copied to every new cred of
 *          the task and of its children (fork, clone, execve, keyctl).
 *
 * The policy is a byte per rule, smaller than a pointer to a refcounted
 * object would be: the cred that holds it is the refcounted, shared
 * object.
 */
struct warden_cred_security {
	u8 levels[WARDEN_RULE_COUNT];
};

static inline struct warden_cred_security *
warden_cred(const struct cred *const cred)
{
	return cred->security + warden_blob_sizes.lbs_cred;
}

/**
 * warden_cred_level - The level that a process policy sets for a rule
 * @cred: The credentials of the process, or of one of its threads.
 * @rule: The rule.
 *
 * Return: The level its policy raised the rule to, 0 if none.
 */
static inline int warden_cred_level(const struct cred *const cred,
				    const enum warden_rule rule)
{
	return warden_cred(cred)->levels[rule];
}

/**
 * warden_current_level - The level the current task's policy sets
 * @rule: The rule.
 *
 * Return: The level the current task's policy raised the rule to, 0 if
 * none.
 */
static inline int warden_current_level(const enum warden_rule rule)
{
	return warden_cred_level(current_cred(), rule);
}

void __init warden_add_cred_hooks(void);

#endif /* _SECURITY_WARDEN_CRED_H */
