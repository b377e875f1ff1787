// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Per-process policies
 *
 * A process raises rules for itself and its future descendants by writing
 * /proc/self/attr/warden/policy.  The symlink rule is the probe: with the
 * global level at 0, USER_UID follows a link of OTHER_UID's in a sticky
 * world-writable directory of root's, unless a policy raised
 * protected_sticky_symlinks.  Every denial has its allowed twin.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"
#include "ptrace_common.h"

#define SYMLINKS_1 "protected_sticky_symlinks=1"
#define SYMLINKS_2 "protected_sticky_symlinks=2"
#define LOG_KEY "warden: rule=protected_sticky_symlinks verdict=denied "

/* What /proc/PID/attr/warden/policy says of a process. */
#define POLICY_TEXT(symlinks, ptrace)                                 \
	"protected_sticky_symlinks=" #symlinks                        \
	" protected_nonaccess_hardlinks=0 protected_fifos=0"          \
	" protected_regular=0 ptrace_scope=" #ptrace                  \
	" protected_symlink_owner=0 protected_sticky_writes=0\n"

/* What a child does: raise @policy (unless NULL), then follow @path. */
struct job {
	const char *path;
	const char *policy;
	/* For set_policy() without no_new_privs. */
	bool no_nnp;
};

/* Opens @path, through the link, and reads the target: 0 or an errno. */
static int follow(const char *const path)
{
	char buf[sizeof(TARGET_CONTENT)] = "";
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return len < 0 || strcmp(buf, TARGET_CONTENT) ? EIO : 0;
}

static int apply(const struct job *const job)
{
	if (!job->policy)
		return 0;
	if (job->no_nnp)
		return set_policy(job->policy);
	return sandbox(job->policy);
}

static int apply_and_follow(const void *const arg)
{
	const struct job *const job = arg;

	return apply(job) ?: follow(job->path);
}

static int grandchild_follows(const void *const arg)
{
	const struct job *const job = arg;
	const int err = apply(job);
	pid_t pid;

	if (err)
		return err;
	pid = fork();
	if (!pid)
		_exit(follow(job->path));
	return wait_child(pid);
}

static void *follow_thread(void *const arg)
{
	return (void *)(intptr_t)follow(arg);
}

static int thread_follows(const void *const arg)
{
	const struct job *const job = arg;
	pthread_t thread;
	void *result;
	int err;

	err = apply(job);
	if (err)
		return err;
	if (pthread_create(&thread, NULL, follow_thread, (void *)job->path) ||
	    pthread_join(thread, &result))
		return CHILD_BROKEN;
	return (intptr_t)result;
}

static void *wait_thread(void *const arg)
{
	const int *const release = arg;

	wait_byte(release[0]);
	return NULL;
}

/*
 * Raises the policy while a second thread exists: returns what the raise
 * got, once the follow shows that nothing changed.
 */
static int raise_beside_thread(const void *const arg)
{
	const struct job *const job = arg;
	int release[2], err, followed;
	pthread_t thread;

	if (pipe2(release, O_CLOEXEC) || set_no_new_privs() ||
	    pthread_create(&thread, NULL, wait_thread, release))
		return CHILD_BROKEN;
	err = set_policy(job->policy);
	send_byte(release[1]);
	if (pthread_join(thread, NULL))
		return CHILD_BROKEN;
	followed = follow(job->path);
	return followed ?: err;
}

/* Runs cat on @path after the policy, its output thrown away. */
static int exec_cat(const void *const arg)
{
	const struct job *const job = arg;
	const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	const int err = apply(job);

	if (err)
		return err;
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
	    dup2(null, STDERR_FILENO) < 0)
		return CHILD_BROKEN;
	execl("/bin/cat", "cat", job->path, NULL);
	return CHILD_BROKEN;
}

FIXTURE(policy) {
	struct scratch s;
	struct knob complain, owner;
	char link[PATH_MAX];
	/* shared/dirlink -> target/, and shared/dirlink/file through it. */
	char dirlink[PATH_MAX];
	char through[PATH_MAX];
};

