// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Ptrace scopes
 *
 * Any process can read the memory of every other process of the same
 * user, so one compromised program gives away the keys and passwords held
 * by all the others.  The ptrace_scope rule narrows who may attach, with
 * exactly the values and the PR_SET_PTRACER exceptions of Yama, so that
 * debuggers, crash handlers and browsers that work with Yama work with
 * Warden, and both can be stacked: the stricter one decides.
 *
 * An attach is not the only way into another process: its environment,
 * its open files through /proc/PID/fd and perf_event_open() on it are
 * reads (PTRACE_MODE_READ), and raising its core limit before it dumps
 * hands its memory over too.  A process that raised its own scope, and
 * global scope 3, are protected from reads; a change of another
 * process's limits is an attach.
 *
 * Yama keeps its exceptions in one global list that every check walks.
 * Here an exception lives in the blob of the process that grants it: a
 * check reads one pointer, however many exceptions there are, and an
 * exception goes away with its process.
 */

#include <linux/compiler_types.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/lsm_hooks.h>
#include <linux/minmax.h>
#include <linux/pid.h>
#include <linux/prctl.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "common.h"
#include "cred.h"
#include "limits.h"
#include "ptrace.h"
#include "report.h"
#include "settings.h"
#include "setup.h"

/*
 * What security_task_prctl() takes for "not this LSM's option", the
 * errno of an unknown system call, spelt so that checkpatch, which wants
 * that errno for nothing else, lets the hook say it.
 */
#define PRCTL_NOT_MINE (-__PASTE(ENO, SYS))

static void free_ptracer_rcu(struct rcu_head *const head)
{
	struct warden_ptracer *const ptracer =
		container_of(head, struct warden_ptracer, rcu);

	put_pid(ptracer->pid);
	kfree(ptracer);
}

/* Callable from any context, as the task_free hook is. */
static void put_ptracer(struct warden_ptracer *const ptracer)
{
	if (ptracer)
		call_rcu(&ptracer->rcu, free_ptracer_rcu);
}

/*
 * A process names its tracer for all its threads: the exception lives in
 * the blob of the thread-group leader, as Yama's list holds the leader.
 * Two threads may name a tracer at the same time: the last one wins.
 */
static void set_ptracer(struct task_struct *const leader,
			struct warden_ptracer *const ptracer)
{
	struct warden_task_security *const blob = warden_task(leader);

	put_ptracer(unrcu_pointer(xchg(&blob->ptracer,
				       RCU_INITIALIZER(ptracer))));
}

/* Like Yama, @tracer_nr names a task in the caller's pid namespace. */
static int new_named_ptracer(const pid_t tracer_nr,
			     struct warden_ptracer **const ptracer)
{
	struct task_struct *tracer;
	struct pid *pid = NULL;

	rcu_read_lock();
	tracer = find_task_by_vpid(tracer_nr);
	if (tracer)
		pid = get_task_pid(tracer, PIDTYPE_PID);
	rcu_read_unlock();
	if (!pid)
		return -EINVAL;

	*ptracer = kmalloc_obj(**ptracer);
	if (!*ptracer) {
		put_pid(pid);
		return -ENOMEM;
	}
	(*ptracer)->pid = pid;
	return 0;
}

static int set_ptracer_of_current(const unsigned long arg)
{
	struct warden_ptracer *ptracer = NULL;
	struct task_struct *leader;
	int err;

	/* The PR_SET_PTRACER_ANY of a 32-bit caller is (int)-1 too. */
	if (arg == PR_SET_PTRACER_ANY || (int)arg == -1) {
		ptracer = kmalloc_obj(*ptracer);
		if (!ptracer)
			return -ENOMEM;
		ptracer->pid = NULL;
	} else if (arg) {
		err = new_named_ptracer(arg, &ptracer);
		if (err)
			return err;
	}

	rcu_read_lock();
	leader = get_task_struct(READ_ONCE(current->group_leader));
	rcu_read_unlock();
	set_ptracer(leader, ptracer);
	put_task_struct(leader);
	return 0;
}

/**
 * hook_task_prctl - Record or clear an exception to the ptrace scope
 * @option: The prctl() option.
 * @arg2: For PR_SET_PTRACER: the tracer's pid, PR_SET_PTRACER_ANY, or 0
 *        to clear.
 * @arg3: Unused.
 * @arg4: Unused.
 * @arg5: Unused.
 *
 * Every LSM sees every prctl(): Yama records the same exception when it
 * is stacked with Warden, so that each lets through what the caller
 * allowed.  The exception is recorded whatever the scope, as Yama does:
 * it takes effect when the scope is raised to 1.
 *
 * Return: PRCTL_NOT_MINE for an option that is not Warden's, 0 once
 * the exception is recorded, -EINVAL if no task has the pid, or -ENOMEM.
 */
