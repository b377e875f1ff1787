// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Link and file restrictions
 *
 * A sticky directory that others can write to is shared: anyone may plant
 * a name in it, and only the sticky bit keeps them from removing the names
 * of others.  A symlink planted there and followed by another user, or a
 * file pre-created there and then opened with O_CREAT by a privileged
 * program, is the classic /tmp race.  Such a link is followed, and such a
 * file reopened, only by its owner or when the directory's owner owns it.
 *
 * Hard links are checked wherever they are made: a link to a file one
 * cannot read and write pins it, a setuid binary included, in a directory
 * the attacker controls, long after the administrator removed or fixed
 * the original.
 */

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/lsm_hooks.h>
#include <linux/mnt_idmapping.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/security.h>
#include <linux/stat.h>

#include "common.h"
#include "fs.h"
#include "limits.h"
#include "report.h"
#include "settings.h"
#include "setup.h"

/*
 * Level 1 counts only sticky directories that everyone can write to, as
 * mainline does.  Level 2 also counts group-writable ones, where every
 * member of the group is a potential attacker.
 */
static bool is_shared_sticky_dir(const umode_t dir_mode, const int level)
{
	const umode_t writable = level >= WARDEN_STICKY_GROUP ? 0022 : 0002;

	return level && (dir_mode & S_ISVTX) && (dir_mode & writable);
}

/*
 * The owner of a shared directory can already redirect any lookup in it,
 * so an object of theirs grants nothing new; an object of the caller's own
 * cannot be a trap set for the caller.
 */
static bool is_trusted_owner(const vfsuid_t dir_vfsuid,
			     const vfsuid_t obj_vfsuid, const kuid_t fsuid)
{
	if (vfsuid_eq_kuid(obj_vfsuid, fsuid))
		return true;
	return vfsuid_valid(dir_vfsuid) && vfsuid_eq(dir_vfsuid, obj_vfsuid);
}

static bool is_checked_component(const unsigned int flags, const int level)
{
	if (level >= WARDEN_STICKY_GROUP)
		return true;
	return level == WARDEN_STICKY_WORLD && (flags & LSM_FOLLOW_TRAILING);
}

/* The highest level below @level at which the link would be followed. */
static int follow_allowed_at(const umode_t dir_mode, const unsigned int flags,
			     int level)
{
	while (--level > 0)
		if (!is_checked_component(flags, level) ||
		    !is_shared_sticky_dir(dir_mode, level))
			break;
	return level;
}

/* The highest level below @level at which the file would be reopened. */
static int reopen_allowed_at(const umode_t dir_mode, int level)
{
	while (--level > 0)
		if (!is_shared_sticky_dir(dir_mode, level))
			break;
	return level;
}

static int refuse_sticky(const enum warden_rule rule, const struct path *path,
			 const vfsuid_t obj_vfsuid, const umode_t dir_mode,
			 const vfsuid_t dir_vfsuid, const int allowed_at)
{
	return warden_refuse(&(const struct warden_denial){
		.rule = rule,
		.path = path,
		.owner = vfsuid_into_kuid(obj_vfsuid),
		.dir_owner = vfsuid_into_kuid(dir_vfsuid),
		.dir_mode = dir_mode,
		.allowed_at = allowed_at,
	}, -EACCES);
}

/**
 * hook_path_follow_link - Restrict following links in shared directories
 * @link: The symlink about to be followed.
 * @inode: The symlink's inode.
 * @dir_mode: Mode of the directory holding @link, as the walk saw it.
 * @dir_vfsuid: Owner of that directory, mapped through its mount.
 * @flags: LSM_FOLLOW_RCU and LSM_FOLLOW_TRAILING.
 *
 * Capabilities are deliberately not consulted: CAP_DAC_OVERRIDE is what
 * makes root the target of this attack, not a reason to let it through.
 *
 * Return: 0 if @link may be followed, -ECHILD to redo an RCU walk that
 * would be refused in ref walk (so that only ref walk counts and reports,
 * once, even in complain mode), or -EACCES.
 */