FIXTURE_SETUP(policy)
{
	scratch_setup(_metadata, &self->s, "0", 01777, ROOT_UID);
	knob_set(_metadata, &self->complain, WARDEN_SYMLINKS_COMPLAIN_KNOB,
		 "0");
	/* The sticky rule's policies: the link-owner rule stays out. */
	knob_set(_metadata, &self->owner, WARDEN_SYMLINK_OWNER_KNOB, "0");
	path_join(_metadata, self->link, self->s.shared, "link");
	make_link(_metadata, self->link, self->s.target, OTHER_UID);
	path_join(_metadata, self->dirlink, self->s.shared, "dirlink");
	make_link(_metadata, self->dirlink, self->s.target_dir, OTHER_UID);
	path_join(_metadata, self->through, self->dirlink, TARGET_NAME);
}

FIXTURE_TEARDOWN_PARENT(policy)
{
	knob_restore(_metadata, &self->owner);
	knob_restore(_metadata, &self->complain);
	scratch_teardown(_metadata, &self->s);
}

TEST_F(policy, sandboxed_child_follow_denied)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	EXPECT_EQ(EACCES, run_as(USER_UID, apply_and_follow, &job));
}

TEST_F(policy, child_without_policy_follow_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, apply_and_follow, &job));
}

/* The test process, root, is denied at level 1 too, as any non-owner. */
TEST_F(policy, parent_of_sandboxed_child_follow_allowed)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_2 };
	char buf[256];

	ASSERT_EQ(EACCES, run_as(USER_UID, apply_and_follow, &job));
	EXPECT_EQ(0, follow(self->link));
	ASSERT_EQ(0, read_file(POLICY_ATTR, buf, sizeof(buf)));
	EXPECT_STREQ(POLICY_TEXT(0, 0), buf);
}

TEST_F(policy, grandchild_of_sandbox_follow_denied)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	EXPECT_EQ(EACCES, run_as(USER_UID, grandchild_follows, &job));
}

TEST_F(policy, grandchild_without_policy_follow_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, grandchild_follows, &job));
}

TEST_F(policy, thread_created_after_raise_follow_denied)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	EXPECT_EQ(EACCES, run_as(USER_UID, thread_follows, &job));
}

TEST_F(policy, thread_without_policy_follow_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, thread_follows, &job));
}

/* A policy for one thread of several would not be the process's. */
TEST_F(policy, raise_with_other_thread_refused_busy)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	EXPECT_EQ(EBUSY, run_as(USER_UID, raise_beside_thread, &job));
}

/* cat exits 1 when it cannot open its file. */
TEST_F(policy, after_execve_follow_denied)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	EXPECT_EQ(1, run_as(USER_UID, exec_cat, &job));
}

TEST_F(policy, after_execve_without_policy_follow_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, exec_cat, &job));
}

/* The program that execve() starts reads its own policy. */
TEST_F(policy, after_execve_policy_read_back)
{
	char buf[256] = "";
	int out[2], status;
	ssize_t len;
	pid_t pid;

	ASSERT_EQ(0, pipe2(out, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (become_user(USER_UID) ||
		    sandbox(SYMLINKS_2 " ptrace_scope=1") ||
		    dup2(out[1], STDOUT_FILENO) < 0)
			_exit(CHILD_BROKEN);
		execl("/bin/cat", "cat", POLICY_ATTR, NULL);
		_exit(CHILD_BROKEN);
	}
	close(out[1]);
	len = read(out[0], buf, sizeof(buf) - 1);
	ASSERT_LT(0, len);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_STREQ(POLICY_TEXT(2, 1), buf);
}

/* Raises to level 2, then writes @arg: returns its errno if level 2 stayed. */
static int raise_then_write(const void *const arg)
{
	char buf[256];
	int err;

	err = sandbox(SYMLINKS_2);
	if (err)
		return err;
	err = set_policy(arg);
	if (read_file(POLICY_ATTR, buf, sizeof(buf)) ||
	    strcmp(buf, POLICY_TEXT(2, 0)))
		return CHILD_BROKEN;
	return err;
}

TEST_F(policy, lower_level_refused)
{
	EXPECT_EQ(EPERM, run_as(USER_UID, raise_then_write, SYMLINKS_1));
}

TEST_F(policy, lower_to_zero_refused)
{
	EXPECT_EQ(EPERM,
		  run_as(USER_UID, raise_then_write,
			 "protected_sticky_symlinks=0"));
}

TEST_F(policy, lower_with_a_raise_refused_whole)
{
	EXPECT_EQ(EPERM, run_as(USER_UID, raise_then_write,
				"ptrace_scope=1 " SYMLINKS_1));
}

TEST_F(policy, same_level_allowed)
{
	EXPECT_EQ(0, run_as(USER_UID, raise_then_write, SYMLINKS_2));
}

TEST_F(policy, lower_by_root_refused)
{
	EXPECT_EQ(EPERM, run_as(ROOT_UID, raise_then_write, SYMLINKS_1));
}

TEST_F(policy, without_no_new_privs_unprivileged_refused)
{
	const struct job job = {
		.path = self->link,
		.policy = SYMLINKS_1,
		.no_nnp = true,
	};

	/* Refused, and nothing changed: the follow is allowed. */
	EXPECT_EQ(EPERM, run_as(USER_UID, apply_and_follow, &job));
	EXPECT_EQ(0, run_as(USER_UID, grandchild_follows,
			    &(struct job){ .path = self->link }));
}

TEST_F(policy, with_no_new_privs_unprivileged_allowed)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };

	/* Raised: the follow is denied. */
	EXPECT_EQ(EACCES, run_as(USER_UID, apply_and_follow, &job));
}

