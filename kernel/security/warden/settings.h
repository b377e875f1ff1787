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
 */
struct warden_knob {
	const char *name;
	enum warden_rule rule;
	enum warden_knob_kind kind;
};

/* The settings: each rule's level, then its complain mode; the lock last. */
#define WARDEN_LEVEL_KNOB(rule)		(2 * (rule))
#define WARDEN_COMPLAIN_KNOB(rule)	(2 * (rule) + 1)
#define WARDEN_LOCK_KNOB		(2 * WARDEN_RULE_COUNT)
#define WARDEN_KNOB_COUNT		(WARDEN_LOCK_KNOB + 1)

extern int warden_levels[WARDEN_RULE_COUNT];
extern int warden_complain_modes[WARDEN_RULE_COUNT];
extern int warden_locked;
extern const struct warden_knob warden_knobs[WARDEN_KNOB_COUNT];

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
 * it: the stricter of the two levels holds.  The global level and one
 * byte of the current task's credentials are read, whatever the number
 * of processes with a policy.
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
 * process's own policy refuses is always refused (see warden_decide()).
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

/**
 * warden_decide - Decide what a refusal of a rule comes to
 * @rule: The rule that refuses.
 * @process_level: The level the policies of the processes concerned set
 *                 for @rule, 0 if they raised nothing.
 * @allowed_at: The highest level of @rule that would allow the access.
 *
 * A higher level refuses everything a lower one does, so the process's
 * own policy refuses when its level is above @allowed_at.  Complain mode
 * is how an administrator tries a global level: it must not weaken a
 * sandbox, so what the process's own policy refuses is refused.
 *
 * Return: The decision, for the rule to enforce (warden_enforce()) and to
 * report (warden_report()).
 */
static inline struct warden_decision
warden_decide(const enum warden_rule rule, const int process_level,
	      const int allowed_at)
{
	const bool by_process = process_level > allowed_at;

	return (struct warden_decision){
		.verdict = !by_process && warden_complains(rule) ?
				   WARDEN_WOULD_DENY : WARDEN_DENIED,
		.by_process = by_process,
		.allowed_at = allowed_at,
	};
}

/**
 * warden_enforce - What a hook returns for a refusal it decided
 * @decision: The decision.
 * @err: The error the access fails with if the rule enforces.
 *
 * Return: @err, or 0 if the rule only complains.
 */
static inline int warden_enforce(const struct warden_decision *const decision,
				 const int err)
{
	return decision->verdict == WARDEN_DENIED ? err : 0;
}

int *warden_knob_value(const struct warden_knob *knob);
int warden_knob_max(const struct warden_knob *knob);
int warden_knob_cap(const struct warden_knob *knob);

int warden_parse_knob(const struct warden_knob *knob, const char *buffer,
		      size_t len, int *value);
int warden_set_knob(const struct warden_knob *knob, int value);

#ifdef CONFIG_SYSCTL
void __init warden_init_sysctl(void);
int __init warden_report_boot_settings(void);
#else /* !CONFIG_SYSCTL */
static inline void warden_init_sysctl(void)
{
}
#endif /* CONFIG_SYSCTL */

#endif /* _SECURITY_WARDEN_SETTINGS_H */
