// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - kernel.warden.ptrace_scope, at scopes 0 to 2
 *
 * Yama's own scope is set to 0 around each test, so that only Warden can
 * refuse, except where both are stacked on purpose.  Scope 3 cannot be
 * undone until reboot: ptrace_locked_test tests it.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/sched.h>

#include "ptrace_common.h"

#define LOG_KEY "warden: rule=ptrace_scope verdict=denied "
#define AUDIT_KEY AUDIT_ACCESS_KEY

static void expect_access(struct __test_metadata *const _metadata,
			  struct scene_spec spec, const enum access access,
			  const bool allowed)
{
	spec.access = access;
	EXPECT_EQ(allowed ? 0 : denial_errno(access), play_scene(_metadata, &spec));
}

/* Scope 0: the classic rules */

FIXTURE(scope_0) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(scope_0) {
	struct scene_spec spec;
	bool allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_0, child_allowed) {
	/* clang-format on */
	.spec = { .relation = CHILD },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_0, unrelated_allowed) {
	/* clang-format on */
	.spec = { .relation = UNRELATED },
	.allowed = true,
};

FIXTURE_SETUP(scope_0)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "0", "0");
}

FIXTURE_TEARDOWN_PARENT(scope_0)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(scope_0, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

TEST_F(scope_0, proc_mem)
{
	expect_access(_metadata, variant->spec, PROC_MEM, variant->allowed);
}

TEST_F(scope_0, process_vm_readv)
{
	expect_access(_metadata, variant->spec, VM_READV, variant->allowed);
}

/* Scope 1: descendants only, unless the target says otherwise */

FIXTURE(scope_1) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(scope_1) {
	struct scene_spec spec;
	bool allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, child_allowed) {
	/* clang-format on */
	.spec = { .relation = CHILD },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, grandchild_allowed) {
	/* clang-format on */
	.spec = { .relation = GRANDCHILD },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, sibling_denied) {
	/* clang-format on */
	.spec = { .relation = SIBLING },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, parent_denied) {
	/* clang-format on */
	.spec = { .relation = PARENT },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, unrelated_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_1, privileged_on_unrelated_allowed) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .privileged_tracer = true },
	.allowed = true,
};

FIXTURE_SETUP(scope_1)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(scope_1)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(scope_1, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

TEST_F(scope_1, proc_mem)
{
	expect_access(_metadata, variant->spec, PROC_MEM, variant->allowed);
}

TEST_F(scope_1, process_vm_readv)
{
	expect_access(_metadata, variant->spec, VM_READV, variant->allowed);
}

/* Scope 2: CAP_SYS_PTRACE only */

FIXTURE(scope_2) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(scope_2) {
	struct scene_spec spec;
	bool allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_2, child_denied) {
	/* clang-format on */
	.spec = { .relation = CHILD },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_2, named_tracer_denied) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.grant = GRANT_ROLE,
		.named = TRACER,
	},
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_2, privileged_on_unrelated_allowed) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .privileged_tracer = true },
	.allowed = true,
};

FIXTURE_SETUP(scope_2)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "2", "0");
}

FIXTURE_TEARDOWN_PARENT(scope_2)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(scope_2, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

TEST_F(scope_2, proc_mem)
{
	expect_access(_metadata, variant->spec, PROC_MEM, variant->allowed);
}

TEST_F(scope_2, process_vm_readv)
{
	expect_access(_metadata, variant->spec, VM_READV, variant->allowed);
}

/* PR_SET_PTRACER at scope 1, between unrelated processes */

FIXTURE(set_ptracer) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(set_ptracer) {
	struct scene_spec spec;
	bool allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, none_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_NONE },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_tracer_allowed) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_ROLE, .named = TRACER },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_tracers_parent_allowed) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.grant = GRANT_ROLE,
		.named = TRACER_PARENT,
	},
	.allowed = true,
};

/* The test process is the tracer's grandparent. */
/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_tracers_ancestor_allowed) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.grant = GRANT_ROLE,
		.named = TEST_PROCESS,
	},
	.allowed = true,
};

