// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Hard links to files the linker could not use
 *
 * Each test links a file in a fresh tmpfs as another user.  The owners are
 * USER_UID (the linker, unless a test says otherwise), OTHER_UID and
 * ROOT_UID.  Mainline's fs.protected_hardlinks, on by default in Debian,
 * enforces the same rule: it is switched off so that only Warden can deny.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/sysmacros.h>

#include "common.h"

/* Start of a denial in the kernel log and in an audit record. */
#define LOG_KEY "warden: rule=protected_nonaccess_hardlinks verdict=denied "
#define AUDIT_KEY AUDIT_ACCESS_KEY
#define AUDIT_FIELDS \
	" lsm=warden rule=protected_nonaccess_hardlinks op=link res=0 permissive=0 "

#define SOURCE_NAME "source"

enum link_kind {
	LINK_PATH,
	/* linkat(2) relative to directory file descriptors. */
	LINK_AT,
	/* linkat(AT_SYMLINK_FOLLOW) of a symlink to the source. */
	LINK_AT_FOLLOW,
};

static const char *const link_names[] = {
	[LINK_PATH] = "link()",
	[LINK_AT] = "linkat()",
	[LINK_AT_FOLLOW] = "linkat(AT_SYMLINK_FOLLOW)",
};

struct link_op {
	enum link_kind kind;
	/* For LINK_AT: the directories @from and @to are in. */
	int from_dirfd, to_dirfd;
	const char *from, *to;
	/* Linking as root without CAP_FOWNER. */
	bool without_cap_fowner;
};

/* Runs in a child of run_as(): returns 0 or an errno. */
static int make_hardlink(const void *const arg)
{
	const struct link_op *const op = arg;
	int ret;

	if (op->without_cap_fowner && drop_capability(CAP_FOWNER))
		return CHILD_BROKEN;
	switch (op->kind) {
	case LINK_PATH:
		ret = link(op->from, op->to);
		break;
	case LINK_AT:
		ret = linkat(op->from_dirfd, op->from, op->to_dirfd, op->to, 0);
		break;
	case LINK_AT_FOLLOW:
		ret = linkat(AT_FDCWD, op->from, AT_FDCWD, op->to,
			     AT_SYMLINK_FOLLOW);
		break;
	default:
		return CHILD_BROKEN;
	}
	return ret ? errno : 0;
}

/*
 * A private tmpfs with the knobs set:
 *
 *   root/		0755 root
 *   root/files/	0755 root, the files to link
 *   root/out/		0777 root, where the links go
 */
struct link_scratch {
	char root[PATH_MAX];
	char files[PATH_MAX];
	char out[PATH_MAX];
	int files_fd, out_fd;
	struct knob mainline, warden;
};

static void link_scratch_setup(struct __test_metadata *const _metadata,
			       struct link_scratch *const s,
			       const char *const level)
{
	tmpfs_setup(_metadata, s->root);
	make_dir(_metadata, s->files, s->root, "files", 0755, ROOT_UID);
	make_dir(_metadata, s->out, s->root, "out", 0777, ROOT_UID);
	s->files_fd = open(s->files, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, s->files_fd);
	s->out_fd = open(s->out, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, s->out_fd);

	knob_set(_metadata, &s->mainline, MAINLINE_HARDLINKS_KNOB, "0");
	knob_set(_metadata, &s->warden, WARDEN_HARDLINKS_KNOB, level);
}

/* For FIXTURE_TEARDOWN_PARENT(), as tmpfs_teardown(). */
static void link_scratch_teardown(struct __test_metadata *const _metadata,
				  const struct link_scratch *const s)
{
	knob_restore(_metadata, &s->warden);
	knob_restore(_metadata, &s->mainline);
	tmpfs_teardown(_metadata, s->root);
}

/* The file to link, at each level */

FIXTURE(hardlink) {
	struct link_scratch s;
	char source[PATH_MAX];
};

struct node_spec {
	/* File type and permission bits, as for mknod(2). */
	mode_t mode;
	/* For a device. */
	unsigned int major, minor;
	uid_t uid;
};

FIXTURE_VARIANT(hardlink) {
	const char *level;
	struct node_spec source;
	uid_t linker;
	bool without_cap_fowner;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, own_unreadable_file_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0600, .uid = USER_UID },
	.linker = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_unreadable_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0600, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_read_write_file_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0666, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_write_only_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0622, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_read_only_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0644, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_setuid_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 04777, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_file_without_setuid_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 0777, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_setgid_group_exec_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 02777, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* Setgid without group execute gives no privilege. */
