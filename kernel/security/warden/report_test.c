// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of how a report writes a name a user chose
 *
 * Included at the end of report.c, so that the tests reach its static
 * escape_name(): one case per row, each a name an attacker could choose
 * and exactly what the report must say of it.
 */

#ifdef CONFIG_SECURITY_WARDEN_KUNIT_TEST

#include <kunit/test.h>

struct escape_case {
	const char *desc;
	const char *name;
	size_t size;
	const char *escaped;
	size_t left_out;
};

static const struct escape_case escape_cases[] = {
	{ "plain", "/tmp/report-1.txt", 64, "/tmp/report-1.txt", 0 },
	{ "quote ends no value", "a\"b", 64, "a\\x22b", 0 },
	{ "backslash escapes nothing", "a\\x22", 64, "a\\x5cx22", 0 },
	{ "space starts no field", "x allowed_at=0", 64,
	  "x\\x20allowed_at=0", 0 },
	{ "newline starts no line", "a\nwarden: rule=x", 64,
	  "a\\x0awarden:\\x20rule=x", 0 },
	{ "control byte", "a\x01\x1b[0m", 64, "a\\x01\\x1b[0m", 0 },
	{ "not UTF-8", "\xff\xfe", 64, "\\xff\\xfe", 0 },
	{ "UTF-8", "caf\xc3\xa9", 64, "caf\\xc3\\xa9", 0 },
	{ "DEL", "\x7f", 64, "\\x7f", 0 },
	{ "empty", "", 64, "", 0 },
	{ "fits exactly", "abc", 4, "abc", 0 },
	{ "cut, marked", "abcdefgh", 8, "abcd...", 4 },
	{ "cut before an escape, not inside it", "ab\"cdef", 9, "ab...", 5 },
	{ "escape that fits exactly", "ab\"", 7, "ab\\x22", 0 },
};

static void escape_case_desc(const struct escape_case *const c,
			     char *const desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(escape, escape_cases, escape_case_desc);

static void test_escape_name_as_the_report_says(struct kunit *const test)
{
	const struct escape_case *const c = test->param_value;
	char buf[64];

	KUNIT_ASSERT_LE(test, c->size, sizeof(buf));
	KUNIT_EXPECT_EQ(test, c->left_out,
			escape_name(buf, c->size, c->name, strlen(c->name)));
	KUNIT_EXPECT_STREQ(test, c->escaped, buf);
}

static struct kunit_case warden_report_test_cases[] = {
	KUNIT_CASE_PARAM(test_escape_name_as_the_report_says,
			 escape_gen_params),
	{}
};

static struct kunit_suite warden_report_test_suite = {
	.name = "warden_report",
	.test_cases = warden_report_test_cases,
};

kunit_test_suite(warden_report_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