/* An exception is for the named process and its descendants only. */
/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_own_parent_denied) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.grant = GRANT_ROLE,
		.named = TARGET_PARENT,
	},
	.allowed = false,
};

/* A crash handler attaching to the process that forked it. */
/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_child_allowed) {
	/* clang-format on */
	.spec = { .relation = PARENT, .grant = GRANT_ROLE, .named = TRACER },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, to_any_allowed) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_ANY },
	.allowed = true,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, cleared_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_CLEARED },
	.allowed = false,
};

/* One tracer at a time: a second call replaces the first. */
/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, replaced_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_REPLACED },
	.allowed = false,
};

/* A thread names the tracer for its whole process. */
/* clang-format off */
FIXTURE_VARIANT_ADD(set_ptracer, from_thread_allowed) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.grant = GRANT_ROLE,
		.named = TRACER,
		.from_thread = true,
	},
	.allowed = true,
};

FIXTURE_SETUP(set_ptracer)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(set_ptracer)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(set_ptracer, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

TEST_F(set_ptracer, process_vm_readv)
{
	expect_access(_metadata, variant->spec, VM_READV, variant->allowed);
}

/* Root in a user namespace, at scope 1 */

FIXTURE(user_ns_root) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(user_ns_root) {
	struct scene_spec spec;
	bool allowed;
};

/* Its capabilities count only in its own namespace. */
/* clang-format off */
FIXTURE_VARIANT_ADD(user_ns_root, on_host_process_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .tracer_user_ns = true },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(user_ns_root, on_process_in_its_namespace_allowed) {
	/* clang-format on */
	.spec = {
		.relation = UNRELATED,
		.tracer_user_ns = true,
		.target_joins_user_ns = true,
	},
	.allowed = true,
};

FIXTURE_SETUP(user_ns_root)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(user_ns_root)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(user_ns_root, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

/* A stale exception: the named tracer is gone and its pid reused */

FIXTURE(pid_reuse) {
	struct ptrace_knobs knobs;
};

FIXTURE_SETUP(pid_reuse)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(pid_reuse)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

/* Forks a child with the pid @pid, as root may with clone3(set_tid). */
static pid_t fork_with_pid(const pid_t pid)
{
	struct clone_args args = {
		.exit_signal = SIGCHLD,
		.set_tid = (uintptr_t)&pid,
		.set_tid_size = 1,
	};

	return syscall(SYS_clone3, &args, sizeof(args));
}

struct reuse {
	/* Read ends: EOF ends the target; a pid makes the named one attach. */
	int release, request;
	/* Write end of release, which every child closes. */
	int release_w;
	/* Write end: what PR_SET_PTRACER returned to the target. */
	int report;
	pid_t named;
};

static int attach_pid(const pid_t target)
{
	return ptrace(PTRACE_SEIZE, target, 0, 0) ? errno : 0;
}

static int attach_on_request(const void *const arg)
{
	const struct reuse *const r = arg;
	pid_t target;

	close(r->release_w);
	if (prctl(PR_SET_DUMPABLE, 1))
		return CHILD_BROKEN;
	if (read(r->request, &target, sizeof(target)) != sizeof(target))
		return CHILD_BROKEN;
	return attach_pid(target);
}

static int name_and_wait(const void *const arg)
{
	const struct reuse *const r = arg;
	char byte;
	int err;

	close(r->release_w);
	/* A change of uid made it undumpable: only root could trace it. */
	if (prctl(PR_SET_DUMPABLE, 1))
		return CHILD_BROKEN;
	err = set_ptracer(r->named);
	if (write(r->report, &err, sizeof(err)) != sizeof(err))
		return CHILD_BROKEN;
	if (read(r->release, &byte, 1) < 0)
		return CHILD_BROKEN;
	return 0;
}

/* Starts a named process and a target that names it. */
static pid_t start_named_and_target(struct __test_metadata *const _metadata,
				    struct reuse *const r, int *const release,
				    int *const request)
{
	int report[2], err;
	pid_t target;

	ASSERT_EQ(0, pipe2(release, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(request, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(report, O_CLOEXEC));
	r->release = release[0];
	r->release_w = release[1];
	r->request = request[0];
	r->report = report[1];

	r->named = spawn_as(USER_UID, attach_on_request, r);
	ASSERT_LT(0, r->named);
	target = spawn_as(USER_UID, name_and_wait, r);
	ASSERT_LT(0, target);
	ASSERT_EQ(sizeof(err), read(report[0], &err, sizeof(err)));
	ASSERT_EQ(0, err);
	close(report[0]);
	close(report[1]);
	return target;
}

/*
 *   test ┬ named: killed and reaped after the target named it
 *        ├ target: PR_SET_PTRACER(named)
 *        └ tracer: forked with the pid named had
 */
TEST_F(pid_reuse, stale_exception_denied)
{
	int release[2], request[2];
	struct reuse r;
	pid_t target, tracer;

	target = start_named_and_target(_metadata, &r, release, request);

	/* The number is free once the named process is reaped. */
	ASSERT_EQ(0, kill(r.named, SIGKILL));
	ASSERT_EQ(-1, wait_child(r.named));

	tracer = fork_with_pid(r.named);
	ASSERT_LE(0, tracer)
	{
		TH_LOG("clone3(set_tid=%d): %s", r.named, strerror(errno));
	}
	if (!tracer) {
		close(release[1]);
		if (prctl(PR_SET_NAME, CHILD_COMM) || become_user(USER_UID) ||
		    prctl(PR_SET_DUMPABLE, 1))
			_exit(CHILD_BROKEN);
		_exit(attach_pid(target));
	}
	ASSERT_EQ(r.named, tracer);
	EXPECT_EQ(EPERM, wait_child(tracer));

	close(release[1]);
	EXPECT_EQ(0, wait_child(target));
}

/* The same, with the named process alive: it may attach. */
TEST_F(pid_reuse, live_named_tracer_allowed)
{
	int release[2], request[2];
	struct reuse r;
	pid_t target;

	target = start_named_and_target(_metadata, &r, release, request);

	ASSERT_EQ(sizeof(target), write(request[1], &target, sizeof(target)));
	EXPECT_EQ(0, wait_child(r.named));

	close(release[1]);
	EXPECT_EQ(0, wait_child(target));
}

/* prctl(PR_SET_PTRACER) itself */

FIXTURE(prctl) {
	struct ptrace_knobs knobs;
};

FIXTURE_SETUP(prctl)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(prctl)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

/* The last pid: never allocated unless pid_max is raised to it. */
#define NO_SUCH_PID 4194304

TEST_F(prctl, unknown_tracer_einval)
{
	ASSERT_EQ(-1, prctl(PR_SET_PTRACER, NO_SUCH_PID, 0, 0, 0));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(prctl, clear_without_exception_succeeds)
{
	ASSERT_EQ(0, prctl(PR_SET_PTRACER, 0, 0, 0, 0));
}

/* Another LSM's option, or none: Warden must not claim it. */
TEST_F(prctl, other_options_untouched)
{
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	ASSERT_EQ(1, prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
}

/* PTRACE_TRACEME: the parent becomes the tracer */

FIXTURE(traceme) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(traceme) {
	const char *scope;
	/* The parent is root, with CAP_SYS_PTRACE. */
	bool privileged_parent;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(traceme, scope_0_allowed) {
	/* clang-format on */
	.scope = "0",
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(traceme, scope_1_allowed) {
	/* clang-format on */
	.scope = "1",
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(traceme, scope_2_denied) {
	/* clang-format on */
	.scope = "2",
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(traceme, scope_2_privileged_parent_allowed) {
	/* clang-format on */
	.scope = "2",
	.privileged_parent = true,
	.err = 0,
};

FIXTURE_SETUP(traceme)
{
	ptrace_knobs_setup(_metadata, &self->knobs, variant->scope, "0");
}

FIXTURE_TEARDOWN_PARENT(traceme)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(traceme, request)
{
	EXPECT_EQ(variant->err, traceme_from_child(variant->privileged_parent));
}

/* Yama stacked with Warden: the stricter scope wins */

FIXTURE(stacked_with_yama) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(stacked_with_yama) {
	const char *warden, *yama;
	struct scene_spec spec;
	bool allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(stacked_with_yama, yama_stricter_child_denied) {
	/* clang-format on */
	.warden = "1",
	.yama = "2",
	.spec = { .relation = CHILD },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(stacked_with_yama, warden_stricter_child_denied) {
	/* clang-format on */
	.warden = "2",
	.yama = "1",
	.spec = { .relation = CHILD },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(stacked_with_yama, yama_stricter_unrelated_denied) {
	/* clang-format on */
	.warden = "0",
	.yama = "1",
	.spec = { .relation = UNRELATED },
	.allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(stacked_with_yama, both_at_1_child_allowed) {
	/* clang-format on */
	.warden = "1",
	.yama = "1",
	.spec = { .relation = CHILD },
	.allowed = true,
};

/* Both record the exception: neither refuses. */
/* clang-format off */
FIXTURE_VARIANT_ADD(stacked_with_yama, both_at_1_named_tracer_allowed) {
	/* clang-format on */
	.warden = "1",
	.yama = "1",
	.spec = { .relation = UNRELATED, .grant = GRANT_ROLE, .named = TRACER },
	.allowed = true,
};

FIXTURE_SETUP(stacked_with_yama)
{
	if (!has_yama())
		SKIP(return, "Yama is not active");
	ptrace_knobs_setup(_metadata, &self->knobs, variant->warden,
			   variant->yama);
}

FIXTURE_TEARDOWN_PARENT(stacked_with_yama)
{
	if (has_yama())
		ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(stacked_with_yama, attach)
{
	expect_access(_metadata, variant->spec, ATTACH, variant->allowed);
}

/* kernel.warden.ptrace_scope itself */

FIXTURE(knob) {
	struct ptrace_knobs knobs;
};

FIXTURE_VARIANT(knob) {
	const char *value;
	/* What the write gets, and what reading the knob then gives. */
	int err;
	const char *read_back;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, zero_written) {
	/* clang-format on */
	.value = "0",
	.read_back = "0\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, two_with_newline_written) {
	/* clang-format on */
	.value = "2\n",
	.read_back = "2\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, four_einval) {
	/* clang-format on */
	.value = "4",
	.err = EINVAL,
	.read_back = "1\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, minus_one_einval) {
	/* clang-format on */
	.value = "-1",
	.err = EINVAL,
	.read_back = "1\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, two_numbers_einval) {
	/* clang-format on */
	.value = "2 3",
	.err = EINVAL,
	.read_back = "1\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(knob, letters_einval) {
	/* clang-format on */
	.value = "abc",
	.err = EINVAL,
	.read_back = "1\n",
};

FIXTURE_SETUP(knob)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(knob)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

TEST_F(knob, write)
{
	char value[32];

	EXPECT_EQ(variant->err, write_file(WARDEN_PTRACE_KNOB, variant->value));
	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	EXPECT_STREQ(variant->read_back, value);
}

/* Who may write */

FIXTURE(knob_privilege) {
	struct ptrace_knobs knobs;
};

FIXTURE_SETUP(knob_privilege)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
}

FIXTURE_TEARDOWN_PARENT(knob_privilege)
{
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

static int write_scope(const void *const value)
{
	return write_file(WARDEN_PTRACE_KNOB, value);
}

/* CAP_SYS_PTRACE, not CAP_SYS_ADMIN, guards the scope, as in Yama. */
static int write_without_cap_sys_ptrace(const void *const value)
{
	if (drop_capability(CAP_SYS_PTRACE))
		return CHILD_BROKEN;
	return write_file(WARDEN_PTRACE_KNOB, value);
}

/* Root of the new namespace, without a uid_map: no capability outside. */
static int write_in_user_ns(const void *const value)
{
	if (unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	return write_file(WARDEN_PTRACE_KNOB, value);
}

TEST_F(knob_privilege, root_without_cap_sys_ptrace_eperm)
{
	char value[32];

	EXPECT_EQ(EPERM, run_as(ROOT_UID, write_without_cap_sys_ptrace, "0"));
	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	EXPECT_STREQ("1\n", value);
}

TEST_F(knob_privilege, user_ns_root_eperm)
{
	char value[32];

	EXPECT_EQ(EPERM, run_as(ROOT_UID, write_in_user_ns, "0"));
	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	EXPECT_STREQ("1\n", value);
}

TEST_F(knob_privilege, root_with_cap_sys_ptrace_writes)
{
	char value[32];

	EXPECT_EQ(0, run_as(ROOT_UID, write_scope, "2"));
	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	EXPECT_STREQ("2\n", value);
}

/* Kernel log and audit */

/*
 * Without an audit daemon, the kernel prints audit records under
 * printk_ratelimit(): its burst is raised, so that a record missing from
 * the log is one that was never written.
 */
#define PRINTK_BURST_KNOB "/proc/sys/kernel/printk_ratelimit_burst"

FIXTURE(report) {
	struct ptrace_knobs knobs;
	struct knob printk_burst;
	int kmsg;
};

FIXTURE_SETUP(report)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "1", "0");
	knob_set(_metadata, &self->printk_burst, PRINTK_BURST_KNOB, "1000");
	self->kmsg = report_open(_metadata);
}

FIXTURE_TEARDOWN_PARENT(report)
{
	knob_restore(_metadata, &self->printk_burst);
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

/*
 * Makes an unrelated tracer attach and be denied, then finds the record
 * starting with @key that names the target; retries once in a new
 * ratelimit window.
 */
static void find_denial(struct __test_metadata *const _metadata,
			const int kmsg, const char *const key, char *const msg,
			pid_t *const tracer, pid_t *const target)
{
	const struct scene_spec spec = { .relation = UNRELATED };
	struct scene_spec s = spec;
	const char *const needles[] = { key, "warden_target", NULL };
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		ASSERT_EQ(EPERM, play_scene_pids(_metadata, &s, tracer, target));
		if (report_find(_metadata, kmsg, needles, NULL, msg))
			return;
		sleep(REPORT_RATELIMIT_S + 1);
	}
	ASSERT_TRUE(false)
	{
		TH_LOG("No record \"%s\"", key);
	}
}

TEST_F_TIMEOUT(report, denied_attach_logged, 60)
{
	char msg[REPORT_SIZE], expected[REPORT_SIZE];
	pid_t tracer, target;

	find_denial(_metadata, self->kmsg, LOG_KEY, msg, &tracer, &target);
	snprintf(expected, sizeof(expected),
		 "warden: rule=ptrace_scope verdict=denied op=attach knob=kernel.warden.ptrace_scope allowed_at=0 source=global scope=1 tracer_pid=%d tracer_uid=1000 target_pid=%d target_uid=1000 ppid=",
		 tracer, target);
	/* The tracer's parent is in the scene: its pid is not known here. */
	EXPECT_EQ(0, strncmp(expected, msg, strlen(expected)))
	{
		TH_LOG("%s", msg);
	}
	snprintf(expected, sizeof(expected),
		 " tracer_comm=\"%s\" target_comm=\"%s\" pcomm=\"warden_tracer_p\"",
		 role_names[TRACER], role_names[TARGET]);
	EXPECT_STREQ(expected, msg + strlen(msg) - strlen(expected));
}

/*
 * Warden's own record, with audit's field names.  At scope 2: at
 * scope 1, a refusal between two processes of one uid is audited only if
 * audit rules ask (see harmless_attach_not_audited).
 */
TEST_F_TIMEOUT(report, denied_attach_audited, 60)
{
	char msg[REPORT_SIZE], fields[256];
	pid_t tracer, target;

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");

	ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, "2"));
	find_denial(_metadata, self->kmsg, AUDIT_KEY, msg, &tracer, &target);
	snprintf(fields, sizeof(fields),
		 " lsm=warden rule=ptrace_scope op=attach res=0 permissive=0 allowed_at=0 source=global scope=2 pid=%d uid=1000 ",
		 tracer);
	EXPECT_NE(NULL, strstr(msg, fields))
	{
		TH_LOG("%s", msg);
	}
	snprintf(fields, sizeof(fields), " comm=\"%s\" opid=%d ocomm=\"%s\"",
		 role_names[TRACER], target, role_names[TARGET]);
	EXPECT_NE(NULL, strstr(msg, fields));
	EXPECT_EQ(NULL, strstr(msg, "avc:"));
}

/*
 * Scope 1 refusing an attach between two processes of one uid is
 * harmless by construction: it is logged, but with no audit rule loaded,
 * not audited.  Its twin, the same scene at scope 2, is audited: its
 * record comes after the first one's would have in audit's queue, so
 * the first one's is looked for up to there.
 */
TEST_F_TIMEOUT(report, harmless_attach_logged_not_audited, 60)
{
	const struct scene_spec spec = { .relation = UNRELATED };
	char msg[REPORT_SIZE], log_pid[32], record[128], twin_record[128];
	const char *const log_needles[] = { LOG_KEY, log_pid, NULL };
	const char *const record_needles[] = { AUDIT_KEY, twin_record, NULL };
	struct scene_spec s = spec;
	pid_t tracer, twin, target;
	bool logged = false;
	int attempt;

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");

	/* Both reports in a new window of the tracers' ratelimit. */
	for (attempt = 0; attempt < 2 && !logged; attempt++) {
		sleep(REPORT_RATELIMIT_S + 1);
		ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, "1"));
		ASSERT_EQ(EPERM, play_scene_pids(_metadata, &s, &tracer,
						 &target));
		ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, "2"));
		ASSERT_EQ(EPERM, play_scene_pids(_metadata, &s, &twin,
						 &target));
		snprintf(log_pid, sizeof(log_pid), " scope=1 tracer_pid=%d ",
			 tracer);
		snprintf(record, sizeof(record),
			 " scope=1 pid=%d ", tracer);
		snprintf(twin_record, sizeof(twin_record),
			 " scope=2 pid=%d ", twin);
		logged = report_find(_metadata, self->kmsg, log_needles, record,
				     msg);
	}
	ASSERT_TRUE(logged)
	{
		TH_LOG("No line about tracer %d", tracer);
	}
	EXPECT_TRUE(report_find(_metadata, self->kmsg, record_needles, record, msg))
	{
		TH_LOG("No record about tracer %d", twin);
	}
}

/*
 * PTRACE_TRACEME is refused under tasklist_lock, with interrupts off: the
 * line is logged after the lock is dropped, before the call returns.  The
 * twin: at scope 1, the same call is allowed and says nothing.
 */
TEST_F_TIMEOUT(report, denied_traceme_logged, 60)
{
	const char *const needles[] = { LOG_KEY "op=traceme ", NULL };
	char msg[REPORT_SIZE];
	bool found = false;
	int attempt;

	for (attempt = 0; attempt < 2 && !found; attempt++) {
		if (attempt)
			sleep(REPORT_RATELIMIT_S + 1);
		ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, "1"));
		ASSERT_EQ(0, traceme_from_child(false));
		ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, "2"));
		ASSERT_EQ(EPERM, traceme_from_child(false));
		found = report_find(_metadata, self->kmsg, needles,
				    " op=traceme knob=kernel.warden.ptrace_scope allowed_at=1 source=global scope=1 ",
				    msg);
	}
	ASSERT_TRUE(found)
	{
		TH_LOG("No line \"%sop=traceme\"", LOG_KEY);
	}
	EXPECT_NE(NULL, strstr(msg, " allowed_at=1 source=global scope=2 "))
	{
		TH_LOG("%s", msg);
	}
	EXPECT_NE(NULL, strstr(msg, " tracer_uid=1000 "));
	EXPECT_NE(NULL, strstr(msg, " target_uid=1000 "));
}

TEST_HARNESS_MAIN
