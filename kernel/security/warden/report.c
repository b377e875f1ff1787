// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - What happens when a rule refuses
 *
 * An EACCES that nobody can explain gets a protection switched off, so
 * every refusal is counted and says which rule refused, whom and what,
 * and which setting would allow it, in the kernel log and to audit.  A
 * rule in complain mode goes through the same steps and then allows.
 *
 * The log is ratelimited: one user must not be able to flood it by
 * retrying a denied lookup.  What the ratelimit drops is counted and said
 * in the next line, or when the flood is over.
 */

#include <linux/atomic.h>
#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>

#include "common.h"
#include "counters.h"
#include "cred.h"
#include "report.h"
#include "settings.h"

struct warden_rule_report {
	const char *op;
	const char *audit_op;
	const char *owner_key;
	int audit_type;
	bool has_dir;
};

static const struct warden_rule_report warden_rule_reports[] = {
	[WARDEN_RULE_STICKY_SYMLINKS] = {
		.op = "follow",
		.audit_op = "follow_link",
		.owner_key = "link_uid",
		.audit_type = AUDIT_ANOM_LINK,
		.has_dir = true,
	},
	[WARDEN_RULE_NONACCESS_HARDLINKS] = {
		.op = "link",
		.audit_op = "linkat",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_LINK,
	},
	[WARDEN_RULE_FIFOS] = {
		.op = "open_creat",
		.audit_op = "sticky_create_fifo",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_CREAT,
		.has_dir = true,
	},
	[WARDEN_RULE_REGULAR] = {
		.op = "open_creat",
		.audit_op = "sticky_create_regular",
		.owner_key = "file_uid",
		.audit_type = AUDIT_ANOM_CREAT,
		.has_dir = true,
	},
};

static const char *const warden_verdicts[] = {
	[WARDEN_DENIED] = "denied",
	[WARDEN_WOULD_DENY] = "would_deny",
};

/*
 * Where the level that refused came from: the process's own policy when
 * it refuses (the global level may refuse too), or else the global level.
 */
static const char *const warden_sources[] = {
	[false] = "global",
	[true] = "process",
};

static const char *const warden_audit_modes[] = {
	[WARDEN_DENIED] = "enforce",
	[WARDEN_WOULD_DENY] = "complain",
};

/* Our own message says what was dropped, with our prefix. */
static struct ratelimit_state warden_log_ratelimit =
	RATELIMIT_STATE_INIT_FLAGS(warden_log_ratelimit,
				   DEFAULT_RATELIMIT_INTERVAL,
				   DEFAULT_RATELIMIT_BURST,
				   RATELIMIT_MSG_ON_RELEASE);

static atomic_long_t warden_log_suppressed = ATOMIC_LONG_INIT(0);

static void log_suppressed(void)
{
	const long n = atomic_long_xchg(&warden_log_suppressed, 0);

	if (n)
		pr_notice("%ld reports suppressed (ratelimit)\n", n);
}

static void log_suppressed_work(struct work_struct *const work)
{
	log_suppressed();
}

static DECLARE_DELAYED_WORK(warden_log_suppressed_work, log_suppressed_work);

/*
 * Whether a report may be logged now.  A dropped one is counted, and the
 * count is logged before the next report, or one interval later if the
 * flood stopped, so that no flood goes unsaid.
 *
 * Context: Any context.
 */
static bool may_log(void)
{
	if (!__ratelimit(&warden_log_ratelimit)) {
		atomic_long_inc(&warden_log_suppressed);
		schedule_delayed_work(&warden_log_suppressed_work,
				      DEFAULT_RATELIMIT_INTERVAL);
		return false;
	}
	log_suppressed();
	return true;
}

/*
 * Like the audit code, copy a comm without its task's lock: a concurrent
 * rename can at worst mix two names, never lose the final NUL.
 */
