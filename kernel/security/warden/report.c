// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - What happens when a rule refuses
 *
 * An EACCES that nobody can explain gets a protection switched off, so
 * every refusal is counted and says which rule refused, whom and what,
 * and which setting would allow it, in the kernel log and to audit.  A
 * rule in complain mode goes through the same steps and then allows.
 *
 * A report is an interface that an attacker writes into: every name a
 * user chose is escaped, the fields that say what was decided come before
 * anything a user can make long, and the log is ratelimited per rule, so
 * that one user's flood neither fills the log nor hides another rule's
 * report.  What a ratelimit drops is counted and said.
 *
 * Every change of a setting is on the record too, with who made it: the
 * first thing an intruder with root does is switch a protection off.
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
#include <linux/string_helpers.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

#include "common.h"
#include "counters.h"
#include "cred.h"
#include "report.h"
#include "settings.h"

/*
 * How each filesystem rule reports.  The link rules write the record type
 * mainline's protected_symlinks and protected_hardlinks write,
 * AUDIT_ANOM_LINK, which the audit tools parse.  They parse no
 * AUDIT_ANOM_CREAT record (ausearch -p and -c never find one): the rules
 * about reopening files write an AVC, as the ptrace rule does, with
 * @avc_class for its tclass.
 */
struct warden_rule_report {
	const char *op;
	const char *audit_op;
	const char *owner_key;
	const char *avc_class;
	bool has_dir;
};

static const struct warden_rule_report warden_rule_reports[] = {
	[WARDEN_RULE_STICKY_SYMLINKS] = {
		.op = "follow",
		.audit_op = "follow_link",
		.owner_key = "link_uid",
		.has_dir = true,
	},
	[WARDEN_RULE_NONACCESS_HARDLINKS] = {
		.op = "link",
		.audit_op = "linkat",
		.owner_key = "file_uid",
	},
	[WARDEN_RULE_FIFOS] = {
		.op = "open_creat",
		.audit_op = "sticky_create_fifo",
		.owner_key = "file_uid",
		.avc_class = "fifo_file",
		.has_dir = true,
	},
	[WARDEN_RULE_REGULAR] = {
		.op = "open_creat",
		.audit_op = "sticky_create_regular",
		.owner_key = "file_uid",
		.avc_class = "file",
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

/*
 * Each rule has two ratelimits: one for what root is refused and one for
 * everyone else.  A user who floods one rule with harmless refusals of
 * their own hides neither another rule's reports nor the one that says
 * root was just refused a planted link.  What a ratelimit drops is
 * counted, and said per rule.
 */
enum warden_subject {
	WARDEN_SUBJECT_ROOT,
	WARDEN_SUBJECT_USER,
	WARDEN_SUBJECT_COUNT
};

static const char *const warden_subjects[] = {
	[WARDEN_SUBJECT_ROOT] = "root",
	[WARDEN_SUBJECT_USER] = "user",
};

struct warden_log_limit {
	struct ratelimit_state state;
	atomic_long_t suppressed;
};

/* Per rule and subject, then one for the policies processes raise. */
#define WARDEN_POLICY_LIMIT (WARDEN_RULE_COUNT * WARDEN_SUBJECT_COUNT)

static struct warden_log_limit warden_log_limits[WARDEN_POLICY_LIMIT + 1];

static void log_suppressed(struct warden_log_limit *const limit)
{
	const size_t i = limit - warden_log_limits;
	const long n = atomic_long_xchg(&limit->suppressed, 0);

	if (!n)
		return;
	if (i == WARDEN_POLICY_LIMIT)
		pr_notice("setting=policy suppressed=%ld\n", n);
	else
		pr_notice("rule=%s suppressed=%ld subject=%s\n",
			  warden_rule_name(i / WARDEN_SUBJECT_COUNT), n,
			  warden_subjects[i % WARDEN_SUBJECT_COUNT]);
}

static void log_suppressed_work(struct work_struct *const work)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(warden_log_limits); i++)
		log_suppressed(&warden_log_limits[i]);
}

static DECLARE_DELAYED_WORK(warden_log_suppressed_work, log_suppressed_work);

/*
 * Whether a report may be logged now.  A dropped one is counted, and the
 * count is logged before the next report of the same ratelimit, or one
 * interval later, so that no flood goes unsaid.
 *
 * Context: Any context.
 */
static bool may_log(struct warden_log_limit *const limit)
{
	if (!__ratelimit(&limit->state)) {
		atomic_long_inc(&limit->suppressed);
		schedule_delayed_work(&warden_log_suppressed_work,
				      DEFAULT_RATELIMIT_INTERVAL);
		return false;
	}
	log_suppressed(limit);
	return true;
}