TEST_F(policy, without_no_new_privs_cap_sys_admin_allowed)
{
	const struct job job = {
		.path = self->link,
		.policy = SYMLINKS_1,
		.no_nnp = true,
	};

	EXPECT_EQ(EACCES, run_as(ROOT_UID, apply_and_follow, &job));
}

static int drop_admin_and_raise(const void *const arg)
{
	const int err = drop_capability(CAP_SYS_ADMIN);

	return err ?: set_policy(arg);
}

TEST_F(policy, without_no_new_privs_root_without_cap_refused)
{
	EXPECT_EQ(EPERM, run_as(ROOT_UID, drop_admin_and_raise, SYMLINKS_1));
}

/* Raised outside, then root in a user namespace of its own tries to lower. */
static int userns_root_writes(const void *const arg)
{
	char buf[256];
	int err;

	err = sandbox(SYMLINKS_2);
	if (err)
		return err;
	if (unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	err = set_policy(arg);
	if (read_file(POLICY_ATTR, buf, sizeof(buf)) || !strstr(buf, SYMLINKS_2))
		return CHILD_BROKEN;
	if (!err && !strstr(buf, arg))
		return CHILD_BROKEN;
	return err;
}

TEST_F(policy, user_ns_root_lower_refused)
{
	EXPECT_EQ(EPERM,
		  run_as(USER_UID, userns_root_writes,
			 "protected_sticky_symlinks=0"));
}

TEST_F(policy, user_ns_root_raise_allowed)
{
	EXPECT_EQ(0, run_as(USER_UID, userns_root_writes, "ptrace_scope=2"));
}

/* CAP_SYS_ADMIN in its own user namespace stands for no_new_privs. */
static int userns_root_raises_without_nnp(const void *const arg)
{
	if (unshare(CLONE_NEWUSER))
		return CHILD_BROKEN;
	return set_policy(SYMLINKS_1) ?: follow(arg);
}

TEST_F(policy, user_ns_root_without_no_new_privs_follow_denied)
{
	EXPECT_EQ(EACCES,
		  run_as(USER_UID, userns_root_raises_without_nnp, self->link));
}

/*
 * The intermediate component shared/dirlink is checked at level 2 only:
 * whichever of the global and the process level is 2 decides.
 */
TEST_F(policy, global_stricter_than_process_follow_denied)
{
	const struct job job = { .path = self->through, .policy = SYMLINKS_1 };

	ASSERT_EQ(0, write_file(WARDEN_KNOB, "2"));
	EXPECT_EQ(EACCES, run_as(USER_UID, apply_and_follow, &job));
}

TEST_F(policy, global_as_strict_as_process_follow_allowed)
{
	const struct job job = { .path = self->through, .policy = SYMLINKS_1 };

	ASSERT_EQ(0, write_file(WARDEN_KNOB, "1"));
	EXPECT_EQ(0, run_as(USER_UID, apply_and_follow, &job));
}

TEST_F(policy, process_stricter_than_global_follow_denied)
{
	const struct job job = { .path = self->through, .policy = SYMLINKS_2 };

	ASSERT_EQ(0, write_file(WARDEN_KNOB, "1"));
	EXPECT_EQ(EACCES, run_as(USER_UID, apply_and_follow, &job));
}

/* The host's complain mode does not weaken a sandbox. */
TEST_F_TIMEOUT(policy, complain_mode_sandbox_follow_denied_and_reported, 60)
{
	const struct job job = { .path = self->link, .policy = SYMLINKS_1 };
	const struct denial d = {
		.uid = USER_UID,
		.fn = apply_and_follow,
		.arg = &job,
		.err = EACCES,
		.path = self->link,
	};
	static const char decision[] = " allowed_at=0 source=process ";
	char msg[REPORT_SIZE];
	const int kmsg = report_open(_metadata);

	ASSERT_EQ(0, write_file(WARDEN_KNOB, "1"));
	ASSERT_EQ(0, write_file(WARDEN_SYMLINKS_COMPLAIN_KNOB, "1"));
	expect_report(_metadata, kmsg, &d, LOG_KEY, NULL, msg);
	EXPECT_NE(NULL, strstr(msg, decision))
	{
		TH_LOG("%s", msg);
	}
	close(kmsg);
}

TEST_F(policy, complain_mode_without_policy_follow_allowed)
{
	const struct job job = { .path = self->link };

	ASSERT_EQ(0, write_file(WARDEN_KNOB, "1"));
	ASSERT_EQ(0, write_file(WARDEN_SYMLINKS_COMPLAIN_KNOB, "1"));
	EXPECT_EQ(0, run_as(USER_UID, apply_and_follow, &job));
}

/* A sandboxed child, seen from its parent while it waits. */
static int raise_and_wait(const void *const arg)
{
	const int *const pipes = arg;
	const int err = sandbox(SYMLINKS_2 " ptrace_scope=1");

	if (err)
		return err;
	send_byte(pipes[1]);
	wait_byte(pipes[2]);
	return 0;
}

TEST_F(policy, other_process_policy_and_effective_read)
{
	char policy[256], effective[512], expected[512], level[8];
	/* What raise_and_wait() raised, in the rules' order. */
	const int process[WARDEN_RULE_COUNT] = { 2, 0, 0, 0, 1 };
	int ready[2], release[2], pipes[3];
	size_t len = 0, i;
	pid_t pid;

	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(release, O_CLOEXEC));
	pipes[0] = ready[0];
	pipes[1] = ready[1];
	pipes[2] = release[0];
	pid = spawn_as(USER_UID, raise_and_wait, pipes);
	ASSERT_LT(0, pid);
	close(ready[1]);
	ASSERT_EQ(0, wait_byte(ready[0]));

	EXPECT_EQ(0, read_policy(pid, "policy", policy, sizeof(policy)));
	EXPECT_EQ(0, read_policy(pid, "effective", effective,
				 sizeof(effective)));
	for (i = 0; i < WARDEN_RULE_COUNT; i++) {
		char knob[PATH_MAX];
		int global;

		snprintf(knob, sizeof(knob), WARDEN_SYSCTL_DIR "%s",
			 warden_rules[i].name);
		ASSERT_EQ(0, read_file(knob, level, sizeof(level)));
		global = atoi(level);
		len += snprintf(expected + len, sizeof(expected) - len,
				"rule=%s global=%d process=%d effective=%d\n",
				warden_rules[i].name, global, process[i],
				global > process[i] ? global : process[i]);
	}
	send_byte(release[1]);
	EXPECT_EQ(0, wait_child(pid));
	EXPECT_STREQ(POLICY_TEXT(2, 1), policy);
	EXPECT_STREQ(expected, effective);
}

