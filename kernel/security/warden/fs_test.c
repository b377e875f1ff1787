// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of the link and file rules' decisions
 *
 * Included at the end of fs.c, so that the tests reach its static
 * predicates: each case is a table of inputs and the verdict that the
 * rules' documentation gives for them, with a result per row.
 */

#ifdef CONFIG_SECURITY_WARDEN_KUNIT_TEST

#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>

struct sticky_dir_case {
	umode_t dir_mode;
	int level;
	bool shared;
};

static const struct sticky_dir_case sticky_dir_cases[] = {
	/* Level 0 shares nothing. */
	{ S_IFDIR | 01777, WARDEN_LEVEL_OFF, false },
	/* Level 1: sticky and world-writable, as mainline. */
	{ S_IFDIR | 01777, WARDEN_STICKY_WORLD, true },
	{ S_IFDIR | 01703, WARDEN_STICKY_WORLD, true },
	{ S_IFDIR | 01770, WARDEN_STICKY_WORLD, false },
	{ S_IFDIR | 01755, WARDEN_STICKY_WORLD, false },
	{ S_IFDIR | 0777, WARDEN_STICKY_WORLD, false },
	/* Level 2: group-writable sticky directories too. */
	{ S_IFDIR | 01777, WARDEN_STICKY_GROUP, true },
	{ S_IFDIR | 01770, WARDEN_STICKY_GROUP, true },
	{ S_IFDIR | 01730, WARDEN_STICKY_GROUP, true },
	{ S_IFDIR | 01750, WARDEN_STICKY_GROUP, false },
	{ S_IFDIR | 01700, WARDEN_STICKY_GROUP, false },
	{ S_IFDIR | 0770, WARDEN_STICKY_GROUP, false },
	{ S_IFDIR | 0777, WARDEN_STICKY_GROUP, false },
};

static void sticky_dir_case_desc(const struct sticky_dir_case *const c,
				 char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "mode %04o level %d",
		 c->dir_mode & 07777, c->level);
}

KUNIT_ARRAY_PARAM(sticky_dir, sticky_dir_cases, sticky_dir_case_desc);

static void test_shared_sticky_dir_by_mode_and_level(struct kunit *const test)
{
	const struct sticky_dir_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->shared,
			is_shared_sticky_dir(c->dir_mode, c->level));
}

#define TEST_ROOT 0
#define TEST_USER 1000
#define TEST_OTHER 1001
#define TEST_INVALID ((uid_t)-1)

struct owner_case {
	uid_t dir;
	uid_t obj;
	uid_t fsuid;
	bool trusted;
};

static const struct owner_case owner_cases[] = {
	/* The caller's own object. */
	{ TEST_ROOT, TEST_USER, TEST_USER, true },
	{ TEST_INVALID, TEST_USER, TEST_USER, true },
	/* The directory owner's object. */
	{ TEST_USER, TEST_USER, TEST_ROOT, true },
	{ TEST_ROOT, TEST_ROOT, TEST_USER, true },
	/* A third user's object: the attack. */
	{ TEST_ROOT, TEST_USER, TEST_ROOT, false },
	{ TEST_ROOT, TEST_USER, TEST_OTHER, false },
	{ TEST_OTHER, TEST_USER, TEST_ROOT, false },
	/* An unmapped directory owner trusts no one else. */
	{ TEST_INVALID, TEST_USER, TEST_ROOT, false },
	/* An unmapped object is nobody's, not even an unmapped caller's. */
	{ TEST_INVALID, TEST_INVALID, TEST_ROOT, false },
	{ TEST_ROOT, TEST_INVALID, TEST_INVALID, false },
	{ TEST_INVALID, TEST_INVALID, TEST_INVALID, false },
};

static vfsuid_t test_vfsuid(const uid_t uid)
{
	return uid == TEST_INVALID ? INVALID_VFSUID :
				     VFSUIDT_INIT(KUIDT_INIT(uid));
}

static kuid_t test_kuid(const uid_t uid)
{
	return uid == TEST_INVALID ? INVALID_UID : KUIDT_INIT(uid);
}

static void owner_case_desc(const struct owner_case *const c, char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "dir %d obj %d fsuid %d",
		 (int)c->dir, (int)c->obj, (int)c->fsuid);
}

KUNIT_ARRAY_PARAM(owner, owner_cases, owner_case_desc);

static void test_trusted_owner_is_caller_or_dir_owner(struct kunit *const test)
{
	const struct owner_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->trusted,
			is_trusted_owner(test_vfsuid(c->dir), test_vfsuid(c->obj),
					 test_kuid(c->fsuid)));
}

