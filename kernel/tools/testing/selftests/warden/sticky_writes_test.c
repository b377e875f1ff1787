// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Writes into files planted in shared sticky directories
 *
 * With protected_sticky_writes, an existing regular file or FIFO in a
 * sticky directory that others can write to may be opened for writing,
 * with or without O_CREAT, or truncated by path, only by its owner or when
 * the directory's owner owns it.  Root, the writer here unless a test says
 * otherwise, gets no exception.  Every refusal has its allowed twin, and
 * each attack is shown to work with the rule off.
 *
 *   root/                0755 root
 *   root/shared/         1777 root, unless a test changes it
 *   root/shared/file     0666 user, TARGET_CONTENT: the planted file
 *   root/shared/fifo     0666 user
 *
 * protected_regular and protected_fifos are 0 (and mainline's knobs too),
 * so that only the new rule can refuse, except where a test replays a
 * refused O_CREAT open.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

#define WRITES_KNOB "/proc/sys/kernel/warden/" STICKY_WRITES_RULE
#define WRITES_COMPLAIN_KNOB \
	"/proc/sys/kernel/warden/protected_sticky_writes_complain"
/* Longer than TARGET_CONTENT, so that it covers it all. */
#define ATTACK "written by root, over all of it\n"

FIXTURE(writes) {
	char root[PATH_MAX], shared[PATH_MAX], file[PATH_MAX], fifo[PATH_MAX];
	struct knob mainline_fifos, mainline_regular, fifos, regular;
	struct knob level, complain;
};

FIXTURE_SETUP(writes)
{
	int fd;

	tmpfs_setup(_metadata, self->root);
	make_dir(_metadata, self->shared, self->root, "shared", 01777,
		 ROOT_UID);
	path_join(_metadata, self->file, self->shared, TARGET_NAME);
	fd = open(self->file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(TARGET_CONTENT) - 1,
		  (size_t)write(fd, TARGET_CONTENT,
				sizeof(TARGET_CONTENT) - 1));
	ASSERT_EQ(0, fchown(fd, USER_UID, USER_UID));
	ASSERT_EQ(0, fchmod(fd, 0666));
	ASSERT_EQ(0, close(fd));
	make_node(_metadata, self->fifo, self->shared, "fifo", S_IFIFO | 0666,
		  0, USER_UID);

	knob_set(_metadata, &self->mainline_fifos, MAINLINE_FIFOS_KNOB, "0");
	knob_set(_metadata, &self->mainline_regular, MAINLINE_REGULAR_KNOB,
		 "0");
	knob_set(_metadata, &self->fifos, WARDEN_FIFOS_KNOB, "0");
	knob_set(_metadata, &self->regular, WARDEN_REGULAR_KNOB, "0");
	knob_save(_metadata, &self->level, WRITES_KNOB);
	knob_set(_metadata, &self->complain, WRITES_COMPLAIN_KNOB, "0");
}

FIXTURE_TEARDOWN_PARENT(writes)
{
	knob_restore(_metadata, &self->complain);
	knob_restore(_metadata, &self->level);
	knob_restore(_metadata, &self->regular);
	knob_restore(_metadata, &self->fifos);
	knob_restore(_metadata, &self->mainline_regular);
	knob_restore(_metadata, &self->mainline_fifos);
	tmpfs_teardown(_metadata, self->root);
}

static void set_level(struct __test_metadata *const _metadata,
		      const char *const level)
{
	ASSERT_EQ(0, write_file(WRITES_KNOB, level));
}

struct write_op {
	const char *path;
	int flags;
};

/* Opens as @arg says and, with write access, writes ATTACK. */
static int open_and_write(const void *const arg)
{
	const struct write_op *const op = arg;
	const int fd = open(op->path, op->flags | O_CLOEXEC, 0644);
	int err = 0;

	if (fd < 0)
		return errno;
	if ((op->flags & O_ACCMODE) != O_RDONLY &&
	    write(fd, ATTACK, sizeof(ATTACK) - 1) != sizeof(ATTACK) - 1)
		err = CHILD_BROKEN;
	close(fd);
	return err;
}

/*
 * rsync --inplace: its O_CREAT open refused, it opens the file again
 * without O_CREAT and writes.
 */
static int rsync_inplace(const void *const path)
{
	struct write_op op = { path, O_WRONLY | O_CREAT };
	int err = open_and_write(&op);

	if (err != EACCES)
		return CHILD_BROKEN;
	op.flags = O_WRONLY;
	return open_and_write(&op);
}

static int truncate_path(const void *const path)
{
	return truncate(path, 0) ? errno : 0;
}

static void expect_content(struct __test_metadata *const _metadata,
			   const char *const path, const char *const content)
{
	char buf[64];

	ASSERT_EQ(0, read_file(path, buf, sizeof(buf)));
	EXPECT_STREQ(content, buf);
}

static int open_flags(const uid_t uid, const char *const path,
		      const int flags)
{
	const struct write_op op = { path, flags };

	return run_as(uid, open_and_write, &op);
}

/* Opens for writing, without O_CREAT */

TEST_F(writes, planted_write_works_when_off)
{
	set_level(_metadata, "0");
	EXPECT_EQ(0, open_flags(ROOT_UID, self->file, O_WRONLY));
	expect_content(_metadata, self->file, ATTACK);
}

TEST_F(writes, planted_write_refused_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES,
		  open_flags(ROOT_UID, self->file, O_WRONLY));
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->file, O_RDWR));
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->file,
				     O_WRONLY | O_APPEND));
	expect_content(_metadata, self->file, TARGET_CONTENT);
}