/* Bad input: EINVAL, even for root, and nothing changes. */
FIXTURE(policy_input) {};

FIXTURE_VARIANT(policy_input) {
	const char *policy;
};

FIXTURE_SETUP(policy_input) {}

FIXTURE_TEARDOWN(policy_input) {}

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, unknown_rule) {
	/* clang-format on */
	.policy = "protected_everything=1",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, alias_is_not_a_rule) {
	/* clang-format on */
	.policy = "symlinks=1",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, level_above_range) {
	/* clang-format on */
	.policy = "protected_nonaccess_hardlinks=2",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, negative_level) {
	/* clang-format on */
	.policy = "ptrace_scope=-1",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, level_not_a_number) {
	/* clang-format on */
	.policy = "ptrace_scope=x",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, level_with_leading_zero) {
	/* clang-format on */
	.policy = "ptrace_scope=01",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, level_with_trailing_junk) {
	/* clang-format on */
	.policy = "ptrace_scope=1x",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, no_level) {
	/* clang-format on */
	.policy = "ptrace_scope",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, empty_level) {
	/* clang-format on */
	.policy = "ptrace_scope=",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, no_rule) {
	/* clang-format on */
	.policy = "=1",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, rule_twice) {
	/* clang-format on */
	.policy = "ptrace_scope=1 ptrace_scope=2",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, blanks_only) {
	/* clang-format on */
	.policy = "\t\n",
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_input, valid_then_invalid) {
	/* clang-format on */
	.policy = "protected_fifos=2 ptrace_scope=4",
};