static void copy_comm(char *const comm, const struct task_struct *const task)
{
	memcpy(comm, task->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = '\0';
}

/* The parent of the current task, whose program most likely ran it. */
static pid_t current_parent(char *const comm)
{
	struct task_struct *parent;
	pid_t pid;

	rcu_read_lock();
	parent = rcu_dereference(current->real_parent);
	pid = task_tgid_nr(parent);
	copy_comm(comm, parent);
	rcu_read_unlock();
	return pid;
}

static void log_denial(const struct warden_rule_report *report,
		       const struct warden_denial *denial,
		       const enum warden_verdict verdict, const bool by_process)
{
	char comm[TASK_COMM_LEN], pcomm[TASK_COMM_LEN];
	char dir[sizeof(" dir_uid=4294967295 dir_mode=7777")] = "";
	char *buf, *pathname;
	pid_t ppid;

	if (!may_log())
		return;

	buf = __getname();
	pathname = buf ? d_path(denial->path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);
	if (report->has_dir)
		snprintf(dir, sizeof(dir), " dir_uid=%u dir_mode=%04o",
			 from_kuid(&init_user_ns, denial->dir_owner),
			 denial->dir_mode & 07777);
	ppid = current_parent(pcomm);
	pr_notice("rule=%s verdict=%s op=%s path=\"%s\" %s=%u%s comm=\"%s\" pid=%d fsuid=%u uid=%u ppid=%d pcomm=\"%s\" knob=kernel.warden.%s allowed_at=%d source=%s\n",
		  warden_rule_name(denial->rule), warden_verdicts[verdict],
		  report->op, IS_ERR(pathname) ? "?" : pathname,
		  report->owner_key, from_kuid(&init_user_ns, denial->owner),
		  dir, get_task_comm(comm, current), task_pid_nr(current),
		  from_kuid(&init_user_ns, current_fsuid()),
		  from_kuid(&init_user_ns, current_uid()), ppid, pcomm,
		  warden_rule_name(denial->rule), denial->allowed_at,
		  warden_sources[by_process]);
	if (buf)
		__putname(buf);
}

/*
 * Unlike audit_log_path_denied(), this does not wait for an audit rule to
 * be loaded: a denial by Warden is an event of its own, like an AVC.
 */
static void audit_denial(const struct warden_rule_report *report,
			 const struct warden_denial *denial,
			 const enum warden_verdict verdict, const bool by_process)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;

	ab = audit_log_start(audit_context(), GFP_KERNEL, report->audit_type);
	if (!ab)
		return;
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=%s rule=%s mode=%s",
			 report->audit_op, warden_rule_name(denial->rule),
			 warden_audit_modes[verdict]);
	audit_log_task_info(ab);
	audit_log_d_path(ab, " path=", denial->path);
	audit_log_format(ab, " %s=%u res=%d source=%s", report->owner_key,
			 from_kuid(&init_user_ns, denial->owner),
			 verdict == WARDEN_WOULD_DENY, warden_sources[by_process]);
	audit_log_end(ab);
}

/*
 * Whether the process's own policy refuses the access: a higher level
 * refuses everything a lower one does, so it does when the process's
 * level is above the highest level that allows it.
 */
static bool is_refused_by_process(const int process_level,
				  const int allowed_at)
{
	return process_level > allowed_at;
}

/*
 * Complain mode is how an administrator tries a global level: it must not
 * weaken a sandbox, so what the process's own policy refuses is refused.
 */
static enum warden_verdict verdict_of(const enum warden_rule rule,
				      const bool by_process)
{
	if (by_process)
		return WARDEN_DENIED;
	return warden_complains(rule) ? WARDEN_WOULD_DENY : WARDEN_DENIED;
}

/**
 * warden_refuse - Count, log and audit what a filesystem rule refuses
 * @denial: What the rule refuses.
 * @err: The error the access fails with if the rule enforces.
 *
 * The current task is the one refused: its policy says whether the
 * refusal is its own, which always enforces.
 *
 * Context: Process context, may sleep: never call it from an RCU walk.
 *
 * Return: @err, or 0 if the rule is in complain mode and the process's
 * own policy allows the access.
 */
int warden_refuse(const struct warden_denial *denial, const int err)
{
	const struct warden_rule_report *report =
		&warden_rule_reports[denial->rule];
	const bool by_process =
		is_refused_by_process(warden_current_level(denial->rule),
				      denial->allowed_at);
	const enum warden_verdict verdict = verdict_of(denial->rule, by_process);

	warden_count(denial->rule, verdict);
	log_denial(report, denial, verdict, by_process);
	audit_denial(report, denial, verdict, by_process);
	return verdict == WARDEN_DENIED ? err : 0;
}

