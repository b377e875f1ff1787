// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - PR_SET_PTRACER exceptions and reused pids
 *
 * With ptrace_scope at 1, an exception names a process, not a number:
 *
 *   manager (root, pid 1 of a new pid namespace)
 *   ├ first (USER_UID, pid REUSED_PID)   named by the target, then exits
 *   ├ target (USER_UID)                  prctl(PR_SET_PTRACER, REUSED_PID)
 *   └ second (USER_UID, pid REUSED_PID)  made with clone3(set_tid) once
 *                                        first is reaped: must not attach
 *
 * Neither first nor second is an ancestor of the target, so only the
 * exception can let one attach.  Every CONTROL_EVERY-th round, first
 * attaches before it exits, to show that the exception was in force.
 * Several managers run at once, each in its own pid namespace, so that
 * processes are forked, named and reaped on every CPU at the same time.
 * One attempt is one round; a round forks three processes, so a run makes
 * WARDEN_STRESS_ATTEMPTS / ROUND_COST of them.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <linux/sched.h>
#include <sys/ptrace.h>

#include "common.h"

#define DEFAULT_ATTEMPTS 20000
#define ROUND_COST 50
#define MANAGERS 2
#define REUSED_PID 300
#define CONTROL_EVERY 16

/* Exit statuses of first and second. */
enum verdict {
	ATTACHED = 1,
	REFUSED = 2,
	OTHER_ERROR = 3,
};

/* What each manager found, in shared memory. */
struct round_result {
	unsigned long rounds;
	unsigned long controls;
	/* The first round that went wrong, and how. */
	unsigned long bad_round;
	int bad_status;
	const char *bad_what;
};

FIXTURE(ptrace_pid_reuse) {
	struct knob warden, yama;
	bool has_yama;
	pid_t managers[MANAGERS];
};

FIXTURE_SETUP(ptrace_pid_reuse)
{
	knob_set(_metadata, &self->warden, WARDEN_PTRACE_KNOB, "1");
	self->has_yama = has_yama();
	/* Only Warden may decide. */
	if (self->has_yama)
		knob_set(_metadata, &self->yama, YAMA_PTRACE_KNOB, "0");
}

FIXTURE_TEARDOWN(ptrace_pid_reuse)
{
	int i;

	for (i = 0; i < MANAGERS; i++)
		kill_child(&self->managers[i]);
	if (self->has_yama)
		knob_restore(_metadata, &self->yama);
	knob_restore(_metadata, &self->warden);
}

/* Forks a child with the pid @pid in the caller's pid namespace. */
static pid_t fork_with_pid(const pid_t pid)
{
	pid_t tid = pid;
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&tid,
		.set_tid_size = 1,
	};

	return syscall(__NR_clone3, &args, sizeof(args));
}

static int seize(const pid_t target)
{
	if (ptrace(PTRACE_SEIZE, target, NULL, NULL) == 0)
		return ATTACHED;
	return errno == EPERM ? REFUSED : OTHER_ERROR;
}

/* What the manager tells the first tracer once the target is there. */
struct order {
	pid_t target;
	bool attach;
};

/* The first tracer: attaches if told to, exits. */
static void first_tracer(const int go)
{
	struct order order;

	if (become_user(USER_UID) ||
	    read(go, &order, sizeof(order)) != sizeof(order))
		_exit(CHILD_BROKEN);
	_exit(order.attach ? seize(order.target) : 0);
}

static pid_t spawn_target(const int ready)
{
	const pid_t pid = fork();

	if (pid)
		return pid;
	if (become_user(USER_UID) || prctl(PR_SET_DUMPABLE, 1) ||
	    prctl(PR_SET_PTRACER, REUSED_PID) || write(ready, "r", 1) != 1)
		_exit(CHILD_BROKEN);
	for (;;)
		pause();
}

