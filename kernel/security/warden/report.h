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

#include "limits.h"

enum warden_ptrace_op {
	WARDEN_PTRACE_ATTACH,
	WARDEN_PTRACE_TRACEME,
	WARDEN_PTRACE_READ,
	WARDEN_PTRACE_SETRLIMIT,
};

struct task_struct;

/**
 * struct warden_fs_object - What a filesystem rule refused
 * @path: The file, link or target refused; only used while the report is
 *        written.
 * @owner: Owner of @path, mapped through its mount.
 * @dir_owner: Owner of the directory holding @path, as the walk saw it,
 *             for the rules about sticky directories.
 * @dir_mode: Mode of that directory, as the walk saw it, or 0.
 * @target_owner: Owner of what a symlink led to, mapped through its mount,
 *                for protected_symlink_owner.
 * @op: What was refused, if not the rule's usual operation (NULL): an
 *      exec for the hard-link rule.
 */
struct warden_fs_object {
	const struct path *path;
	kuid_t owner;
	kuid_t dir_owner;
	umode_t dir_mode;
	kuid_t target_owner;
	const char *op;
};

/**
 * struct warden_ptrace_object - What ptrace_scope refused
 * @op: An attach, a PTRACE_TRACEME, a read (PTRACE_MODE_READ), or a change
 *      of another process's resource limits.
 * @scope: The scope that refused it: the global one, or higher if the
 *         policy of either process raised it.
 * @tracer: The task that would have traced, read or changed the limits.
 * @target: The task that would have been traced, read, or limited.
 */
struct warden_ptrace_object {
	enum warden_ptrace_op op;
	int scope;
	const struct task_struct *tracer;
	const struct task_struct *target;
};

/**
 * struct warden_report - A refusal, as its rule decided it
 * @rule: The rule that refused.
 * @decision: What the rule decided (warden_decide()).
 * @fs: What a filesystem rule refused.
 * @ptrace: What ptrace_scope refused.
 */
struct warden_report {
	enum warden_rule rule;
	struct warden_decision decision;
	union {
		struct warden_fs_object fs;
		struct warden_ptrace_object ptrace;
	};
};

void warden_report(const struct warden_report *report);

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
