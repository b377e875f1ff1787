// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - The rules: one table, that every command reads
 */

#include <string.h>

#include "wardenctl.h"

/* In the kernel's order: the rule ids, and the order of the counters. */
const struct rule rules[] = {
	{ "protected_sticky_symlinks", "symlinks", 2 },
	{ "protected_nonaccess_hardlinks", "hardlinks", 1 },
	{ "protected_fifos", "fifos", 2 },
	{ "protected_regular", "regular", 2 },
	{ "ptrace_scope", "ptrace", 3 },
};

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