static int hook_task_prctl(const int option, const unsigned long arg2,
			   const unsigned long arg3, const unsigned long arg4,
			   const unsigned long arg5)
{
	if (option != PR_SET_PTRACER)
		return PRCTL_NOT_MINE;
	return set_ptracer_of_current(arg2);
}

/**
 * hook_task_free - Drop the exception a process granted
 * @task: The task being freed, perhaps from an RCU callback.
 *
 * Only a thread-group leader's blob holds one.  The exception a process
 * got from others ends when it is reaped: its struct pid then has no
 * task, whatever number it had.
 */
static void hook_task_free(struct task_struct *const task)
{
	struct warden_task_security *const blob = warden_task(task);

	put_ptracer(rcu_dereference_protected(blob->ptracer, true));
}

/*
 * Whether @child is @parent or a descendant of it, counting whole thread
 * groups.  The walk ends at the idle task, whose pid is 0.
 *
 * Context: rcu_read_lock() held.
 */
static bool is_descendant(struct task_struct *parent,
			  struct task_struct *child)
{
	parent = READ_ONCE(parent->group_leader);
	while (child->pid > 0) {
		child = READ_ONCE(child->group_leader);
		if (child == parent)
			return true;
		child = rcu_dereference(child->real_parent);
	}
	return false;
}

/*
 * Whether @tracee let @tracer in: by naming it, one of its ancestors or
 * any tracer with PR_SET_PTRACER, or by being already traced by it, for
 * the sake of process_vm_readv() and /proc/PID/mem on a traced process.
 * The cost does not depend on how many exceptions exist.
 *
 * Context: rcu_read_lock() held.
 */
static bool is_exception(struct task_struct *const tracer,
			 struct task_struct *const tracee)
{
	const struct warden_ptracer *ptracer;
	struct task_struct *named, *parent, *leader;

	parent = ptrace_parent(tracee);
	if (parent && same_thread_group(parent, tracer))
		return true;

	leader = READ_ONCE(tracee->group_leader);
	ptracer = rcu_dereference(warden_task(leader)->ptracer);
	if (!ptracer)
		return false;
	if (!ptracer->pid)
		return true;
	named = pid_task(ptracer->pid, PIDTYPE_PID);
	return named && is_descendant(named, tracer);
}

/* The scope @task's process policy raised ptrace_scope to, or 0. */
static int task_process_scope(struct task_struct *const task)
{
	int scope;

	rcu_read_lock();
	scope = warden_cred_level(__task_cred(task), WARDEN_RULE_PTRACE_SCOPE);
	rcu_read_unlock();
	return scope;
}

/*
 * Whether @tracer is the host's administrator for ptrace: a process's own
 * policy never takes away what the host's administrator can do.
 */
static bool is_host_ptracer(const struct task_struct *const tracer)
{
	return has_ns_capability_noaudit((struct task_struct *)tracer,
					 &init_user_ns, CAP_SYS_PTRACE);
}

/*
 * The scope a pair of processes' own policies set.  A process that raised
 * its ptrace_scope may trace no further than that scope allows, whoever
 * it is.  It is also protected at that scope from other tracers, except
 * from one with CAP_SYS_PTRACE in the initial user namespace: a sandbox
 * chooses what it does and who else may read it, not whether the host's
 * administrator may debug it.  Only the process chose this, and only
 * about itself: it never restricts a pair of tasks both outside its
 * policy.
 */
static int process_scope(struct task_struct *const tracer,
			 struct task_struct *const tracee)
{
	const int own = task_process_scope(tracer);
	const int other = task_process_scope(tracee);

	if (other <= own || is_host_ptracer(tracer))
		return own;
	return other;
}

/*
 * Whether @tracer has CAP_SYS_PTRACE over @child.  The check that decides
 * is audited as any capability check; the ones that only find out which
 * scope would have allowed a refusal are not.
 */
static bool has_ptrace_cap(struct task_struct *const tracer,
			   struct task_struct *const child, const bool audit)
{
	struct user_namespace *const ns = __task_cred(child)->user_ns;

	if (audit)
		return ns_capable(ns, CAP_SYS_PTRACE);
	return has_ns_capability_noaudit(tracer, ns, CAP_SYS_PTRACE);
}