/* The ratelimit of @rule for the current task, which was refused. */
static struct warden_log_limit *rule_limit(const enum warden_rule rule)
{
	const bool root = uid_eq(current_uid(), GLOBAL_ROOT_UID) ||
			  uid_eq(current_fsuid(), GLOBAL_ROOT_UID);

	return &warden_log_limits[rule * WARDEN_SUBJECT_COUNT +
				  (root ? WARDEN_SUBJECT_ROOT :
					  WARDEN_SUBJECT_USER)];
}

/**
 * warden_init_reports - Set up the ratelimits of the reports
 */
void __init warden_init_reports(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(warden_log_limits); i++) {
		ratelimit_state_init(&warden_log_limits[i].state,
				     DEFAULT_RATELIMIT_INTERVAL,
				     DEFAULT_RATELIMIT_BURST);
		/* Our own message says what was dropped, with our prefix. */
		ratelimit_set_flags(&warden_log_limits[i].state,
				    RATELIMIT_MSG_ON_RELEASE);
	}
}

/*
 * A name that a user chose goes into a report escaped: printable ASCII
 * stays as it is, except the quote and the backslash, which would end or
 * escape the value, and the space, which would start a field; every other
 * byte (a newline, any control byte, any byte above 0x7e) is written
 * \xHH.  So a name can neither end its value, nor add a field, nor start
 * a line, and it reads back exactly.
 */
#define WARDEN_ESCAPE_FLAGS (ESCAPE_HEX | ESCAPE_NAP | ESCAPE_APPEND)
static const char warden_escape_also[] = "\"\\ ";

/* What marks a name cut short; the dots of a real name are not at risk. */
#define WARDEN_CUT_MARK "..."

/*
 * Escapes @len bytes of @src into @dst, of @size bytes, and ends it with
 * a NUL.  A name too long for @dst keeps the escapes that fit in full,
 * then WARDEN_CUT_MARK.
 *
 * Return: The number of bytes of @src left out, 0 if none.
 */
static size_t escape_name(char *const dst, const size_t size,
			  const char *const src, const size_t len)
{
	const size_t all = string_escape_mem(src, len, NULL, 0,
					     WARDEN_ESCAPE_FLAGS,
					     warden_escape_also);
	const size_t room = all < size ? size - 1 :
					 size - sizeof(WARDEN_CUT_MARK);
	size_t used = 0, i;

	for (i = 0; i < len; i++) {
		const size_t n = string_escape_mem(src + i, 1, NULL, 0,
						   WARDEN_ESCAPE_FLAGS,
						   warden_escape_also);

		if (used + n > room)
			break;
		string_escape_mem(src + i, 1, dst + used, n,
				  WARDEN_ESCAPE_FLAGS, warden_escape_also);
		used += n;
	}
	if (i < len)
		used += scnprintf(dst + used, size - used, "%s",
				  WARDEN_CUT_MARK);
	dst[used] = '\0';
	return len - i;
}

/* Room for a comm with every byte escaped. */
#define WARDEN_COMM_ESCAPED (4 * (TASK_COMM_LEN - 1) + 1)

/*
 * Room for a path: a printk record holds 1024 bytes, of which the fields
 * of a report and its comms take at most about 420; the path comes last,
 * so that if it is cut, nothing else is.
 */
#define WARDEN_PATH_ESCAPED 560

/*
 * Like the audit code, copy a comm without its task's lock: a concurrent
 * rename can at worst mix two names, never lose the final NUL.
 */
