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

/*
 * The follower's own /proc/self/fd, with no planted link before it, is not
 * the rule's business: the twin is trailing_link_refused.
 */
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

/*
 * A link is judged by where the walk lands: a link to one of its owner's
 * own magic links (/proc/PID/fd/N, cwd, root) is judged by where the
 * magic link jumps.  The owner's process is dumpable, as a user's is, so
 * that its /proc/PID is the user's.
 */
struct holder {
	pid_t pid;
	int fd;		/* the holder's O_PATH descriptor of the directory */
	int done;	/* closing it ends the holder */
};

/* Starts a process of @uid that holds @dir open and has it as its cwd. */
static void holder_start(struct __test_metadata *const _metadata,
			 struct holder *const h, const uid_t uid,
			 const char *const dir)
{
	int ready[2], done[2];
	char c;

	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
	h->pid = fork();
	ASSERT_LE(0, h->pid);
	if (!h->pid) {
		int fd;

		close(ready[0]);
		close(done[1]);
		if (become_user(uid) || prctl(PR_SET_DUMPABLE, 1))
			_exit(CHILD_BROKEN);
		fd = open(dir, O_PATH | O_DIRECTORY);
		if (fd < 0 || chdir(dir) ||
		    write(ready[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(CHILD_BROKEN);
		read(done[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	ASSERT_EQ(sizeof(h->fd), read(ready[0], &h->fd, sizeof(h->fd)));
	close(ready[0]);
	h->done = done[1];
}

static void holder_stop(struct __test_metadata *const _metadata,
			struct holder *const h)
{
	close(h->done);
	EXPECT_EQ(0, wait_child(h->pid));
}

/* @app/@name -> /proc/<holder>/@magic, the user's link. */
static void add_magic_link(struct __test_metadata *const _metadata,
			   const char *const app, const char *const name,
			   const struct holder *const h,
			   const char *const magic)
{
	char link[PATH_MAX], body[64];

	path_join(_metadata, link, app, name);
	if (strcmp(magic, "fd"))
		snprintf(body, sizeof(body), "/proc/%d/%s", h->pid, magic);
	else
		snprintf(body, sizeof(body), "/proc/%d/fd/%d", h->pid, h->fd);
	make_link(_metadata, link, body, USER_UID);
}

/* The three magic links of the holder, each leading where it stands. */
static const char *const magic_links[] = { "fd", "cwd", "root" };

/*
 * root's mkdir -p /tmp/app/cache/.ssh: through the user's link to the
 * user's /proc/PID/fd/N of an O_PATH descriptor of a root directory.
 */
static int make_dir_in(const void *const arg)
{
	return mkdir(arg, 0700) ? errno : 0;
}

TEST_F(owner, magic_link_jump_works_when_off)
{
	struct holder h;
	char made[PATH_MAX];

	holder_start(_metadata, &h, USER_UID, self->secret);
	add_magic_link(_metadata, self->app, "magic", &h, "fd");
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, make_dir_in,
			    app_path(self, "magic", ".ssh")));
	path_join(_metadata, made, self->secret, ".ssh");
	EXPECT_TRUE(exists(made));
	holder_stop(_metadata, &h);
}

TEST_F(owner, magic_link_jump_refused_at_1)
{
	char name[16], made[PATH_MAX];
	struct holder h;
	size_t i;

	holder_start(_metadata, &h, USER_UID, self->secret);
	set_level(_metadata, "1");
	for (i = 0; i < ARRAY_SIZE(magic_links); i++) {
		snprintf(name, sizeof(name), "magic_%s", magic_links[i]);
		add_magic_link(_metadata, self->app, name, &h, magic_links[i]);
		EXPECT_EQ(EACCES, run_as(ROOT_UID, make_dir_in,
					 app_path(self, name, "new")))
			TH_LOG("through /proc/PID/%s", magic_links[i]);
		EXPECT_EQ(EACCES, run_as(ROOT_UID, read_content,
					 app_path(self, name, TARGET_NAME)))
			TH_LOG("through /proc/PID/%s", magic_links[i]);
	}
	path_join(_metadata, made, self->secret, "new");
	EXPECT_FALSE(exists(made));
	holder_stop(_metadata, &h);
}

TEST_F(owner, magic_link_jump_to_own_dir_allowed_at_2)
{
	char made[PATH_MAX];
	struct holder h;

	/* The user's link through the user's magic link to the user's own. */
	holder_start(_metadata, &h, USER_UID, self->mine);
	add_magic_link(_metadata, self->app, "magic_fd", &h, "fd");
	add_magic_link(_metadata, self->app, "magic_cwd", &h, "cwd");
	set_level(_metadata, "2");
	EXPECT_EQ(0, run_as(ROOT_UID, make_dir_in,
			    app_path(self, "magic_fd", "new")));
	EXPECT_EQ(0, run_as(ROOT_UID, read_content,
			    app_path(self, "magic_cwd", TARGET_NAME)));
	path_join(_metadata, made, self->mine, "new");
	EXPECT_TRUE(exists(made));
	holder_stop(_metadata, &h);
}

/*
 * A walk that starts at a magic link, with no planted link before it, is
 * not the rule's business: root reads through the user's cwd.
 */
TEST_F(owner, walk_from_magic_link_allowed_at_2)
{
	char path[PATH_MAX];
	struct holder h;

	holder_start(_metadata, &h, USER_UID, self->secret);
	set_level(_metadata, "2");
	snprintf(path, sizeof(path), "/proc/%d/cwd/%s", h.pid, TARGET_NAME);
	EXPECT_EQ(0, run_as(ROOT_UID, read_content, path));
	snprintf(path, sizeof(path), "/proc/%d/cwd/../secret/%s", h.pid,
		 TARGET_NAME);
	EXPECT_EQ(0, run_as(ROOT_UID, read_content, path));
	holder_stop(_metadata, &h);
}

/*
 * A ".." after the user's link to the user's own directory climbs out of
 * it: judged as the link's target.
 */
TEST_F(owner, dotdot_out_of_link_target_works_when_off)
{
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, read_content,
			    app_path(self, "mine", "../secret/" TARGET_NAME)));
}

TEST_F(owner, dotdot_out_of_link_target_refused_at_1)
{
	char sub[PATH_MAX];

	make_dir(_metadata, sub, self->mine, "sub", 0755, USER_UID);
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, read_content,
				 app_path(self, "mine",
					  "../secret/" TARGET_NAME)));
	EXPECT_EQ(EACCES, run_as(ROOT_UID, read_content,
				 app_path(self, "mine",
					  "sub/../../secret/" TARGET_NAME)));
	/* The twin: a ".." that stays in the user's own tree. */
	EXPECT_EQ(0, run_as(ROOT_UID, read_content,
			    app_path(self, "mine", "sub/../" TARGET_NAME)));
	/* And after root's own link, nothing to judge. */
	EXPECT_EQ(0, run_as(ROOT_UID, read_content,
			    app_path(self, "rootlink",
				     "../secret/" TARGET_NAME)));
}