/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_setgid_file_without_group_exec_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 02767, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, other_users_fifo_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFIFO | 0666, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, own_fifo_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFIFO | 0666, .uid = USER_UID },
	.linker = USER_UID,
	.err = 0,
};

/* A node like /dev/null */
/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, roots_char_device_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFCHR | 0666, .major = 1, .minor = 3,
		    .uid = ROOT_UID },
	.linker = USER_UID,
	.err = EPERM,
};

/* CAP_FOWNER is the exception, as for the owner. */
/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, root_linking_other_users_unreadable_setuid_file_allowed) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 04700, .uid = OTHER_UID },
	.linker = ROOT_UID,
	.err = 0,
};

/* CAP_DAC_OVERRIDE alone lets root read and write, not link, the file. */
/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, root_without_cap_fowner_linking_other_users_setuid_file_denied) {
	/* clang-format on */
	.level = "1",
	.source = { .mode = S_IFREG | 04700, .uid = OTHER_UID },
	.linker = ROOT_UID,
	.without_cap_fowner = true,
	.err = EPERM,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink, level_0_other_users_unreadable_file_allowed) {
	/* clang-format on */
	.level = "0",
	.source = { .mode = S_IFREG | 0600, .uid = OTHER_UID },
	.linker = USER_UID,
	.err = 0,
};

FIXTURE_SETUP(hardlink)
{
	link_scratch_setup(_metadata, &self->s, variant->level);
	make_node(_metadata, self->source, self->s.files, SOURCE_NAME,
		  variant->source.mode,
		  makedev(variant->source.major, variant->source.minor),
		  variant->source.uid);
}

FIXTURE_TEARDOWN_PARENT(hardlink)
{
	link_scratch_teardown(_metadata, &self->s);
}

/* @link must be another name of @source if @linked, or no name at all. */
static void expect_linked(struct __test_metadata *const _metadata,
			  const char *const source, const char *const link,
			  const bool linked)
{
	struct stat source_st, link_st;

	ASSERT_EQ(0, lstat(source, &source_st));
	if (linked) {
		ASSERT_EQ(0, lstat(link, &link_st));
		EXPECT_EQ(source_st.st_ino, link_st.st_ino);
	} else {
		ASSERT_EQ(-1, lstat(link, &link_st));
		ASSERT_EQ(ENOENT, errno);
	}
}

/* Links the source with link(), linkat() and through a symlink. */
TEST_F(hardlink, link_and_linkat)
{
	char by_link[PATH_MAX], by_linkat[PATH_MAX], by_symlink[PATH_MAX];
	char symlink_path[PATH_MAX];
	const struct link_op ops[] = {
		{ .kind = LINK_PATH, .from = self->source, .to = by_link },
		{ .kind = LINK_AT, .from_dirfd = self->s.files_fd,
		  .from = SOURCE_NAME, .to_dirfd = self->s.out_fd,
		  .to = "by_linkat" },
		{ .kind = LINK_AT_FOLLOW, .from = symlink_path,
		  .to = by_symlink },
	};
	struct link_op op;
	size_t i;

	path_join(_metadata, by_link, self->s.out, "by_link");
	path_join(_metadata, by_linkat, self->s.out, "by_linkat");
	path_join(_metadata, by_symlink, self->s.out, "by_symlink");
	/* The linker's own symlink, in a directory that is not sticky. */
	path_join(_metadata, symlink_path, self->s.out, "symlink");
	make_link(_metadata, symlink_path, self->source, variant->linker);

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		op = ops[i];
		op.without_cap_fowner = variant->without_cap_fowner;
		EXPECT_EQ(variant->err, run_as(variant->linker, make_hardlink,
					       &op))
		{
			TH_LOG("%s of %s by %u", link_names[op.kind],
			       self->source, variant->linker);
		}
	}

	expect_linked(_metadata, self->source, by_link, !variant->err);
	expect_linked(_metadata, self->source, by_linkat, !variant->err);
	expect_linked(_metadata, self->source, by_symlink, !variant->err);
}

/* Kernel log and audit */

