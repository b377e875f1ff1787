// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - The rules: one table, that every command reads
 */

#include <string.h>

#include "wardenctl.h"

#define RULE(rule_name, rule_alias, ...)                                   \
	{ .name = rule_name, .complain = rule_name "_complain",             \
	  .alias = rule_alias, __VA_ARGS__ }

/*
 * In the kernel's order: the rule ids, and the order of the counters.
 * The usage, status, set, exec's options, explain and the parsers of the
 * counters, of the policies and of the log all read this table, and no
 * other list of the rules: a rule added here is known everywhere.
 */
const struct rule rules[] = {
	RULE("protected_sticky_symlinks", "symlinks", .max = 2,
	     .op = "follow", .file_kind = "file"),
	RULE("protected_nonaccess_hardlinks", "hardlinks", .max = 1,
	     .op = "link", .file_kind = "file"),
	RULE("protected_fifos", "fifos", .max = 2,
	     .op = "open_creat", .file_kind = "FIFO"),
	RULE("protected_regular", "regular", .max = 2,
	     .op = "open_creat", .file_kind = "regular file"),
	RULE("ptrace_scope", "ptrace", .max = 3, .final = 3, .ptrace = true),
	RULE("protected_symlink_owner", "symlink-owner", .max = 2,
	     .op = "follow", .file_kind = "file"),
	RULE("protected_sticky_writes", "writes", .max = 2,
	     .op = "write", .file_kind = "file"),
};

_Static_assert(ARRAY_SIZE(rules) == RULE_COUNT,
	       "RULE_COUNT in wardenctl.h is the number of rules");

/* The rule named @name or @alias, as the command line gives it, or NULL. */
const struct rule *find_rule(const char *const name)
{
	size_t i;

	for (i = 0; i < RULE_COUNT; i++) {
		if (!strcmp(rules[i].name, name) ||
		    !strcmp(rules[i].alias, name))
			return &rules[i];
	}
	return NULL;
}

/* The rule named @name, as the kernel writes it (never an alias), or NULL. */
const struct rule *rule_by_name(const char *const name)
{
	size_t i;

	for (i = 0; name && i < RULE_COUNT; i++) {
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	}
	return NULL;
}

/*
 * The rule whose level (kernel.warden.NAME) or mode (NAME_complain) is
 * the sysctl @knob, with its prefix, or NULL; @complain says which.
 */
const struct rule *rule_of_knob(const char *const knob, bool *const complain)
{
	const size_t prefix = strlen(KNOB_PREFIX);
	size_t i;

	if (strncmp(knob, KNOB_PREFIX, prefix))
		return NULL;
	for (i = 0; i < RULE_COUNT; i++) {
		*complain = !strcmp(rules[i].complain, knob + prefix);
		if (*complain || !strcmp(rules[i].name, knob + prefix))
			return &rules[i];
	}
	return NULL;
}
