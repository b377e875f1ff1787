// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - O_CREAT of files planted in shared sticky directories
 *
 * Each test opens, as root unless it says otherwise, a file or FIFO that
 * another user made in a sticky directory of a fresh tmpfs.  The owners
 * are USER_UID, OTHER_UID and ROOT_UID.  Mainline's fs.protected_fifos and
 * fs.protected_regular enforce rules close to Warden's: they are switched
 * off so that only Warden can deny.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

/* Start of a denial in the kernel log and in an audit record. */
#define REGULAR_LOG_KEY "warden: rule=protected_regular verdict=denied "
#define FIFO_LOG_KEY "warden: rule=protected_fifos verdict=denied "
#define AUDIT_KEY AUDIT_ACCESS_KEY
#define REGULAR_AUDIT_FIELDS \
	" lsm=warden rule=protected_regular op=open_creat res=0 permissive=0 "
#define FIFO_AUDIT_FIELDS \
	" lsm=warden rule=protected_fifos op=open_creat res=0 permissive=0 "

/* Neither a FIFO without a writer nor one without a reader blocks. */
#define OPEN_FLAGS (O_RDWR | O_NONBLOCK)

struct open_op {
	const char *path;
	int flags;
};

/* Runs in a child of run_as(): returns 0 or an errno. */
static int open_file(const void *const arg)
{
	const struct open_op *const op = arg;
	const int fd = open(op->path, op->flags | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int make_fifo(const void *const path)
{
	return mkfifo(path, 0644) ? errno : 0;
}

static const char *type_name(const mode_t mode)
{
	return S_ISFIFO(mode) ? "FIFO" : "regular file";
}

/*
 * A private tmpfs with the knobs set, and root/shared/, the sticky
 * directory: its mode and owners as the test says.  protected_sticky_writes
 * is off, so that only the two rules tested here can refuse.
 */
struct create_scratch {
	char root[PATH_MAX];
	char shared[PATH_MAX];
	struct knob mainline_fifos, mainline_regular, fifos, regular, writes;
};

struct dir_spec {
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

static void create_scratch_setup(struct __test_metadata *const _metadata,
				 struct create_scratch *const s,
				 const char *const fifos,
				 const char *const regular,
				 const struct dir_spec *const dir)
{
	tmpfs_setup(_metadata, s->root);
	make_dir(_metadata, s->shared, s->root, "shared", dir->mode, dir->uid);
	ASSERT_EQ(0, chown(s->shared, dir->uid, dir->gid));
	ASSERT_EQ(0, chmod(s->shared, dir->mode));

	knob_set(_metadata, &s->mainline_fifos, MAINLINE_FIFOS_KNOB, "0");
	knob_set(_metadata, &s->mainline_regular, MAINLINE_REGULAR_KNOB, "0");
	knob_set(_metadata, &s->fifos, WARDEN_FIFOS_KNOB, fifos);
	knob_set(_metadata, &s->regular, WARDEN_REGULAR_KNOB, regular);
	knob_set(_metadata, &s->writes, WARDEN_STICKY_WRITES_KNOB, "0");
}

/* For FIXTURE_TEARDOWN_PARENT(), as tmpfs_teardown(). */
static void create_scratch_teardown(struct __test_metadata *const _metadata,
				    const struct create_scratch *const s)
{
	knob_restore(_metadata, &s->writes);
	knob_restore(_metadata, &s->regular);
	knob_restore(_metadata, &s->fifos);
	knob_restore(_metadata, &s->mainline_regular);
	knob_restore(_metadata, &s->mainline_fifos);
	tmpfs_teardown(_metadata, s->root);
}

/* Who owns what, at each level */

FIXTURE(sticky_create) {
	struct create_scratch s;
	char file[PATH_MAX];
};

FIXTURE_VARIANT(sticky_create) {
	const char *fifos;
	const char *regular;
	struct dir_spec dir;
	/* S_IFREG or S_IFIFO */
	mode_t type;
	uid_t file_uid;
	uid_t opener;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, other_users_regular_file_in_1777_denied) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, own_regular_file_in_1777_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = USER_UID, .gid = USER_UID },
	.type = S_IFREG,
	.file_uid = ROOT_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* The rule compares the file's owner with the opener's fsuid. */
/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, user_opening_other_users_regular_file_denied) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = USER_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, dir_owners_regular_file_in_1777_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = OTHER_UID, .gid = OTHER_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* Sticky and writable by OTHER_UID's group only: rwxrwx--T */
/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_1_other_users_regular_file_in_1770_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01770, .uid = USER_UID, .gid = OTHER_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_2_other_users_regular_file_in_1770_denied) {
	/* clang-format on */
	.fifos = "2",
	.regular = "2",
	.dir = { .mode = 01770, .uid = USER_UID, .gid = OTHER_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* Only the directory's owner can create names there. */
/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_2_other_users_regular_file_in_1755_allowed) {
	/* clang-format on */
	.fifos = "2",
	.regular = "2",
	.dir = { .mode = 01755, .uid = USER_UID, .gid = USER_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_0_other_users_regular_file_allowed) {
	/* clang-format on */
	.fifos = "0",
	.regular = "0",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, other_users_fifo_in_1777_denied) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, dir_owners_fifo_in_1777_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01777, .uid = OTHER_UID, .gid = OTHER_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_1_other_users_fifo_in_1770_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "1",
	.dir = { .mode = 01770, .uid = USER_UID, .gid = OTHER_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, level_2_other_users_fifo_in_1770_denied) {
	/* clang-format on */
	.fifos = "2",
	.regular = "2",
	.dir = { .mode = 01770, .uid = USER_UID, .gid = OTHER_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* The two knobs are independent. */
/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, protected_regular_only_other_users_regular_file_denied) {
	/* clang-format on */
	.fifos = "0",
	.regular = "1",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, protected_regular_only_other_users_fifo_allowed) {
	/* clang-format on */
	.fifos = "0",
	.regular = "1",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, protected_fifos_only_other_users_fifo_denied) {
	/* clang-format on */
	.fifos = "1",
	.regular = "0",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFIFO,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(sticky_create, protected_fifos_only_other_users_regular_file_allowed) {
	/* clang-format on */
	.fifos = "1",
	.regular = "0",
	.dir = { .mode = 01777, .uid = ROOT_UID, .gid = ROOT_UID },
	.type = S_IFREG,
	.file_uid = OTHER_UID,
	.opener = ROOT_UID,
	.err = 0,
};

FIXTURE_SETUP(sticky_create)
{
	create_scratch_setup(_metadata, &self->s, variant->fifos,
			     variant->regular, &variant->dir);
	make_node(_metadata, self->file, self->s.shared, "planted",
		  variant->type | 0666, 0, variant->file_uid);
}

FIXTURE_TEARDOWN_PARENT(sticky_create)
{
	create_scratch_teardown(_metadata, &self->s);
}

/* Opens the existing file with O_CREAT, twice: once new, once cached. */
TEST_F(sticky_create, open_creat)
{
	const struct open_op op = {
		.path = self->file,
		.flags = OPEN_FLAGS | O_CREAT,
	};
	struct stat st;
	int i;

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(variant->err, run_as(variant->opener, open_file, &op))
		{
			TH_LOG("open(O_CREAT) of %s's %s by %u, %s",
			       self->file, type_name(variant->type),
			       variant->opener, i ? "cached" : "new");
		}
	}

	/* Still the planted file: the open never creates another one. */
	ASSERT_EQ(0, lstat(self->file, &st));
	EXPECT_EQ(variant->type, st.st_mode & S_IFMT);
	EXPECT_EQ(variant->file_uid, st.st_uid);
}

/* Opens that the rule does not apply to, by root in a 1777 directory */

FIXTURE(planted_file) {
	struct create_scratch s;
	/* OTHER_UID's: an O_CREAT open of it is denied. */
	char file[PATH_MAX];
};

FIXTURE_VARIANT(planted_file) {
	mode_t type;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(planted_file, regular) {
	/* clang-format on */
	.type = S_IFREG,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(planted_file, fifo) {
	/* clang-format on */
	.type = S_IFIFO,
};

FIXTURE_SETUP(planted_file)
{
	const struct dir_spec dir = {
		.mode = 01777,
		.uid = ROOT_UID,
		.gid = ROOT_UID,
	};

	create_scratch_setup(_metadata, &self->s, "1", "1", &dir);
	make_node(_metadata, self->file, self->s.shared, "planted",
		  variant->type | 0666, 0, OTHER_UID);
}

FIXTURE_TEARDOWN_PARENT(planted_file)
{
	create_scratch_teardown(_metadata, &self->s);
}

static void expect_open(struct __test_metadata *const _metadata,
			const char *const path, const int flags, const int err)
{
	const struct open_op op = { .path = path, .flags = flags };

	EXPECT_EQ(err, run_as(ROOT_UID, open_file, &op))
	{
		TH_LOG("open() with flags %#o of %s by root", flags, path);
	}
}

TEST_F(planted_file, open_without_creat_allowed)
{
	expect_open(_metadata, self->file, OPEN_FLAGS, 0);
	expect_open(_metadata, self->file, OPEN_FLAGS | O_CREAT, EACCES);
}

/* O_EXCL never opens an existing file: the rule has nothing to refuse. */
TEST_F(planted_file, open_creat_excl_fails_with_eexist)
{
	expect_open(_metadata, self->file, OPEN_FLAGS | O_CREAT | O_EXCL,
		    EEXIST);
	expect_open(_metadata, self->file, OPEN_FLAGS | O_CREAT, EACCES);
}

/*
 * A file that does not exist yet is root's own once created (a regular
 * file by the O_CREAT open itself, a FIFO by mkfifo(3)): opening it again
 * with O_CREAT is allowed.
 */
TEST_F(planted_file, new_own_file_reopened_with_creat_allowed)
{
	char path[PATH_MAX];
	const struct open_op op = {
		.path = path,
		.flags = OPEN_FLAGS | O_CREAT,
	};
	struct stat st;
	int err;

	path_join(_metadata, path, self->s.shared, "new");
	if (S_ISFIFO(variant->type))
		err = run_as(ROOT_UID, make_fifo, path);
	else
		err = run_as(ROOT_UID, open_file, &op);
	ASSERT_EQ(0, err);
	ASSERT_EQ(0, lstat(path, &st));
	EXPECT_EQ(variant->type, st.st_mode & S_IFMT);
	EXPECT_EQ(ROOT_UID, st.st_uid);

	expect_open(_metadata, path, OPEN_FLAGS | O_CREAT, 0);
	expect_open(_metadata, self->file, OPEN_FLAGS | O_CREAT, EACCES);
}

/* Kernel log and audit */

FIXTURE(sticky_create_report) {
	struct create_scratch s;
	int kmsg;
	/* OTHER_UID's, in a 1777 directory of USER_UID: denied to root. */
	char regular[PATH_MAX], fifo[PATH_MAX];
	struct open_op regular_op, fifo_op;
};

FIXTURE_SETUP(sticky_create_report)
{
	const struct dir_spec dir = {
		.mode = 01777,
		.uid = USER_UID,
		.gid = USER_UID,
	};

	create_scratch_setup(_metadata, &self->s, "1", "1", &dir);
	make_node(_metadata, self->regular, self->s.shared, "regular",
		  S_IFREG | 0666, 0, OTHER_UID);
	make_node(_metadata, self->fifo, self->s.shared, "fifo",
		  S_IFIFO | 0666, 0, OTHER_UID);
	self->regular_op = (struct open_op){
		.path = self->regular,
		.flags = OPEN_FLAGS | O_CREAT,
	};
	self->fifo_op = (struct open_op){
		.path = self->fifo,
		.flags = OPEN_FLAGS | O_CREAT,
	};
	/* Only records that come after this point. */
	self->kmsg = report_open(_metadata);
}

/* kmsg is only open in the test process. */
FIXTURE_TEARDOWN_PARENT(sticky_create_report)
{
	create_scratch_teardown(_metadata, &self->s);
}

static struct denial open_denial(const struct open_op *const op)
{
	return (struct denial){
		.uid = ROOT_UID,
		.fn = open_file,
		.arg = op,
		.err = EACCES,
		.path = op->path,
	};
}

static void expect_logged(struct __test_metadata *const _metadata,
			  const int kmsg, const struct open_op *const op,
			  const char *const rule, const char *const key)
{
	const struct denial d = open_denial(op);
	char msg[REPORT_SIZE], expected[REPORT_SIZE], object[64];
	pid_t pid;

	pid = expect_report(_metadata, kmsg, &d, key, NULL, msg);

	snprintf(object, sizeof(object), "file_uid=%u dir_uid=%u dir_mode=1777",
		 OTHER_UID, USER_UID);
	fs_report_line(expected, sizeof(expected), rule, "open_creat", pid,
		       ROOT_UID, object, op->path);
	EXPECT_STREQ(expected, msg);
}

static void expect_audited(struct __test_metadata *const _metadata,
			   const int kmsg, const struct open_op *const op,
			   const char *const fields)
{
	const struct denial d = open_denial(op);
	char msg[REPORT_SIZE], owner[32];

	expect_report(_metadata, kmsg, &d, AUDIT_KEY, NULL, msg);

	snprintf(owner, sizeof(owner), " ouid=%u dir_uid=%u dir_mode=1777",
		 OTHER_UID, USER_UID);
	EXPECT_NE(NULL, strstr(msg, fields));
	EXPECT_NE(NULL, strstr(msg, owner));
	/* Not SELinux's AVC, which audit2allow would turn into a rule. */
	EXPECT_EQ(NULL, strstr(msg, "avc:"));
}

TEST_F_TIMEOUT(sticky_create_report, denied_regular_file_open_logged, 60)
{
	expect_logged(_metadata, self->kmsg, &self->regular_op,
		      "protected_regular", REGULAR_LOG_KEY);
}

TEST_F_TIMEOUT(sticky_create_report, denied_fifo_open_logged, 60)
{
	expect_logged(_metadata, self->kmsg, &self->fifo_op, "protected_fifos",
		      FIFO_LOG_KEY);
}

TEST_F_TIMEOUT(sticky_create_report, denied_regular_file_open_audited, 60)
{
	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");
	expect_audited(_metadata, self->kmsg, &self->regular_op,
		       REGULAR_AUDIT_FIELDS);
}

TEST_F_TIMEOUT(sticky_create_report, denied_fifo_open_audited, 60)
{
	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");
	expect_audited(_metadata, self->kmsg, &self->fifo_op,
		       FIFO_AUDIT_FIELDS);
}

/*
 * Records come in order: one about the allowed open would come before
 * those about the denial that follows it.
 */
TEST_F_TIMEOUT(sticky_create_report, allowed_open_not_reported, 60)
{
	const struct denial d = open_denial(&self->regular_op);
	char allowed[PATH_MAX], msg[REPORT_SIZE], reject[PATH_MAX + 8];
	const struct open_op allowed_op = {
		.path = allowed,
		.flags = OPEN_FLAGS | O_CREAT,
	};

	/* The directory's owner's file. */
	make_node(_metadata, allowed, self->s.shared, "allowed",
		  S_IFREG | 0666, 0, USER_UID);
	snprintf(reject, sizeof(reject), " path=\"%s\"", allowed);

	ASSERT_EQ(0, run_as(ROOT_UID, open_file, &allowed_op));
	expect_report(_metadata, self->kmsg, &d, REGULAR_LOG_KEY, reject, msg);
	if (audit_is_on())
		expect_report(_metadata, self->kmsg, &d, AUDIT_KEY, reject,
			      msg);
}

TEST_HARNESS_MAIN
