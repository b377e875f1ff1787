// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - What does not change of each rule, from rule_defs.h
 */

#include <linux/capability.h>
#include <linux/kconfig.h>

#include "limits.h"

#define WARDEN_RULE(ID, ident, max_, cap_)				\
	[WARDEN_RULE_##ID] = {						\
		.name = #ident,						\
		.kconfig_level = CONFIG_SECURITY_WARDEN_##ID,		\
		.max = (max_),						\
		.cap = (cap_),						\
	},
const struct warden_rule_info warden_rules[WARDEN_RULE_COUNT] = {
#include "rule_defs.h"
};

#undef WARDEN_RULE