struct file_case {
	uid_t dir;
	uid_t file;
	uid_t fsuid;
	unsigned int nlink;
	bool trusted;
};

static const struct file_case file_cases[] = {
	/* The caller's own file, with any number of names. */
	{ TEST_ROOT, TEST_USER, TEST_USER, 1, true },
	{ TEST_ROOT, TEST_USER, TEST_USER, 2, true },
	{ TEST_INVALID, TEST_USER, TEST_USER, 1, true },
	/* The directory owner's file, while it has one name. */
	{ TEST_USER, TEST_USER, TEST_ROOT, 1, true },
	{ TEST_ROOT, TEST_ROOT, TEST_USER, 1, true },
	{ TEST_ROOT, TEST_ROOT, TEST_ROOT, 1, true },
	/* Linked where the directory's owner did not put it: the attack... */
	{ TEST_ROOT, TEST_ROOT, TEST_USER, 2, false },
	{ TEST_USER, TEST_USER, TEST_ROOT, 3, false },
	/* ... even for the directory's owner, whose own file it is. */
	{ TEST_ROOT, TEST_ROOT, TEST_ROOT, 2, false },
	/* A third user's file. */
	{ TEST_ROOT, TEST_USER, TEST_ROOT, 1, false },
	{ TEST_INVALID, TEST_USER, TEST_ROOT, 1, false },
	{ TEST_INVALID, TEST_INVALID, TEST_INVALID, 1, false },
};

static void file_case_desc(const struct file_case *const c, char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "dir %d file %d fsuid %d nlink %u",
		 (int)c->dir, (int)c->file, (int)c->fsuid, c->nlink);
}

KUNIT_ARRAY_PARAM(file, file_cases, file_case_desc);

static void test_trusted_file_has_one_name(struct kunit *const test)
{
	const struct file_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->trusted,
			is_trusted_file(test_vfsuid(c->dir),
					test_vfsuid(c->file), test_kuid(c->fsuid),
					c->nlink));
}

struct component_case {
	unsigned int flags;
	int level;
	bool checked;
};

static const struct component_case component_cases[] = {
	{ LSM_FOLLOW_TRAILING, WARDEN_LEVEL_OFF, false },
	{ 0, WARDEN_LEVEL_OFF, false },
	{ LSM_FOLLOW_TRAILING, WARDEN_STICKY_WORLD, true },
	{ LSM_FOLLOW_TRAILING | LSM_FOLLOW_RCU, WARDEN_STICKY_WORLD, true },
	{ 0, WARDEN_STICKY_WORLD, false },
	{ LSM_FOLLOW_RCU, WARDEN_STICKY_WORLD, false },
	{ LSM_FOLLOW_TRAILING, WARDEN_STICKY_GROUP, true },
	{ 0, WARDEN_STICKY_GROUP, true },
	{ LSM_FOLLOW_RCU, WARDEN_STICKY_GROUP, true },
};

static void component_case_desc(const struct component_case *const c,
				char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "flags %#x level %d", c->flags,
		 c->level);
}

KUNIT_ARRAY_PARAM(component, component_cases, component_case_desc);

static void test_checked_component_by_level(struct kunit *const test)
{
	const struct component_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->checked,
			is_checked_component(c->flags, c->level));
}

/*
 * A bare inode of a superblock that nothing mounted: enough for
 * inode_permission()'s generic checks, with no filesystem behind it.
 */
struct test_inode {
	struct super_block sb;
	struct inode inode;
};

static const struct inode_operations test_iops = {};

static struct inode *test_inode(struct kunit *const test, const umode_t mode,
				const uid_t uid)
{
	struct test_inode *const t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->sb.s_user_ns = &init_user_ns;
	t->inode.i_sb = &t->sb;
	t->inode.i_op = &test_iops;
	/* No ->permission(): generic_permission(), without taking i_lock. */
	t->inode.i_opflags = IOP_FASTPERM;
	t->inode.i_mode = mode;
	t->inode.i_uid = KUIDT_INIT(uid);
	t->inode.i_gid = KGIDT_INIT(uid);
	return &t->inode;
}

struct hardlink_case {
	umode_t mode;
	bool safe;
};

