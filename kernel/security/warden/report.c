// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Reports of denials
 *
 * An EACCES that nobody can explain gets a protection switched off, so
 * every denial says which rule refused, whom and what, in the kernel log
 * and to audit.  The log is ratelimited: one user must not be able to
 * flood it by retrying a denied lookup.
 */

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/task_work.h>

#include "common.h"
#include "report.h"

struct warden_rule_report {
	const char *name;
	const char *op;
	const char *audit_op;
	const char *owner_key;
	int audit_type;
	bool has_dir;
};

static const struct warden_rule_report warden_rule_reports[] = {
	[WARDEN_RULE_STICKY_SYMLINKS] = {
		.name = "protected_sticky_symlinks",
		.op = "follow",
		.audit_op = "follow_link",
		.owner_key = "link_uid",
		.audit_type = AUDIT_ANOM_LINK,
		.has_dir = true,
	},
	[WARDEN_RULE_NONACCESS_HARDLINKS] = {
		.name = "protected_nonaccess_hardlinks",
		.op = "link",
		.audit_op = "linkat",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_LINK,
	},
	[WARDEN_RULE_FIFOS] = {
		.name = "protected_fifos",
		.op = "open_creat",
		.audit_op = "sticky_create_fifo",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_CREAT,
		.has_dir = true,
	},
	[WARDEN_RULE_REGULAR] = {
		.name = "protected_regular",
		.op = "open_creat",
		.audit_op = "sticky_create_regular",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_CREAT,
		.has_dir = true,
	},
};

static DEFINE_RATELIMIT_STATE(warden_log_ratelimit, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

static void log_denial(const struct warden_rule_report *report,
		       const struct warden_denial *denial)
{
	char comm[TASK_COMM_LEN];
	char dir[sizeof(" dir_uid=4294967295 dir_mode=7777")] = "";
	char *buf, *pathname;

	if (!__ratelimit(&warden_log_ratelimit))
		return;

	buf = __getname();
	pathname = buf ? d_path(denial->path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	if (report->has_dir)
		snprintf(dir, sizeof(dir), " dir_uid=%u dir_mode=%04o",
			 from_kuid(&init_user_ns, denial->dir_owner),
			 denial->dir_mode & 07777);
	pr_notice("rule=%s verdict=denied op=%s path=\"%s\" %s=%u%s comm=\"%s\" pid=%d fsuid=%u\n",
		  report->name, report->op,
		  IS_ERR(pathname) ? "?" : pathname, report->owner_key,
		  from_kuid(&init_user_ns, denial->owner), dir,
		  get_task_comm(comm, current), task_pid_nr(current),
		  from_kuid(&init_user_ns, current_fsuid()));
	if (buf)
		__putname(buf);
}

/*
 * Unlike audit_log_path_denied(), this does not wait for an audit rule to
 * be loaded: a denial by Warden is an event of its own, like an AVC.
 */
static void audit_denial(const struct warden_rule_report *report,
			 const struct warden_denial *denial)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;

	ab = audit_log_start(audit_context(), GFP_KERNEL, report->audit_type);
	if (!ab)
		return;
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=%s rule=%s",
			 report->audit_op, report->name);
	audit_log_task_info(ab);
	audit_log_d_path(ab, " path=", denial->path);
	audit_log_format(ab, " %s=%u res=0", report->owner_key,
			 from_kuid(&init_user_ns, denial->owner));
	audit_log_end(ab);
}

/**
 * warden_report_denial - Log and audit a denial
 * @denial: What was refused.
 *
 * Context: Process context, may sleep: never call it from an RCU walk.
 */
void warden_report_denial(const struct warden_denial *denial)
{
	const struct warden_rule_report *report =
		&warden_rule_reports[denial->rule];

	log_denial(report, denial);
	audit_denial(report, denial);
}

/* What a ptrace report needs, copied while the hook still holds its locks. */
struct warden_ptrace_report {
	struct callback_head work;
	enum warden_ptrace_op op;
	int scope;
	pid_t tracer_pid;
	pid_t target_pid;
	char tracer_comm[TASK_COMM_LEN];
	char target_comm[TASK_COMM_LEN];
};

static const char *const warden_ptrace_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "attach",
	[WARDEN_PTRACE_TRACEME] = "traceme",
};

static const char *const warden_ptrace_audit_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "ptrace_attach",
	[WARDEN_PTRACE_TRACEME] = "ptrace_traceme",
};

/*
 * Like the audit code, copy a comm without its task's lock: a concurrent
 * rename can at worst mix two names, never lose the final NUL.
 */
static void copy_comm(char *const comm, const struct task_struct *const task)
{
	memcpy(comm, task->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

static void log_ptrace_denial(const struct warden_ptrace_report *report)
{
	if (!__ratelimit(&warden_log_ratelimit))
		return;

	pr_notice("rule=ptrace_scope verdict=denied op=%s tracer_comm=\"%s\" tracer_pid=%d target_comm=\"%s\" target_pid=%d scope=%d\n",
		  warden_ptrace_ops[report->op], report->tracer_comm,
		  report->tracer_pid, report->target_comm, report->target_pid,
		  report->scope);
}

/*
 * An AVC record, as the other LSMs write for a ptrace they refuse.  The
 * subject's own fields need to sleep: @atomic leaves them out.
 */
static void audit_ptrace_denial(const struct warden_ptrace_report *report,
				const bool atomic)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;

	ab = audit_log_start(audit_context(), atomic ? GFP_ATOMIC : GFP_KERNEL,
			     AUDIT_AVC);
	if (!ab)
		return;
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=%s rule=ptrace_scope",
			 warden_ptrace_audit_ops[report->op]);
	if (!atomic)
		audit_log_task_info(ab);
	audit_log_format(ab, " tracer_pid=%d tracer_comm=", report->tracer_pid);
	audit_log_untrustedstring(ab, report->tracer_comm);
	audit_log_format(ab, " target_pid=%d target_comm=", report->target_pid);
	audit_log_untrustedstring(ab, report->target_comm);
	audit_log_format(ab, " scope=%d res=0", report->scope);
	audit_log_end(ab);
}

static void report_ptrace_work(struct callback_head *const work)
{
	struct warden_ptrace_report *const report =
		container_of(work, struct warden_ptrace_report, work);

	log_ptrace_denial(report);
	audit_ptrace_denial(report, false);
	kfree(report);
}

/**
 * warden_report_ptrace_denial - Log and audit a ptrace denial
 * @denial: What was refused.
 *
 * The ptrace hooks run under task_lock() or tasklist_lock: the report is
 * copied now and written when the current task returns to user space, as
 * Yama does.  A kernel thread never gets there, and an exiting task can
 * no longer queue work: theirs is written at once, without the fields
 * that would sleep.
 *
 * Context: Any context; does not sleep.
 */
void warden_report_ptrace_denial(const struct warden_ptrace_denial *denial)
{
	struct warden_ptrace_report *report;

	report = kzalloc(sizeof(*report), GFP_ATOMIC);
	if (!report)
		return;
	report->op = denial->op;
	report->scope = denial->scope;
	report->tracer_pid = denial->tracer->pid;
	report->target_pid = denial->target->pid;
	copy_comm(report->tracer_comm, denial->tracer);
	copy_comm(report->target_comm, denial->target);

	if (!(current->flags & PF_KTHREAD)) {
		init_task_work(&report->work, report_ptrace_work);
		if (!task_work_add(current, &report->work, TWA_RESUME))
			return;
	}
	log_ptrace_denial(report);
	audit_ptrace_denial(report, true);
	kfree(report);
}