/* What a ptrace report needs, copied while the hook still holds its locks. */
struct warden_ptrace_report {
	struct callback_head work;
	enum warden_ptrace_op op;
	enum warden_verdict verdict;
	bool by_process;
	int scope;
	int allowed_at;
	pid_t tracer_pid;
	pid_t target_pid;
	pid_t ppid;
	uid_t tracer_uid;
	uid_t target_uid;
	char tracer_comm[TASK_COMM_LEN];
	char target_comm[TASK_COMM_LEN];
	char pcomm[TASK_COMM_LEN];
};

static const char *const warden_ptrace_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "attach",
	[WARDEN_PTRACE_TRACEME] = "traceme",
};

static const char *const warden_ptrace_audit_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "ptrace_attach",
	[WARDEN_PTRACE_TRACEME] = "ptrace_traceme",
};

static void log_ptrace_denial(const struct warden_ptrace_report *report)
{
	if (!may_log())
		return;

	pr_notice("rule=ptrace_scope verdict=%s op=%s tracer_comm=\"%s\" tracer_pid=%d target_comm=\"%s\" target_pid=%d scope=%d tracer_uid=%u target_uid=%u ppid=%d pcomm=\"%s\" knob=kernel.warden.ptrace_scope allowed_at=%d source=%s\n",
		  warden_verdicts[report->verdict],
		  warden_ptrace_ops[report->op], report->tracer_comm,
		  report->tracer_pid, report->target_comm, report->target_pid,
		  report->scope, report->tracer_uid, report->target_uid,
		  report->ppid, report->pcomm, report->allowed_at,
		  warden_sources[report->by_process]);
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
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=%s rule=ptrace_scope mode=%s",
			 warden_ptrace_audit_ops[report->op],
			 warden_audit_modes[report->verdict]);
	if (!atomic)
		audit_log_task_info(ab);
	audit_log_format(ab, " tracer_pid=%d tracer_comm=", report->tracer_pid);
	audit_log_untrustedstring(ab, report->tracer_comm);
	audit_log_format(ab, " target_pid=%d target_comm=", report->target_pid);
	audit_log_untrustedstring(ab, report->target_comm);
	audit_log_format(ab, " scope=%d res=%d source=%s", report->scope,
			 report->verdict == WARDEN_WOULD_DENY,
			 warden_sources[report->by_process]);
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

static uid_t task_init_uid(const struct task_struct *const task)
{
	return from_kuid(&init_user_ns, task_uid(task));
}

/*
 * The ptrace hooks run under task_lock() or tasklist_lock: the report is
 * copied now and written when the current task returns to user space, as
 * Yama does.  A kernel thread never gets there, and an exiting task can
 * no longer queue work: theirs is written at once, without the fields
 * that would sleep.
 */
static void report_ptrace_denial(const struct warden_ptrace_denial *denial,
				 const enum warden_verdict verdict,
				 const bool by_process)
{
	struct warden_ptrace_report *report;

	report = kzalloc(sizeof(*report), GFP_ATOMIC);
	if (!report)
		return;
	report->op = denial->op;
	report->verdict = verdict;
	report->by_process = by_process;
	report->scope = denial->scope;
	report->allowed_at = denial->allowed_at;
	report->tracer_pid = denial->tracer->pid;
	report->target_pid = denial->target->pid;
	report->tracer_uid = task_init_uid(denial->tracer);
	report->target_uid = task_init_uid(denial->target);
	report->ppid = current_parent(report->pcomm);
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

/**
 * warden_refuse_ptrace - Count, log and audit what ptrace_scope refuses
 * @denial: What the rule refuses.
 * @err: The error the access fails with if the rule enforces.
 *
 * Context: Any context; does not sleep.
 *
 * Return: @err, or 0 if the rule is in complain mode and neither
 * process's own policy refuses the access.
 */
int warden_refuse_ptrace(const struct warden_ptrace_denial *denial,
			 const int err)
{
	const bool by_process = is_refused_by_process(denial->process_scope,
						      denial->allowed_at);
	const enum warden_verdict verdict =
		verdict_of(WARDEN_RULE_PTRACE_SCOPE, by_process);

	if (!denial->quiet) {
		warden_count(WARDEN_RULE_PTRACE_SCOPE, verdict);
		report_ptrace_denial(denial, verdict, by_process);
	}
	return verdict == WARDEN_DENIED ? err : 0;
}