static int hook_path_follow_link(const struct path *link,
				 const struct inode *inode,
				 const umode_t dir_mode, const vfsuid_t dir_vfsuid,
				 const unsigned int flags)
{
	const int level = warden_level(WARDEN_RULE_STICKY_SYMLINKS);
	vfsuid_t link_vfsuid;

	if (!is_checked_component(flags, level) ||
	    !is_shared_sticky_dir(dir_mode, level))
		return 0;

	link_vfsuid = i_uid_into_vfsuid(mnt_idmap(link->mnt), inode);
	if (is_trusted_owner(dir_vfsuid, link_vfsuid, current_fsuid()))
		return 0;

	if (flags & LSM_FOLLOW_RCU)
		return -ECHILD;

	return refuse_sticky(WARDEN_RULE_STICKY_SYMLINKS, link, link_vfsuid,
			     dir_mode, dir_vfsuid,
			     follow_allowed_at(dir_mode, flags, level));
}

/**
 * hook_path_open_existing - Restrict reopening others' files in shared dirs
 * @path: The existing file that an O_CREAT open found.
 * @dir_mode: Mode of the directory holding @path, as the walk saw it.
 * @dir_vfsuid: Owner of that directory, mapped through its mount.
 *
 * Only FIFOs and regular files are covered, each by its own rule, as the
 * rules' names say.  (Mainline's may_create_in_sticky() also refuses
 * others' devices and sockets, even with both of its knobs at 0; Warden
 * leaves those to mainline.)
 *
 * Return: 0 if the open may go on, or -EACCES.
 */
static int hook_path_open_existing(const struct path *path,
				   const umode_t dir_mode,
				   const vfsuid_t dir_vfsuid)
{
	const struct inode *inode = d_backing_inode(path->dentry);
	enum warden_rule rule;
	vfsuid_t file_vfsuid;
	int level;

	if (S_ISREG(inode->i_mode))
		rule = WARDEN_RULE_REGULAR;
	else if (S_ISFIFO(inode->i_mode))
		rule = WARDEN_RULE_FIFOS;
	else
		return 0;
	level = warden_level(rule);

	if (!is_shared_sticky_dir(dir_mode, level))
		return 0;

	file_vfsuid = i_uid_into_vfsuid(mnt_idmap(path->mnt), inode);
	if (is_trusted_owner(dir_vfsuid, file_vfsuid, current_fsuid()))
		return 0;

	return refuse_sticky(rule, path, file_vfsuid, dir_mode, dir_vfsuid,
			     reopen_allowed_at(dir_mode, level));
}

/*
 * Special files must not be pinned, nor files that run with other
 * privileges, nor files the linker could not open for reading and writing
 * anyway.
 */
static bool is_safe_hardlink_source(struct mnt_idmap *const idmap,
				    struct inode *const inode)
{
	const umode_t mode = inode->i_mode;

	if (!S_ISREG(mode))
		return false;
	if (mode & S_ISUID)
		return false;
	if ((mode & (S_ISGID | 0010)) == (S_ISGID | 0010))
		return false;
	return !inode_permission(idmap, inode, MAY_READ | MAY_WRITE);
}

/**
 * hook_path_link - Restrict hard links to files the caller cannot use
 * @old_dentry: The existing file.
 * @new_dir: The directory of the new link, on the same mount.
 * @new_dentry: The new link.
 *
 * Return: 0 if the link may be made, or -EPERM.
 */
static int hook_path_link(struct dentry *const old_dentry,
			  const struct path *const new_dir,
			  struct dentry *const new_dentry)
{
	struct mnt_idmap *const idmap = mnt_idmap(new_dir->mnt);
	struct inode *const inode = d_backing_inode(old_dentry);
	const struct path old_path = {
		.mnt = new_dir->mnt,
		.dentry = old_dentry,
	};

	if (warden_level(WARDEN_RULE_NONACCESS_HARDLINKS) < WARDEN_HARDLINKS_ON)
		return 0;
	if (is_safe_hardlink_source(idmap, inode) ||
	    inode_owner_or_capable(idmap, inode))
		return 0;

	return warden_refuse(&(const struct warden_denial){
		.rule = WARDEN_RULE_NONACCESS_HARDLINKS,
		.path = &old_path,
		.owner = vfsuid_into_kuid(i_uid_into_vfsuid(idmap, inode)),
		.allowed_at = WARDEN_LEVEL_OFF,
	}, -EPERM);
}

static struct security_hook_list warden_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(path_follow_link, hook_path_follow_link),
	LSM_HOOK_INIT(path_open_existing, hook_path_open_existing),
	LSM_HOOK_INIT(path_link, hook_path_link),
};

/**
 * warden_add_fs_hooks - Register the filesystem hooks
 */
void __init warden_add_fs_hooks(void)
{
	security_add_hooks(warden_fs_hooks, ARRAY_SIZE(warden_fs_hooks),
			   &warden_lsmid);
}

#include "fs_test.c"