static int write_unchanged(const void *const arg)
{
	char buf[256];
	const int err = set_policy(arg);

	if (read_file(POLICY_ATTR, buf, sizeof(buf)) ||
	    strcmp(buf, POLICY_TEXT(0, 0)))
		return CHILD_BROKEN;
	return err;
}

TEST_F(policy_input, refused_invalid)
{
	EXPECT_EQ(EINVAL, run_as(ROOT_UID, write_unchanged, variant->policy));
}

TEST(policy_syntax_with_blanks_and_newline_allowed)
{
	EXPECT_EQ(0, run_as(ROOT_UID, write_unchanged,
			    "\tprotected_fifos=0  ptrace_scope=0\n"));
}

/*
 * procfs passes at most a page of a write to Warden and returns the
 * shorter count, so a write of a page or more is refused whole: the
 * policy raises protected_sticky_symlinks, padded with blanks to @size
 * bytes (0: not padded), and @policy is what the file says after it.
 * The guest's pages are 4096 bytes.
 */
struct padded_write {
	size_t size;
	const char *policy;
};

FIXTURE(policy_write_size) {};

FIXTURE_VARIANT(policy_write_size) {
	struct padded_write write;
	int err;
};

FIXTURE_SETUP(policy_write_size)
{
	if (sysconf(_SC_PAGESIZE) != 4096)
		SKIP(return, "pages are not 4096 bytes");
}

