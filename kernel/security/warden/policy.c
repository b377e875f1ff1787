// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Per-process policies, in /proc/PID/attr/warden
 *
 * A sandbox or a container knows better than the host which links it
 * follows and whom it traces: it may raise any rule for itself and all
 * its future descendants, never lower one.  The effective level of a rule
 * is the stricter of the global one and the process's own.
 *
 * A process writes its own /proc/self/attr/warden/policy, as it would
 * write AppArmor's or Smack's attributes: "ptrace_scope=3
 * protected_sticky_symlinks=2", taken whole or not at all.  Anyone may
 * read any process's policy there, and its effective levels in
 * /proc/PID/attr/warden/effective.
 *
 * As with seccomp and Landlock, a process needs no_new_privs, or
 * CAP_SYS_ADMIN in its user namespace: a setuid program must never run
 * under a policy its author did not expect, which could make it fail
 * half-way in a state an attacker chose.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/fdtable.h>
#include <linux/io_uring.h>
#include <linux/io_uring_types.h>
#include <linux/lsm_hooks.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "common.h"
#include "cred.h"
#include "limits.h"
#include "policy.h"
#include "report.h"
#include "settings.h"
#include "setup.h"

#define WARDEN_ATTR_POLICY "policy"
#define WARDEN_ATTR_EFFECTIVE "effective"

/* No level in a policy: the rule keeps the level it has. */
#define WARDEN_LEVEL_UNSET (-1)

/* Long enough for "rule=protected_nonaccess_hardlinks global=1 ..." x 5. */
#define WARDEN_ATTR_SIZE 512

static int find_rule(const char *const name, enum warden_rule *const rule)
{
	enum warden_rule r;

	for (r = 0; r < WARDEN_RULE_COUNT; r++) {
		if (!strcmp(warden_rule_name(r), name)) {
			*rule = r;
			return 0;
		}
	}
	return -EINVAL;
}

/* A level is one digit, within the rule's range: "02", "+1", "1x" are not. */
static int parse_level(const enum warden_rule rule, const char *const value,
		       int *const level)
{
	if (value[0] < '0' || value[0] > '9' || value[1])
		return -EINVAL;
	*level = value[0] - '0';
	return *level <= warden_rules[rule].max ? 0 : -EINVAL;
}

/*
 * Parses "rule=level" words separated by blanks into @levels: every rule
 * named once at most, at least one, nothing else.
 */
static int parse_policy(char *text, int levels[WARDEN_RULE_COUNT])
{
	enum warden_rule rule;
	bool any = false;
	char *word;
	int err;

	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		levels[rule] = WARDEN_LEVEL_UNSET;
	while ((word = strsep(&text, " \t\n"))) {
		char *const value = strchr(word, '=');

		if (!*word)
			continue;
		if (!value)
			return -EINVAL;
		*value = '\0';
		err = find_rule(word, &rule);
		if (err)
			return err;
		if (levels[rule] != WARDEN_LEVEL_UNSET)
			return -EINVAL;
		err = parse_level(rule, value + 1, &levels[rule]);
		if (err)
			return err;
		any = true;
	}
	return any ? 0 : -EINVAL;
}

/* A policy in the syntax a write takes: "protected_sticky_symlinks=2 ...". */
static size_t format_policy(char *const buf, const size_t size,
			    const u8 levels[WARDEN_RULE_COUNT])
{
	enum warden_rule rule;
	size_t len = 0;

	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		len += scnprintf(buf + len, size - len, "%s%s=%u",
				 rule ? " " : "", warden_rule_name(rule),
				 levels[rule]);
	return len;
}

/* Long enough for every rule at its highest level. */
#define WARDEN_POLICY_SIZE 192

static void report_raise(const u8 old[WARDEN_RULE_COUNT],
			 const u8 new[WARDEN_RULE_COUNT])
{
	char old_text[WARDEN_POLICY_SIZE], new_text[WARDEN_POLICY_SIZE];

	format_policy(old_text, sizeof(old_text), old);
	format_policy(new_text, sizeof(new_text), new);
	warden_report_setting("policy", old_text, new_text, WARDEN_VIA_PROCESS,
			      0);
}

static bool may_set_policy(void)
{
	return task_no_new_privs(current) ||
	       ns_capable_noaudit(current_user_ns(), CAP_SYS_ADMIN);
}

/* Whether @levels is lower than @than for some rule. */
static bool policy_is_lower(const u8 levels[WARDEN_RULE_COUNT],
			    const u8 than[WARDEN_RULE_COUNT])
{
	enum warden_rule rule;

	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		if (levels[rule] < than[rule])
			return true;
	return false;
}