static void copy_comm(char *const comm, const struct task_struct *const task)
{
	char raw[TASK_COMM_LEN];

	memcpy(raw, task->comm, TASK_COMM_LEN);
	raw[TASK_COMM_LEN - 1] = '\0';
	escape_name(comm, WARDEN_COMM_ESCAPED, raw, strlen(raw));
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

static uid_t init_uid(const kuid_t uid)
{
	return from_kuid(&init_user_ns, uid);
}

/*
 * The decision and every field of fixed length come first, then the
 * names, the path last: a path too long for the record is cut, visibly
 * ("path_cut=" counts the bytes left out), and nothing after it is lost.
 */
static void log_denial(const struct warden_rule_report *report,
		       const struct warden_denial *denial,
		       const enum warden_verdict verdict, const bool by_process)
{
	char comm[WARDEN_COMM_ESCAPED], pcomm[WARDEN_COMM_ESCAPED];
	char dir[sizeof(" dir_uid=4294967295 dir_mode=7777")] = "";
	char cut[sizeof(" path_cut=18446744073709551615")] = "";
	char *buf, *pathname, *path;
	size_t left_out;
	pid_t ppid;

	if (!may_log(rule_limit(denial->rule)))
		return;

	buf = __getname();
	if (!buf)
		return;
	path = buf + PATH_MAX - WARDEN_PATH_ESCAPED;
	pathname = d_path(denial->path, buf, PATH_MAX - WARDEN_PATH_ESCAPED);
	if (IS_ERR(pathname)) {
		strscpy(path, "?", WARDEN_PATH_ESCAPED);
	} else {
		left_out = escape_name(path, WARDEN_PATH_ESCAPED, pathname,
				       strlen(pathname));
		if (left_out)
			snprintf(cut, sizeof(cut), " path_cut=%zu", left_out);
	}
	if (report->has_dir)
		snprintf(dir, sizeof(dir), " dir_uid=%u dir_mode=%04o",
			 init_uid(denial->dir_owner), denial->dir_mode & 07777);
	copy_comm(comm, current);
	ppid = current_parent(pcomm);
	pr_notice("rule=%s verdict=%s op=%s knob=kernel.warden.%s allowed_at=%d source=%s pid=%d uid=%u fsuid=%u ppid=%d %s=%u%s comm=\"%s\" pcomm=\"%s\"%s path=\"%s\"\n",
		  warden_rule_name(denial->rule), warden_verdicts[verdict],
		  report->op, warden_rule_name(denial->rule),
		  denial->allowed_at, warden_sources[by_process],
		  task_pid_nr(current), init_uid(current_uid()),
		  init_uid(current_fsuid()), ppid, report->owner_key,
		  init_uid(denial->owner), dir, comm, pcomm, cut, path);
	__putname(buf);
}

/*
 * Starts an AVC record, as common_lsm_audit() writes for the other LSMs,
 * in the shape the audit tools parse: "avc:  denied  { perm } for  pid=
 * comm=" for the current task; the caller adds the rest, and tclass=.
 */
static struct audit_buffer *audit_avc_start(const char *const perm)
{
	char comm[TASK_COMM_LEN];
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_ATOMIC | __GFP_NOWARN,
			     AUDIT_AVC);
	if (!ab)
		return NULL;
	audit_log_format(ab, "avc:  denied  { %s } for  pid=%d comm=", perm,
			 task_tgid_nr(current));
	audit_log_untrustedstring(ab, memcpy(comm, current->comm, sizeof(comm)));
	return ab;
}

/* Who the current task is, for an AVC record. */
static void audit_avc_subject(struct audit_buffer *const ab)
{
	audit_log_format(ab, " uid=%u auid=%u ses=%u", init_uid(current_uid()),
			 init_uid(audit_get_loginuid(current)),
			 audit_get_sessionid(current));
}

/*
 * Unlike audit_log_path_denied(), this does not wait for an audit rule to
 * be loaded: a denial by Warden is an event of its own, like an AVC.  It
 * never waits either: path_link() holds the new directory's i_rwsem, and
 * a full audit backlog must not stall other users' work in /tmp.  As for
 * an AVC, a record that finds no room is lost, and counted by audit.
 */
static void audit_denial(const struct warden_rule_report *report,
			 const struct warden_denial *denial,
			 const enum warden_verdict verdict, const bool by_process)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;

	if (report->avc_class) {
		ab = audit_avc_start(report->op);
		if (!ab)
			return;
		audit_log_d_path(ab, " path=", denial->path);
	} else {
		ab = audit_log_start(audit_context(), GFP_NOWAIT | __GFP_NOWARN,
				     AUDIT_ANOM_LINK);
		if (!ab)
			return;
	}
	audit_log_format(ab, "%slsm=" WARDEN_NAME " op=%s rule=%s mode=%s allowed_at=%d source=%s",
			 report->avc_class ? " " : "", report->audit_op,
			 warden_rule_name(denial->rule),
			 warden_audit_modes[verdict], denial->allowed_at,
			 warden_sources[by_process]);
	if (report->avc_class) {
		audit_log_format(ab, " %s=%u", report->owner_key,
				 init_uid(denial->owner));
		audit_avc_subject(ab);
		audit_log_format(ab, " tclass=%s permissive=%d",
				 report->avc_class,
				 verdict == WARDEN_WOULD_DENY);
	} else {
		audit_log_task_info(ab);
		audit_log_d_path(ab, " path=", denial->path);
		audit_log_format(ab, " %s=%u res=%d", report->owner_key,
				 init_uid(denial->owner),
				 verdict == WARDEN_WOULD_DENY);
	}
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

static const char *const warden_ptrace_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "attach",
	[WARDEN_PTRACE_TRACEME] = "traceme",
};

static const char *const warden_ptrace_audit_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "ptrace_attach",
	[WARDEN_PTRACE_TRACEME] = "ptrace_traceme",
};