FIXTURE_TEARDOWN(policy_write_size) {}

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_write_size, short) {
	/* clang-format on */
	.write = { .size = 0, .policy = POLICY_TEXT(2, 0) },
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_write_size, one_byte_under_page) {
	/* clang-format on */
	.write = { .size = 4095, .policy = POLICY_TEXT(2, 0) },
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_write_size, page) {
	/* clang-format on */
	.write = { .size = 4096, .policy = POLICY_TEXT(0, 0) },
	.err = EINVAL,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(policy_write_size, over_page) {
	/* clang-format on */
	.write = { .size = 5000, .policy = POLICY_TEXT(0, 0) },
	.err = EINVAL,
};

/*
 * Writes SYMLINKS_2 padded as @arg says, in one write(2): returns its
 * errno if the policy read back is the one @arg expects.
 */
static int write_padded(const void *const arg)
{
	const struct padded_write *const w = arg;
	const size_t len = w->size ?: strlen(SYMLINKS_2);
	char *const text = malloc(len);
	char buf[256];
	int err;

	if (!text)
		return CHILD_BROKEN;
	memset(text, ' ', len);
	memcpy(text, SYMLINKS_2, strlen(SYMLINKS_2));
	err = write_at(POLICY_ATTR, text, len, 0);
	free(text);
	if (read_file(POLICY_ATTR, buf, sizeof(buf)) || strcmp(buf, w->policy))
		return CHILD_BROKEN;
	return err;
}

TEST_F(policy_write_size, applied_whole_or_refused)
{
	EXPECT_EQ(variant->err,
		  run_as(ROOT_UID, write_padded, &variant->write));
}

static int write_effective(const void *const arg)
{
	return write_file("/proc/self/attr/warden/effective", arg);
}

/* Root passes the mode bits: Warden refuses the read-only file itself. */
TEST(policy_effective_written_refused)
{
	EXPECT_EQ(EINVAL, run_as(ROOT_UID, write_effective, "ptrace_scope=1"));
}

/* Ptrace: the policy of either process raises the scope between them. */
FIXTURE(policy_ptrace) {
	struct ptrace_knobs knobs;
	pid_t target;
};

FIXTURE_SETUP(policy_ptrace)
{
	ptrace_knobs_setup(_metadata, &self->knobs, "0", "0");
}

FIXTURE_TEARDOWN_PARENT(policy_ptrace)
{
	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
	ptrace_knobs_teardown(_metadata, &self->knobs);
}

/* The target: raises @policy (unless NULL), makes itself dumpable, waits. */
struct target_job {
	const char *policy;
	int ready[2];
};

static int be_target(const void *const arg)
{
	const struct target_job *const job = arg;

	if (job->policy && sandbox(job->policy))
		return CHILD_BROKEN;
	if (prctl(PR_SET_DUMPABLE, 1))
		return CHILD_BROKEN;
	send_byte(job->ready[1]);
	pause();
	return 0;
}

static void start_target(struct __test_metadata *const _metadata,
			 FIXTURE_DATA(policy_ptrace) * const self,
			 const char *const policy)
{
	struct target_job job = { .policy = policy };

	ASSERT_EQ(0, pipe2(job.ready, O_CLOEXEC));
	self->target = spawn_as(USER_UID, be_target, &job);
	ASSERT_LT(0, self->target);
	close(job.ready[1]);
	ASSERT_EQ(0, wait_byte(job.ready[0]));
	close(job.ready[0]);
}

struct tracer_job {
	const char *policy;
	pid_t target;
};

/* Seizes the target, a sibling: detached when the tracer exits. */
static int seize(const void *const arg)
{
	const struct tracer_job *const job = arg;

	if (job->policy && sandbox(job->policy))
		return CHILD_BROKEN;
	return ptrace(PTRACE_SEIZE, job->target, 0, 0) ? errno : 0;
}

/*
 * Starts a target of uid 1000 that raised @target_policy (if not NULL),
 * then a tracer of @uid that raised @tracer_policy (if not NULL) runs
 * @fn to attach to it, which must return @err.
 */
static void expect_attach(struct __test_metadata *const _metadata,
			  FIXTURE_DATA(policy_ptrace) * const self,
			  const char *const target_policy, const uid_t uid,
			  int (*const fn)(const void *arg),
			  const char *const tracer_policy, const int err)
{
	struct tracer_job job = { .policy = tracer_policy };

	start_target(_metadata, self, target_policy);
	job.target = self->target;
	EXPECT_EQ(err, run_as(uid, fn, &job));
}

TEST_F(policy_ptrace, sandboxed_tracer_attach_sibling_denied)
{
	expect_attach(_metadata, self, NULL, USER_UID,
		      seize, "ptrace_scope=1", EPERM);
}

TEST_F(policy_ptrace, tracer_without_policy_attach_sibling_allowed)
{
	expect_attach(_metadata, self, NULL, USER_UID, seize, NULL, 0);
}

/*
 * A sandbox at scope 3 is not read by other processes, but a process's
 * own policy never shuts out the host's administrator: CAP_SYS_PTRACE in
 * the initial user namespace still attaches.
 */
TEST_F(policy_ptrace, target_at_scope_3_attach_by_root_allowed)
{
	expect_attach(_metadata, self, "ptrace_scope=3", ROOT_UID,
		      seize, NULL, 0);
}

TEST_F(policy_ptrace, target_at_scope_3_attach_by_sibling_denied)
{
	expect_attach(_metadata, self, "ptrace_scope=3", USER_UID,
		      seize, NULL, EPERM);
}

/* It is the capability that lets root in, not its uid. */
static int seize_without_cap_sys_ptrace(const void *const arg)
{
	if (drop_capability(CAP_SYS_PTRACE))
		return CHILD_BROKEN;
	return seize(arg);
}

TEST_F(policy_ptrace, target_at_scope_3_attach_by_root_without_cap_denied)
{
	expect_attach(_metadata, self, "ptrace_scope=3", ROOT_UID,
		      seize_without_cap_sys_ptrace, NULL, EPERM);
}

/* A tracer's own scope binds it, whoever it is. */
TEST_F(policy_ptrace, root_tracer_at_scope_3_attach_denied)
{
	expect_attach(_metadata, self, NULL, ROOT_UID,
		      seize, "ptrace_scope=3", EPERM);
}

TEST_F(policy_ptrace, target_without_policy_attach_by_root_allowed)
{
	expect_attach(_metadata, self, NULL, ROOT_UID, seize, NULL, 0);
}

/* Scope 2 lets CAP_SYS_PTRACE through, as the global scope 2 does. */
TEST_F(policy_ptrace, target_at_scope_2_attach_by_root_allowed)
{
	expect_attach(_metadata, self, "ptrace_scope=2", ROOT_UID,
		      seize, NULL, 0);
}

TEST_F(policy_ptrace, target_at_scope_2_attach_by_user_denied)
{
	expect_attach(_metadata, self, "ptrace_scope=2", USER_UID,
		      seize, NULL, EPERM);
}

TEST_HARNESS_MAIN
