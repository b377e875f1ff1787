// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - kernel.warden.ptrace_scope at 3, which stays until reboot
 *
 * Run this last, or alone in a boot: once scope 3 is set, no process can
 * be attached to, and nothing can lower the scope again.  The tests refuse
 * to set it unless WARDEN_LOCK_PTRACE_SCOPE=1 is in the environment.
 */

#include "ptrace_common.h"

struct locked {
	struct ptrace_knobs knobs;
};

static void lock_scope(struct __test_metadata *const _metadata,
		       struct locked *const self)
{
	char value[32];

	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	if (strcmp(value, "3\n") && !getenv("WARDEN_LOCK_PTRACE_SCOPE"))
		SKIP(return, "set WARDEN_LOCK_PTRACE_SCOPE=1 to lock the scope");
	ptrace_knobs_setup(_metadata, &self->knobs, "3", "0");
}

static void expect_value(struct __test_metadata *const _metadata,
			 const char *const expected)
{
	char value[32];

	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB, value, sizeof(value)));
	EXPECT_STREQ(expected, value);
}

/* No attach at all */

FIXTURE(scope_3) {
	struct locked locked;
};

FIXTURE_VARIANT(scope_3) {
	struct scene_spec spec;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_3, child_denied) {
	/* clang-format on */
	.spec = { .relation = CHILD },
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_3, privileged_on_child_denied) {
	/* clang-format on */
	.spec = { .relation = CHILD, .privileged_tracer = true },
};

/* clang-format off */
FIXTURE_VARIANT_ADD(scope_3, named_tracer_denied) {
	/* clang-format on */
	.spec = { .relation = UNRELATED, .grant = GRANT_ANY },
};

FIXTURE_SETUP(scope_3)
{
	lock_scope(_metadata, &self->locked);
}

FIXTURE_TEARDOWN_PARENT(scope_3)
{
	if (self->locked.knobs.yama_saved)
		knob_restore(_metadata, &self->locked.knobs.yama);
}

static void expect_denied(struct __test_metadata *const _metadata,
			  struct scene_spec spec, const enum access access)
{
	spec.access = access;
	EXPECT_EQ(denial_errno(access), play_scene(_metadata, &spec));
}

TEST_F(scope_3, attach)
{
	expect_denied(_metadata, variant->spec, ATTACH);
}

TEST_F(scope_3, proc_mem)
{
	expect_denied(_metadata, variant->spec, PROC_MEM);
}

TEST_F(scope_3, process_vm_readv)
{
	expect_denied(_metadata, variant->spec, VM_READV);
}

/* PTRACE_TRACEME, even with a parent that has CAP_SYS_PTRACE */

FIXTURE(traceme_at_scope_3) {
	struct locked locked;
};

FIXTURE_SETUP(traceme_at_scope_3)
{
	lock_scope(_metadata, &self->locked);
}

FIXTURE_TEARDOWN_PARENT(traceme_at_scope_3)
{
	if (self->locked.knobs.yama_saved)
		knob_restore(_metadata, &self->locked.knobs.yama);
}

TEST_F(traceme_at_scope_3, denied)
{
	EXPECT_EQ(EPERM, traceme_from_child(false));
}

TEST_F(traceme_at_scope_3, privileged_parent_denied)
{
	EXPECT_EQ(EPERM, traceme_from_child(true));
}

/*
 * Reads too (PTRACE_MODE_READ), at scope 2's meaning: CAP_SYS_PTRACE
 * still reads, so that root's ps and lsof work.  A change of another
 * process's limits is an attach: nobody.
 */

FIXTURE(snoop_at_scope_3) {
	struct locked locked;
	struct knob paranoid;
};

