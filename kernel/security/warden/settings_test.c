// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of how a setting's value is parsed
 *
 * Included at the end of settings.c.  A sysctl write and a boot parameter
 * go through the same parser: each value it takes has a twin it refuses,
 * out of range, with trailing garbage, too large for an int, or empty.
 */

#ifdef CONFIG_SECURITY_WARDEN_KUNIT_TEST

#include <kunit/test.h>

struct knob_parse_case {
	const char *desc;
	int knob;
	const char *text;
	size_t len;
	int err;
	int value;
};

#define LEVEL(rule) WARDEN_LEVEL_KNOB(WARDEN_RULE_##rule)
#define COMPLAIN(rule) WARDEN_COMPLAIN_KNOB(WARDEN_RULE_##rule)

/* @len 0: the length of @text. */
static const struct knob_parse_case knob_parse_cases[] = {
	{ "highest level", LEVEL(REGULAR), "2", 0, 0, 2 },
	{ "above the highest level", LEVEL(REGULAR), "3", 0, -EINVAL },
	{ "off", LEVEL(STICKY_SYMLINKS), "0", 0, 0, 0 },
	{ "negative", LEVEL(STICKY_SYMLINKS), "-1", 0, -EINVAL },
	{ "with a newline", LEVEL(FIFOS), "1\n", 0, 0, 1 },
	{ "with trailing garbage", LEVEL(FIFOS), "1x", 0, -EINVAL },
	{ "one value", LEVEL(FIFOS), "1", 0, 0, 1 },
	{ "two values", LEVEL(FIFOS), "1 2", 0, -EINVAL },
	{ "level 2", LEVEL(FIFOS), "2", 0, 0, 2 },
	{ "with an embedded NUL", LEVEL(FIFOS), "1\0002", 3, -EINVAL },
	{ "a zero", LEVEL(REGULAR), "0", 0, 0, 0 },
	{ "empty", LEVEL(REGULAR), "", 0, -EINVAL },
	{ "leading zeros and sign, as kstrtoint()", LEVEL(REGULAR), "+01", 0,
	  0, 1 },
	{ "more than an int", LEVEL(REGULAR), "4294967297", 0, -EINVAL },
	{ "hardlinks on", LEVEL(NONACCESS_HARDLINKS), "1", 0, 0, 1 },
	{ "hardlinks at 2", LEVEL(NONACCESS_HARDLINKS), "2", 0, -EINVAL },
	{ "ptrace_scope 3", LEVEL(PTRACE_SCOPE), "3", 0, 0, 3 },
	{ "ptrace_scope 4", LEVEL(PTRACE_SCOPE), "4", 0, -EINVAL },
	{ "complain mode on", COMPLAIN(PTRACE_SCOPE), "1", 0, 0, 1 },
	{ "complain mode at 2", COMPLAIN(PTRACE_SCOPE), "2", 0, -EINVAL },
	{ "lock", WARDEN_LOCK_KNOB, "1\n", 0, 0, 1 },
	{ "lock in hex", WARDEN_LOCK_KNOB, "0x1", 0, -EINVAL },
};

#undef COMPLAIN
#undef LEVEL

KUNIT_ARRAY_PARAM_DESC(knob_parse, knob_parse_cases, desc);

static void test_parse_knob_takes_one_value_in_range(struct kunit *const test)
{
	const struct knob_parse_case *const c = test->param_value;
	const size_t len = c->len ?: strlen(c->text);
	int value = -1;

	KUNIT_EXPECT_EQ(test, c->err,
			warden_parse_knob(&warden_knobs[c->knob], c->text, len,
					  &value));
	if (!c->err)
		KUNIT_EXPECT_EQ(test, c->value, value);
}

static void test_knobs_name_their_rule(struct kunit *const test)
{
	enum warden_rule rule;

	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++) {
		const struct warden_knob *const level =
			&warden_knobs[WARDEN_LEVEL_KNOB(rule)];
		const struct warden_knob *const complain =
			&warden_knobs[WARDEN_COMPLAIN_KNOB(rule)];

		KUNIT_EXPECT_STREQ(test, warden_rule_name(rule), level->name);
		KUNIT_EXPECT_EQ(test, rule, level->rule);
		KUNIT_EXPECT_EQ(test, WARDEN_KNOB_LEVEL, level->kind);
		KUNIT_EXPECT_EQ(test, rule, complain->rule);
		KUNIT_EXPECT_EQ(test, WARDEN_KNOB_COMPLAIN, complain->kind);
		KUNIT_EXPECT_EQ(test, 0,
				strncmp(complain->name, level->name,
					strlen(level->name)));
		KUNIT_EXPECT_STREQ(test, "_complain",
				   complain->name + strlen(level->name));
	}
	KUNIT_EXPECT_EQ(test, WARDEN_KNOB_LOCK,
			warden_knobs[WARDEN_LOCK_KNOB].kind);
}

static struct kunit_case warden_settings_test_cases[] = {
	KUNIT_CASE_PARAM(test_parse_knob_takes_one_value_in_range,
			 knob_parse_gen_params),
	KUNIT_CASE(test_knobs_name_their_rule),
	{}
};

static struct kunit_suite warden_settings_test_suite = {
	.name = "warden_settings",
	.test_cases = warden_settings_test_cases,
};

kunit_test_suite(warden_settings_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
