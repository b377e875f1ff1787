// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Symlinks whose owner does not own their target
 *
 * With protected_symlink_owner, a symlink is followed only if root owns
 * it, or the follower, or the owner of what it leads to; level 1 binds
 * followers whose fsuid is root, level 2 every follower.  No directory
 * here is sticky: that is the point of the rule.  Every allowed case has
 * its denied twin, and the attacks are shown to work with the rule off.
 *
 *   root/                0755 root
 *   root/secret/         0755 root	where root must not be led
 *   root/secret/file     0644 root
 *   root/mine/           0755 user	the user's own directory
 *   root/mine/file       0644 user
 *   root/app/            0755 user	a directory the user owns
 *   root/app/cache    -> secret		the user's link (CVE-2018-6954)
 *   root/app/rootlink -> secret		root's link
 *   root/app/mine     -> mine		the user's link to the user's own
 *   root/app/new      -> secret/new	the user's dangling link
 *   root/app/minenew  -> mine/new		the same into the user's directory
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

#define OWNER_RULE SYMLINK_OWNER_RULE
#define OWNER_KNOB "/proc/sys/kernel/warden/protected_symlink_owner"
#define OWNER_COMPLAIN_KNOB \
	"/proc/sys/kernel/warden/protected_symlink_owner_complain"

FIXTURE(owner) {
	char root[PATH_MAX], secret[PATH_MAX], secret_file[PATH_MAX];
	char mine[PATH_MAX], mine_file[PATH_MAX], app[PATH_MAX];
	struct knob mainline, sticky, level, complain;
};

static void make_file(struct __test_metadata *const _metadata,
		      char *const path, const char *const dir,
		      const uid_t uid)
{
	int fd;

	path_join(_metadata, path, dir, TARGET_NAME);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(TARGET_CONTENT) - 1,
		  (size_t)write(fd, TARGET_CONTENT,
				sizeof(TARGET_CONTENT) - 1));
	ASSERT_EQ(0, fchown(fd, uid, uid));
	ASSERT_EQ(0, close(fd));
}

/* Creates @app/@name -> @root/@body, owned by @uid. */
static void add_link(struct __test_metadata *const _metadata,
		     const char *const app, const char *const root,
		     const char *const name, const char *const body,
		     const uid_t uid)
{
	char link[PATH_MAX], target[PATH_MAX];

	path_join(_metadata, link, app, name);
	path_join(_metadata, target, root, body);
	make_link(_metadata, link, target, uid);
}

FIXTURE_SETUP(owner)
{
	tmpfs_setup(_metadata, self->root);
	make_dir(_metadata, self->secret, self->root, "secret", 0755,
		 ROOT_UID);
	make_file(_metadata, self->secret_file, self->secret, ROOT_UID);
	make_dir(_metadata, self->mine, self->root, "mine", 0755, USER_UID);
	make_file(_metadata, self->mine_file, self->mine, USER_UID);
	make_dir(_metadata, self->app, self->root, "app", 0755, USER_UID);
	add_link(_metadata, self->app, self->root, "cache",
		 "secret", USER_UID);
	add_link(_metadata, self->app, self->root, "rootlink",
		 "secret", ROOT_UID);
	add_link(_metadata, self->app, self->root, "mine",
		 "mine", USER_UID);
	add_link(_metadata, self->app, self->root, "new",
		 "secret/new", USER_UID);
	add_link(_metadata, self->app, self->root, "minenew",
		 "mine/new", USER_UID);

	/* Only Warden's new rule may deny: mainline's and the sticky one off. */
	knob_set(_metadata, &self->mainline, MAINLINE_KNOB, "0");
	knob_set(_metadata, &self->sticky, WARDEN_KNOB, "0");
	knob_save(_metadata, &self->level, OWNER_KNOB);
	knob_set(_metadata, &self->complain, OWNER_COMPLAIN_KNOB, "0");
}

FIXTURE_TEARDOWN_PARENT(owner)
{
	knob_restore(_metadata, &self->complain);
	knob_restore(_metadata, &self->level);
	knob_restore(_metadata, &self->sticky);
	knob_restore(_metadata, &self->mainline);
	tmpfs_teardown(_metadata, self->root);
}

