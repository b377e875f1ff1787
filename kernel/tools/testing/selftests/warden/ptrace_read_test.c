// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Reading another process, and changing its limits
 *
 * An attach is not the only way into a process of the same user: its
 * environment, its open files through /proc/PID/fd, perf_event_open() on
 * it (PTRACE_MODE_READ), or a core dump once its core limit is raised.
 * The global scopes 1 and 2 leave reads to the classic rules, as Yama
 * does; a process that raised its own scope is read at that scope (at
 * most scope 2's: CAP_SYS_PTRACE passes).  Changing another process's
 * limits is an attach at every scope.  Global scope 3 cannot be undone:
 * ptrace_locked_test tests it.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "ptrace_common.h"

#define LOG_KEY "warden: rule=ptrace_scope verdict=denied "

FIXTURE(snoop) {
	struct ptrace_knobs knobs;
	struct knob paranoid;
};

FIXTURE_VARIANT(snoop) {
	/* The global scope. */
	const char *scope;
	/* What the victim raises, or NULL. */
	const char *policy;
	enum snooper snooper;
	bool read_allowed, setrlimit_allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, global_0_sibling_allowed) {
	/* clang-format on */
	.scope = "0",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = true,
	.setrlimit_allowed = true,
};

/* Scope 1 refuses an attach, so a change of limits, not a read. */
/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, global_1_sibling_reads_allowed) {
	/* clang-format on */
	.scope = "1",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = true,
	.setrlimit_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, global_1_parent_allowed) {
	/* clang-format on */
	.scope = "1",
	.snooper = SNOOPER_PARENT,
	.read_allowed = true,
	.setrlimit_allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, global_2_sibling_reads_allowed) {
	/* clang-format on */
	.scope = "2",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = true,
	.setrlimit_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_1_sibling_denied) {
	/* clang-format on */
	.scope = "0",
	.policy = "ptrace_scope=1",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = false,
	.setrlimit_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_1_parent_allowed) {
	/* clang-format on */
	.scope = "0",
	.policy = "ptrace_scope=1",
	.snooper = SNOOPER_PARENT,
	.read_allowed = true,
	.setrlimit_allowed = true,
};

/* A global scope of 1 or 2 does not lower the victim's own 1. */
/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_1_global_2_sibling_denied) {
	/* clang-format on */
	.scope = "2",
	.policy = "ptrace_scope=1",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = false,
	.setrlimit_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_3_sibling_denied) {
	/* clang-format on */
	.scope = "1",
	.policy = "ptrace_scope=3",
	.snooper = SNOOPER_SIBLING,
	.read_allowed = false,
	.setrlimit_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_3_parent_denied) {
	/* clang-format on */
	.scope = "1",
	.policy = "ptrace_scope=3",
	.snooper = SNOOPER_PARENT,
	.read_allowed = false,
	.setrlimit_allowed = false,
};

/* The host's administrator is judged by the global scope alone. */
/* clang-format off */
FIXTURE_VARIANT_ADD(snoop, own_scope_3_root_allowed) {
	/* clang-format on */
	.scope = "1",
	.policy = "ptrace_scope=3",
	.snooper = SNOOPER_ROOT,
	.read_allowed = true,
	.setrlimit_allowed = true,
};

FIXTURE_SETUP(snoop)
{
	ptrace_knobs_setup(_metadata, &self->knobs, variant->scope, "0");
	/* Debian's default, 3, lets no user open a perf event. */
	knob_set(_metadata, &self->paranoid, PERF_PARANOID_KNOB, "2");
}

FIXTURE_TEARDOWN_PARENT(snoop)
{
	knob_restore(_metadata, &self->paranoid);
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

static void expect_snoop(struct __test_metadata *const _metadata,
			 const FIXTURE_VARIANT(snoop) * const variant,
			 const enum snoop how)
{
	const bool allowed = how == SNOOP_PRLIMIT ? variant->setrlimit_allowed :
						    variant->read_allowed;

	EXPECT_EQ(allowed ? 0 : snoop_errno(how),
		  play_snoop(_metadata, variant->policy, variant->snooper, how));
}

TEST_F(snoop, environ)
{
	expect_snoop(_metadata, variant, SNOOP_ENVIRON);
}

TEST_F(snoop, fd_link)
{
	expect_snoop(_metadata, variant, SNOOP_FD);
}

TEST_F(snoop, prlimit_core)
{
	expect_snoop(_metadata, variant, SNOOP_PRLIMIT);
}

TEST_F(snoop, perf_event_open)
{
	expect_snoop(_metadata, variant, SNOOP_PERF);
}

/* Kernel log and counters */

FIXTURE(snoop_report) {
	struct ptrace_knobs knobs;
	int kmsg;
};

FIXTURE_SETUP(snoop_report)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
	self->kmsg = report_open(_metadata);
}