FIXTURE_VARIANT(snoop_at_scope_3) {
	enum snooper snooper;
	bool read_allowed;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop_at_scope_3, sibling_denied) {
	/* clang-format on */
	.snooper = SNOOPER_SIBLING,
	.read_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop_at_scope_3, parent_denied) {
	/* clang-format on */
	.snooper = SNOOPER_PARENT,
	.read_allowed = false,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(snoop_at_scope_3, root_reads_allowed) {
	/* clang-format on */
	.snooper = SNOOPER_ROOT,
	.read_allowed = true,
};

FIXTURE_SETUP(snoop_at_scope_3)
{
	/* Debian's default, 3, lets no user open a perf event. */
	knob_set(_metadata, &self->paranoid, PERF_PARANOID_KNOB, "2");
	lock_scope(_metadata, &self->locked);
}

FIXTURE_TEARDOWN_PARENT(snoop_at_scope_3)
{
	knob_restore(_metadata, &self->paranoid);
	if (self->locked.knobs.yama_saved)
		knob_restore(_metadata, &self->locked.knobs.yama);
}

static void expect_snoop(struct __test_metadata *const _metadata,
			 const enum snooper who, const enum snoop how,
			 const bool allowed)
{
	EXPECT_EQ(allowed ? 0 : snoop_errno(how),
		  play_snoop(_metadata, NULL, who, how));
}

TEST_F(snoop_at_scope_3, environ)
{
	expect_snoop(_metadata, variant->snooper, SNOOP_ENVIRON,
		     variant->read_allowed);
}

TEST_F(snoop_at_scope_3, fd_link)
{
	expect_snoop(_metadata, variant->snooper, SNOOP_FD,
		     variant->read_allowed);
}

TEST_F(snoop_at_scope_3, perf_event_open)
{
	expect_snoop(_metadata, variant->snooper, SNOOP_PERF,
		     variant->read_allowed);
}

TEST_F(snoop_at_scope_3, prlimit_core_denied)
{
	expect_snoop(_metadata, variant->snooper, SNOOP_PRLIMIT, false);
}

/* The knob, once locked */

FIXTURE(locked_knob) {
	struct locked locked;
};

FIXTURE_VARIANT(locked_knob) {
	const char *value;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(locked_knob, lowering_to_0_eperm) {
	/* clang-format on */
	.value = "0",
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(locked_knob, lowering_to_1_eperm) {
	/* clang-format on */
	.value = "1",
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(locked_knob, lowering_to_2_eperm) {
	/* clang-format on */
	.value = "2\n",
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(locked_knob, writing_3_again_allowed) {
	/* clang-format on */
	.value = "3",
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(locked_knob, four_still_einval) {
	/* clang-format on */
	.value = "4",
	.err = EINVAL,
};

FIXTURE_SETUP(locked_knob)
{
	lock_scope(_metadata, &self->locked);
}

FIXTURE_TEARDOWN_PARENT(locked_knob)
{
	if (self->locked.knobs.yama_saved)
		knob_restore(_metadata, &self->locked.knobs.yama);
}

TEST_F(locked_knob, write)
{
	EXPECT_EQ(variant->err, write_file(WARDEN_PTRACE_KNOB, variant->value));
	expect_value(_metadata, "3\n");
}

/* Complain mode would reopen the door too. */

FIXTURE(locked_complain) {
	struct locked locked;
};

FIXTURE_SETUP(locked_complain)
{
	lock_scope(_metadata, &self->locked);
}

FIXTURE_TEARDOWN_PARENT(locked_complain)
{
	if (self->locked.knobs.yama_saved)
		knob_restore(_metadata, &self->locked.knobs.yama);
}

TEST_F(locked_complain, write)
{
	char value[32];

	EXPECT_EQ(EPERM, write_file(WARDEN_PTRACE_KNOB "_complain", "1"));
	ASSERT_EQ(0, read_file(WARDEN_PTRACE_KNOB "_complain", value,
			       sizeof(value)));
	EXPECT_STREQ("0\n", value);
	EXPECT_EQ(0, write_file(WARDEN_PTRACE_KNOB "_complain", "0"));
	expect_value(_metadata, "3\n");
}

TEST_HARNESS_MAIN