static void log_ptrace_denial(const struct warden_ptrace_denial *denial,
			      const enum warden_verdict verdict,
			      const bool by_process)
{
	char tracer_comm[WARDEN_COMM_ESCAPED], target_comm[WARDEN_COMM_ESCAPED];
	char pcomm[WARDEN_COMM_ESCAPED];
	pid_t ppid;

	if (!may_log(rule_limit(WARDEN_RULE_PTRACE_SCOPE)))
		return;

	copy_comm(tracer_comm, denial->tracer);
	copy_comm(target_comm, denial->target);
	ppid = current_parent(pcomm);
	pr_notice("rule=ptrace_scope verdict=%s op=%s knob=kernel.warden.ptrace_scope allowed_at=%d source=%s scope=%d tracer_pid=%d tracer_uid=%u target_pid=%d target_uid=%u ppid=%d tracer_comm=\"%s\" target_comm=\"%s\" pcomm=\"%s\"\n",
		  warden_verdicts[verdict], warden_ptrace_ops[denial->op],
		  denial->allowed_at, warden_sources[by_process],
		  denial->scope, denial->tracer->pid,
		  init_uid(task_uid(denial->tracer)), denial->target->pid,
		  init_uid(task_uid(denial->target)), ppid, tracer_comm,
		  target_comm, pcomm);
}

/*
 * The process that made the call is the subject (pid=, comm=), the other
 * one the object (opid=, ocomm=).  A complain-mode refusal is logged as
 * SELinux logs a permissive one.
 */
static void audit_ptrace_denial(const struct warden_ptrace_denial *denial,
				const enum warden_verdict verdict,
				const bool by_process)
{
	const struct task_struct *const other =
		denial->op == WARDEN_PTRACE_ATTACH ? denial->target :
						     denial->tracer;
	char comm[TASK_COMM_LEN];
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;

	ab = audit_avc_start(warden_ptrace_audit_ops[denial->op]);
	if (!ab)
		return;
	audit_log_format(ab, " opid=%d ocomm=", other->tgid);
	audit_log_untrustedstring(ab, memcpy(comm, other->comm, sizeof(comm)));
	audit_log_format(ab, " lsm=" WARDEN_NAME " op=%s rule=ptrace_scope",
			 warden_ptrace_audit_ops[denial->op]);
	audit_log_format(ab, " mode=%s scope=%d allowed_at=%d source=%s",
			 warden_audit_modes[verdict], denial->scope,
			 denial->allowed_at, warden_sources[by_process]);
	audit_avc_subject(ab);
	audit_log_format(ab, " tclass=process permissive=%d",
			 verdict == WARDEN_WOULD_DENY);
	audit_log_end(ab);
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
		log_ptrace_denial(denial, verdict, by_process);
		audit_ptrace_denial(denial, verdict, by_process);
	}
	return verdict == WARDEN_DENIED ? err : 0;
}

static const char *const warden_vias[] = {
	[WARDEN_VIA_SYSCTL] = "sysctl",
	[WARDEN_VIA_BOOT] = "boot",
	[WARDEN_VIA_PROCESS] = "process",
};

/**
 * warden_report_setting - Log and audit a change of a setting
 * @setting: What changed: "kernel.warden.<knob>", or "policy" for the
 *           current process's own.
 * @old: The value before, as text.
 * @new: The value asked for, as text.
 * @via: A sysctl, a boot parameter, or a process raising its policy.
 * @err: 0 if the change was made, or why it was refused.
 *
 * Switching a rule off is the first thing an intruder with root does:
 * every change, and every change the lock refused, writes one log line
 * and one AUDIT_MAC_CONFIG_CHANGE record, with who made it, as IPE and
 * SELinux record their switches.  Only the lines about process policies,
 * which any process may raise, are ratelimited.
 *
 * Context: Process context, may sleep; no lock held.
 */
void warden_report_setting(const char *const setting, const char *const old,
			   const char *const new, const enum warden_via via,
			   const int err)
{
	char comm[WARDEN_COMM_ESCAPED];
	struct audit_buffer *ab;

	if (via != WARDEN_VIA_PROCESS ||
	    may_log(&warden_log_limits[WARDEN_POLICY_LIMIT])) {
		copy_comm(comm, current);
		pr_notice("setting=%s old=\"%s\" new=\"%s\" via=%s res=%d pid=%d uid=%u auid=%u ses=%u comm=\"%s\"\n",
			  setting, old, new, warden_vias[via], !err,
			  task_pid_nr(current), init_uid(current_uid()),
			  init_uid(audit_get_loginuid(current)),
			  audit_get_sessionid(current), comm);
	}

	if (!audit_enabled)
		return;
	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_CONFIG_CHANGE);
	if (!ab)
		return;
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=set setting=%s old=\"%s\" new=\"%s\" via=%s",
			 setting, old, new, warden_vias[via]);
	audit_log_task_info(ab);
	audit_log_format(ab, " res=%d", !err);
	audit_log_end(ab);
}

#include "report_test.c"
