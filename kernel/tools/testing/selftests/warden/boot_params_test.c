// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Settings from the kernel command line
 *
 * Each warden.<knob>=VALUE boot parameter sets the knob before the first
 * process runs.  WARDEN_EXPECT lists "knob=value" pairs: what each knob
 * must read after the boot the harness made, including the defaults of
 * knobs whose parameter was invalid.  WARDEN_INVALID names such a
 * parameter, which the kernel must have said it refused.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

TEST(values_from_command_line)
{
	const char *const env = getenv("WARDEN_EXPECT");
	char list[1024], *pair, *save;
	int checked = 0;

	ASSERT_NE(NULL, env);
	snprintf(list, sizeof(list), "%s", env);
	for (pair = strtok_r(list, " ", &save); pair;
	     pair = strtok_r(NULL, " ", &save)) {
		char *const eq = strchr(pair, '=');
		char path[PATH_MAX], value[32], expected[32];

		ASSERT_NE(NULL, eq);
		*eq = '\0';
		snprintf(path, sizeof(path), "/proc/sys/kernel/warden/%s", pair);
		snprintf(expected, sizeof(expected), "%s\n", eq + 1);
		ASSERT_EQ(0, read_file(path, value, sizeof(value)));
		EXPECT_STREQ(expected, value)
		{
			TH_LOG("Value of %s", path);
		}
		checked++;
	}
	EXPECT_LT(0, checked);
}

/*
 * Each parameter that changed a setting is on the record, said once
 * audit is up; the invalid one changed nothing and is not.
 */
TEST(changes_said)
{
	const char *const env = getenv("WARDEN_EXPECT");
	const char *const invalid = getenv("WARDEN_INVALID");
	char list[1024], *pair, *save;

	ASSERT_NE(NULL, env);
	ASSERT_NE(NULL, invalid);
	snprintf(list, sizeof(list), "%s", env);
	for (pair = strtok_r(list, " ", &save); pair;
	     pair = strtok_r(NULL, " ", &save)) {
		char *const eq = strchr(pair, '=');
		char key[128], new[64], msg[REPORT_SIZE];
		const char *const needles[] = { key, new, NULL };
		/* From the first record on. */
		const int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

		ASSERT_LE(0, kmsg);
		ASSERT_NE(NULL, eq);
		*eq = '\0';
		snprintf(key, sizeof(key), "warden: setting=kernel.warden.%s ",
			 pair);
		snprintf(new, sizeof(new), " via=boot res=1 ");
		EXPECT_EQ(!!strcmp(pair, invalid),
			  report_find(_metadata, kmsg, needles, NULL, msg))
		{
			TH_LOG("A line \"%s\"... via=boot for %s=%s", key,
			       pair, eq + 1);
		}
		snprintf(new, sizeof(new), " new=\"%s\" ", eq + 1);
		if (strcmp(pair, invalid))
			EXPECT_NE(NULL, strstr(msg, new));
		close(kmsg);
	}
}

TEST(invalid_parameter_said)
{
	const char *const param = getenv("WARDEN_INVALID");
	char key[128];
	const char *const needles[] = { key, NULL };
	char msg[REPORT_SIZE];
	int kmsg;

	ASSERT_NE(NULL, param);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, kmsg);
	snprintf(key, sizeof(key), " invalid for parameter `warden.%s'", param);
	EXPECT_TRUE(report_find(_metadata, kmsg, needles, NULL, msg))
	{
		TH_LOG("No record \"%s\"", key);
	}
	close(kmsg);
}

TEST_HARNESS_MAIN
