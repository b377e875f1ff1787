// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Registration
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "common.h"
#include "cred.h"
#include "fs.h"
#include "policy.h"
#include "ptrace.h"
#include "report.h"
#include "settings.h"
#include "setup.h"

const struct lsm_id warden_lsmid = {
	.name = WARDEN_NAME,
	.id = LSM_ID_WARDEN,
};

struct lsm_blob_sizes warden_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct warden_cred_security),
	.lbs_task = sizeof(struct warden_task_security),
};

/* Whether the LSM list named Warden, for what initcalls add later. */
bool warden_enabled __ro_after_init;

static int __init warden_init(void)
{
	warden_enabled = true;
	warden_init_reports();
	warden_add_cred_hooks();
	warden_add_fs_hooks();
	warden_add_ptrace_hooks();
	warden_add_policy_hooks();
	warden_init_sysctl();
	pr_info("Up and running.\n");
	return 0;
}

DEFINE_LSM(warden) = {
	.name = WARDEN_NAME,
	.init = warden_init,
	.blobs = &warden_blob_sizes,
};
