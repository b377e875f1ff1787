// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of how a report writes a name a user chose,
 * and of which reports a flood may drop
 *
 * Included at the end of report.c, so that the tests reach its static
 * functions.  escape_name() and escape_tail(): one case per row, each a
 * name an attacker could choose and exactly what the report must say of
 * it.  The ratelimits: a flood by one subject, at a clock the test sets,
 * and whose reports still go through.
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

struct tail_case {
	const char *desc;
	const char *name;
	size_t size;
	bool cut;
	const char *escaped;
	size_t left_out;
};

static const struct tail_case tail_cases[] = {
	{ "tail of a path", "/home/u/very/long/dir/file.txt", 16, false,
	  "...dir/file.txt", 18 },
	{ "tail fits exactly", "abcdefg", 8, false, "abcdefg", 0 },
	{ "tail one byte too long", "abcdefgh", 8, false, "...efgh", 4 },
	{ "tail cut before an escape, not inside it", "abcde\"f", 8, false,
	  "...f", 6 },
	{ "tail keeps an escape that fits", "abcd\"e", 9, false,
	  "...\\x22e", 4 },
	{ "tail escapes a newline", "a\nb", 64, false, "a\\x0ab", 0 },
	{ "tail of a longer name, marked though it fits", "/a/b/file", 64,
	  true, ".../a/b/file", 0 },
	{ "tail of nothing", "", 64, false, "", 0 },
};

static void tail_case_desc(const struct tail_case *const c, char *const desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tail, tail_cases, tail_case_desc);

static void test_escape_tail_as_the_report_says(struct kunit *const test)
{
	const struct tail_case *const c = test->param_value;
	char buf[64];

	KUNIT_ASSERT_LE(test, c->size, sizeof(buf));
	KUNIT_EXPECT_EQ(test, c->left_out,
			escape_tail(buf, c->size, c->name, strlen(c->name),
				    c->cut));
	KUNIT_EXPECT_STREQ(test, c->escaped, buf);
}

/* A table of ratelimits as warden_init_reports() sets one up. */
static void limit_init(struct warden_limit *const limit)
{
	size_t i;

	memset(limit, 0, sizeof(*limit));
	for (i = 0; i < ARRAY_SIZE(limit->slots); i++)
		limit->slots[i].uid = INVALID_UID;
}

/* Whether a report of @uid goes through @limit at @now. */
static bool admits(struct warden_limit *const limit, const uid_t uid,
		   const unsigned long now)
{
	return bucket_admits(subject_bucket(limit, KUIDT_INIT(uid), now), now);
}

/* A uid other than @uid whose slot is @uid's, or @uid if none is found. */
static uid_t colliding_uid(const uid_t uid)
{
	const u32 slot = hash_32(uid, WARDEN_LIMIT_SLOT_BITS);
	uid_t other;

	for (other = uid + 1; other < uid + 100000; other++) {
		if (hash_32(other, WARDEN_LIMIT_SLOT_BITS) == slot)
			return other;
	}
	return uid;
}

/* A uid other than @uid whose slot is not @uid's. */
static uid_t other_slot_uid(const uid_t uid)
{
	const u32 slot = hash_32(uid, WARDEN_LIMIT_SLOT_BITS);
	uid_t other = uid + 1;

	while (hash_32(other, WARDEN_LIMIT_SLOT_BITS) == slot)
		other++;
	return other;
}

#define FLOODER 1000
#define NOW 1000000UL

/* Floods @limit with reports of FLOODER at NOW; returns how many went. */
static unsigned int flood(struct warden_limit *const limit)
{
	unsigned int i, admitted = 0;

	for (i = 0; i < 10 * WARDEN_LIMIT_BURST; i++)
		admitted += admits(limit, FLOODER, NOW);
	return admitted;
}

static void test_flood_dropped_and_counted(struct kunit *const test)
{
	struct warden_limit limit;

	limit_init(&limit);
	KUNIT_EXPECT_EQ(test, WARDEN_LIMIT_BURST, flood(&limit));
	/* The twin: the flooder's own next report is dropped, and counted. */
	KUNIT_EXPECT_FALSE(test, admits(&limit, FLOODER, NOW + 1));
	KUNIT_EXPECT_EQ(test, 9 * WARDEN_LIMIT_BURST + 1,
			subject_bucket(&limit, KUIDT_INIT(FLOODER), NOW)
				->suppressed);
	/* A new interval lets it through again. */
	KUNIT_EXPECT_TRUE(test, admits(&limit, FLOODER,
				       NOW + WARDEN_LIMIT_INTERVAL));
}