static void set_level(struct __test_metadata *const _metadata,
		      const char *const level)
{
	ASSERT_EQ(0, write_file(OWNER_KNOB, level));
}

/* Path @app/@name/@rest, in a buffer that the next call reuses. */
static const char *app_path_of(const char *const app, const char *const name,
			       const char *const rest)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s%s%s", app, name, rest ? "/" : "",
		 rest ? rest : "");
	return path;
}

#define app_path(self, name, rest) app_path_of((self)->app, name, rest)

/* As systemd-tmpfiles did: chown(@arg, user), through whatever it holds. */
static int chown_to_user(const void *const arg)
{
	return chown(arg, USER_UID, USER_UID) ? errno : 0;
}

static int create_file(const void *const arg)
{
	const int fd = open(arg, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int read_content(const void *const arg)
{
	char buf[64];
	const int err = read_file(arg, buf, sizeof(buf));

	if (err)
		return err;
	return strcmp(buf, TARGET_CONTENT) ? EBADMSG : 0;
}

static uid_t owner_of(struct __test_metadata *const _metadata,
		      const char *const path)
{
	struct stat st;

	EXPECT_EQ(0, stat(path, &st));
	return st.st_uid;
}

static bool exists(const char *const path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* CVE-2018-6954: root's chown through the user's link to a root directory */

TEST_F(owner, cve_2018_6954_chown_works_when_off)
{
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, chown_to_user,
			    app_path(self, "cache", TARGET_NAME)));
	/* The attack: a file of root's handed over to the user. */
	EXPECT_EQ(USER_UID, owner_of(_metadata, self->secret_file));
}

TEST_F(owner, cve_2018_6954_chown_refused_at_1)
{
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, chown_to_user,
				 app_path(self, "cache", TARGET_NAME)));
	EXPECT_EQ(ROOT_UID, owner_of(_metadata, self->secret_file));
}

TEST_F(owner, root_link_to_root_dir_followed_at_2)
{
	set_level(_metadata, "2");
	EXPECT_EQ(0, run_as(ROOT_UID, chown_to_user,
			    app_path(self, "rootlink", TARGET_NAME)));
	EXPECT_EQ(USER_UID, owner_of(_metadata, self->secret_file));
}

TEST_F(owner, user_link_to_own_dir_followed_by_root_at_2)
{
	set_level(_metadata, "2");
	EXPECT_EQ(0, run_as(ROOT_UID, chown_to_user,
			    app_path(self, "mine", TARGET_NAME)));
}

/* Root's O_CREAT through the user's dangling link */

TEST_F(owner, dangling_creat_works_when_off)
{
	char new[PATH_MAX];

	path_join(_metadata, new, self->secret, "new");
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, create_file, app_path(self, "new", NULL)));
	EXPECT_TRUE(exists(new));
}

TEST_F(owner, dangling_creat_into_root_dir_refused_at_1)
{
	char new[PATH_MAX];

	path_join(_metadata, new, self->secret, "new");
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, create_file,
				 app_path(self, "new", NULL)));
	EXPECT_FALSE(exists(new));
	/* Nor through the link as an intermediate component. */
	EXPECT_EQ(EACCES, run_as(ROOT_UID, create_file,
				 app_path(self, "cache", "new")));
	EXPECT_FALSE(exists(new));
}

TEST_F(owner, dangling_creat_into_link_owner_dir_allowed_at_1)
{
	char new[PATH_MAX];

	path_join(_metadata, new, self->mine, "new");
	set_level(_metadata, "1");
	EXPECT_EQ(0, run_as(ROOT_UID, create_file,
			    app_path(self, "minenew", NULL)));
	EXPECT_TRUE(exists(new));
}

/* Once the file exists, its owner is what the link is compared with. */
TEST_F(owner, creat_of_existing_root_file_refused_at_1)
{
	char existing[PATH_MAX];

	path_join(_metadata, existing, self->root, "mine/rootfile");
	ASSERT_EQ(0, mknod(existing, S_IFREG | 0644, 0));
	add_link(_metadata, self->app, self->root, "rootfile",
		 "mine/rootfile", USER_UID);
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, create_file,
				 app_path(self, "rootfile", NULL)));
	EXPECT_EQ(0, run_as(ROOT_UID, create_file,
			    app_path(self, "minenew", NULL)));
}

