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
 * anything a user can make long, and reports are ratelimited per rule
 * and per subject, so that one user's flood neither fills the log or
 * audit's backlog nor hides another rule's or another user's report.
 * What a ratelimit drops is counted and said.
 *
 * Every change of a setting is on the record too, with who made it: the
 * first thing an intruder with root does is switch a protection off.
 */

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/printk.h>
#include <linux/ratelimit_types.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/task_work.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>

#include "common.h"
#include "counters.h"
#include "limits.h"
#include "report.h"

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

/**
 * struct warden_rule_report - How a filesystem rule reports
 * @op: What it refuses, in the log and the audit record: "follow",
 *      "open_creat", ...
 * @owner_key: The log's field for the owner of what it refuses.
 * @has_dir: Whether it names the directory's owner and mode.
 * @has_target: Whether it names the owner of a symlink's target.
 */
struct warden_rule_report {
	const char *op;
	const char *owner_key;
	bool has_dir;
	bool has_target;
};

static const struct warden_rule_report warden_rule_reports[WARDEN_RULE_COUNT] = {
	[WARDEN_RULE_STICKY_SYMLINKS] = { "follow", "link_uid", true, false },
	[WARDEN_RULE_NONACCESS_HARDLINKS] = { "link", "file_uid", false, false },
	[WARDEN_RULE_FIFOS] = { "open_creat", "file_uid", true, false },
	[WARDEN_RULE_REGULAR] = { "open_creat", "file_uid", true, false },
	[WARDEN_RULE_SYMLINK_OWNER] = { "follow", "link_uid", false, true },
	[WARDEN_RULE_STICKY_WRITES] = { "write", "file_uid", true, false },
};


/*
 * Reports are ratelimited per rule and per subject: the real uid of the
 * process refused, so that a user who runs a setuid-root program into
 * refusals fills their own bucket, not root's.  Root has a bucket of its
 * own in each rule.  Every other subject takes a bucket in a small table
 * of the rule, at the slot its uid hashes to, and keeps it while it is
 * reporting; a subject whose slot another one holds shares the rule's
 * spare bucket.  One subject's flood can therefore fill only its own
 * bucket: it neither takes a slot from another subject, nor reaches the
 * spare bucket unless its own slot is held, nor hides a report of
 * another rule.  The state is fixed, and nothing is allocated to decide.
 *
 * A report that its bucket drops writes neither its line nor its audit
 * record.  It is still counted (counters.c), and how many a bucket
 * dropped is said before its next report, or one interval later, so
 * that no flood goes unsaid.
 */
#define WARDEN_LIMIT_INTERVAL DEFAULT_RATELIMIT_INTERVAL
#define WARDEN_LIMIT_BURST DEFAULT_RATELIMIT_BURST
#define WARDEN_LIMIT_SLOT_BITS 4

/**
 * struct warden_bucket - The ratelimit of one subject
 * @uid: The subject holding the bucket; unused in the root and spare ones.
 * @begin: When its interval began, in jiffies; 0 before its first report.
 * @reported: How many reports it let through in that interval.
 * @suppressed: How many it dropped, not said yet.
 */
struct warden_bucket {
	kuid_t uid;
	unsigned long begin;
	unsigned int reported;
	unsigned long suppressed;
};

/**
 * struct warden_limit - The ratelimits of a rule, or of policy changes
 * @lock: Taken with interrupts off: the ptrace hooks may hold
 *        tasklist_lock for writing.
 * @root: Root's bucket.
 * @spare: The bucket of a subject whose slot another subject holds.
 * @slots: The buckets of other subjects, by the hash of their uid.
 */
struct warden_limit {
	raw_spinlock_t lock;
	struct warden_bucket root;
	struct warden_bucket spare;
	struct warden_bucket slots[1 << WARDEN_LIMIT_SLOT_BITS];
};

/* One per rule, then one for the policies processes raise. */
#define WARDEN_POLICY_LIMIT WARDEN_RULE_COUNT