TEST_F(writes, planted_read_allowed_at_2)
{
	set_level(_metadata, "2");
	EXPECT_EQ(0, open_flags(ROOT_UID, self->file, O_RDONLY));
	expect_content(_metadata, self->file, TARGET_CONTENT);
}

TEST_F(writes, owner_writes_own_file_at_2)
{
	set_level(_metadata, "2");
	EXPECT_EQ(0, open_flags(USER_UID, self->file, O_WRONLY));
	expect_content(_metadata, self->file, ATTACK);
}

TEST_F(writes, dir_owner_file_written_by_root_at_2)
{
	/* The directory's owner could replace the file anyway. */
	ASSERT_EQ(0, chown(self->shared, USER_UID, USER_UID));
	ASSERT_EQ(0, chmod(self->shared, 01777));
	set_level(_metadata, "2");
	EXPECT_EQ(0, open_flags(ROOT_UID, self->file, O_WRONLY));
	expect_content(_metadata, self->file, ATTACK);
}

struct link_op {
	const char *from;
	const char *to;
};

static int link_path(const void *const arg)
{
	const struct link_op *const op = arg;

	return link(op->from, op->to) ? errno : 0;
}

/*
 * A root-owned file that anyone may write, hard linked by the user into the
 * shared directory: root's job truncates it through the link.  The
 * directory's owner's file is trusted only while it has one name.
 */
static void link_root_file(struct __test_metadata *const _metadata,
			   const char *const root, const char *const shared,
			   char *const orig, char *const linked)
{
	const struct link_op op = { orig, linked };
	int fd;

	path_join(_metadata, orig, root, "rootfile");
	fd = open(orig, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(TARGET_CONTENT) - 1,
		  (size_t)write(fd, TARGET_CONTENT,
				sizeof(TARGET_CONTENT) - 1));
	ASSERT_EQ(0, fchmod(fd, 0666));
	ASSERT_EQ(0, close(fd));
	path_join(_metadata, linked, shared, "job.out");
	ASSERT_EQ(0, run_as(USER_UID, link_path, &op));
}

TEST_F(writes, hardlinked_root_file_truncated_when_off)
{
	char orig[PATH_MAX], linked[PATH_MAX];

	link_root_file(_metadata, self->root, self->shared, orig, linked);
	set_level(_metadata, "0");
	EXPECT_EQ(0, open_flags(ROOT_UID, linked, O_WRONLY | O_CREAT | O_TRUNC));
	expect_content(_metadata, orig, ATTACK);
}