static int status_of(const pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static bool round_fails(struct round_result *const r, const unsigned long round,
			const char *const what, const int status)
{
	r->bad_round = round;
	r->bad_what = what;
	r->bad_status = status;
	return true;
}

/* One round in the manager's pid namespace: true if it went wrong. */
static bool one_round(struct round_result *const r, const unsigned long round)
{
	struct order order = { .attach = !(round % CONTROL_EVERY) };
	pid_t first, second;
	int go[2], ready[2];
	bool bad = false;
	int status;
	char byte;

	if (pipe(go) || pipe(ready))
		return round_fails(r, round, "pipe", errno);
	first = fork_with_pid(REUSED_PID);
	if (first < 0)
		return round_fails(r, round, "clone3(set_tid) of the first tracer",
				   errno);
	if (!first)
		first_tracer(go[0]);

	order.target = spawn_target(ready[1]);
	if (order.target < 0 || read(ready[0], &byte, 1) != 1) {
		kill(first, SIGKILL);
		waitpid(first, NULL, 0);
		return round_fails(r, round, "the target", errno);
	}
	if (write(go[1], &order, sizeof(order)) != sizeof(order))
		bad = round_fails(r, round, "write", errno);
	status = status_of(first);
	if (!bad && status != (order.attach ? ATTACHED : 0))
		bad = round_fails(r, round,
				  order.attach ? "the named tracer's attach" :
						 "the named tracer",
				  status);
	if (order.attach)
		r->controls++;

	/* The first tracer is reaped: its pid is free again. */
	second = bad ? -1 : fork_with_pid(REUSED_PID);
	if (second == 0) {
		if (become_user(USER_UID))
			_exit(CHILD_BROKEN);
		_exit(seize(order.target));
	}
	if (!bad && second < 0)
		bad = round_fails(r, round, "clone3(set_tid) of the second tracer",
				  errno);
	if (!bad) {
		status = status_of(second);
		if (status != REFUSED)
			bad = round_fails(r, round,
					  status == ATTACHED ?
						  "escape: the pid's new process attached" :
						  "the pid's new process",
					  status);
	}
	kill(order.target, SIGKILL);
	waitpid(order.target, NULL, 0);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	return bad;
}

/* pid 1 of a new pid namespace: 0 if every round went well. */
static int manage(struct round_result *const r, const unsigned long rounds)
{
	unsigned long round;

	if (die_with_parent())
		return 1;
	for (round = 0; round < rounds; round++) {
		if (one_round(r, round))
			return 1;
		r->rounds++;
	}
	return 0;
}

static pid_t spawn_manager(struct round_result *const r,
			   const unsigned long rounds)
{
	const pid_t pid = fork();
	pid_t manager;

	if (pid)
		return pid;
	if (die_with_parent() || unshare(CLONE_NEWPID))
		_exit(CHILD_BROKEN);
	manager = fork();
	if (manager < 0)
		_exit(CHILD_BROKEN);
	if (!manager)
		_exit(manage(r, rounds));
	_exit(status_of(manager));
}

TEST_F_TIMEOUT(ptrace_pid_reuse, stale_exception_grants_nothing,
	       STRESS_TIMEOUT_S)
{
	struct round_result *const results =
		shared_alloc(_metadata, MANAGERS * sizeof(*results));
	unsigned long rounds = stress_attempts(DEFAULT_ATTEMPTS) / ROUND_COST;
	int i;

	rounds = rounds / MANAGERS + 1;
	for (i = 0; i < MANAGERS; i++) {
		self->managers[i] = spawn_manager(&results[i], rounds);
		ASSERT_LT(0, self->managers[i]);
	}
	for (i = 0; i < MANAGERS; i++) {
		const struct round_result *const r = &results[i];
		const int status = status_of(self->managers[i]);

		self->managers[i] = 0;
		TH_LOG("Manager %d: %lu rounds, %lu with the named tracer attaching",
		       i, r->rounds, r->controls);
		EXPECT_EQ(0, status)
		{
			TH_LOG("Manager %d, round %lu: %s: status or errno %d",
			       i, r->bad_round, r->bad_what ? r->bad_what : "broken",
			       r->bad_status);
		}
		EXPECT_EQ(rounds, r->rounds);
		EXPECT_LT(0, r->controls);
	}
}

TEST_HARNESS_MAIN
