/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Settings: each rule's level and mode, and the lock
 */

#ifndef _SECURITY_WARDEN_SETTINGS_H
#define _SECURITY_WARDEN_SETTINGS_H

#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "cred.h"
#include "limits.h"

enum warden_knob_kind {
	WARDEN_KNOB_LEVEL,
	WARDEN_KNOB_COMPLAIN,
	WARDEN_KNOB_LOCK,
};

/**
 * struct warden_knob - One setting, as a sysctl and a boot parameter
 * @name: Its name under kernel.warden and after "warden." on the command
 *        line.
 * @rule: The rule it sets; unused for the lock.
 * @kind: A rule's level, a rule's complain mode, or the lock.
 * @max: The highest value it takes; the lowest is 0.
 * @cap: The capability a sysctl write needs in the initial user namespace.
 */
struct warden_knob {
	const char *name;
	enum warden_rule rule;
	enum warden_knob_kind kind;
	int max;
	int cap;
};

extern int warden_levels[WARDEN_RULE_COUNT];
extern int warden_complain_modes[WARDEN_RULE_COUNT];
extern int warden_locked;
extern const struct warden_knob *const warden_knobs[];
extern const size_t warden_knob_count;

/*
 * Settings are read without a lock: a check that races a write sees
 * either value, and both are valid.
 */

/**
 * warden_global_level - The level a rule has for every process
 * @rule: The rule.
 *
 * Return: The level of the rule's sysctl, 0 when it is off.
 */
static inline int warden_global_level(const enum warden_rule rule)
{
	return READ_ONCE(warden_levels[rule]);
}

/**
 * warden_level - The level a rule has for the current task
 * @rule: The rule.
 *
 * A process may raise a rule for itself and its descendants, never lower
 * it: the stricter of the two levels holds.  One load from the current
 * task's credentials, whatever the number of processes with a policy.
 *
 * Return: The rule's effective level, 0 when it is off.
 */
static inline int warden_level(const enum warden_rule rule)
{
	return max(warden_global_level(rule), warden_current_level(rule));
}

/**
 * warden_complains - Whether a rule only reports what it would refuse
 * @rule: The rule.
 *
 * Complain mode is the administrator's, for the global levels: what a
 * process's own policy refuses is always refused (see warden_refuse()).
 * ptrace_scope 3 is meant to hold even against root: it always enforces.
 *
 * Return: true if the rule is in complain mode.
 */
static inline bool warden_complains(const enum warden_rule rule)
{
	if (rule == WARDEN_RULE_PTRACE_SCOPE &&
	    warden_global_level(rule) == WARDEN_PTRACE_NO_ATTACH)
		return false;
	return READ_ONCE(warden_complain_modes[rule]);
}

int *warden_knob_value(const struct warden_knob *knob);
const struct warden_knob *warden_level_knob(enum warden_rule rule);
const char *warden_rule_name(enum warden_rule rule);
int warden_parse_knob(const struct warden_knob *knob, const char *buffer,
		      size_t len, int *value);
int warden_set_knob(const struct warden_knob *knob, int value);

#ifdef CONFIG_SYSCTL
int __init warden_init_sysctl(void);
#else /* !CONFIG_SYSCTL */
static inline int warden_init_sysctl(void)
{
	return 0;
}
#endif /* CONFIG_SYSCTL */

#endif /* _SECURITY_WARDEN_SETTINGS_H */