TEST_F(writes, hardlinked_root_file_refused_at_1)
{
	char orig[PATH_MAX], linked[PATH_MAX];

	link_root_file(_metadata, self->root, self->shared, orig, linked);
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, linked, O_WRONLY | O_TRUNC));
	expect_content(_metadata, orig, TARGET_CONTENT);
	/* The twin: with one name again, root's own file is root's to write. */
	ASSERT_EQ(0, unlink(orig));
	EXPECT_EQ(0, open_flags(ROOT_UID, linked, O_WRONLY | O_TRUNC));
	expect_content(_metadata, linked, ATTACK);
}

TEST_F(writes, hardlinked_root_file_creat_refused_by_regular)
{
	char orig[PATH_MAX], linked[PATH_MAX];

	link_root_file(_metadata, self->root, self->shared, orig, linked);
	set_level(_metadata, "0");
	ASSERT_EQ(0, write_file(WARDEN_REGULAR_KNOB, "1"));
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, linked,
				     O_WRONLY | O_CREAT | O_TRUNC));
	expect_content(_metadata, orig, TARGET_CONTENT);
	ASSERT_EQ(0, unlink(orig));
	EXPECT_EQ(0, open_flags(ROOT_UID, linked,
				O_WRONLY | O_CREAT | O_TRUNC));
	expect_content(_metadata, linked, ATTACK);
}

/*
 * Root's job holds the planted file open for reading (or O_PATH) and
 * reopens it for writing through /proc/self/fd/N: judged as the open by
 * its path.
 */
static int reopen_and_write(const void *const arg)
{
	const struct write_op *const op = arg;
	struct write_op reopen = { NULL, O_WRONLY };
	char path[64];
	int fd, err;

	fd = open(op->path, op->flags | O_CLOEXEC);
	if (fd < 0)
		return CHILD_BROKEN;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	reopen.path = path;
	err = open_and_write(&reopen);
	close(fd);
	return err;
}

static int reopen_flags(const uid_t uid, const char *const path,
			const int flags)
{
	const struct write_op op = { path, flags };

	return run_as(uid, reopen_and_write, &op);
}

TEST_F(writes, proc_fd_reopen_works_when_off)
{
	set_level(_metadata, "0");
	EXPECT_EQ(0, reopen_flags(ROOT_UID, self->file, O_PATH));
	expect_content(_metadata, self->file, ATTACK);
}

TEST_F(writes, proc_fd_reopen_refused_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, reopen_flags(ROOT_UID, self->file, O_PATH));
	EXPECT_EQ(EACCES, reopen_flags(ROOT_UID, self->file, O_RDONLY));
	expect_content(_metadata, self->file, TARGET_CONTENT);
	/* The twin: the owner reopens its own file. */
	EXPECT_EQ(0, reopen_flags(USER_UID, self->file, O_PATH));
	expect_content(_metadata, self->file, ATTACK);
}

/* O_TRUNC empties the file even with O_RDONLY. */
TEST_F(writes, trunc_open_refused_at_1)
{
	struct stat st;

	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->file,
				     O_RDONLY | O_TRUNC));
	ASSERT_EQ(0, stat(self->file, &st));
	EXPECT_EQ(sizeof(TARGET_CONTENT) - 1, (size_t)st.st_size);
}

/* With O_CREAT too, whatever protected_regular says. */
TEST_F(writes, creat_write_refused_at_1_with_regular_off)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->file,
				     O_WRONLY | O_CREAT));
	expect_content(_metadata, self->file, TARGET_CONTENT);
}

/* A write the file's permissions refuse is theirs: Warden counts none. */
TEST_F(writes, dac_refusal_not_counted)
{
	struct counts before, after;

	ASSERT_EQ(0, chmod(self->file, 0644));
	set_level(_metadata, "1");
	read_counts(_metadata, STICKY_WRITES_RULE, &before);
	EXPECT_EQ(EACCES, open_flags(OTHER_UID, self->file, O_WRONLY));
	read_counts(_metadata, STICKY_WRITES_RULE, &after);
	EXPECT_EQ(before.denied, after.denied);
	/* The twin: root passes the permissions, and Warden refuses it. */
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->file, O_WRONLY));
	read_counts(_metadata, STICKY_WRITES_RULE, &after);
	EXPECT_EQ(before.denied + 1, after.denied);
}