FIXTURE(hardlink_report) {
	struct link_scratch s;
	int kmsg;
	/* OTHER_UID's, 0600: USER_UID may not link it. */
	char denied[PATH_MAX];
	char denied_link[PATH_MAX];
	struct link_op denied_op;
};

FIXTURE_SETUP(hardlink_report)
{
	link_scratch_setup(_metadata, &self->s, "1");
	make_node(_metadata, self->denied, self->s.files, "denied",
		  S_IFREG | 0600, 0, OTHER_UID);
	path_join(_metadata, self->denied_link, self->s.out, "denied");
	self->denied_op = (struct link_op){
		.kind = LINK_PATH,
		.from = self->denied,
		.to = self->denied_link,
	};
	/* Only records that come after this point. */
	self->kmsg = report_open(_metadata);
}

/* kmsg is only open in the test process. */
FIXTURE_TEARDOWN_PARENT(hardlink_report)
{
	link_scratch_teardown(_metadata, &self->s);
}

static struct denial link_denial(const struct link_op *const op)
{
	return (struct denial){
		.uid = USER_UID,
		.fn = make_hardlink,
		.arg = op,
		.err = EPERM,
		.path = op->from,
	};
}

TEST_F_TIMEOUT(hardlink_report, denied_link_logged, 60)
{
	const struct denial d = link_denial(&self->denied_op);
	char msg[REPORT_SIZE], expected[REPORT_SIZE], object[32];
	pid_t pid;

	pid = expect_report(_metadata, self->kmsg, &d, LOG_KEY, NULL, msg);

	snprintf(object, sizeof(object), "file_uid=%u", OTHER_UID);
	fs_report_line(expected, sizeof(expected),
		       "protected_nonaccess_hardlinks", "link", pid, USER_UID,
		       object, self->denied);
	EXPECT_STREQ(expected, msg);
}

TEST_F_TIMEOUT(hardlink_report, denied_link_audited, 60)
{
	const struct denial d = link_denial(&self->denied_op);
	char msg[REPORT_SIZE], owner[32];

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");

	expect_report(_metadata, self->kmsg, &d, AUDIT_KEY, NULL, msg);

	snprintf(owner, sizeof(owner), " ouid=%u", OTHER_UID);
	EXPECT_NE(NULL, strstr(msg, AUDIT_FIELDS));
	EXPECT_NE(NULL, strstr(msg, owner));
	EXPECT_EQ(NULL, strstr(msg, " file_uid="));
}

/*
 * Records come in order: one about the allowed link would come before
 * those about the denial that follows it.
 */
TEST_F_TIMEOUT(hardlink_report, allowed_link_not_reported, 60)
{
	const struct denial d = link_denial(&self->denied_op);
	char allowed[PATH_MAX], allowed_link[PATH_MAX], msg[REPORT_SIZE];
	char reject[PATH_MAX + 8];
	const struct link_op allowed_op = {
		.kind = LINK_PATH,
		.from = allowed,
		.to = allowed_link,
	};

	make_node(_metadata, allowed, self->s.files, "allowed", S_IFREG | 0600,
		  0, USER_UID);
	path_join(_metadata, allowed_link, self->s.out, "allowed");
	snprintf(reject, sizeof(reject), " path=\"%s\"", allowed);

	ASSERT_EQ(0, run_as(USER_UID, make_hardlink, &allowed_op));
	expect_report(_metadata, self->kmsg, &d, LOG_KEY, reject, msg);
	if (audit_is_on())
		expect_report(_metadata, self->kmsg, &d, AUDIT_KEY, reject,
			      msg);
}

/*
 * A setuid file with no name left: a descriptor opened before its owner
 * removed it pins it as a hard link would, and execveat() runs it.  The
 * file is a copy of this program, which exits at once with EXIT_EUID_ROOT
 * or EXIT_EUID_USER when EUID_ENV is set, before the harness starts.
 */
#define EUID_ENV "WARDEN_EXIT_WITH_EUID"
#define EXIT_EUID_ROOT 42
#define EXIT_EUID_USER 43

__attribute__((constructor)) static void exit_with_euid(void)
{
	if (getenv(EUID_ENV))
		_exit(geteuid() == ROOT_UID ? EXIT_EUID_ROOT : EXIT_EUID_USER);
}

FIXTURE(unlinked) {
	struct link_scratch s;
	char setuid[PATH_MAX], plain[PATH_MAX];
	int setuid_fd, plain_fd;
};

