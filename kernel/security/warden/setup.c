// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Registration
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "common.h"
#include "counters.h"
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

static int __init warden_init(void)
{
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
	.id = &warden_lsmid,
	.init = warden_init,
	.blobs = &warden_blob_sizes,
	/* Run by the LSM framework, and only when Warden is enabled. */
	.initcall_fs = warden_init_securityfs,
	.initcall_late = warden_report_boot_settings,
};