/* rsync --inplace run by root, replayed */

TEST_F(writes, rsync_inplace_retry_works_when_off)
{
	ASSERT_EQ(0, write_file(WARDEN_REGULAR_KNOB, "1"));
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, rsync_inplace, self->file));
	expect_content(_metadata, self->file, ATTACK);
}

TEST_F(writes, rsync_inplace_retry_refused_at_1)
{
	ASSERT_EQ(0, write_file(WARDEN_REGULAR_KNOB, "1"));
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, rsync_inplace, self->file));
	expect_content(_metadata, self->file, TARGET_CONTENT);
}

/* truncate(2) by path */

TEST_F(writes, truncate_works_when_off)
{
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, truncate_path, self->file));
	expect_content(_metadata, self->file, "");
}

TEST_F(writes, truncate_refused_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, truncate_path, self->file));
	expect_content(_metadata, self->file, TARGET_CONTENT);
	/* The twin: the owner may. */
	EXPECT_EQ(0, run_as(USER_UID, truncate_path, self->file));
	expect_content(_metadata, self->file, "");
}

/* FIFOs: no reader needed with O_RDWR, and O_NONBLOCK never blocks. */

TEST_F(writes, fifo_write_refused_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, open_flags(ROOT_UID, self->fifo,
				     O_RDWR | O_NONBLOCK));
	EXPECT_EQ(0, open_flags(ROOT_UID, self->fifo,
				O_RDONLY | O_NONBLOCK));
}

/* Group-writable sticky directories count from level 2. */
TEST_F(writes, group_sticky_dir_refused_at_2_only)
{
	ASSERT_EQ(0, chown(self->shared, ROOT_UID, USER_UID));
	ASSERT_EQ(0, chmod(self->shared, 01770));
	set_level(_metadata, "1");
	EXPECT_EQ(0, open_flags(ROOT_UID, self->file, O_WRONLY));
	expect_content(_metadata, self->file, ATTACK);
	set_level(_metadata, "2");
	EXPECT_EQ(EACCES,
		  open_flags(ROOT_UID, self->file, O_RDWR));
}

/* Complain mode lets through, and reports */

TEST_F_TIMEOUT(writes, complain_lets_through_and_reports, 30)
{
	char object[64], msg[REPORT_SIZE];
	const int kmsg = report_open(_metadata);
	const struct denial d = {
		.uid = ROOT_UID,
		.fn = truncate_path,
		.arg = self->file,
		.err = 0,
		.path = self->file,
	};

	set_level(_metadata, "1");
	ASSERT_EQ(0, write_file(WRITES_COMPLAIN_KNOB, "1"));
	/* Retried in a new window if the tests before filled the ratelimit. */
	expect_report(_metadata, kmsg, &d,
		      "warden: rule=" STICKY_WRITES_RULE " verdict=would_deny ",
		      NULL, msg);
	expect_content(_metadata, self->file, "");
	snprintf(object, sizeof(object), " file_uid=%u dir_uid=%u ", USER_UID,
		 ROOT_UID);
	EXPECT_NE(NULL, strstr(msg, object));
	close(kmsg);
}

TEST_F_TIMEOUT(writes, denial_reported, 30)
{
	char expected[REPORT_SIZE], msg[REPORT_SIZE], object[64];
	const int kmsg = report_open(_metadata);
	const struct write_op op = { self->file, O_WRONLY };
	const struct denial d = {
		.uid = ROOT_UID,
		.fn = open_and_write,
		.arg = &op,
		.err = EACCES,
		.path = self->file,
	};
	pid_t pid;

	set_level(_metadata, "1");
	pid = expect_report(_metadata, kmsg, &d,
			    "warden: rule=" STICKY_WRITES_RULE
			    " verdict=denied ",
			    NULL, msg);
	snprintf(object, sizeof(object), "file_uid=%u dir_uid=%u dir_mode=1777",
		 USER_UID, ROOT_UID);
	fs_report_line(expected, sizeof(expected), STICKY_WRITES_RULE,
		       "write", pid, ROOT_UID, object, self->file);
	EXPECT_STREQ(expected, msg);
	close(kmsg);
}

TEST_HARNESS_MAIN