static struct warden_limit warden_limits[WARDEN_POLICY_LIMIT + 1];

/* Whether @b has reported nothing in the interval before @now. */
static bool bucket_is_idle(const struct warden_bucket *const b,
			   const unsigned long now)
{
	return !b->begin ||
	       time_after_eq(now, b->begin + WARDEN_LIMIT_INTERVAL);
}

/*
 * The bucket of @subject in @limit, at @now.  A slot held by another
 * subject is taken over only once it is idle and its drops were said:
 * until then, the subject shares the spare bucket.
 *
 * Context: @limit->lock held.
 */
static struct warden_bucket *subject_bucket(struct warden_limit *const limit,
					    const kuid_t subject,
					    const unsigned long now)
{
	struct warden_bucket *slot;

	if (uid_eq(subject, GLOBAL_ROOT_UID))
		return &limit->root;
	slot = &limit->slots[hash_32(__kuid_val(subject),
				     WARDEN_LIMIT_SLOT_BITS)];
	if (uid_eq(slot->uid, subject))
		return slot;
	if (uid_valid(slot->uid) &&
	    (!bucket_is_idle(slot, now) || slot->suppressed))
		return &limit->spare;
	*slot = (struct warden_bucket){ .uid = subject };
	return slot;
}

/*
 * Whether @b lets a report through at @now: WARDEN_LIMIT_BURST in each
 * interval.  A dropped one is counted in @b.
 *
 * Context: The lock of @b's limit held.
 */
static bool bucket_admits(struct warden_bucket *const b,
			  const unsigned long now)
{
	if (bucket_is_idle(b, now)) {
		b->begin = now ?: 1;
		b->reported = 0;
	}
	if (b->reported < WARDEN_LIMIT_BURST) {
		b->reported++;
		return true;
	}
	b->suppressed++;
	return false;
}

static void log_suppressed(const size_t limit, const bool root,
			   const unsigned long n)
{
	if (!n)
		return;
	if (limit == WARDEN_POLICY_LIMIT)
		pr_notice("setting=policy suppressed=%lu\n", n);
	else
		pr_notice("rule=%s suppressed=%lu subject=%s\n",
			  warden_rule_name(limit), n, root ? "root" : "user");
}

/* Says what every bucket dropped since it last said so. */
static void log_suppressed_work(struct work_struct *const work)
{
	unsigned long flags, root, user;
	struct warden_limit *limit;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(warden_limits); i++) {
		limit = &warden_limits[i];
		raw_spin_lock_irqsave(&limit->lock, flags);
		root = limit->root.suppressed;
		user = limit->spare.suppressed;
		limit->root.suppressed = 0;
		limit->spare.suppressed = 0;
		for (j = 0; j < ARRAY_SIZE(limit->slots); j++) {
			user += limit->slots[j].suppressed;
			limit->slots[j].suppressed = 0;
		}
		raw_spin_unlock_irqrestore(&limit->lock, flags);
		log_suppressed(i, true, root);
		log_suppressed(i, false, user);
	}
}

static DECLARE_DELAYED_WORK(warden_log_suppressed_work, log_suppressed_work);

/**
 * struct warden_admission - Whether a report may be written, and what to
 *                           say before it
 * @limit: The index of the limit in warden_limits.
 * @root: Whether the subject is root.
 * @suppressed: What the subject's bucket dropped before, to say first.
 */
struct warden_admission {
	size_t limit;
	bool root;
	unsigned long suppressed;
};

/*
 * Whether the current task's report in @limit may be written now.
 *
 * Context: Any context; does not sleep.
 */
static bool may_report(const size_t limit,
		       struct warden_admission *const admission)
{
	struct warden_limit *const l = &warden_limits[limit];
	const kuid_t subject = current_uid();
	const unsigned long now = jiffies;
	struct warden_bucket *b;
	unsigned long flags;
	bool admitted;

