// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - kernel.warden.protected_sticky_symlinks
 *
 * A write sets exactly the level written, or fails and changes nothing.
 * Only root with CAP_SYS_ADMIN in the initial user namespace may write.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/capability.h>
#include <sys/syscall.h>

#include "common.h"

/*
 * Starting from each of these levels, a write that is misparsed into any
 * valid level changes the value at least once.
 */
static const char *const start_levels[] = { "0", "2" };

static inline void expect_level(struct __test_metadata *const _metadata,
				const char *const expected)
{
	char value[32];

	ASSERT_EQ(0, read_file(WARDEN_KNOB, value, sizeof(value)));
	EXPECT_STREQ(expected, value);
}

/* Writes that must fail */

FIXTURE(invalid_write) {
	struct knob knob;
};

FIXTURE_VARIANT(invalid_write) {
	const char *value;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(invalid_write, three) {
	/* clang-format on */
	.value = "3",
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
	knob_save(_metadata, &self->knob, WARDEN_KNOB);
}

FIXTURE_TEARDOWN_PARENT(invalid_write)
{
	knob_restore(_metadata, &self->knob);
}

TEST_F(invalid_write, fails_with_einval_and_keeps_value)
{
	char expected[8];
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(start_levels); i++) {
		ASSERT_EQ(0, write_file(WARDEN_KNOB, start_levels[i]));

		/* One write(2), even of zero bytes, at offset 0. */
		fd = open(WARDEN_KNOB, O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(-1, write(fd, variant->value, strlen(variant->value)));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(0, close(fd));

		snprintf(expected, sizeof(expected), "%s\n", start_levels[i]);
		expect_level(_metadata, expected);
	}
}

/* Writes that must succeed */

FIXTURE(valid_write) {
	struct knob knob;
};

FIXTURE_VARIANT(valid_write) {
	const char *value;
	const char *read_back;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, zero) {
	/* clang-format on */
	.value = "0",
	.read_back = "0\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, one) {
	/* clang-format on */
	.value = "1",
	.read_back = "1\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, two) {
	/* clang-format on */
	.value = "2",
	.read_back = "2\n",
};

/* What echo(1) writes. */
/* clang-format off */
FIXTURE_VARIANT_ADD(valid_write, one_with_newline) {
	/* clang-format on */
	.value = "1\n",
	.read_back = "1\n",
};

FIXTURE_SETUP(valid_write)
{
	knob_save(_metadata, &self->knob, WARDEN_KNOB);
}

FIXTURE_TEARDOWN_PARENT(valid_write)
{
	knob_restore(_metadata, &self->knob);
}

TEST_F(valid_write, read_back)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(start_levels); i++) {
		ASSERT_EQ(0, write_file(WARDEN_KNOB, start_levels[i]));
		/* write_file() checks that the whole value was taken. */
		ASSERT_EQ(0, write_file(WARDEN_KNOB, variant->value));
		expect_level(_metadata, variant->read_back);
	}
}

/* Who may write */

FIXTURE(privilege) {
	struct knob knob;
};

FIXTURE_SETUP(privilege)
{
	knob_save(_metadata, &self->knob, WARDEN_KNOB);
	ASSERT_EQ(0, write_file(WARDEN_KNOB, "1"));
}

FIXTURE_TEARDOWN_PARENT(privilege)
{
	knob_restore(_metadata, &self->knob);
}

/* The child functions return 0 or an errno, CHILD_BROKEN if they broke. */

static int read_level(const void *const expected)
{
	char value[32];
	const int err = read_file(WARDEN_KNOB, value, sizeof(value));

	if (err)
		return err;
	return strcmp(value, expected) ? EBADMSG : 0;
}

static int open_for_write(const void *const path)
{
	const int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int write_level(const void *const value)
{
	return write_file(WARDEN_KNOB, value);
}

static int write_through_root_fd(const void *const value)
{
	const int fd = open(WARDEN_KNOB, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || become_user(USER_UID))
		return CHILD_BROKEN;
	if (write(fd, value, strlen(value)) < 0)
		return errno;
	return 0;
}

/* Root of the new namespace, without a uid_map: no capability outside. */
static int write_in_user_ns(const void *const value)
{
	if (unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	return write_file(WARDEN_KNOB, value);
}

static int write_without_cap_sys_admin(const void *const value)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data))
		return CHILD_BROKEN;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &header, data))
		return CHILD_BROKEN;
	return write_file(WARDEN_KNOB, value);
}

TEST_F(privilege, root_write_allowed)
{
	ASSERT_EQ(0, run_as(ROOT_UID, write_level, "2"));
	expect_level(_metadata, "2\n");
}

TEST_F(privilege, user_read_allowed)
{
	ASSERT_EQ(0, run_as(USER_UID, read_level, "1\n"));
}

/* The file's mode: 0644 root */
TEST_F(privilege, user_open_for_write_denied)
{
	ASSERT_EQ(EACCES, run_as(USER_UID, open_for_write, WARDEN_KNOB));
	expect_level(_metadata, "1\n");
}

/* The write itself checks again who writes. */
TEST_F(privilege, user_write_through_root_fd_denied)
{
	ASSERT_EQ(EPERM, run_as(ROOT_UID, write_through_root_fd, "2"));
	expect_level(_metadata, "1\n");
}

TEST_F(privilege, user_ns_root_write_denied)
{
	ASSERT_EQ(EPERM, run_as(ROOT_UID, write_in_user_ns, "2"));
	expect_level(_metadata, "1\n");
}

TEST_F(privilege, root_without_cap_sys_admin_write_denied)
{
	ASSERT_EQ(EPERM, run_as(ROOT_UID, write_without_cap_sys_admin, "2"));
	expect_level(_metadata, "1\n");
}

TEST_HARNESS_MAIN