FIXTURE_TEARDOWN_PARENT(snoop_report)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

/*
 * Makes a sibling snoop on a victim that raised @policy, refused, then
 * finds the line about that victim with @fields; retries once in a new
 * ratelimit window.
 */
static void expect_snoop_logged(struct __test_metadata *const _metadata,
				const int kmsg, const char *const policy,
				const enum snoop how, const char *const fields)
{
	char msg[REPORT_SIZE], target[64];
	const char *const needles[] = { LOG_KEY, fields, target, NULL };
	pid_t victim;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if (attempt)
			sleep(REPORT_RATELIMIT_S + 1);
		ASSERT_EQ(snoop_errno(how),
			  play_snoop_pid(_metadata, policy, SNOOPER_SIBLING,
					 how, &victim));
		snprintf(target, sizeof(target),
			 " target_pid=%d target_uid=1000 ", victim);
		if (report_find(_metadata, kmsg, needles, NULL, msg))
			break;
	}
	ASSERT_LT(attempt, 2)
	{
		TH_LOG("No line \"%s\" about %d", fields, victim);
	}
	EXPECT_NE(NULL, strstr(msg, " tracer_uid=1000 "));
	EXPECT_NE(NULL, strstr(msg, " tracer_comm=\"" CHILD_COMM "\" target_comm=\"sleep\" "))
	{
		TH_LOG("%s", msg);
	}
}

TEST_F_TIMEOUT(snoop_report, denied_read_logged, 60)
{
	expect_snoop_logged(_metadata, self->kmsg, "ptrace_scope=3",
			    SNOOP_ENVIRON,
			    " op=read knob=kernel.warden.ptrace_scope allowed_at=0 source=process scope=3 ");
}

TEST_F_TIMEOUT(snoop_report, denied_setrlimit_logged, 60)
{
	expect_snoop_logged(_metadata, self->kmsg, NULL, SNOOP_PRLIMIT,
			    " op=setrlimit knob=kernel.warden.ptrace_scope allowed_at=0 source=global scope=1 ");
}

/* Whether the wchan field of /proc/@pid/stat says the task sleeps. */
static int stat_wchan(const pid_t pid)
{
	char path[64], buf[1024], *field, *save;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) || !strrchr(buf, ')'))
		return -1;
	/* After the comm, fields 3 (state) to 35 (wchan). */
	field = strtok_r(strrchr(buf, ')') + 1, " ", &save);
	for (i = 3; field && i < 35; i++)
		field = strtok_r(NULL, " ", &save);
	return field ? atoi(field) : -1;
}

static int read_wchan(const void *const arg)
{
	return stat_wchan(*(const pid_t *)arg);
}

/*
 * /proc/PID/stat shows the wchan field only to a process that may read
 * the task (PTRACE_MODE_NOAUDIT): refused there, it reads 0, and the
 * refusal is neither counted nor logged.  Its twin: the victim without a
 * policy of its own shows it sleeping.
 */
TEST(stat_of_own_scope_3_read_quietly)
{
	struct counts before, after;
	pid_t victim;

	victim = start_victim(NULL);
	ASSERT_LT(0, victim);
	EXPECT_EQ(1, run_as(USER_UID, read_wchan, &victim));
	stop_victim(victim);

	victim = start_victim("ptrace_scope=3");
	ASSERT_LT(0, victim);
	read_counts(_metadata, PTRACE_RULE, &before);
	EXPECT_EQ(0, run_as(USER_UID, read_wchan, &victim));
	read_counts(_metadata, PTRACE_RULE, &after);
	stop_victim(victim);
	EXPECT_EQ(before.denied, after.denied);
	EXPECT_EQ(before.would_deny, after.would_deny);
}

TEST_HARNESS_MAIN