#ifdef CONFIG_IO_URING
/*
 * Whether @file is an io_uring whose SQPOLL thread submits with a policy
 * lower than @levels.  The thread runs with the credentials of the
 * ring's creator, taken when it set the ring up, and no hook sees what
 * it submits.
 *
 * Context: The file table's lock held (iterate_fd()): does not sleep.
 */
static int is_lower_sqpoll_ring(const void *const levels,
				struct file *const file, const unsigned int fd)
{
	const struct io_ring_ctx *ctx;

	if (!io_is_uring_fops(file))
		return 0;
	ctx = file->private_data;
	return (ctx->flags & IORING_SETUP_SQPOLL) && ctx->sq_creds &&
	       policy_is_lower(warden_cred(ctx->sq_creds)->levels, levels);
}

/*
 * Whether the current process holds a descriptor of an SQPOLL ring that
 * another process, its parent for one, set up under a lower policy, or
 * has its rings mapped: requests the process submitted there after a
 * raise to @levels would run under that lower policy.  A busy SQPOLL
 * thread takes what is written in the mapped ring without a system call,
 * so closing the descriptor is not enough.  A ring the process set up
 * itself has its thread in the process, which the raise already refuses.
 *
 * Context: Process context; takes the mmap lock for reading.
 */
static bool holds_lower_sqpoll_ring(const u8 levels[WARDEN_RULE_COUNT])
{
	struct mm_struct *const mm = current->mm;
	struct vm_area_struct *vma;
	struct vma_iterator vmi;
	bool found = false;

	if (iterate_fd(current->files, 0, is_lower_sqpoll_ring, levels))
		return true;
	if (!mm)
		return false;
	mmap_read_lock(mm);
	vma_iter_init(&vmi, mm, 0);
	for_each_vma(vmi, vma) {
		if (vma->vm_file &&
		    is_lower_sqpoll_ring(levels, vma->vm_file, 0)) {
			found = true;
			break;
		}
	}
	mmap_read_unlock(mm);
	return found;
}
#else /* !CONFIG_IO_URING */
static bool holds_lower_sqpoll_ring(const u8 levels[WARDEN_RULE_COUNT])
{
	return false;
}
#endif /* CONFIG_IO_URING */

/*
 * Credentials are per thread: a policy raised by one thread of several
 * would hold for it and not for its siblings, and /proc/PID/attr would
 * show the leader's alone.  A process raises its policy while it has one
 * thread, and every thread it creates afterwards shares it.
 */
static int raise_policy(const int levels[WARDEN_RULE_COUNT])
{
	const struct warden_cred_security *const old =
		warden_cred(current_cred());
	struct warden_cred_security *blob;
	enum warden_rule rule;
	bool raises = false;
	struct cred *new;

	if (!may_set_policy())
		return -EPERM;
	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++) {
		if (levels[rule] == WARDEN_LEVEL_UNSET)
			continue;
		if (levels[rule] < old->levels[rule])
			return -EPERM;
		if (levels[rule] > old->levels[rule])
			raises = true;
	}
	if (!raises)
		return 0;
	if (!thread_group_empty(current))
		return -EBUSY;

	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	blob = warden_cred(new);
	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		if (levels[rule] != WARDEN_LEVEL_UNSET)
			blob->levels[rule] = levels[rule];
	if (holds_lower_sqpoll_ring(blob->levels)) {
		abort_creds(new);
		return -EBUSY;
	}
	report_raise(old->levels, blob->levels);
	return commit_creds(new);
}

#ifdef CONFIG_IO_URING
/**
 * hook_uring_override_creds - Keep io_uring from undoing a raise
 * @new: The credentials of the personality an io_uring request names.
 *
 * A personality registered before its process raised its policy holds
 * the credentials of before the raise: a request run with them would
 * open what the process itself is now refused.  One registered after
 * the raise carries the raised policy, and runs.
 *
 * Context: The task submitting the request: the process, or its ring's
 * SQPOLL thread, which runs with the credentials of the ring's creator.
 *
 * Return: 0, or -EPERM if @new's policy is lower than the current
 * credentials' for some rule.
 */
static int hook_uring_override_creds(const struct cred *const new)
{
	if (policy_is_lower(warden_cred(new)->levels,
			    warden_cred(current_cred())->levels))
		return -EPERM;
	return 0;
}
#endif /* CONFIG_IO_URING */