/* A copy of this program as @path, root's, mode @mode; an O_PATH fd. */
static int copy_self(struct __test_metadata *const _metadata,
		     char *const path, const char *const dir,
		     const char *const name, const mode_t mode)
{
	char buf[65536];
	ssize_t len;
	int in, out, fd;

	path_join(_metadata, path, dir, name);
	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, in);
	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	ASSERT_LE(0, out);
	while ((len = read(in, buf, sizeof(buf))) > 0)
		ASSERT_EQ(len, write(out, buf, len));
	ASSERT_EQ(0, len);
	ASSERT_EQ(0, fchmod(out, mode));
	close(in);
	close(out);
	fd = open(path, O_PATH | O_CLOEXEC);
	ASSERT_LE(0, fd);
	return fd;
}

FIXTURE_SETUP(unlinked)
{
	link_scratch_setup(_metadata, &self->s, "0");
	self->setuid_fd = copy_self(_metadata, self->setuid, self->s.files,
				    "setuid", 04755);
	self->plain_fd = copy_self(_metadata, self->plain, self->s.files,
				   "plain", 0755);
}

FIXTURE_TEARDOWN_PARENT(unlinked)
{
	link_scratch_teardown(_metadata, &self->s);
}

/* Runs as the user: execveat() of the descriptor in @arg. */
static int exec_fd(const void *const arg)
{
	char *const argv[] = { "unlinked", NULL };
	char *const envp[] = { EUID_ENV "=1", NULL };

	syscall(SYS_execveat, *(const int *)arg, "", argv, envp,
		AT_EMPTY_PATH);
	return errno;
}

static void set_level(struct __test_metadata *const _metadata,
		      const char *const level)
{
	ASSERT_EQ(0, write_file(WARDEN_HARDLINKS_KNOB, level));
}

TEST_F(unlinked, setuid_runs_as_root_when_off)
{
	ASSERT_EQ(0, unlink(self->setuid));
	set_level(_metadata, "0");
	EXPECT_EQ(EXIT_EUID_ROOT, run_as(USER_UID, exec_fd, &self->setuid_fd));
}

TEST_F(unlinked, setuid_refused_at_1)
{
	ASSERT_EQ(0, unlink(self->setuid));
	set_level(_metadata, "1");
	EXPECT_EQ(EPERM, run_as(USER_UID, exec_fd, &self->setuid_fd));
}

/* The twin: while the file has its name, the same descriptor runs it. */
TEST_F(unlinked, named_setuid_runs_as_root_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EXIT_EUID_ROOT, run_as(USER_UID, exec_fd, &self->setuid_fd));
}

/* No raise, no refusal: a removed program may still run. */
TEST_F(unlinked, plain_file_runs_at_1)
{
	ASSERT_EQ(0, unlink(self->plain));
	set_level(_metadata, "1");
	EXPECT_EQ(EXIT_EUID_USER, run_as(USER_UID, exec_fd, &self->plain_fd));
}

/* Root gains nothing from a setuid-root file, and is not refused. */
TEST_F(unlinked, setuid_root_file_runs_for_root_at_1)
{
	ASSERT_EQ(0, unlink(self->setuid));
	set_level(_metadata, "1");
	EXPECT_EQ(EXIT_EUID_ROOT, run_as(ROOT_UID, exec_fd, &self->setuid_fd));
}

TEST_F_TIMEOUT(unlinked, refused_exec_logged, 60)
{
	const int kmsg = report_open(_metadata);
	char deleted[PATH_MAX + 16], msg[REPORT_SIZE], expected[REPORT_SIZE];
	struct denial d = {
		.uid = USER_UID,
		.fn = exec_fd,
		.arg = &self->setuid_fd,
		.err = EPERM,
		.path = deleted,
	};
	pid_t pid;

	/* d_path() of a file with no name; Warden escapes the space. */
	snprintf(deleted, sizeof(deleted), "%s\\x20(deleted)", self->setuid);
	ASSERT_EQ(0, unlink(self->setuid));
	set_level(_metadata, "1");
	pid = expect_report(_metadata, kmsg, &d, LOG_KEY, NULL, msg);
	fs_report_line(expected, sizeof(expected),
		       "protected_nonaccess_hardlinks", "exec", pid, USER_UID,
		       "file_uid=0", deleted);
	EXPECT_STREQ(expected, msg);
	close(kmsg);
}

TEST_HARNESS_MAIN
