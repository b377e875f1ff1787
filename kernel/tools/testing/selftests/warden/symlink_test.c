// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Symlinks in shared sticky directories
 *
 * Each test follows links as another user, in a fresh tmpfs.  The owners
 * are USER_UID (the follower, unless a test says otherwise), OTHER_UID
 * and ROOT_UID.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/openat2.h>
#include <sys/syscall.h>

#include "common.h"

/* Start of a denial in the kernel log and in an audit record. */
#define LOG_KEY "warden: rule=protected_sticky_symlinks verdict=denied "
#define AUDIT_KEY AUDIT_ACCESS_KEY
#define AUDIT_FIELDS \
	" lsm=warden rule=protected_sticky_symlinks op=follow res=0 permissive=0 "
#define COMPLAIN_AUDIT_FIELDS \
	" lsm=warden rule=protected_sticky_symlinks op=follow res=1 permissive=1 "

enum lookup_kind {
	LOOKUP_STAT,
	LOOKUP_LSTAT,
	LOOKUP_OPEN,
	/* openat2(RESOLVE_CACHED): only an RCU walk, no fallback. */
	LOOKUP_OPEN_CACHED,
	/* openat2(RESOLVE_NO_SYMLINKS): every link refused with ELOOP. */
	LOOKUP_OPEN_NO_SYMLINKS,
};

static const char *const lookup_names[] = {
	[LOOKUP_STAT] = "stat()",
	[LOOKUP_LSTAT] = "lstat()",
	[LOOKUP_OPEN] = "open()",
	[LOOKUP_OPEN_CACHED] = "openat2(RESOLVE_CACHED)",
	[LOOKUP_OPEN_NO_SYMLINKS] = "openat2(RESOLVE_NO_SYMLINKS)",
};

struct lookup {
	enum lookup_kind kind;
	const char *path;
	int flags;
	/* Content expected from an opened file, or NULL. */
	const char *content;
};

static int check_content(const int fd, const char *const content)
{
	char buf[64];
	ssize_t len;

	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0)
		return errno;
	buf[len] = '\0';
	return strcmp(buf, content) ? EBADMSG : 0;
}

/* Runs in a child of run_as(): returns 0 or an errno. */
static int lookup(const void *const arg)
{
	const struct lookup *const l = arg;
	struct open_how how = {
		.flags = l->flags,
		.resolve = RESOLVE_CACHED,
	};
	struct stat st;
	int fd, err = 0;

	switch (l->kind) {
	case LOOKUP_STAT:
		return stat(l->path, &st) ? errno : 0;
	case LOOKUP_LSTAT:
		return lstat(l->path, &st) ? errno : 0;
	case LOOKUP_OPEN:
		fd = open(l->path, l->flags | O_CLOEXEC, 0644);
		break;
	case LOOKUP_OPEN_CACHED:
	case LOOKUP_OPEN_NO_SYMLINKS:
		if (l->kind == LOOKUP_OPEN_NO_SYMLINKS)
			how.resolve = RESOLVE_NO_SYMLINKS;
		fd = syscall(SYS_openat2, AT_FDCWD, l->path, &how, sizeof(how));
		break;
	default:
		return CHILD_BROKEN;
	}
	if (fd < 0)
		return errno;
	if (l->content)
		err = check_content(fd, l->content);
	close(fd);
	return err;
}

/*
 * RCU walk and ref walk must give the same verdict.  Each lookup is done
 * right after the link was created, then again with every dentry cached.
 * A cached stat() or open() runs in RCU walk, which hands a denial over to
 * ref walk; open(O_CREAT) looks up the last component in ref walk, under
 * the directory's lock.
 */
static void expect_twice(struct __test_metadata *const _metadata,
			 const uid_t follower, const struct lookup *const l,
			 const int err)
{
	int i;

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(err, run_as(follower, lookup, l))
		{
			TH_LOG("%s with flags %#o of %s by %u, %s",
			       lookup_names[l->kind], l->flags, l->path,
			       follower, i ? "cached" : "new");
		}
	}
}

