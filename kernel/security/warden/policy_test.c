// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of how a process's policy is parsed and compared
 *
 * Included at the end of policy.c, so that the tests reach its static
 * parse_policy() and policy_is_lower(): each policy parse_policy() takes
 * has a twin it refuses, out of range, with trailing garbage, too long a
 * level, or empty; each policy found lower, a twin that is not.
 */

#ifdef CONFIG_SECURITY_WARDEN_KUNIT_TEST

#include <kunit/test.h>

struct policy_parse_case {
	const char *desc;
	const char *text;
	int err;
	/* The levels set, in the rules' order; "" if none. */
	const char *levels;
};

static const struct policy_parse_case policy_parse_cases[] = {
	{ "highest level", "protected_regular=2", 0, "protected_regular=2" },
	{ "above the highest level", "protected_regular=3", -EINVAL },
	{ "two rules", "ptrace_scope=3 protected_sticky_symlinks=2", 0,
	  "protected_sticky_symlinks=2 ptrace_scope=3" },
	{ "with trailing garbage", "ptrace_scope=3 protected_sticky_symlinks=2x",
	  -EINVAL },
	{ "blanks around", "\tprotected_fifos=1\t\n", 0, "protected_fifos=1" },
	{ "empty", "", -EINVAL },
	{ "level 0", "protected_nonaccess_hardlinks=0", 0,
	  "protected_nonaccess_hardlinks=0" },
	{ "no level", "protected_nonaccess_hardlinks=", -EINVAL },
	{ "one digit", "protected_fifos=1", 0, "protected_fifos=1" },
	{ "two digits", "protected_fifos=01", -EINVAL },
	{ "a sign", "protected_fifos=+1", -EINVAL },
	{ "too long a level", "protected_fifos=4294967297", -EINVAL },
	{ "hardlinks on", "protected_nonaccess_hardlinks=1", 0,
	  "protected_nonaccess_hardlinks=1" },
	{ "hardlinks at 2", "protected_nonaccess_hardlinks=2", -EINVAL },
	{ "each rule once", "protected_fifos=2 protected_regular=2", 0,
	  "protected_fifos=2 protected_regular=2" },
	{ "a rule twice", "protected_fifos=2 protected_fifos=2", -EINVAL },
	{ "a rule", "ptrace_scope=1", 0, "ptrace_scope=1" },
	{ "an unknown rule", "ptrace_scope_complain=1", -EINVAL },
	{ "rule=level", "protected_regular=1", 0, "protected_regular=1" },
	{ "a rule alone", "protected_regular", -EINVAL },
	{ "blanks only", " \t\n", -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(policy_parse, policy_parse_cases, desc);

static void test_parse_policy_takes_whole_rules(struct kunit *const test)
{
	const struct policy_parse_case *const c = test->param_value;
	char *const text = kunit_kstrdup(test, c->text, GFP_KERNEL);
	int levels[WARDEN_RULE_COUNT];
	enum warden_rule rule;
	char buf[WARDEN_POLICY_SIZE];
	size_t len = 0;

	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_EQ(test, c->err, parse_policy(text, levels));
	if (c->err)
		return;
	buf[0] = '\0';
	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		if (levels[rule] != WARDEN_LEVEL_UNSET)
			len += scnprintf(buf + len, sizeof(buf) - len, "%s%s=%d",
					 len ? " " : "",
					 warden_rule_name(rule), levels[rule]);
	KUNIT_EXPECT_STREQ(test, c->levels, buf);
}

struct policy_lower_case {
	const char *desc;
	/* A level per rule, the rest 0. */
	u8 levels[WARDEN_RULE_COUNT];
	u8 than[WARDEN_RULE_COUNT];
	bool lower;
};

static const struct policy_lower_case policy_lower_cases[] = {
	{ "no policy, no raise", {}, {}, false },
	{ "no policy, a raise since", {},
	  { [WARDEN_RULE_STICKY_SYMLINKS] = 1 }, true },
	{ "the same policy", { [WARDEN_RULE_PTRACE_SCOPE] = 3 },
	  { [WARDEN_RULE_PTRACE_SCOPE] = 3 }, false },
	{ "higher", { [WARDEN_RULE_PTRACE_SCOPE] = 3 },
	  { [WARDEN_RULE_PTRACE_SCOPE] = 2 }, false },
	{ "the last rule lower",
	  { [WARDEN_RULE_STICKY_SYMLINKS] = 2 },
	  { [WARDEN_RULE_STICKY_SYMLINKS] = 2,
	    [WARDEN_RULE_COUNT - 1] = 1 }, true },
	{ "one rule higher, another lower",
	  { [WARDEN_RULE_FIFOS] = 2, [WARDEN_RULE_REGULAR] = 1 },
	  { [WARDEN_RULE_FIFOS] = 1, [WARDEN_RULE_REGULAR] = 2 }, true },
};

KUNIT_ARRAY_PARAM_DESC(policy_lower, policy_lower_cases, desc);

static void test_policy_is_lower_for_any_rule(struct kunit *const test)
{
	const struct policy_lower_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->lower, policy_is_lower(c->levels, c->than));
}

static struct kunit_case warden_policy_test_cases[] = {
	KUNIT_CASE_PARAM(test_parse_policy_takes_whole_rules,
			 policy_parse_gen_params),
	KUNIT_CASE_PARAM(test_policy_is_lower_for_any_rule,
			 policy_lower_gen_params),
	{}
};

static struct kunit_suite warden_policy_test_suite = {
	.name = "warden_policy",
	.test_cases = warden_policy_test_cases,
};

kunit_test_suite(warden_policy_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