static bool may_attach(struct task_struct *const child, const int scope,
		       const bool audit)
{
	bool allowed;

	switch (scope) {
	case WARDEN_PTRACE_CLASSIC:
		return true;
	case WARDEN_PTRACE_RELATIONAL:
		rcu_read_lock();
		allowed = pid_alive(child) &&
			  (is_descendant(current, child) ||
			   is_exception(current, child) ||
			   has_ptrace_cap(current, child, audit));
		rcu_read_unlock();
		return allowed;
	case WARDEN_PTRACE_CAPABILITY:
		rcu_read_lock();
		allowed = has_ptrace_cap(current, child, audit);
		rcu_read_unlock();
		return allowed;
	default:
		return false;
	}
}

/*
 * The highest scope below @refused_at that lets the current task attach
 * to @child, or WARDEN_PTRACE_CLASSIC: what the report of a refusal at
 * @refused_at says would allow it.
 */
static int attach_allowed_below(struct task_struct *const child,
				int refused_at)
{
	while (--refused_at > WARDEN_PTRACE_CLASSIC)
		if (may_attach(child, refused_at, false))
			break;
	return refused_at;
}

/*
 * Decides what the refusal by ptrace_scope of @object comes to, which
 * the policy of either process may make final (@process: the scope they
 * set, see process_scope()), and reports it unless @quiet.
 */
static int refuse(const struct warden_ptrace_object *const object,
		  const int process, const int allowed_at, const bool quiet,
		  const int err)
{
	const struct warden_decision decision =
		warden_decide(WARDEN_RULE_PTRACE_SCOPE, process, allowed_at);

	if (!quiet)
		warden_report(&(const struct warden_report){
			.rule = WARDEN_RULE_PTRACE_SCOPE,
			.decision = decision,
			.ptrace = *object,
		});
	return warden_enforce(&decision, err);
}

/*
 * Refuses @op on @child, reported as @op, unless the scope lets the
 * current task attach to it.  The scope is the global one, raised by the
 * policies of the two processes (see process_scope()).
 */
static int check_attach(struct task_struct *const child,
			const enum warden_ptrace_op op, const bool quiet)
{
	const int process = process_scope(current, child);
	const int scope =
		max(warden_global_level(WARDEN_RULE_PTRACE_SCOPE), process);

	if (may_attach(child, scope, !quiet))
		return 0;
	return refuse(&(const struct warden_ptrace_object){
		.op = op,
		.scope = scope,
		.tracer = current,
		.target = child,
	}, process, attach_allowed_below(child, scope), quiet, -EPERM);
}

/*
 * The scope at which a PTRACE_MODE_READ access is checked, given the
 * global scope and the one the two processes' policies set, or
 * WARDEN_PTRACE_CLASSIC if it is not.  ps, top and lsof read the /proc
 * files of every process, so the global scopes 1 and 2 leave reads to
 * the classic rules, as Yama does.  A process that raised its own scope
 * asked not to be read, at any global scope, and global scope 3 means
 * that no process is.  Even then a read is held to scope 2 at most:
 * CAP_SYS_PTRACE still reads, so that root's ps and lsof, and journald
 * asking who sent a message, keep working.
 */
static int read_scope(const int global, const int process)
{
	if (process == WARDEN_PTRACE_CLASSIC &&
	    global != WARDEN_PTRACE_NO_ATTACH)
		return WARDEN_PTRACE_CLASSIC;
	return min(max(global, process), WARDEN_PTRACE_CAPABILITY);
}

/*
 * Refuses a read of @child, as an attach at read_scope() is refused.
 * Without a process policy, only global scope 3 refuses a read, which
 * scope 2 then allows.  The refusal is EACCES, as mm_access() and the
 * /proc links report it.
 */
static int check_read(struct task_struct *const child, const bool quiet)
{
	const int global = warden_global_level(WARDEN_RULE_PTRACE_SCOPE);
	const int process = process_scope(current, child);
	const int checked_at = read_scope(global, process);

	if (may_attach(child, checked_at, !quiet))
		return 0;
	return refuse(&(const struct warden_ptrace_object){
		.op = WARDEN_PTRACE_READ,
		.scope = max(global, process),
		.tracer = current,
		.target = child,
	}, process, process ? attach_allowed_below(child, checked_at) :
			      WARDEN_PTRACE_CAPABILITY, quiet, -EACCES);
}