/* For a caller who is neither owner nor group member, without capability. */
static const struct hardlink_case hardlink_cases[] = {
	{ S_IFREG | 0666, true },
	{ S_IFREG | 0777, true },
	{ S_IFREG | 02666, true },
	{ S_IFREG | 02676, false },
	{ S_IFREG | 0664, false },
	{ S_IFREG | 0606, true },
	{ S_IFREG | 0600, false },
	{ S_IFREG | 0644, false },
	{ S_IFREG | 0444, false },
	{ S_IFREG | 0222, false },
	{ S_IFREG | 04666, false },
	{ S_IFREG | 04777, false },
	{ S_IFREG | 02677, false },
	{ S_IFREG | 06666, false },
	{ S_IFIFO | 0666, false },
	{ S_IFCHR | 0666, false },
	{ S_IFBLK | 0666, false },
	{ S_IFSOCK | 0666, false },
	{ S_IFLNK | 0777, false },
	{ S_IFDIR | 0777, false },
};

static void hardlink_case_desc(const struct hardlink_case *const c,
			       char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "mode %06o", c->mode);
}

KUNIT_ARRAY_PARAM(hardlink, hardlink_cases, hardlink_case_desc);

static void test_safe_hardlink_source_by_mode(struct kunit *const test)
{
	const struct hardlink_case *const c = test->param_value;
	struct inode *const inode = test_inode(test, c->mode, TEST_USER);
	struct cred *const cred = prepare_creds();
	const struct cred *old;
	bool safe;

	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->fsuid = KUIDT_INIT(TEST_OTHER);
	cred->fsgid = KGIDT_INIT(TEST_OTHER);
	cap_clear(cred->cap_effective);
	old = override_creds(cred);
	safe = is_safe_hardlink_source(&nop_mnt_idmap, inode);
	revert_creds(old);
	put_cred(cred);

	KUNIT_EXPECT_EQ(test, c->safe, safe);
}

/*
 * Root passes the read and write test, as in mainline: only the type and
 * the setuid and setgid bits make a file unsafe for it.
 */
static const struct hardlink_case hardlink_root_cases[] = {
	{ S_IFREG | 0000, true },
	{ S_IFREG | 04600, false },
	{ S_IFREG | 02710, false },
	{ S_IFREG | 02600, true },
	{ S_IFCHR | 0600, false },
};

KUNIT_ARRAY_PARAM(hardlink_root, hardlink_root_cases, hardlink_case_desc);

static void test_safe_hardlink_source_for_root(struct kunit *const test)
{
	const struct hardlink_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->safe,
			is_safe_hardlink_source(&nop_mnt_idmap,
						test_inode(test, c->mode,
							   TEST_USER)));
}

struct link_owner_case {
	uid_t link;
	uid_t target;
	uid_t fsuid;
	int level;
	bool followed;
	u64 caps;	/* the effective set */
};

static const struct link_owner_case link_owner_cases[] = {
	/* Level 0 follows everything. */
	{ TEST_USER, TEST_ROOT, TEST_ROOT, WARDEN_LEVEL_OFF, true },
	/* Level 1 binds root only. */
	{ TEST_USER, TEST_ROOT, TEST_ROOT, WARDEN_SYMLINK_OWNER_ROOT, false },
	{ TEST_USER, TEST_OTHER, TEST_ROOT, WARDEN_SYMLINK_OWNER_ROOT, false },
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, true },
	/* ... and a follower with a power that the attack turns on it. */
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, false,
	  BIT_ULL(CAP_DAC_OVERRIDE) },
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, false,
	  BIT_ULL(CAP_DAC_READ_SEARCH) },
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, false,
	  BIT_ULL(CAP_FOWNER) },
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, false,
	  BIT_ULL(CAP_CHOWN) },
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, true,
	  BIT_ULL(CAP_NET_BIND_SERVICE) },
	{ TEST_USER, TEST_USER, TEST_OTHER, WARDEN_SYMLINK_OWNER_ROOT, true,
	  BIT_ULL(CAP_DAC_OVERRIDE) },
	/* Root's own links, and links to what their owner owns. */
	{ TEST_ROOT, TEST_USER, TEST_ROOT, WARDEN_SYMLINK_OWNER_ROOT, true },
	{ TEST_USER, TEST_USER, TEST_ROOT, WARDEN_SYMLINK_OWNER_ROOT, true },
	/* Level 2 binds everyone. */
	{ TEST_USER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ALL, false },
	{ TEST_USER, TEST_OTHER, TEST_OTHER, WARDEN_SYMLINK_OWNER_ALL, false },
	{ TEST_USER, TEST_USER, TEST_OTHER, WARDEN_SYMLINK_OWNER_ALL, true },
	{ TEST_OTHER, TEST_ROOT, TEST_OTHER, WARDEN_SYMLINK_OWNER_ALL, true },
	{ TEST_ROOT, TEST_OTHER, TEST_USER, WARDEN_SYMLINK_OWNER_ALL, true },
	/* An unmapped owner matches no one, not even another unmapped one. */
	{ TEST_INVALID, TEST_INVALID, TEST_ROOT, WARDEN_SYMLINK_OWNER_ALL,
	  false },
	{ TEST_USER, TEST_INVALID, TEST_ROOT, WARDEN_SYMLINK_OWNER_ALL, false },
	{ TEST_INVALID, TEST_ROOT, TEST_ROOT, WARDEN_SYMLINK_OWNER_ALL, false },
};

