// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - The kernel.warden.* sysctls
 *
 * Each knob takes the levels 0 to its highest.  A write sets exactly the
 * level written, or fails and changes nothing.  Only root with
 * CAP_SYS_ADMIN in the initial user namespace may write.  Every test runs
 * over every knob, and a failure names the knob.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

struct level_knob {
	char path[PATH_MAX];
	int max;
};

/*
 * Every rule's level and complain mode, from the rules' table, but
 * ptrace_scope's: its 3 stays until reboot (ptrace_locked_test).
 */
#define KNOB_COUNT (2 * (WARDEN_RULE_COUNT - 1))

static struct level_knob knobs[KNOB_COUNT];

static void __attribute__((constructor)) list_knobs(void)
{
	size_t i, k = 0;

	for (i = 0; i < WARDEN_RULE_COUNT; i++) {
		const struct warden_rule *const rule = &warden_rules[i];

		if (!strcmp(rule->name, PTRACE_RULE))
			continue;
		snprintf(knobs[k].path, sizeof(knobs[k].path),
			 WARDEN_SYSCTL_DIR "%s", rule->name);
		knobs[k++].max = rule->max;
		snprintf(knobs[k].path, sizeof(knobs[k].path),
			 WARDEN_SYSCTL_DIR "%s" COMPLAIN_SUFFIX, rule->name);
		knobs[k++].max = 1;
	}
}

/*
 * Starting from level 0 and from the highest level, a write that is
 * misparsed into any valid level changes the value at least once.
 */
#define START_COUNT 2

static void start_level(const struct level_knob *const knob, const int i,
			char *const buf, const size_t size)
{
	snprintf(buf, size, "%d", i ? knob->max : 0);
}

static void expect_level(struct __test_metadata *const _metadata,
			 const char *const path, const char *const expected)
{
	char value[32];

	ASSERT_EQ(0, read_file(path, value, sizeof(value)))
	{
		TH_LOG("Cannot read %s", path);
	}
	EXPECT_STREQ(expected, value)
	{
		TH_LOG("Value of %s", path);
	}
}

/* Writes @value to the knob @path, which must take it. */
static void set_level(struct __test_metadata *const _metadata,
		      const char *const path, const char *const value)
{
	ASSERT_EQ(0, write_file(path, value))
	{
		TH_LOG("Writing \"%s\" to %s", value, path);
	}
}

/* Every knob, saved before a test and restored after it. */
struct all_knobs {
	struct knob saved[KNOB_COUNT];
};

static void all_knobs_save(struct __test_metadata *const _metadata,
			   struct all_knobs *const all)
{
	size_t i;

	for (i = 0; i < KNOB_COUNT; i++)
		knob_save(_metadata, &all->saved[i], knobs[i].path);
}

/* For FIXTURE_TEARDOWN_PARENT(): restores what all_knobs_save() saved. */
static void all_knobs_restore(struct __test_metadata *const _metadata,
			      const struct all_knobs *const all)
{
	size_t i;

	for (i = 0; i < KNOB_COUNT; i++) {
		if (all->saved[i].path)
			knob_restore(_metadata, &all->saved[i]);
	}
}

/* Writes that must fail */

FIXTURE(invalid_write) {
	struct all_knobs all;
};

FIXTURE_VARIANT(invalid_write) {
	/* NULL: one above the knob's highest level. */
	const char *value;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, three) {
	/* clang-format on */
	.value = "3",
};

/* "2" for a knob that only takes 0 and 1. */
/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, one_above_highest_level) {
	/* clang-format on */
	.value = NULL,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, minus_one) {
	/* clang-format on */
	.value = "-1",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, letters) {
	/* clang-format on */
	.value = "abc",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, empty) {
	/* clang-format on */
	.value = "",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, twenty_digits) {
	/* clang-format on */
	.value = "99999999999999999999",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, two_numbers) {
	/* clang-format on */
	.value = "1 2",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, space) {
	/* clang-format on */
	.value = " ",
};

FIXTURE_SETUP(invalid_write)
{
	all_knobs_save(_metadata, &self->all);
}

FIXTURE_TEARDOWN_PARENT(invalid_write)
{
	all_knobs_restore(_metadata, &self->all);
}

static void expect_einval(struct __test_metadata *const _metadata,
			  const char *const path, const char *const value)
{
	/* One write(2), even of zero bytes, at offset 0. */
	const int fd = open(path, O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd)
	{
		TH_LOG("Cannot open %s", path);
	}
	ASSERT_EQ(-1, write(fd, value, strlen(value)))
	{
		TH_LOG("Writing \"%s\" to %s", value, path);
	}
	ASSERT_EQ(EINVAL, errno)
	{
		TH_LOG("Writing \"%s\" to %s", value, path);
	}
	ASSERT_EQ(0, close(fd));
}

TEST_F(invalid_write, fails_with_einval_and_keeps_value)
{
	char start[16], expected[32], above[16];
	const char *value;
	size_t k;
	int i;

	for (k = 0; k < KNOB_COUNT; k++) {
		snprintf(above, sizeof(above), "%d", knobs[k].max + 1);
		value = variant->value ? variant->value : above;
		for (i = 0; i < START_COUNT; i++) {
			start_level(&knobs[k], i, start, sizeof(start));
			set_level(_metadata, knobs[k].path, start);
			expect_einval(_metadata, knobs[k].path, value);
			snprintf(expected, sizeof(expected), "%s\n", start);
			expect_level(_metadata, knobs[k].path, expected);
		}
	}
}

