/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Ptrace scopes
 */

#ifndef _SECURITY_WARDEN_PTRACE_H
#define _SECURITY_WARDEN_PTRACE_H

#include <linux/init.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "setup.h"

struct pid;

/**
 * struct warden_ptracer - A tracer that a process named with PR_SET_PTRACER
 * @pid: The named task, as it was when it was named; NULL for any tracer.
 *       Holding it keeps the struct, not the number: once the task is
 *       reaped, pid_task() finds nothing in it, even if the number went
 *       to a new process.
 * @rcu: Frees this exception once no check can still be reading it.
 */
struct warden_ptracer {
	struct pid *pid;
	struct rcu_head rcu;
};

/**
 * struct warden_task_security - Warden's part of a task's security blob
 * @ptracer: The exception to the ptrace scope of this process, or NULL.
 *           Only used in the blob of a thread-group leader.  Replaced with
 *           xchg() by PR_SET_PTRACER, read under RCU by the checks, freed
 *           after a grace period; dropped with the task.
 */
struct warden_task_security {
	struct warden_ptracer __rcu *ptracer;
};

static inline struct warden_task_security *
warden_task(const struct task_struct *const task)
{
	return task->security + warden_blob_sizes.lbs_task;
}

void __init warden_add_ptrace_hooks(void);

#endif /* _SECURITY_WARDEN_PTRACE_H */
