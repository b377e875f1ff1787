// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Settings: each rule's level and mode, and the lock
 *
 * Every setting is both a sysctl and a boot parameter, parsed the same
 * way, so that the policy a distribution ships on the command line holds
 * from the first process on.  A rule in complain mode reports and counts
 * what it would refuse, and allows it: a safe way to find out what a rule
 * would break before enforcing it.  The lock freezes every setting until
 * reboot, so that whoever becomes root later cannot undo the policy.
 */

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "common.h"
#include "limits.h"
#include "report.h"
#include "settings.h"
#include "setup.h"

/* The boot parameters are warden.<knob>, however this file is linked. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX WARDEN_NAME "."

#define WARDEN_KCONFIG_LEVELS {					\
	[WARDEN_RULE_STICKY_SYMLINKS] =					\
		CONFIG_SECURITY_WARDEN_STICKY_SYMLINKS,			\
	[WARDEN_RULE_NONACCESS_HARDLINKS] =				\
		CONFIG_SECURITY_WARDEN_NONACCESS_HARDLINKS,		\
	[WARDEN_RULE_FIFOS] = CONFIG_SECURITY_WARDEN_FIFOS,		\
	[WARDEN_RULE_REGULAR] = CONFIG_SECURITY_WARDEN_REGULAR,		\
	[WARDEN_RULE_PTRACE_SCOPE] = CONFIG_SECURITY_WARDEN_PTRACE_SCOPE, \
}

int warden_levels[WARDEN_RULE_COUNT] __read_mostly = WARDEN_KCONFIG_LEVELS;

/* What the kernel was built with, to tell what the boot parameters changed. */
static const int warden_kconfig_levels[WARDEN_RULE_COUNT] __initconst =
	WARDEN_KCONFIG_LEVELS;

int warden_complain_modes[WARDEN_RULE_COUNT] __read_mostly;
int warden_locked __read_mostly;

/* Serializes writes, so that a check of the lock holds until the store. */
static DEFINE_MUTEX(warden_settings_mutex);

static int set_param(const char *val, const struct kernel_param *kp);

static const struct kernel_param_ops warden_param_ops = {
	.set = set_param,
};

/*
 * The parameter is only set from the command line, before any process
 * runs: perm 0 keeps it out of /sys/module, where a write would bypass
 * the lock.
 */