/* Trailing components, at each level */

FIXTURE(trailing_link) {
	struct scratch s;
};

struct link_spec {
	uid_t uid;
	/* Points to a second link, owned by next_uid, not to the target. */
	bool chain;
	uid_t next_uid;
};

FIXTURE_VARIANT(trailing_link) {
	const char *level;
	mode_t dir_mode;
	uid_t dir_uid;
	struct link_spec link;
	uid_t follower;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, own_link_in_1777_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = USER_UID },
	.follower = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, other_users_link_in_1777_denied) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, dir_owners_link_in_1777_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = OTHER_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = 0,
};

/* Owned by neither the follower nor the directory's owner. */
/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, foreign_link_in_1777_denied) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = OTHER_UID,
	.link = { .uid = ROOT_UID },
	.follower = USER_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, foreign_link_in_1755_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01755,
	.dir_uid = OTHER_UID,
	.link = { .uid = ROOT_UID },
	.follower = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, foreign_link_in_0777_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 0777,
	.dir_uid = OTHER_UID,
	.link = { .uid = ROOT_UID },
	.follower = USER_UID,
	.err = 0,
};

/* CAP_DAC_OVERRIDE makes root the target of the attack, not an exception. */
/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, root_following_users_link_denied) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = OTHER_UID,
	.link = { .uid = USER_UID },
	.follower = ROOT_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, root_following_own_link_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = OTHER_UID,
	.link = { .uid = ROOT_UID },
	.follower = ROOT_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, level_0_other_users_link_allowed) {
	/* clang-format on */
	.level = "0",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, level_2_other_users_link_denied) {
	/* clang-format on */
	.level = "2",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = EACCES,
};

/* Sticky and group-writable, but not world-writable: rwxrwxr-t */
/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, level_1_other_users_link_in_1775_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01775,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, level_2_other_users_link_in_1775_denied) {
	/* clang-format on */
	.level = "2",
	.dir_mode = 01775,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID },
	.follower = USER_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, chain_of_own_links_allowed) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = USER_UID, .chain = true, .next_uid = USER_UID },
	.follower = USER_UID,
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, chain_with_other_users_first_link_denied) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = OTHER_UID, .chain = true, .next_uid = USER_UID },
	.follower = USER_UID,
	.err = EACCES,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(trailing_link, chain_with_other_users_second_link_denied) {
	/* clang-format on */
	.level = "1",
	.dir_mode = 01777,
	.dir_uid = ROOT_UID,
	.link = { .uid = USER_UID, .chain = true, .next_uid = OTHER_UID },
	.follower = USER_UID,
	.err = EACCES,
};

FIXTURE_SETUP(trailing_link)
{
	scratch_setup(_metadata, &self->s, variant->level, variant->dir_mode,
		      variant->dir_uid);
}

FIXTURE_TEARDOWN_PARENT(trailing_link)
{
	scratch_teardown(_metadata, &self->s);
}

/* Creates @dir/@name (and the link it points to) as @spec says. */
static void make_spec_link(struct __test_metadata *const _metadata,
			   const struct link_spec *const spec,
			   const char *const dir, const char *const name,
			   const char *const body, char *const link)
{
	char next[PATH_MAX];

	path_join(_metadata, link, dir, name);
	if (spec->chain) {
		ASSERT_GT(PATH_MAX, snprintf(next, PATH_MAX, "%s.next", link));
		make_link(_metadata, next, body, spec->next_uid);
		make_link(_metadata, link, next, spec->uid);
	} else {
		make_link(_metadata, link, body, spec->uid);
	}
}

