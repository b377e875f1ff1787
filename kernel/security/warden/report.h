/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Reports of denials
 */

#ifndef _SECURITY_WARDEN_REPORT_H
#define _SECURITY_WARDEN_REPORT_H

#include <linux/init.h>
#include <linux/path.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "settings.h"

enum warden_ptrace_op {
	WARDEN_PTRACE_ATTACH,
	WARDEN_PTRACE_TRACEME,
	WARDEN_PTRACE_READ,
	WARDEN_PTRACE_SETRLIMIT,
};

struct task_struct;

/**
 * struct warden_denial - What a rule refused, for its report
 * @rule: The rule that refused.
 * @path: The object refused; only used while the report is written.
 * @owner: Owner of @path, mapped through its mount.
 * @dir_owner: Owner of the directory holding @path, as the walk saw it,
 *             for the rules about sticky directories.
 * @dir_mode: Mode of that directory, as the walk saw it, or 0.
 * @target_owner: Owner of what a symlink led to, mapped through its mount,
 *                for protected_symlink_owner.
 * @allowed_at: The highest level of the rule that would allow it.
 * @op: What was refused, in the log and the audit record, if not the
 *      rule's usual operation (NULL): an exec for the hard-link rule.
 */
struct warden_denial {
	enum warden_rule rule;
	const struct path *path;
	kuid_t owner;
	kuid_t dir_owner;
	umode_t dir_mode;
	kuid_t target_owner;
	int allowed_at;
	const char *op;
};

int warden_refuse(const struct warden_denial *denial, int err);

/**
 * struct warden_ptrace_denial - A ptrace the ptrace_scope rule refused
 * @op: An attach, a PTRACE_TRACEME, a read (PTRACE_MODE_READ), or a change
 *      of another process's resource limits.
 * @scope: The scope that refused it: the global one, or higher if the
 *         policy of either process raised it.
 * @process_scope: The higher of the scopes the two processes' policies set.
 * @allowed_at: The highest scope that would allow it.
 * @quiet: Neither report nor count it (PTRACE_MODE_NOAUDIT).
 * @tracer: The task that would have traced, read or changed the limits.
 * @target: The task that would have been traced, read, or limited.
 */
struct warden_ptrace_denial {
	enum warden_ptrace_op op;
	int scope;
	int process_scope;
	int allowed_at;
	bool quiet;
	const struct task_struct *tracer;
	const struct task_struct *target;
};

int warden_refuse_ptrace(const struct warden_ptrace_denial *denial, int err);

/* Who changed a setting. */
enum warden_via {
	WARDEN_VIA_SYSCTL,
	WARDEN_VIA_BOOT,
	WARDEN_VIA_PROCESS,
};

void warden_report_setting(const char *setting, const char *old,
			   const char *new, enum warden_via via, int err);

void __init warden_init_reports(void);

#endif /* _SECURITY_WARDEN_REPORT_H */