	*admission = (struct warden_admission){
		.limit = limit,
		.root = uid_eq(subject, GLOBAL_ROOT_UID),
	};
	raw_spin_lock_irqsave(&l->lock, flags);
	b = subject_bucket(l, subject, now);
	admitted = bucket_admits(b, now);
	if (admitted) {
		admission->suppressed = b->suppressed;
		b->suppressed = 0;
	}
	raw_spin_unlock_irqrestore(&l->lock, flags);
	if (!admitted)
		schedule_delayed_work(&warden_log_suppressed_work,
				      WARDEN_LIMIT_INTERVAL);
	return admitted;
}

/*
 * Counts a report that was admitted but could not be written after all,
 * with what its bucket had dropped before it.
 *
 * Context: Any context; does not sleep.
 */
static void report_lost(const struct warden_admission *const admission)
{
	struct warden_limit *const l = &warden_limits[admission->limit];
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	subject_bucket(l, current_uid(), jiffies)->suppressed +=
		admission->suppressed + 1;
	raw_spin_unlock_irqrestore(&l->lock, flags);
	schedule_delayed_work(&warden_log_suppressed_work,
			      WARDEN_LIMIT_INTERVAL);
}

/**
 * warden_init_reports - Set up the ratelimits of the reports
 */
void __init warden_init_reports(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(warden_limits); i++) {
		raw_spin_lock_init(&warden_limits[i].lock);
		for (j = 0; j < ARRAY_SIZE(warden_limits[i].slots); j++)
			warden_limits[i].slots[j].uid = INVALID_UID;
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

/*
 * Escapes the tail of the @len bytes of @src into @dst, of @size bytes
 * (at least sizeof(WARDEN_CUT_MARK)), and ends it with a NUL.  A name too
 * long for @dst, or one that is already the tail of a longer name (@cut),
 * starts with WARDEN_CUT_MARK, then keeps the longest tail whose escapes
 * fit in full: the end of a path names the file, which an administrator
 * needs more than the directories at its head.
 *
 * Return: The number of bytes of @src left out, 0 if none.
 */
static size_t escape_tail(char *const dst, const size_t size,
			  const char *const src, const size_t len,
			  const bool cut)
{
	const bool whole = !cut && string_escape_mem(src, len, NULL, 0,
						     WARDEN_ESCAPE_FLAGS,
						     warden_escape_also) < size;
	const size_t room = whole ? size - 1 : size - sizeof(WARDEN_CUT_MARK);
	size_t used = 0, start = len, mark = 0;

	while (start) {
		const size_t n = string_escape_mem(src + start - 1, 1, NULL, 0,
						   WARDEN_ESCAPE_FLAGS,
						   warden_escape_also);

		if (used + n > room)
			break;
		used += n;
		start--;
	}
	if (!whole) {
		mark = sizeof(WARDEN_CUT_MARK) - 1;
		memcpy(dst, WARDEN_CUT_MARK, mark);
	}
	string_escape_mem(src + start, len - start, dst + mark, used,
			  WARDEN_ESCAPE_FLAGS, warden_escape_also);
	dst[mark + used] = '\0';
	return start;
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
static void copy_raw_comm(char *const raw, const struct task_struct *const task)
{
	memcpy(raw, task->comm, TASK_COMM_LEN);
	raw[TASK_COMM_LEN - 1] = '\0';
}

static void escape_comm(char *const comm, const char *const raw)
{
	escape_name(comm, WARDEN_COMM_ESCAPED, raw, strlen(raw));
}

static void copy_comm(char *const comm, const struct task_struct *const task)
{
	char raw[TASK_COMM_LEN];

	copy_raw_comm(raw, task);
	escape_comm(comm, raw);
}

/* The parent of the current task, whose program most likely ran it. */
static pid_t current_parent(char *const raw)
{
	struct task_struct *parent;
	pid_t pid;

	rcu_read_lock();
	parent = rcu_dereference(current->real_parent);
	pid = task_tgid_nr(parent);
	copy_raw_comm(raw, parent);
	rcu_read_unlock();
	return pid;
}

static uid_t init_uid(const kuid_t uid)
{
	return from_kuid(&init_user_ns, uid);
}

/*
 * The decision and every field of fixed length come first, then the
 * names, the path last: a path too long for the record keeps its tail
 * (the file's name) after "...", with "path_cut=" counting the bytes left
 * out, and nothing after it is lost.
 */
static void log_fs_denial(const struct warden_report *const r)
{
	const struct warden_rule_report *const report =
		&warden_rule_reports[r->rule];
	const struct warden_fs_object *const denial = &r->fs;
	char comm[WARDEN_COMM_ESCAPED], pcomm[WARDEN_COMM_ESCAPED];
	char dir[sizeof(" dir_uid=4294967295 dir_mode=7777")] = "";
	char target[sizeof(" target_uid=4294967295")] = "";
	char cut[sizeof(" path_cut=18446744073709551615")] = "";
	char raw_pcomm[TASK_COMM_LEN];
	char *buf, *pathname, *path;
	size_t left_out, len;
	pid_t ppid;

	buf = __getname();
	if (!buf)
		return;
	/* Not on the stack, which a hook deep in a path walk must spare. */
	path = kmalloc(WARDEN_PATH_ESCAPED, GFP_KERNEL);
	if (!path)
		goto out;
	pathname = d_path(denial->path, buf, PATH_MAX);
	if (!IS_ERR(pathname)) {
		left_out = escape_tail(path, WARDEN_PATH_ESCAPED, pathname,
				       strlen(pathname), false);
		if (left_out)
			snprintf(cut, sizeof(cut), " path_cut=%zu", left_out);
	} else if (PTR_ERR(pathname) == -ENAMETOOLONG) {
		/*
		 * Longer than PATH_MAX: the last components still name the
		 * file.  %pd4 reads them under RCU, safe against a rename,
		 * and cannot reach the root from that deep, hence the
		 * leading slash.  How much is left out is unknown, which
		 * path_cut=0 says: a path cut by d_path() loses a byte at
		 * least, so 0 is no count.
		 */
		len = scnprintf(buf, PATH_MAX, "/%pd4", denial->path->dentry);
		escape_tail(path, WARDEN_PATH_ESCAPED, buf, len, true);
		strscpy(cut, " path_cut=0", sizeof(cut));
	} else {
		strscpy(path, "?", WARDEN_PATH_ESCAPED);
	}
	if (report->has_dir)
		snprintf(dir, sizeof(dir), " dir_uid=%u dir_mode=%04o",
			 init_uid(denial->dir_owner), denial->dir_mode & 07777);
	if (report->has_target)
		snprintf(target, sizeof(target), " target_uid=%u",
			 init_uid(denial->target_owner));
	copy_comm(comm, current);
	ppid = current_parent(raw_pcomm);
	escape_comm(pcomm, raw_pcomm);
	pr_notice("rule=%s verdict=%s op=%s knob=kernel.warden.%s allowed_at=%d source=%s pid=%d uid=%u fsuid=%u ppid=%d %s=%u%s%s comm=\"%s\" pcomm=\"%s\"%s path=\"%s\"\n",
		  warden_rule_name(r->rule),
		  warden_verdicts[r->decision.verdict],
		  denial->op ?: report->op, warden_rule_name(r->rule),
		  r->decision.allowed_at, warden_sources[r->decision.by_process],
		  task_tgid_nr(current), init_uid(current_uid()),
		  init_uid(current_fsuid()), ppid, report->owner_key,
		  init_uid(denial->owner), dir, target, comm, pcomm, cut, path);
	kfree(path);
out:
	__putname(buf);
}

/*
 * Starts Warden's record of a refusal, AUDIT_WARDEN_ACCESS, with what was
 * decided first, in the field names of audit's dictionary where it has
 * one: res=0 for a refusal, res=1 for what complain mode let through,
 * which permissive=1 says as well, as for SELinux's permissive domains.
 * Warden writes no AVC, which the audit tools read as SELinux's, and no
 * mode=, which they read as a file's mode.
 *
 * Unlike audit_log_path_denied(), this does not wait for an audit rule to
 * be loaded: a refusal by Warden is an event of its own, as an AVC is.  It
 * never waits either: path_link() holds the new directory's i_rwsem, the
 * ptrace hooks hold spinlocks, and a full audit backlog must not stall
 * other users' work in /tmp.  A record that finds no room is lost, and
 * counted by audit; the reports' ratelimit keeps any one user from
 * filling the backlog.
 */
static struct audit_buffer *audit_access_start(const struct warden_report *r,
					       const char *const op)
{
	const bool permissive = r->decision.verdict == WARDEN_WOULD_DENY;
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_NOWAIT | __GFP_NOWARN,
			     AUDIT_WARDEN_ACCESS);
	if (!ab)
		return NULL;
	audit_log_format(ab, "lsm=%s rule=%s op=%s res=%d permissive=%d allowed_at=%d source=%s",
			 WARDEN_NAME, warden_rule_name(r->rule), op,
			 permissive, permissive,
			 r->decision.allowed_at,
			 warden_sources[r->decision.by_process]);
	return ab;
}

/*
 * The subject is the current task, as audit_log_task_info() names it;
 * the object is the file, its owner as ouid=, which the audit tools
 * turn into a user name.
 */
static void audit_fs_denial(const struct warden_report *const r)
{
	const struct warden_rule_report *const report =
		&warden_rule_reports[r->rule];
	const struct warden_fs_object *const denial = &r->fs;
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;
	ab = audit_access_start(r, denial->op ?: report->op);
	if (!ab)
		return;
	audit_log_task_info(ab);
	audit_log_d_path(ab, " path=", denial->path);
	audit_log_format(ab, " ouid=%u", init_uid(denial->owner));
	if (report->has_dir)
		audit_log_format(ab, " dir_uid=%u dir_mode=%04o",
				 init_uid(denial->dir_owner),
				 denial->dir_mode & 07777);
	if (report->has_target)
		audit_log_format(ab, " target_uid=%u",
				 init_uid(denial->target_owner));
	audit_log_end(ab);
}

static const char *const warden_ptrace_ops[] = {
	[WARDEN_PTRACE_ATTACH] = "attach",
	[WARDEN_PTRACE_TRACEME] = "traceme",
	[WARDEN_PTRACE_READ] = "read",
	[WARDEN_PTRACE_SETRLIMIT] = "setrlimit",
};

/**
 * struct warden_ptrace_log - A ptrace_scope report, to log later
 * @work: Runs log_ptrace_work() when the task returns to user space.
 * @admission: What its bucket dropped before it.
 * @op: See struct warden_ptrace_object.
 * @verdict: Denied, or would be denied.
 * @by_process: Whether a process's own policy refused.
 * @scope: See struct warden_ptrace_object.
 * @allowed_at: See struct warden_decision.
 * @tracer_pid: The tracer's pid, as the kernel numbers it.
 * @target_pid: The target's.
 * @ppid: The pid of the current task's parent.
 * @tracer_uid: The tracer's real uid, in the initial user namespace.
 * @target_uid: The target's.
 * @tracer_comm: The tracer's comm, not escaped yet.
 * @target_comm: The target's.
 * @pcomm: The comm of the current task's parent.
 */
struct warden_ptrace_log {
	struct callback_head work;
	struct warden_admission admission;
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

/*
 * Logs a ptrace_scope report, with no lock held: the task runs it on its
 * way back to user space, before the refused call returns.
 */
static void log_ptrace_work(struct callback_head *const work)
{
	struct warden_ptrace_log *const log =
		container_of(work, struct warden_ptrace_log, work);
	char tracer_comm[WARDEN_COMM_ESCAPED], target_comm[WARDEN_COMM_ESCAPED];
	char pcomm[WARDEN_COMM_ESCAPED];

	/* The point of the deferral: a debug kernel checks no lock is held. */
	might_sleep();
	escape_comm(tracer_comm, log->tracer_comm);
	escape_comm(target_comm, log->target_comm);
	escape_comm(pcomm, log->pcomm);
	log_suppressed(log->admission.limit, log->admission.root,
		       log->admission.suppressed);
	pr_notice("rule=ptrace_scope verdict=%s op=%s knob=kernel.warden.ptrace_scope allowed_at=%d source=%s scope=%d tracer_pid=%d tracer_uid=%u target_pid=%d target_uid=%u ppid=%d tracer_comm=\"%s\" target_comm=\"%s\" pcomm=\"%s\"\n",
		  warden_verdicts[log->verdict], warden_ptrace_ops[log->op],
		  log->allowed_at, warden_sources[log->by_process], log->scope,
		  log->tracer_pid, log->tracer_uid, log->target_pid,
		  log->target_uid, log->ppid, tracer_comm, target_comm, pcomm);
	kfree(log);
}

/*
 * The ptrace hooks run under task_lock() of the target, or under
 * tasklist_lock with interrupts off for PTRACE_TRACEME, and printk() may
 * write to a slow console in the caller's context: as Yama does, the
 * report is taken now and logged when the task returns to user space.
 * A report that finds no memory, or a task that will not return there
 * (a kernel thread, an exiting task), is counted as dropped.
 *
 * Context: Any context; does not sleep.
 */
static void log_ptrace_denial(const struct warden_report *const r,
			      const struct warden_admission *const admission)
{
	const struct warden_ptrace_object *const denial = &r->ptrace;
	struct warden_ptrace_log *log;

	if (current->flags & PF_KTHREAD)
		goto lost;
	log = kmalloc_obj(*log, GFP_ATOMIC | __GFP_NOWARN);
	if (!log)
		goto lost;
	*log = (struct warden_ptrace_log){
		.admission = *admission,
		.op = denial->op,
		.verdict = r->decision.verdict,
		.by_process = r->decision.by_process,
		.scope = denial->scope,
		.allowed_at = r->decision.allowed_at,
		.tracer_pid = denial->tracer->pid,
		.target_pid = denial->target->pid,
		.tracer_uid = init_uid(task_uid(denial->tracer)),
		.target_uid = init_uid(task_uid(denial->target)),
	};
	copy_raw_comm(log->tracer_comm, denial->tracer);
	copy_raw_comm(log->target_comm, denial->target);
	log->ppid = current_parent(log->pcomm);
	init_task_work(&log->work, log_ptrace_work);
	if (!task_work_add(current, &log->work, TWA_RESUME))
		return;
	kfree(log);
lost:
	report_lost(admission);
}

/*
 * Whether a refusal is harmless by construction: at scope 1, an attach,
 * a read or a change of limits between two processes of one uid, which
 * the classic rules allow.  Its audit record would say nothing an
 * attacker does not know, and a loop of such refusals would flood audit
 * with records and the SYSCALL records each brings.  Like mainline's
 * audit_log_path_denied(), such a refusal is audited only if audit rules
 * ask for the call's records.
 */
static bool is_harmless(const enum warden_ptrace_op op, const int scope,
			const kuid_t tracer, const kuid_t target)
{
	return op != WARDEN_PTRACE_TRACEME &&
	       scope == WARDEN_PTRACE_RELATIONAL && uid_eq(tracer, target);
}

/*
 * The process that made the call is the subject (pid=, comm=), the other
 * one the object (opid=, ocomm=), as Landlock and SELinux name them.  The
 * hooks hold spinlocks: the subject is named from what can be read
 * without a lock, not by audit_log_task_info().  The record is written
 * in the hook, part of the call's event.
 */
static void audit_ptrace_denial(const struct warden_report *const r)
{
	const struct warden_ptrace_object *const denial = &r->ptrace;
	const struct task_struct *const other =
		denial->op == WARDEN_PTRACE_TRACEME ? denial->tracer :
						      denial->target;
	char comm[TASK_COMM_LEN];
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;
	if (is_harmless(denial->op, denial->scope, task_uid(denial->tracer),
			task_uid(denial->target)) &&
	    audit_dummy_context())
		return;

	ab = audit_access_start(r, warden_ptrace_ops[denial->op]);
	if (!ab)
		return;
	audit_log_format(ab, " scope=%d pid=%d uid=%u auid=%u ses=%u comm=",
			 denial->scope, task_tgid_nr(current),
			 init_uid(current_uid()),
			 init_uid(audit_get_loginuid(current)),
			 audit_get_sessionid(current));
	copy_raw_comm(comm, current);
	audit_log_untrustedstring(ab, comm);
	audit_log_format(ab, " opid=%d ocomm=", other->tgid);
	copy_raw_comm(comm, other);
	audit_log_untrustedstring(ab, comm);
	audit_log_end(ab);
}

/**
 * warden_report - Count, log and audit a refusal
 * @report: The refusal, as its rule decided it.
 *
 * The current task is the subject of the report, whose bucket
 * ratelimits it: the process refused, the tracer for an attach, a read
 * or a change of limits, the tracee for a PTRACE_TRACEME.  A
 * ptrace_scope line is logged when the task returns to user space (see
 * log_ptrace_denial()).  What the bucket drops is still counted.
 *
 * Context: Process context.  May sleep for a filesystem rule: never
 * call it from an RCU walk.  Does not sleep for ptrace_scope, whose
 * hooks hold spinlocks.
 */
void warden_report(const struct warden_report *const report)
{
	struct warden_admission admission;

	warden_count(report->rule, report->decision.verdict);
	if (!may_report(report->rule, &admission))
		return;
	if (report->rule == WARDEN_RULE_PTRACE_SCOPE) {
		log_ptrace_denial(report, &admission);
		audit_ptrace_denial(report);
	} else {
		log_suppressed(admission.limit, admission.root,
			       admission.suppressed);
		log_fs_denial(report);
		audit_fs_denial(report);
	}
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
 * and one AUDIT_WARDEN_CONFIG_CHANGE record, with who made it, as IPE and
 * SELinux record their switches.  Only the reports of process policies,
 * which any process may raise, are ratelimited, per subject as the
 * refusals are.
 *
 * A process raises its policy under its cred_guard_mutex, which a ptrace
 * attach to it and its own execve() wait for: that record does not wait
 * for room in a full audit backlog.  It is lost then, as a refusal's
 * record is, and audit counts it; the log line still says it.
 *
 * Context: Process context; sleeps only for a global setting.
 */
void warden_report_setting(const char *const setting, const char *const old,
			   const char *const new, const enum warden_via via,
			   const int err)
{
	const gfp_t gfp = via == WARDEN_VIA_PROCESS ?
				  GFP_NOWAIT | __GFP_NOWARN : GFP_KERNEL;
	struct warden_admission admission;
	char comm[WARDEN_COMM_ESCAPED];
	struct audit_buffer *ab;

	if (via == WARDEN_VIA_PROCESS) {
		if (!may_report(WARDEN_POLICY_LIMIT, &admission))
			return;
		log_suppressed(admission.limit, admission.root,
			       admission.suppressed);
	}
	copy_comm(comm, current);
	pr_notice("setting=%s old=\"%s\" new=\"%s\" via=%s res=%d pid=%d uid=%u auid=%u ses=%u comm=\"%s\"\n",
		  setting, old, new, warden_vias[via], !err,
		  task_tgid_nr(current), init_uid(current_uid()),
		  init_uid(audit_get_loginuid(current)),
		  audit_get_sessionid(current), comm);

	if (!audit_enabled)
		return;
	ab = audit_log_start(audit_context(), gfp, AUDIT_WARDEN_CONFIG_CHANGE);
	if (!ab)
		return;
	audit_log_format(ab, "lsm=" WARDEN_NAME " op=set setting=%s old=\"%s\" new=\"%s\" via=%s",
			 setting, old, new, warden_vias[via]);
	audit_log_task_info(ab);
	audit_log_format(ab, " res=%d", !err);
	audit_log_end(ab);
}

#include "report_test.c"