/**
 * hook_ptrace_access_check - Restrict attaching to and reading a process
 * @child: The task the current task wants to attach to, or read.
 * @mode: PTRACE_MODE_* flags.
 *
 * PTRACE_MODE_ATTACH is ptrace() itself, but also /proc/PID/mem,
 * process_vm_readv() and the like: it is checked at the scope.
 * PTRACE_MODE_READ is /proc/PID/environ, the links in /proc/PID/fd,
 * perf_event_open() on a task, kcmp() and the like: it is checked only
 * when a process raised its own scope, or at global scope 3 (see
 * read_scope()).  The kernel allows a thread group to access itself
 * before it asks any LSM.  A PTRACE_MODE_NOAUDIT access, such as the
 * fields of /proc/PID/stat that only a reader may see, is refused
 * without a report.
 *
 * Context: task_lock(@child) held: does not sleep.
 *
 * Return: 0 if the scope allows the access or only complains, -EPERM
 * for an attach, -EACCES for a read otherwise.
 */
static int hook_ptrace_access_check(struct task_struct *const child,
				    const unsigned int mode)
{
	const bool quiet = mode & PTRACE_MODE_NOAUDIT;

	if (mode & PTRACE_MODE_ATTACH)
		return check_attach(child, WARDEN_PTRACE_ATTACH, quiet);
	return check_read(child, quiet);
}

/*
 * Whether the parent a process asks to be traced by has CAP_SYS_PTRACE
 * over it.  Only at scope 2 does the answer decide, and only then is the
 * check audited: at scope 3 it only says which scope would have allowed.
 */
static bool parent_has_ptrace_cap(struct task_struct *const parent,
				  const int scope)
{
	if (scope == WARDEN_PTRACE_CAPABILITY)
		return has_ns_capability(parent, current_user_ns(),
					 CAP_SYS_PTRACE);
	return has_ns_capability_noaudit(parent, current_user_ns(),
					 CAP_SYS_PTRACE);
}

/**
 * hook_ptrace_traceme - Restrict PTRACE_TRACEME
 * @parent: The task that would trace the current task.
 *
 * A process that asks to be traced chose its tracer: scope 1 lets it, as
 * Yama does.  Scope 2 still wants CAP_SYS_PTRACE from the tracer, and
 * scope 3 refuses.  The scope is the global one, raised by the policies
 * of the two processes (see process_scope()).
 *
 * Context: write_lock_irq(&tasklist_lock) held: does not sleep.
 *
 * Return: 0 if the scope allows it or only complains, -EPERM otherwise.
 */
static int hook_ptrace_traceme(struct task_struct *const parent)
{
	const int process = process_scope(parent, current);
	const int scope =
		max(warden_global_level(WARDEN_RULE_PTRACE_SCOPE), process);
	int allowed_at = WARDEN_PTRACE_RELATIONAL;

	if (scope <= WARDEN_PTRACE_RELATIONAL)
		return 0;
	if (parent_has_ptrace_cap(parent, scope)) {
		if (scope == WARDEN_PTRACE_CAPABILITY)
			return 0;
		allowed_at = WARDEN_PTRACE_CAPABILITY;
	}
	return refuse(&(const struct warden_ptrace_object){
		.op = WARDEN_PTRACE_TRACEME,
		.scope = scope,
		.tracer = parent,
		.target = current,
	}, process, allowed_at, false, -EPERM);
}

/**
 * hook_task_setrlimit - Restrict changing another process's resource limits
 * @p: The task whose limits would change.
 * @resource: Unused: every limit is checked.
 * @new_rlim: Unused.
 *
 * Whoever may raise another process's core limit, then make it dump,
 * reads its memory in the core file; whoever may lower its limits makes
 * it fail where it chooses.  So a change of the limits of another thread
 * group, with prlimit(2), is an attach: the same decision at the same
 * scope (see check_attach()).  A process's own limits are its own.
 *
 * Context: task_lock(@p->group_leader) held: does not sleep.
 *
 * Return: 0 if the scope allows an attach or only complains, -EPERM
 * otherwise.
 */
static int hook_task_setrlimit(struct task_struct *const p,
			       const unsigned int resource,
			       struct rlimit *const new_rlim)
{
	if (same_thread_group(p, current))
		return 0;
	return check_attach(p, WARDEN_PTRACE_SETRLIMIT, false);
}

static struct security_hook_list warden_ptrace_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, hook_ptrace_traceme),
	LSM_HOOK_INIT(task_setrlimit, hook_task_setrlimit),
	LSM_HOOK_INIT(task_prctl, hook_task_prctl),
	LSM_HOOK_INIT(task_free, hook_task_free),
};

/**
 * warden_add_ptrace_hooks - Register the ptrace hooks
 */
void __init warden_add_ptrace_hooks(void)
{
	security_add_hooks(warden_ptrace_hooks, ARRAY_SIZE(warden_ptrace_hooks),
			   &warden_lsmid);
}

#include "ptrace_test.c"
