// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - kernel.warden.lock
 *
 * Once locked, every Warden setting stays as it is until reboot: no
 * write to any knob, the lock included, gets through, even one that
 * would change nothing.  The lock cannot be undone, so this test runs in
 * a boot of its own: with WARDEN_LOCK=1 it sets the lock itself, else
 * the boot must have set it (warden.lock=1).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>

#include "common.h"

#define KNOB_DIR "/proc/sys/kernel/warden"
#define LOCK_KNOB KNOB_DIR "/lock"

FIXTURE(locked) {
	char knob[PATH_MAX];
};

FIXTURE_SETUP(locked)
{
	char value[32];

	if (getenv("WARDEN_LOCK") && !read_file(LOCK_KNOB, value, sizeof(value)) &&
	    !strcmp(value, "0\n"))
		ASSERT_EQ(0, write_file(LOCK_KNOB, "1"));
	ASSERT_EQ(0, read_file(LOCK_KNOB, value, sizeof(value)));
	ASSERT_STREQ("1\n", value);
}

FIXTURE_TEARDOWN(locked)
{
}

/* Tries @value then @other on every knob: each write is refused. */
static void expect_frozen(struct __test_metadata *const _metadata,
			  const char *const value,
			  const int err)
{
	const struct dirent *entry;
	int knobs = 0;
	DIR *dir;

	dir = opendir(KNOB_DIR);
	ASSERT_NE(NULL, dir);
	while ((entry = readdir(dir))) {
		char path[PATH_MAX], before[32], after[32];

		if (entry->d_name[0] == '.')
			continue;
		path_join(_metadata, path, KNOB_DIR, entry->d_name);
		ASSERT_EQ(0, read_file(path, before, sizeof(before)));
		EXPECT_EQ(err, write_file(path, value ? value : before))
		{
			TH_LOG("Writing to %s", path);
		}
		ASSERT_EQ(0, read_file(path, after, sizeof(after)));
		EXPECT_STREQ(before, after)
		{
			TH_LOG("Value of %s", path);
		}
		knobs++;
	}
	closedir(dir);
	/* Every rule, each with its complain knob, and the lock. */
	EXPECT_EQ((int)(2 * WARDEN_RULE_COUNT + 1), knobs);
}

TEST_F(locked, same_value_eperm)
{
	expect_frozen(_metadata, NULL, EPERM);
}

TEST_F(locked, zero_eperm)
{
	expect_frozen(_metadata, "0", EPERM);
}

TEST_F(locked, one_eperm)
{
	expect_frozen(_metadata, "1", EPERM);
}

/* A write the lock refused is on the record, with who tried. */
TEST_F(locked, refused_write_logged)
{
	const int kmsg = report_open(_metadata);
	char value[32], new[64], pid[32], msg[REPORT_SIZE];
	const char *const needles[] = {
		"warden: setting=kernel.warden.protected_regular ", new,
		" via=sysctl res=0 ", pid, NULL
	};

	ASSERT_EQ(0, read_file(WARDEN_REGULAR_KNOB, value, sizeof(value)));
	snprintf(new, sizeof(new), " new=\"%d\" ", atoi(value) ? 0 : 1);
	snprintf(pid, sizeof(pid), " pid=%d ", getpid());
	EXPECT_EQ(EPERM, write_file(WARDEN_REGULAR_KNOB, atoi(value) ? "0" : "1"));
	EXPECT_TRUE(report_find(_metadata, kmsg, needles, NULL, msg));
	close(kmsg);
}

/* A bad value is still refused as such. */
TEST_F(locked, invalid_einval)
{
	expect_frozen(_metadata, "x", EINVAL);
}

TEST_HARNESS_MAIN
