// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of the scope a read of another process is
 * checked at
 *
 * Included at the end of ptrace.c, so that the tests reach read_scope().
 * One case per pair of a global scope and a process's own: the reads of
 * the table in warden.rst's ptrace_scope section.
 */

#ifdef CONFIG_SECURITY_WARDEN_KUNIT_TEST

#include <kunit/test.h>
#include <linux/string.h>

struct read_scope_case {
	const char *desc;
	int global;
	int process;
	int checked_at;
};

static const struct read_scope_case read_scope_cases[] = {
	{ "global 0, unchecked", 0, 0, 0 },
	{ "global 1, unchecked as with Yama", 1, 0, 0 },
	{ "global 2, unchecked as with Yama", 2, 0, 0 },
	{ "global 3, held to scope 2", 3, 0, 2 },
	{ "process 1 at global 0, scope 1", 0, 1, 1 },
	{ "process 1 at global 1, scope 1", 1, 1, 1 },
	{ "process 1 at global 2, scope 2", 2, 1, 2 },
	{ "process 1 at global 3, scope 2", 3, 1, 2 },
	{ "process 2 at global 0, scope 2", 0, 2, 2 },
	{ "process 3 at global 0, held to scope 2", 0, 3, 2 },
	{ "process 3 at global 3, held to scope 2", 3, 3, 2 },
};

static void read_scope_case_desc(const struct read_scope_case *const c,
				 char *const desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(read_scope, read_scope_cases, read_scope_case_desc);

static void test_read_checked_at_its_scope(struct kunit *const test)
{
	const struct read_scope_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->checked_at,
			read_scope(c->global, c->process));
}

static struct kunit_case warden_ptrace_test_cases[] = {
	KUNIT_CASE_PARAM(test_read_checked_at_its_scope,
			 read_scope_gen_params),
	{}
};

static struct kunit_suite warden_ptrace_test_suite = {
	.name = "warden_ptrace",
	.test_cases = warden_ptrace_test_cases,
};

kunit_test_suite(warden_ptrace_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