/**
 * hook_setprocattr - Raise the current process's policy
 * @name: The file written in /proc/self/attr/warden: only "policy".
 * @value: What was written, not NUL-terminated.
 * @size: Its length.
 *
 * Parsed whole before anything changes.  A level equal to the current one
 * is accepted and changes nothing.
 *
 * Context: Process context, with cred_guard_mutex held by procfs, which
 * also refuses a write by another task or with overridden credentials.
 *
 * Return: @size once the policy is raised; -EOPNOTSUPP for a file not
 * Warden's (a legacy one of /proc/PID/attr); -EINVAL for a write to
 * "effective", a write of PAGE_SIZE bytes or more, a malformed policy,
 * an unknown rule or a level out of its range; -EPERM
 * without no_new_privs or CAP_SYS_ADMIN in the current user namespace,
 * or for a level lower than the process's own; -EBUSY if the process has
 * other threads, or holds an SQPOLL io_uring set up under a lower policy
 * (see holds_lower_sqpoll_ring()); -ENOMEM.
 */
static int hook_setprocattr(const char *const name, void *const value,
			    const size_t size)
{
	int levels[WARDEN_RULE_COUNT];
	char *text;
	int err;

	/*
	 * effective is Warden's, and read-only; the legacy files are the
	 * major LSM's (security_setprocattr()).
	 */
	if (strcmp(name, WARDEN_ATTR_POLICY))
		return strcmp(name, WARDEN_ATTR_EFFECTIVE) ? -EOPNOTSUPP : -EINVAL;
	/*
	 * procfs passes at most a page of a write and returns the shorter
	 * count, so @size == PAGE_SIZE may be the head of a longer write:
	 * applying it would break all or nothing.  No real policy comes
	 * near a page, so refuse every write that may have been cut.
	 */
	if (size >= PAGE_SIZE)
		return -EINVAL;
	/* An embedded NUL would hide the rest of the write. */
	if (strnlen(value, size) != size)
		return -EINVAL;
	text = kmemdup_nul(value, size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	err = parse_policy(text, levels);
	kfree(text);
	if (!err)
		err = raise_policy(levels);
	return err ?: size;
}

/**
 * hook_getprocattr - Show a process's policy
 * @task: The task of /proc/PID.
 * @name: "policy": the process's own levels, in the syntax a write takes;
 *        "effective": per rule, the global, the process's and the
 *        effective level.
 * @value: The text, allocated here.
 *
 * Return: The length of @value, -EOPNOTSUPP for another file (a legacy
 * one of /proc/PID/attr, which then goes to the next LSM), or -ENOMEM.
 */
static int hook_getprocattr(struct task_struct *const task,
			    const char *const name, char **const value)
{
	u8 levels[WARDEN_RULE_COUNT];
	const bool effective = !strcmp(name, WARDEN_ATTR_EFFECTIVE);
	enum warden_rule rule;
	size_t len = 0;
	char *buf;

	if (!effective && strcmp(name, WARDEN_ATTR_POLICY))
		return -EOPNOTSUPP;
	rcu_read_lock();
	memcpy(levels, warden_cred(__task_cred(task))->levels, sizeof(levels));
	rcu_read_unlock();

	buf = kmalloc(WARDEN_ATTR_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (rule = 0; effective && rule < WARDEN_RULE_COUNT; rule++) {
		const int global = warden_global_level(rule);

		len += scnprintf(buf + len, WARDEN_ATTR_SIZE - len,
				 "rule=%s global=%d process=%u effective=%d\n",
				 warden_rule_name(rule), global, levels[rule],
				 max_t(int, global, levels[rule]));
	}
	if (!effective) {
		len = format_policy(buf, WARDEN_ATTR_SIZE, levels);
		len += scnprintf(buf + len, WARDEN_ATTR_SIZE - len, "\n");
	}
	*value = buf;
	return len;
}

static struct security_hook_list warden_policy_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(getprocattr, hook_getprocattr),
	LSM_HOOK_INIT(setprocattr, hook_setprocattr),
#ifdef CONFIG_IO_URING
	LSM_HOOK_INIT(uring_override_creds, hook_uring_override_creds),
#endif
};

/**
 * warden_add_policy_hooks - Register /proc/PID/attr/warden, and keep
 * io_uring's personalities from undoing a raise
 */
void __init warden_add_policy_hooks(void)
{
	security_add_hooks(warden_policy_hooks, ARRAY_SIZE(warden_policy_hooks),
			   &warden_lsmid);
}

#include "policy_test.c"