/* Who is bound at each level */

TEST_F(owner, level_1_does_not_bind_user)
{
	set_level(_metadata, "1");
	EXPECT_EQ(0, run_as(OTHER_UID, read_content,
			    app_path(self, "cache", TARGET_NAME)));
}

TEST_F(owner, level_2_binds_user)
{
	set_level(_metadata, "2");
	EXPECT_EQ(EACCES, run_as(OTHER_UID, read_content,
				 app_path(self, "cache", TARGET_NAME)));
	/* The twins: a link of root's, and one to what its owner owns. */
	EXPECT_EQ(0, run_as(OTHER_UID, read_content,
			    app_path(self, "rootlink", TARGET_NAME)));
	EXPECT_EQ(0, run_as(OTHER_UID, read_content,
			    app_path(self, "mine", TARGET_NAME)));
}

TEST_F(owner, own_link_followed_at_2)
{
	set_level(_metadata, "2");
	/* The user follows the user's own link to root's directory. */
	EXPECT_EQ(0, run_as(USER_UID, read_content,
			    app_path(self, "cache", TARGET_NAME)));
}

/* A trailing link, not only an intermediate one. */
TEST_F(owner, trailing_link_refused_at_2)
{
	add_link(_metadata, self->app, self->root, "file",
		 "secret/" TARGET_NAME, USER_UID);
	set_level(_metadata, "2");
	EXPECT_EQ(EACCES, run_as(OTHER_UID, read_content,
				 app_path(self, "file", NULL)));
	EXPECT_EQ(0, run_as(USER_UID, read_content,
			    app_path(self, "file", NULL)));
}

/* /proc's magic links are not bound: the twin is trailing_link_refused. */
static int read_through_proc_fd(const void *const arg)
{
	char path[64];
	int fd, err;

	fd = open(arg, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CHILD_BROKEN;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err = read_content(path);
	close(fd);
	return err;
}

TEST_F(owner, proc_magic_link_followed_at_2)
{
	set_level(_metadata, "2");
	EXPECT_EQ(0, run_as(OTHER_UID, read_through_proc_fd,
			    self->secret_file));
}

/* Complain mode lets through, and reports */

TEST_F(owner, complain_lets_through_and_reports)
{
	char key[64], object[64], msg[REPORT_SIZE];
	const char *const needles[] = { key, object, NULL };
	const int kmsg = report_open(_metadata);

	snprintf(key, sizeof(key), "warden: rule=%s verdict=would_deny ",
		 OWNER_RULE);
	snprintf(object, sizeof(object), " link_uid=%u target_uid=%u ",
		 USER_UID, ROOT_UID);
	set_level(_metadata, "1");
	ASSERT_EQ(0, write_file(OWNER_COMPLAIN_KNOB, "1"));
	EXPECT_EQ(0, run_as(ROOT_UID, chown_to_user,
			    app_path(self, "cache", TARGET_NAME)));
	EXPECT_EQ(USER_UID, owner_of(_metadata, self->secret_file));
	EXPECT_TRUE(report_find(_metadata, kmsg, needles, NULL, msg));
	close(kmsg);
}

TEST_F_TIMEOUT(owner, denial_reported, 30)
{
	char expected[REPORT_SIZE], msg[REPORT_SIZE], object[64];
	const int kmsg = report_open(_metadata);
	const struct denial d = {
		.uid = ROOT_UID,
		.fn = chown_to_user,
		.arg = app_path(self, "cache", TARGET_NAME),
		.err = EACCES,
		.path = self->secret,
	};
	pid_t pid;

	set_level(_metadata, "1");
	pid = expect_report(_metadata, kmsg, &d,
			    "warden: rule=" OWNER_RULE " verdict=denied ",
			    NULL, msg);
	snprintf(object, sizeof(object), "link_uid=%u target_uid=%u",
		 USER_UID, ROOT_UID);
	fs_report_line(expected, sizeof(expected), OWNER_RULE, "follow", pid,
		       ROOT_UID, object, self->secret);
	EXPECT_STREQ(expected, msg);
	close(kmsg);
}

TEST_HARNESS_MAIN