/* Follows a new link with stat(), open() and open(O_CREAT). */
TEST_F(trailing_link, follow)
{
	char stat_link[PATH_MAX], read_link[PATH_MAX], write_link[PATH_MAX];
	char create_link[PATH_MAX], created[PATH_MAX];
	const struct lookup lookups[] = {
		{ .kind = LOOKUP_STAT, .path = stat_link },
		{ .kind = LOOKUP_OPEN, .path = read_link, .flags = O_RDONLY,
		  .content = TARGET_CONTENT },
		{ .kind = LOOKUP_OPEN, .path = write_link,
		  .flags = O_WRONLY | O_CREAT },
		{ .kind = LOOKUP_OPEN, .path = create_link,
		  .flags = O_WRONLY | O_CREAT },
	};
	const struct lookup cached = {
		.kind = LOOKUP_OPEN_CACHED,
		.path = read_link,
		.flags = O_RDONLY,
		.content = TARGET_CONTENT,
	};
	struct stat st;
	size_t i;
	int err;

	path_join(_metadata, created, self->s.out, "created");
	make_spec_link(_metadata, &variant->link, self->s.shared, "stat",
		       self->s.target, stat_link);
	make_spec_link(_metadata, &variant->link, self->s.shared, "read",
		       self->s.target, read_link);
	make_spec_link(_metadata, &variant->link, self->s.shared, "write",
		       self->s.target, write_link);
	make_spec_link(_metadata, &variant->link, self->s.shared, "create",
		       created, create_link);

	for (i = 0; i < ARRAY_SIZE(lookups); i++)
		expect_twice(_metadata, variant->follower, &lookups[i],
			     variant->err);

	if (variant->err) {
		ASSERT_EQ(-1, stat(created, &st));
		ASSERT_EQ(ENOENT, errno);
	} else {
		ASSERT_EQ(0, stat(created, &st));
	}

	/*
	 * With every dentry cached, RESOLVE_CACHED keeps the walk in RCU
	 * mode: an allowed link must be followed there, a denied one may
	 * only make the walk leave RCU mode (EAGAIN) or be denied.
	 */
	err = run_as(variant->follower, lookup, &cached);
	if (variant->err && err == EAGAIN)
		err = variant->err;
	EXPECT_EQ(variant->err, err);
}

/* Intermediate components: level 2 only */

FIXTURE(intermediate_link) {
	struct scratch s;
	/* In the shared directory, by OTHER_UID: points to target_dir. */
	char dir_link[PATH_MAX];
};