static void test_flood_hides_no_other_subject(struct kunit *const test)
{
	const uid_t colliding = colliding_uid(FLOODER);
	struct warden_limit limit;

	KUNIT_ASSERT_NE(test, FLOODER, colliding);
	limit_init(&limit);
	flood(&limit);
	KUNIT_EXPECT_TRUE(test, admits(&limit, 0, NOW));
	KUNIT_EXPECT_TRUE(test, admits(&limit, other_slot_uid(FLOODER), NOW));
	/* A subject whose slot the flooder holds shares the spare bucket. */
	KUNIT_EXPECT_TRUE(test, admits(&limit, colliding, NOW));
	KUNIT_EXPECT_PTR_EQ(test, &limit.spare,
			    subject_bucket(&limit, KUIDT_INIT(colliding), NOW));
	KUNIT_EXPECT_FALSE(test, admits(&limit, FLOODER, NOW));
}

/* A setuid-root program's subject is the user who ran it, not root. */
static void test_root_bucket_is_root_alone(struct kunit *const test)
{
	struct warden_limit limit;
	unsigned int i;

	limit_init(&limit);
	for (i = 0; i < 10 * WARDEN_LIMIT_BURST; i++)
		admits(&limit, 0, NOW);
	KUNIT_EXPECT_FALSE(test, admits(&limit, 0, NOW));
	KUNIT_EXPECT_TRUE(test, admits(&limit, FLOODER, NOW));
	KUNIT_EXPECT_PTR_EQ(test, &limit.root,
			    subject_bucket(&limit, GLOBAL_ROOT_UID, NOW));
}

/*
 * A slot goes to another subject only once its holder is idle and what
 * it dropped was said: a flooder cannot get a fresh bucket by making
 * another subject take its slot.
 */
static void test_slot_taken_over_when_idle_and_said(struct kunit *const test)
{
	const uid_t colliding = colliding_uid(FLOODER);
	const unsigned long later = NOW + WARDEN_LIMIT_INTERVAL;
	struct warden_bucket *slot;
	struct warden_limit limit;

	limit_init(&limit);
	flood(&limit);
	slot = subject_bucket(&limit, KUIDT_INIT(FLOODER), NOW);
	KUNIT_EXPECT_PTR_EQ(test, &limit.spare,
			    subject_bucket(&limit, KUIDT_INIT(colliding), later));
	slot->suppressed = 0;
	KUNIT_EXPECT_PTR_EQ(test, slot,
			    subject_bucket(&limit, KUIDT_INIT(colliding), later));
	KUNIT_EXPECT_TRUE(test, uid_eq(KUIDT_INIT(colliding), slot->uid));
	KUNIT_EXPECT_EQ(test, 0, slot->reported);
}

struct harmless_case {
	const char *desc;
	enum warden_ptrace_op op;
	int scope;
	uid_t tracer;
	uid_t target;
	bool harmless;
};

static const struct harmless_case harmless_cases[] = {
	{ "attach at scope 1, one uid", WARDEN_PTRACE_ATTACH, 1, 1000, 1000,
	  true },
	{ "attach at scope 1, two uids", WARDEN_PTRACE_ATTACH, 1, 1000, 0,
	  false },
	{ "attach at scope 2, one uid", WARDEN_PTRACE_ATTACH, 2, 1000, 1000,
	  false },
	{ "attach at scope 3, one uid", WARDEN_PTRACE_ATTACH, 3, 1000, 1000,
	  false },
	{ "traceme at scope 2, one uid", WARDEN_PTRACE_TRACEME, 2, 1000, 1000,
	  false },
	{ "read at scope 1, one uid", WARDEN_PTRACE_READ, 1, 1000, 1000,
	  true },
	{ "read at scope 3, one uid", WARDEN_PTRACE_READ, 3, 1000, 1000,
	  false },
	{ "setrlimit at scope 1, one uid", WARDEN_PTRACE_SETRLIMIT, 1, 1000,
	  1000, true },
	{ "setrlimit at scope 1, two uids", WARDEN_PTRACE_SETRLIMIT, 1, 1000,
	  0, false },
};

static void harmless_case_desc(const struct harmless_case *const c,
			       char *const desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(harmless, harmless_cases, harmless_case_desc);

static void test_harmless_refusal_unaudited(struct kunit *const test)
{
	const struct harmless_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->harmless,
			is_harmless(c->op, c->scope, KUIDT_INIT(c->tracer),
				    KUIDT_INIT(c->target)));
}

static struct kunit_case warden_report_test_cases[] = {
	KUNIT_CASE_PARAM(test_escape_name_as_the_report_says,
			 escape_gen_params),
	KUNIT_CASE_PARAM(test_escape_tail_as_the_report_says,
			 tail_gen_params),
	KUNIT_CASE(test_flood_dropped_and_counted),
	KUNIT_CASE(test_flood_hides_no_other_subject),
	KUNIT_CASE(test_root_bucket_is_root_alone),
	KUNIT_CASE(test_slot_taken_over_when_idle_and_said),
	KUNIT_CASE_PARAM(test_harmless_refusal_unaudited,
			 harmless_gen_params),
	{}
};

static struct kunit_suite warden_report_test_suite = {
	.name = "warden_report",
	.test_cases = warden_report_test_cases,
};

kunit_test_suite(warden_report_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