/* Writes that must succeed */

FIXTURE(valid_write) {
	struct all_knobs all;
};

FIXTURE_VARIANT(valid_write) {
	const char *value;
	const char *read_back;
	/* Knobs whose highest level is below it refuse the value. */
	int level;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, zero) {
	/* clang-format on */
	.value = "0",
	.read_back = "0\n",
	.level = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, one) {
	/* clang-format on */
	.value = "1",
	.read_back = "1\n",
	.level = 1,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, two) {
	/* clang-format on */
	.value = "2",
	.read_back = "2\n",
	.level = 2,
};

/* What echo(1) writes. */
/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, one_with_newline) {
	/* clang-format on */
	.value = "1\n",
	.read_back = "1\n",
	.level = 1,
};

FIXTURE_SETUP(valid_write)
{
	all_knobs_save(_metadata, &self->all);
}

FIXTURE_TEARDOWN_PARENT(valid_write)
{
	all_knobs_restore(_metadata, &self->all);
}

/* Knobs that refuse the value are in invalid_write.one_above_highest_level. */
TEST_F(valid_write, read_back)
{
	char start[16];
	size_t k;
	int i;

	for (k = 0; k < KNOB_COUNT; k++) {
		if (variant->level > knobs[k].max)
			continue;
		for (i = 0; i < START_COUNT; i++) {
			start_level(&knobs[k], i, start, sizeof(start));
			set_level(_metadata, knobs[k].path, start);
			/* write_file() checks that the whole value was taken. */
			set_level(_metadata, knobs[k].path, variant->value);
			expect_level(_metadata, knobs[k].path,
				     variant->read_back);
		}
	}
}

/* Who may write */

FIXTURE(privilege) {
	struct all_knobs all;
};

FIXTURE_SETUP(privilege)
{
	size_t k;

	all_knobs_save(_metadata, &self->all);
	for (k = 0; k < KNOB_COUNT; k++)
		set_level(_metadata, knobs[k].path, "1");
}

FIXTURE_TEARDOWN_PARENT(privilege)
{
	all_knobs_restore(_metadata, &self->all);
}

/* What a child reads or writes: a knob and a value. */
struct knob_value {
	const char *path;
	const char *value;
};

/* The child functions return 0 or an errno, CHILD_BROKEN if they broke. */

static int read_level(const void *const arg)
{
	const struct knob_value *const kv = arg;
	char value[32];
	const int err = read_file(kv->path, value, sizeof(value));

	if (err)
		return err;
	return strcmp(value, kv->value) ? EBADMSG : 0;
}

static int open_for_write(const void *const arg)
{
	const struct knob_value *const kv = arg;
	const int fd = open(kv->path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int write_level(const void *const arg)
{
	const struct knob_value *const kv = arg;

	return write_file(kv->path, kv->value);
}

static int write_through_root_fd(const void *const arg)
{
	const struct knob_value *const kv = arg;
	const int fd = open(kv->path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || become_user(USER_UID))
		return CHILD_BROKEN;
	if (write(fd, kv->value, strlen(kv->value)) < 0)
		return errno;
	return 0;
}

/* Root of the new namespace, without a uid_map: no capability outside. */
static int write_in_user_ns(const void *const arg)
{
	if (unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	return write_level(arg);
}

static int write_without_cap_sys_admin(const void *const arg)
{
	if (drop_capability(CAP_SYS_ADMIN))
		return CHILD_BROKEN;
	return write_level(arg);
}

/*
 * Runs @fn as @uid on every knob with @value: @fn must return @err, and
 * the knob must then read @expected.
 */
static void expect_on_all(struct __test_metadata *const _metadata,
			  const uid_t uid, int (*const fn)(const void *arg),
			  const char *const value, const int err,
			  const char *const expected)
{
	struct knob_value kv = { .value = value };
	size_t k;

	for (k = 0; k < KNOB_COUNT; k++) {
		kv.path = knobs[k].path;
		EXPECT_EQ(err, run_as(uid, fn, &kv))
		{
			TH_LOG("On %s by %u", kv.path, uid);
		}
		expect_level(_metadata, kv.path, expected);
	}
}

TEST_F(privilege, root_write_allowed)
{
	expect_on_all(_metadata, ROOT_UID, write_level, "0", 0, "0\n");
}

TEST_F(privilege, user_read_allowed)
{
	expect_on_all(_metadata, USER_UID, read_level, "1\n", 0, "1\n");
}

/* The files' mode: 0644 root */
TEST_F(privilege, user_open_for_write_denied)
{
	expect_on_all(_metadata, USER_UID, open_for_write, NULL, EACCES,
		      "1\n");
}

/* The write itself checks again who writes. */
TEST_F(privilege, user_write_through_root_fd_denied)
{
	expect_on_all(_metadata, ROOT_UID, write_through_root_fd, "0", EPERM,
		      "1\n");
}

TEST_F(privilege, user_ns_root_write_denied)
{
	expect_on_all(_metadata, ROOT_UID, write_in_user_ns, "0", EPERM,
		      "1\n");
}

TEST_F(privilege, root_without_cap_sys_admin_write_denied)
{
	expect_on_all(_metadata, ROOT_UID, write_without_cap_sys_admin, "0",
		      EPERM, "1\n");
}

TEST_HARNESS_MAIN
