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

#include <linux/cache.h>
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "common.h"
#include "limits.h"
#include "report.h"
#include "settings.h"

#define WARDEN_RULE(ID, ...)						\
	[WARDEN_RULE_##ID] = CONFIG_SECURITY_WARDEN_##ID,
int warden_levels[WARDEN_RULE_COUNT] __read_mostly = {
#include "rule_defs.h"
};

#undef WARDEN_RULE

int warden_complain_modes[WARDEN_RULE_COUNT] __read_mostly;
int warden_locked __read_mostly;

/* Serializes writes, so that a check of the lock holds until the store. */
static DEFINE_MUTEX(warden_settings_mutex);

#define WARDEN_RULE(ID, ident, ...)					\
	[WARDEN_LEVEL_KNOB(WARDEN_RULE_##ID)] = {			\
		.name = #ident,						\
		.rule = WARDEN_RULE_##ID,				\
		.kind = WARDEN_KNOB_LEVEL,				\
	},								\
	[WARDEN_COMPLAIN_KNOB(WARDEN_RULE_##ID)] = {			\
		.name = #ident "_complain",				\
		.rule = WARDEN_RULE_##ID,				\
		.kind = WARDEN_KNOB_COMPLAIN,				\
	},
const struct warden_knob warden_knobs[WARDEN_KNOB_COUNT] = {
#include "rule_defs.h"
	[WARDEN_LOCK_KNOB] = {
		.name = "lock",
		.kind = WARDEN_KNOB_LOCK,
	},
};

#undef WARDEN_RULE

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
 * warden_knob_max - The highest value of a setting
 * @knob: The setting.
 *
 * Return: The rule's highest level for a level, 1 for a mode or the lock;
 * the lowest is 0.
 */
int warden_knob_max(const struct warden_knob *const knob)
{
	return knob->kind == WARDEN_KNOB_LEVEL ? warden_rules[knob->rule].max :
						 1;
}

/**
 * warden_knob_cap - The capability that changes a setting
 * @knob: The setting.
 *
 * Return: The rule's capability for its level and mode, CAP_SYS_ADMIN for
 * the lock.
 */
int warden_knob_cap(const struct warden_knob *const knob)
{
	return knob->kind == WARDEN_KNOB_LOCK ? CAP_SYS_ADMIN :
						warden_rules[knob->rule].cap;
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
	if (*value < 0 || *value > warden_knob_max(knob))
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
 * Boot parameters are warden.<knob>=<value>, parsed in the order they are
 * written, before any process runs: they ignore the lock and ptrace_scope
 * 3, so that "warden.lock=1 warden.protected_regular=2" means what it
 * says.  They are not module parameters: those would also be files under
 * /sys/module, where a write would bypass the lock.
 */
static int __init set_param(char *const str)
{
	const char *const eq = strchr(str, '=');
	const size_t len = eq ? eq - str : strlen(str);
	size_t i;
	int value;

	for (i = 0; i < ARRAY_SIZE(warden_knobs); i++) {
		const struct warden_knob *const knob = &warden_knobs[i];

		if (strlen(knob->name) != len || strncmp(str, knob->name, len))
			continue;
		if (!eq || warden_parse_knob(knob, eq + 1, strlen(eq + 1),
					     &value))
			pr_err("`%s' invalid for parameter `" WARDEN_NAME ".%s'\n",
			       eq ? eq + 1 : "", knob->name);
		else
			WRITE_ONCE(*warden_knob_value(knob), value);
		return 1;
	}
	pr_err("unknown parameter `" WARDEN_NAME ".%.*s'\n", (int)len, str);
	return 1;
}
__setup(WARDEN_NAME ".", set_param);

static int __init kconfig_value(const struct warden_knob *const knob)
{
	return knob->kind == WARDEN_KNOB_LEVEL ?
		       warden_rules[knob->rule].kconfig_level : 0;
}

/**
 * warden_report_boot_settings - Report what the boot parameters changed
 *
 * The boot parameters were parsed before audit was up: what they changed
 * from the built-in defaults is said once audit is, before the first
 * process runs.
 *
 * Return: 0.
 */
int __init warden_report_boot_settings(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(warden_knobs); i++) {
		const struct warden_knob *const knob = &warden_knobs[i];
		const int old = kconfig_value(knob);
		const int new = READ_ONCE(*warden_knob_value(knob));

		if (old != new)
			report_knob(knob, old, new, WARDEN_VIA_BOOT, 0);
	}
	return 0;
}

#include "settings_test.c"