FIXTURE_VARIANT(intermediate_link) {
	const char *level;
	int err;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(intermediate_link, level_1_allowed) {
	/* clang-format on */
	.level = "1",
	.err = 0,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(intermediate_link, level_2_denied) {
	/* clang-format on */
	.level = "2",
	.err = EACCES,
};

FIXTURE_SETUP(intermediate_link)
{
	scratch_setup(_metadata, &self->s, variant->level, 01777, ROOT_UID);
	path_join(_metadata, self->dir_link, self->s.shared, "dir_link");
	make_link(_metadata, self->dir_link, self->s.target_dir, OTHER_UID);
}

FIXTURE_TEARDOWN_PARENT(intermediate_link)
{
	scratch_teardown(_metadata, &self->s);
}

static void expect_intermediate(struct __test_metadata *const _metadata,
				const char *const path, const int err)
{
	const struct lookup by_stat = { .kind = LOOKUP_STAT, .path = path };
	const struct lookup by_open = {
		.kind = LOOKUP_OPEN,
		.path = path,
		.flags = O_RDONLY,
		.content = TARGET_CONTENT,
	};

	expect_twice(_metadata, USER_UID, &by_stat, err);
	expect_twice(_metadata, USER_UID, &by_open, err);
}

/* stat("shared/dir_link/file") */
TEST_F(intermediate_link, in_path)
{
	char path[PATH_MAX];

	path_join(_metadata, path, self->dir_link, TARGET_NAME);
	expect_intermediate(_metadata, path, variant->err);
}

/* stat("shared/own_link"), with own_link -> shared/dir_link/file */
TEST_F(intermediate_link, in_own_links_body)
{
	char link[PATH_MAX], body[PATH_MAX];

	path_join(_metadata, body, self->dir_link, TARGET_NAME);
	path_join(_metadata, link, self->s.shared, "own_link");
	make_link(_metadata, link, body, USER_UID);
	expect_intermediate(_metadata, link, variant->err);
}

/*
 * A walk that follows no link fails with ELOOP, as without Warden: Warden
 * sees only links the walk will follow.  Its twin is in_path, denied at
 * level 2.
 */
TEST_F(intermediate_link, no_symlinks_fails_with_eloop)
{
	char path[PATH_MAX];
	struct lookup by_openat2 = {
		.kind = LOOKUP_OPEN_NO_SYMLINKS,
		.path = path,
		.flags = O_RDONLY,
	};

	path_join(_metadata, path, self->dir_link, TARGET_NAME);
	expect_twice(_metadata, USER_UID, &by_openat2, ELOOP);
}

/* Lookups that do not follow a link denied at the strictest level */

FIXTURE(denied_link) {
	struct scratch s;
	char link[PATH_MAX];
};

FIXTURE_SETUP(denied_link)
{
	scratch_setup(_metadata, &self->s, "2", 01777, ROOT_UID);
	path_join(_metadata, self->link, self->s.shared, "link");
	make_link(_metadata, self->link, self->s.target, OTHER_UID);
}

FIXTURE_TEARDOWN_PARENT(denied_link)
{
	scratch_teardown(_metadata, &self->s);
}

TEST_F(denied_link, lstat_allowed)
{
	const struct lookup by_lstat = {
		.kind = LOOKUP_LSTAT,
		.path = self->link,
	};
	const struct lookup by_stat = {
		.kind = LOOKUP_STAT,
		.path = self->link,
	};

	expect_twice(_metadata, USER_UID, &by_lstat, 0);
	expect_twice(_metadata, USER_UID, &by_stat, EACCES);
}

TEST_F(denied_link, open_nofollow_fails_with_eloop)
{
	const struct lookup by_nofollow = {
		.kind = LOOKUP_OPEN,
		.path = self->link,
		.flags = O_RDONLY | O_NOFOLLOW,
	};
	const struct lookup by_path = {
		.kind = LOOKUP_OPEN,
		.path = self->link,
		.flags = O_PATH | O_NOFOLLOW,
	};
	const struct lookup by_open = {
		.kind = LOOKUP_OPEN,
		.path = self->link,
		.flags = O_RDONLY,
	};

	expect_twice(_metadata, USER_UID, &by_nofollow, ELOOP);
	expect_twice(_metadata, USER_UID, &by_path, 0);
	expect_twice(_metadata, USER_UID, &by_open, EACCES);
}

/* Kernel log and audit */

FIXTURE(denial_report) {
	struct scratch s;
	struct knob complain;
	int kmsg;
};

FIXTURE_SETUP(denial_report)
{
	scratch_setup(_metadata, &self->s, "1", 01777, ROOT_UID);
	knob_set(_metadata, &self->complain, WARDEN_KNOB COMPLAIN_SUFFIX, "0");
	/* Only records that come after this point. */
	self->kmsg = report_open(_metadata);
}

/* kmsg is only open in the test process. */
FIXTURE_TEARDOWN_PARENT(denial_report)
{
	knob_restore(_metadata, &self->complain);
	scratch_teardown(_metadata, &self->s);
}

/* USER_UID's stat() of @link, which must be denied and reported. */
static pid_t report_denial(struct __test_metadata *const _metadata,
			   const int kmsg, const char *const link,
			   const char *const key, const char *const reject,
			   char *const msg)
{
	const struct lookup by_stat = { .kind = LOOKUP_STAT, .path = link };
	const struct denial d = {
		.uid = USER_UID,
		.fn = lookup,
		.arg = &by_stat,
		.err = EACCES,
		.path = link,
	};

	return expect_report(_metadata, kmsg, &d, key, reject, msg);
}

TEST_F_TIMEOUT(denial_report, denied_follow_logged, 60)
{
	char link[PATH_MAX], msg[REPORT_SIZE], expected[REPORT_SIZE];
	char object[64];
	pid_t pid;

	path_join(_metadata, link, self->s.shared, "logged");
	make_link(_metadata, link, self->s.target, OTHER_UID);
	pid = report_denial(_metadata, self->kmsg, link, LOG_KEY, NULL, msg);

	snprintf(object, sizeof(object), "link_uid=%u dir_uid=%u dir_mode=1777",
		 OTHER_UID, ROOT_UID);
	fs_report_line(expected, sizeof(expected), "protected_sticky_symlinks",
		       "follow", pid, USER_UID, object, link);
	EXPECT_STREQ(expected, msg);
}

TEST_F_TIMEOUT(denial_report, denied_follow_audited, 60)
{
	char link[PATH_MAX], msg[REPORT_SIZE];

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");

	path_join(_metadata, link, self->s.shared, "audited");
	make_link(_metadata, link, self->s.target, OTHER_UID);
	report_denial(_metadata, self->kmsg, link, AUDIT_KEY, NULL, msg);

	EXPECT_NE(NULL, strstr(msg, AUDIT_FIELDS));
	EXPECT_NE(NULL, strstr(msg, " ouid=1001 dir_uid=0 dir_mode=1777"));
	/* auparse reads mode= as a file's mode. */
	EXPECT_EQ(NULL, strstr(msg, " mode="));
}

/*
 * What complain mode lets through is audited as such, the twin of
 * denied_follow_audited: res=1 and permissive=1.
 */
TEST_F_TIMEOUT(denial_report, complain_follow_audited_as_let_through, 60)
{
	char link[PATH_MAX], msg[REPORT_SIZE];
	const struct lookup by_stat = { .kind = LOOKUP_STAT, .path = link };
	const struct denial d = {
		.uid = USER_UID,
		.fn = lookup,
		.arg = &by_stat,
		.err = 0,
		.path = link,
	};

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");

	path_join(_metadata, link, self->s.shared, "complained");
	make_link(_metadata, link, self->s.target, OTHER_UID);
	ASSERT_EQ(0, write_file(WARDEN_KNOB COMPLAIN_SUFFIX, "1"));
	expect_report(_metadata, self->kmsg, &d, AUDIT_KEY, NULL, msg);

	EXPECT_NE(NULL, strstr(msg, COMPLAIN_AUDIT_FIELDS))
	{
		TH_LOG("%s", msg);
	}
}

/*
 * Records come in order: one about the allowed follow would come before
 * those about the denial that follows it.
 */
TEST_F_TIMEOUT(denial_report, allowed_follow_not_reported, 60)
{
	char allowed[PATH_MAX], denied[PATH_MAX], msg[REPORT_SIZE];
	char reject[PATH_MAX + 8];
	const struct lookup by_stat = { .kind = LOOKUP_STAT, .path = allowed };

	path_join(_metadata, allowed, self->s.shared, "allowed");
	make_link(_metadata, allowed, self->s.target, USER_UID);
	path_join(_metadata, denied, self->s.shared, "denied");
	make_link(_metadata, denied, self->s.target, OTHER_UID);
	snprintf(reject, sizeof(reject), " path=\"%s\"", allowed);

	ASSERT_EQ(0, run_as(USER_UID, lookup, &by_stat));
	report_denial(_metadata, self->kmsg, denied, LOG_KEY, reject, msg);
	if (audit_is_on())
		report_denial(_metadata, self->kmsg, denied, AUDIT_KEY, reject,
			      msg);
}

TEST_HARNESS_MAIN
