// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - exec: run a command under a raised policy
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "wardenctl.h"

/* exec */

/* Writes @policy to the current process's policy: returns 0 or an errno. */
static int write_policy(const char *const policy)
{
	char path[PATH_MAX];

	if (!root_path(path, sizeof(path), ATTR_DIR "/policy", "self"))
		return ENAMETOOLONG;
	return write_text(path, policy);
}

static const char *raise_hint(const int err)
{
	switch (err) {
	case EPERM:
		return " (a level lower than the process's own cannot be set)";
	case ENOENT:
		return " (this kernel has no per-process policies)";
	case EBUSY:
		return " (the process has other threads)";
	default:
		return "";
	}
}

/* exec's options --ALIAS=N and --NAME=N of rules[i] return RULE_OPTION + i. */
#define RULE_OPTION 0x100

/* The long options: each rule's alias and name, then --help. */
static void rule_options(struct option *const longopts)
{
	size_t i;

	for (i = 0; i < RULE_COUNT; i++) {
		longopts[2 * i] = (struct option){ rules[i].alias,
						   required_argument, NULL,
						   RULE_OPTION + (int)i };
		longopts[2 * i + 1] = (struct option){ rules[i].name,
						       required_argument, NULL,
						       RULE_OPTION + (int)i };
	}
	longopts[2 * RULE_COUNT] =
		(struct option){ "help", no_argument, NULL, 'h' };
	longopts[2 * RULE_COUNT + 1] = (struct option){ 0 };
}

/* exec [--RULE=LEVEL]... -- CMD [ARGS] */
int cmd_exec(const int argc, char *const argv[])
{
	struct option longopts[2 * RULE_COUNT + 2];
	int levels[RULE_COUNT];
	char policy[512];
	size_t i, len = 0;
	int c, err;

	rule_options(longopts);
	for (i = 0; i < RULE_COUNT; i++)
		levels[i] = -1;
	reset_options();
	while ((c = next_option(argc, argv, "+:h", longopts)) != -1) {
		const struct rule *const rule = &rules[c - RULE_OPTION];
		int level;

		if (!parse_int(optarg, &level) || level > rule->max)
			usage_error("exec: the level of %s is 0 to %d, not '%s'",
				    rule->name, rule->max, optarg);
		if (levels[c - RULE_OPTION] != -1)
			usage_error("exec: %s given twice", rule->name);
		levels[c - RULE_OPTION] = level;
	}
	/* getopt stops at "--", and at the first word that is not an option. */
	if (optind >= argc)
		usage_error("exec: needs a command to run, after --");
	for (i = 0; i < RULE_COUNT; i++) {
		if (levels[i] < 0)
			continue;
		len += snprintf(policy + len, sizeof(policy) - len, "%s%s=%d",
				len ? " " : "", rules[i].name, levels[i]);
	}
	if (!len)
		usage_error("exec: name at least one rule to raise, as --symlinks=2");
	need_warden();

	/* As seccomp and Landlock want: no setuid program under a policy. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		warn("cannot set no_new_privs: %s", strerror(errno));
		return EXIT_FAIL;
	}
	err = write_policy(policy);
	if (err) {
		warn("cannot raise the policy to %s: %s%s", policy,
		     strerror(err), raise_hint(err));
		return EXIT_FAIL;
	}
	execvp(argv[optind], argv + optind);
	warn("cannot run %s: %s", argv[optind], strerror(errno));
	return EXIT_NOT_RUN;
}