/*
 * Level 1 binds a follower with a power the attack turns on it, whatever
 * its fsuid: a backup agent with CAP_DAC_READ_SEARCH, rsync's daemon with
 * CAP_CHOWN.
 */
struct capable_read {
	const char *path;
	int cap;
};

static int read_with_cap(const void *const arg)
{
	const struct capable_read *const r = arg;
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (prctl(PR_SET_KEEPCAPS, 1) || become_user(OTHER_UID) ||
	    syscall(SYS_capget, &header, data))
		return CHILD_BROKEN;
	data[CAP_TO_INDEX(r->cap)].effective |= CAP_TO_MASK(r->cap);
	if (syscall(SYS_capset, &header, data))
		return CHILD_BROKEN;
	return read_content(r->path);
}

TEST_F(owner, level_1_binds_capable_user)
{
	const int caps[] = { CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH,
			     CAP_FOWNER, CAP_CHOWN };
	struct capable_read r = { app_path(self, "cache", TARGET_NAME) };
	size_t i;

	set_level(_metadata, "1");
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		r.cap = caps[i];
		EXPECT_EQ(EACCES, run_as(ROOT_UID, read_with_cap, &r))
			TH_LOG("with capability %d", caps[i]);
	}
	/* The twins: a power the attack does not use, and none at all. */
	r.cap = CAP_NET_BIND_SERVICE;
	EXPECT_EQ(0, run_as(ROOT_UID, read_with_cap, &r));
	EXPECT_EQ(0, run_as(OTHER_UID, read_content, r.path));
}

/*
 * On a file system of a user namespace, its owners are written by the
 * namespace's root: a link of the user's to the user's own directory
 * there grants root nothing, while the same on the host's tmpfs does
 * (user_link_to_own_dir_followed_by_root_at_2).
 */
struct ns_holder {
	pid_t pid;
	int done;
};

static void ns_holder_start(struct __test_metadata *const _metadata,
			    struct ns_holder *const h, const char *const dir)
{
	int ready[2], done[2];
	char c = 0, map[32];

	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
	h->pid = fork();
	ASSERT_LE(0, h->pid);
	if (!h->pid) {
		close(ready[0]);
		close(done[1]);
		snprintf(map, sizeof(map), "0 %d 1", USER_UID);
		/* Dumpable, or /proc/self/uid_map is root's. */
		if (become_user(USER_UID) || prctl(PR_SET_DUMPABLE, 1) ||
		    unshare(CLONE_NEWUSER | CLONE_NEWNS) ||
		    write_file("/proc/self/setgroups", "deny") ||
		    write_file("/proc/self/uid_map", map) ||
		    write_file("/proc/self/gid_map", map) ||
		    mount("tmpfs", dir, "tmpfs", 0, "mode=0755"))
			_exit(CHILD_BROKEN);
		if (chdir(dir) || mkdir("d", 0755) || symlink("d", "l") ||
		    mknod("d/" TARGET_NAME, S_IFREG | 0644, 0) ||
		    write_file("d/" TARGET_NAME, TARGET_CONTENT) ||
		    write(ready[1], &c, 1) != 1)
			_exit(CHILD_BROKEN);
		read(done[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	h->done = done[1];
}

TEST_F(owner, userns_link_to_own_dir_refused_at_1)
{
	char path[PATH_MAX];
	struct ns_holder h;

	ns_holder_start(_metadata, &h, self->mine);
	snprintf(path, sizeof(path), "/proc/%d/root%s/l/%s", h.pid, self->mine,
		 TARGET_NAME);
	set_level(_metadata, "0");
	EXPECT_EQ(0, run_as(ROOT_UID, read_content, path));
	set_level(_metadata, "1");
	EXPECT_EQ(EACCES, run_as(ROOT_UID, read_content, path));
	/* The twin: through the directory, with no link, root reads it. */
	snprintf(path, sizeof(path), "/proc/%d/root%s/d/%s", h.pid, self->mine,
		 TARGET_NAME);
	EXPECT_EQ(0, run_as(ROOT_UID, read_content, path));
	close(h.done);
	EXPECT_EQ(0, wait_child(h.pid));
}

TEST_HARNESS_MAIN
