// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - KUnit tests of the link and file rules' decisions
 *
 * Included at the end of fs.c, so that the tests reach its static
 * predicates: each case is a table of inputs and the verdict that the
 * rules' documentation gives for them.
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

static void test_shared_sticky_dir_by_mode_and_level(struct kunit *const test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sticky_dir_cases); i++) {
		const struct sticky_dir_case *const c = &sticky_dir_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, c->shared,
				    is_shared_sticky_dir(c->dir_mode, c->level),
				    "mode %04o level %d", c->dir_mode & 07777,
				    c->level);
	}
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

static void test_trusted_owner_is_caller_or_dir_owner(struct kunit *const test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(owner_cases); i++) {
		const struct owner_case *const c = &owner_cases[i];
		const kuid_t fsuid = c->fsuid == TEST_INVALID ?
					     INVALID_UID :
					     KUIDT_INIT(c->fsuid);

		KUNIT_EXPECT_EQ_MSG(test, c->trusted,
				    is_trusted_owner(test_vfsuid(c->dir),
						     test_vfsuid(c->obj),
						     fsuid),
				    "dir %d obj %d fsuid %d", (int)c->dir,
				    (int)c->obj, (int)c->fsuid);
	}
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

static void test_checked_component_by_level(struct kunit *const test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(component_cases); i++) {
		const struct component_case *const c = &component_cases[i];

		KUNIT_EXPECT_EQ_MSG(test, c->checked,
				    is_checked_component(c->flags, c->level),
				    "flags %#x level %d", c->flags, c->level);
	}
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

static void test_safe_hardlink_source_by_mode(struct kunit *const test)
{
	struct cred *const cred = prepare_creds();
	const struct cred *old;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, cred);
	cred->fsuid = KUIDT_INIT(TEST_OTHER);
	cred->fsgid = KGIDT_INIT(TEST_OTHER);
	cap_clear(cred->cap_effective);
	old = override_creds(cred);

	for (i = 0; i < ARRAY_SIZE(hardlink_cases); i++) {
		const struct hardlink_case *const c = &hardlink_cases[i];
		struct inode *const inode = test_inode(test, c->mode, TEST_USER);

		KUNIT_EXPECT_EQ_MSG(test, c->safe,
				    is_safe_hardlink_source(&nop_mnt_idmap,
							    inode),
				    "mode %06o", c->mode);
	}

	revert_creds(old);
	put_cred(cred);
}

/*
 * Root passes the read and write test, as in mainline: only the type and
 * the setuid and setgid bits make a file unsafe for it.
 */
static void test_safe_hardlink_source_for_root(struct kunit *const test)
{
	KUNIT_EXPECT_TRUE(test,
			  is_safe_hardlink_source(&nop_mnt_idmap,
						  test_inode(test, S_IFREG | 0000,
							     TEST_USER)));
	KUNIT_EXPECT_FALSE(test,
			   is_safe_hardlink_source(&nop_mnt_idmap,
						   test_inode(test,
							      S_IFREG | 04600,
							      TEST_USER)));
	KUNIT_EXPECT_FALSE(test,
			   is_safe_hardlink_source(&nop_mnt_idmap,
						   test_inode(test,
							      S_IFREG | 02710,
							      TEST_USER)));
	KUNIT_EXPECT_TRUE(test,
			  is_safe_hardlink_source(&nop_mnt_idmap,
						  test_inode(test,
							     S_IFREG | 02600,
							     TEST_USER)));
	KUNIT_EXPECT_FALSE(test,
			   is_safe_hardlink_source(&nop_mnt_idmap,
						   test_inode(test,
							      S_IFCHR | 0600,
							      TEST_USER)));
}

static struct kunit_case warden_fs_test_cases[] = {
	KUNIT_CASE(test_shared_sticky_dir_by_mode_and_level),
	KUNIT_CASE(test_trusted_owner_is_caller_or_dir_owner),
	KUNIT_CASE(test_checked_component_by_level),
	KUNIT_CASE(test_safe_hardlink_source_by_mode),
	KUNIT_CASE(test_safe_hardlink_source_for_root),
	{}
};

static struct kunit_suite warden_fs_test_suite = {
	.name = "warden_fs",
	.test_cases = warden_fs_test_cases,
};

kunit_test_suite(warden_fs_test_suite);

#endif /* CONFIG_SECURITY_WARDEN_KUNIT_TEST */