#define DEFINE_WARDEN_KNOB(ident, rule_, kind_, max_, cap_)		\
	static struct warden_knob knob_##ident = {			\
		.name = #ident,						\
		.rule = (rule_),					\
		.kind = (kind_),					\
		.max = (max_),						\
		.cap = (cap_),						\
	};								\
	module_param_cb(ident, &warden_param_ops, &knob_##ident, 0)

DEFINE_WARDEN_KNOB(protected_sticky_symlinks, WARDEN_RULE_STICKY_SYMLINKS,
		   WARDEN_KNOB_LEVEL, WARDEN_STICKY_GROUP, CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_sticky_symlinks_complain,
		   WARDEN_RULE_STICKY_SYMLINKS, WARDEN_KNOB_COMPLAIN, 1,
		   CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_nonaccess_hardlinks,
		   WARDEN_RULE_NONACCESS_HARDLINKS, WARDEN_KNOB_LEVEL,
		   WARDEN_HARDLINKS_ON, CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_nonaccess_hardlinks_complain,
		   WARDEN_RULE_NONACCESS_HARDLINKS, WARDEN_KNOB_COMPLAIN, 1,
		   CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_fifos, WARDEN_RULE_FIFOS, WARDEN_KNOB_LEVEL,
		   WARDEN_STICKY_GROUP, CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_fifos_complain, WARDEN_RULE_FIFOS,
		   WARDEN_KNOB_COMPLAIN, 1, CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_regular, WARDEN_RULE_REGULAR, WARDEN_KNOB_LEVEL,
		   WARDEN_STICKY_GROUP, CAP_SYS_ADMIN);
DEFINE_WARDEN_KNOB(protected_regular_complain, WARDEN_RULE_REGULAR,
		   WARDEN_KNOB_COMPLAIN, 1, CAP_SYS_ADMIN);
/* As Yama's: CAP_SYS_PTRACE changes the ptrace scope. */
DEFINE_WARDEN_KNOB(ptrace_scope, WARDEN_RULE_PTRACE_SCOPE, WARDEN_KNOB_LEVEL,
		   WARDEN_PTRACE_NO_ATTACH, CAP_SYS_PTRACE);
DEFINE_WARDEN_KNOB(ptrace_scope_complain, WARDEN_RULE_PTRACE_SCOPE,
		   WARDEN_KNOB_COMPLAIN, 1, CAP_SYS_PTRACE);
DEFINE_WARDEN_KNOB(lock, WARDEN_RULE_COUNT, WARDEN_KNOB_LOCK, 1,
		   CAP_SYS_ADMIN);

const struct warden_knob *const warden_knobs[] = {
	&knob_protected_sticky_symlinks,
	&knob_protected_sticky_symlinks_complain,
	&knob_protected_nonaccess_hardlinks,
	&knob_protected_nonaccess_hardlinks_complain,
	&knob_protected_fifos,
	&knob_protected_fifos_complain,
	&knob_protected_regular,
	&knob_protected_regular_complain,
	&knob_ptrace_scope,
	&knob_ptrace_scope_complain,
	&knob_lock,
};

const size_t warden_knob_count = ARRAY_SIZE(warden_knobs);

/**
 * warden_knob_value - Where a setting's value is
 * @knob: The setting.
 *
 * Return: The value, to be read with READ_ONCE().
 */
int *warden_knob_value(const struct warden_knob *const knob)
{
	switch (knob->kind) {
	case WARDEN_KNOB_LEVEL:
		return &warden_levels[knob->rule];
	case WARDEN_KNOB_COMPLAIN:
		return &warden_complain_modes[knob->rule];
	default:
		return &warden_locked;
	}
}

/**
 * warden_level_knob - The setting of a rule's global level
 * @rule: The rule.
 *
 * Return: The setting, or NULL for an unknown rule.
 */
const struct warden_knob *warden_level_knob(const enum warden_rule rule)
{
	size_t i;

	for (i = 0; i < warden_knob_count; i++)
		if (warden_knobs[i]->kind == WARDEN_KNOB_LEVEL &&
		    warden_knobs[i]->rule == rule)
			return warden_knobs[i];
	return NULL;
}

/**
 * warden_rule_name - The name of a rule, and of the sysctl of its level
 * @rule: The rule.
 *
 * Return: The name, e.g. "protected_regular".
 */
const char *warden_rule_name(const enum warden_rule rule)
{
	const struct warden_knob *const knob = warden_level_knob(rule);

	return knob ? knob->name : "?";
}

/**
 * warden_parse_knob - Parse a value written to a setting
 * @knob: The setting.
 * @buffer: What was written: one decimal integer, perhaps with a newline.
 * @len: The length of @buffer.
 * @value: The value, on success.
 *
 * A security setting must be exactly what the administrator wrote or
 * unchanged: "1 2", "1x", an embedded NUL or an out-of-range value is
 * refused, not truncated or clamped.
 *
 * Return: 0, or -EINVAL.
 */
int warden_parse_knob(const struct warden_knob *const knob,
		      const char *const buffer, const size_t len,
		      int *const value)
{
	/* An embedded NUL would hide the rest of the write from kstrtoint(). */
	if (strnlen(buffer, len) != len)
		return -EINVAL;
	if (kstrtoint(buffer, 10, value))
		return -EINVAL;
	if (*value < 0 || *value > knob->max)
		return -EINVAL;
	return 0;
}

/*
 * Scope 3 is for systems that must never be traced: once set, neither
 * a lower scope nor complain mode can reopen the door until reboot.
 */
static bool is_frozen_ptrace(const struct warden_knob *const knob,
			     const int value)
{
	if (knob->kind == WARDEN_KNOB_LOCK ||
	    knob->rule != WARDEN_RULE_PTRACE_SCOPE ||
	    warden_global_level(WARDEN_RULE_PTRACE_SCOPE) !=
		    WARDEN_PTRACE_NO_ATTACH)
		return false;
	if (knob->kind == WARDEN_KNOB_LEVEL)
		return value != WARDEN_PTRACE_NO_ATTACH;
	return value;
}

static void report_knob(const struct warden_knob *const knob, const int old,
			const int new, const enum warden_via via, const int err)
{
	char setting[sizeof("kernel." WARDEN_NAME ".") + 48];
	char old_text[12], new_text[12];

	snprintf(setting, sizeof(setting), "kernel." WARDEN_NAME ".%s",
		 knob->name);
	snprintf(old_text, sizeof(old_text), "%d", old);
	snprintf(new_text, sizeof(new_text), "%d", new);
	warden_report_setting(setting, old_text, new_text, via, err);
}

/**
 * warden_set_knob - Change a setting at run time
 * @knob: The setting.
 * @value: A value that warden_parse_knob() accepted.
 *
 * The caller checked the capability.  Once locked, every setting stays as
 * it is, the lock included.  A change, and a change refused, is logged and
 * audited; writing the value a setting already has changes nothing and
 * says nothing.
 *
 * Context: Process context; takes a mutex.
 *
 * Return: 0, or -EPERM if the lock or ptrace_scope 3 forbids the change.
 */
int warden_set_knob(const struct warden_knob *const knob, const int value)
{
	int *const setting = warden_knob_value(knob);
	int err = 0, old;

	mutex_lock(&warden_settings_mutex);
	old = READ_ONCE(*setting);
	if (READ_ONCE(warden_locked) || is_frozen_ptrace(knob, value))
		err = -EPERM;
	else
		WRITE_ONCE(*setting, value);
	mutex_unlock(&warden_settings_mutex);
	if (err || old != value)
		report_knob(knob, old, value, WARDEN_VIA_SYSCTL, err);
	return err;
}

/*
 * Boot parameters are parsed in the order they are written, before any
 * process runs: they ignore the lock and ptrace_scope 3, so that
 * "warden.lock=1 warden.protected_regular=2" means what it says.
 */
static int set_param(const char *const val, const struct kernel_param *kp)
{
	const struct warden_knob *const knob = kp->arg;
	int value, err;

	if (!val)
		return -EINVAL;
	err = warden_parse_knob(knob, val, strlen(val), &value);
	if (err)
		return err;
	WRITE_ONCE(*warden_knob_value(knob), value);
	return 0;
}

static int __init kconfig_value(const struct warden_knob *const knob)
{
	return knob->kind == WARDEN_KNOB_LEVEL ?
		       warden_kconfig_levels[knob->rule] : 0;
}

/*
 * The boot parameters were parsed before audit was up: what they changed
 * from the built-in defaults is said once audit is, before the first
 * process runs.
 */
static int __init warden_report_boot_settings(void)
{
	size_t i;

	if (!warden_enabled)
		return 0;
	for (i = 0; i < warden_knob_count; i++) {
		const struct warden_knob *const knob = warden_knobs[i];
		const int old = kconfig_value(knob);
		const int new = READ_ONCE(*warden_knob_value(knob));

		if (old != new)
			report_knob(knob, old, new, WARDEN_VIA_BOOT, 0);
	}
	return 0;
}
late_initcall(warden_report_boot_settings);