static void link_owner_case_desc(const struct link_owner_case *const c,
				 char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE,
		 "link %d target %d fsuid %d level %d", (int)c->link,
		 (int)c->target, (int)c->fsuid, c->level);
}

KUNIT_ARRAY_PARAM(link_owner, link_owner_cases, link_owner_case_desc);

static void test_link_followed_by_owner_and_level(struct kunit *const test)
{
	const struct link_owner_case *const c = test->param_value;
	const struct cred cred = {
		.fsuid = KUIDT_INIT(c->fsuid),
		.cap_effective = { c->caps },
	};
	const bool followed =
		!is_bound_follower(&cred, c->level) ||
		is_trusted_link_owner(test_vfsuid(c->link), cred.fsuid) ||
		is_owners_target(test_vfsuid(c->link), test_vfsuid(c->target));

	KUNIT_EXPECT_EQ(test, c->followed, followed);
}

static void test_link_owner_allowed_at(struct kunit *const test)
{
	const struct cred root = { .fsuid = GLOBAL_ROOT_UID };
	const struct cred user = { .fsuid = KUIDT_INIT(TEST_USER) };
	const struct cred capable = {
		.fsuid = KUIDT_INIT(TEST_USER),
		.cap_effective = { BIT_ULL(CAP_DAC_OVERRIDE) },
	};

	KUNIT_EXPECT_EQ(test, WARDEN_LEVEL_OFF, target_allowed_at(&root));
	KUNIT_EXPECT_EQ(test, WARDEN_SYMLINK_OWNER_ROOT,
			target_allowed_at(&user));
	KUNIT_EXPECT_EQ(test, WARDEN_LEVEL_OFF, target_allowed_at(&capable));
}

struct write_open_case {
	int open_flag;
	bool write;
};

static const struct write_open_case write_open_cases[] = {
	/* Reads stay allowed, with or without O_CREAT. */
	{ O_RDONLY, false },
	{ O_RDONLY | O_CREAT, false },
	{ O_RDONLY | O_NONBLOCK | O_NOFOLLOW, false },
	/* Writing, or emptying the file even with O_RDONLY. */
	{ O_WRONLY, true },
	{ O_RDWR, true },
	{ O_ACCMODE, true },
	{ O_RDONLY | O_TRUNC, true },
	{ O_RDONLY | O_APPEND, true },
	{ O_WRONLY | O_CREAT | O_APPEND, true },
};

static void write_open_case_desc(const struct write_open_case *const c,
				 char *const desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "flags %#o", c->open_flag);
}

KUNIT_ARRAY_PARAM(write_open, write_open_cases, write_open_case_desc);

static void test_write_open_by_flags(struct kunit *const test)
{
	const struct write_open_case *const c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->write, is_write_open(c->open_flag));
}

static struct kunit_case warden_fs_test_cases[] = {
	KUNIT_CASE_PARAM(test_shared_sticky_dir_by_mode_and_level,
			 sticky_dir_gen_params),
	KUNIT_CASE_PARAM(test_trusted_owner_is_caller_or_dir_owner,
			 owner_gen_params),
	KUNIT_CASE_PARAM(test_trusted_file_has_one_name, file_gen_params),
	KUNIT_CASE_PARAM(test_checked_component_by_level,
			 component_gen_params),
	KUNIT_CASE_PARAM(test_safe_hardlink_source_by_mode,
			 hardlink_gen_params),
	KUNIT_CASE_PARAM(test_safe_hardlink_source_for_root,
			 hardlink_root_gen_params),
	KUNIT_CASE_PARAM(test_link_followed_by_owner_and_level,
			 link_owner_gen_params),
	KUNIT_CASE(test_link_owner_allowed_at),
	KUNIT_CASE_PARAM(test_write_open_by_flags, write_open_gen_params),
	{}
};

static struct kunit_suite warden_fs_test_suite = {
	.name = "warden_fs",
	.test_cases = warden_fs_test_cases,
};

kunit_test_suite(warden_fs_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
