// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Symlink restrictions in shared sticky directories
 *
 * A sticky directory that others can write to is shared: anyone may plant
 * a name in it, and only the sticky bit keeps them from removing the names
 * of others.  A symlink planted there by one user and followed by another
 * is the classic /tmp race, so a link is followed there only by its owner,
 * or when the directory's owner also owns the link.
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
#include "setup.h"

/*
 * Read without a lock: a follow that races a sysctl write sees either
 * level, and both are valid.
 */
int warden_sticky_symlinks __read_mostly =
	CONFIG_SECURITY_WARDEN_STICKY_SYMLINKS;

/*
 * Level 1 is mainline's protected_symlinks: only sticky directories that
 * everyone can write to.  Level 2 also counts group-writable ones, where
 * every member of the group is a potential attacker.
 */
static bool is_shared_sticky_dir(const umode_t dir_mode, const int level)
{
	const umode_t writable = level >= WARDEN_SYMLINKS_ALL ? 0022 : 0002;

	return (dir_mode & S_ISVTX) && (dir_mode & writable);
}

static bool is_checked_component(const unsigned int flags, const int level)
{
	if (level >= WARDEN_SYMLINKS_ALL)
		return true;
	return level == WARDEN_SYMLINKS_TRAILING &&
	       (flags & LSM_FOLLOW_TRAILING);
}

/*
 * The owner of a shared directory can already redirect any lookup in it,
 * so a link of theirs grants nothing new; a link of the follower's own
 * cannot be a trap set for the follower.
 */
static bool may_follow_shared(const vfsuid_t dir_vfsuid,
			      const vfsuid_t link_vfsuid, const kuid_t fsuid)
{
	if (vfsuid_eq_kuid(link_vfsuid, fsuid))
		return true;
	return vfsuid_valid(dir_vfsuid) && vfsuid_eq(dir_vfsuid, link_vfsuid);
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
 * would be denied in ref walk (so that only ref walk reports), or -EACCES.
 */
static int hook_path_follow_link(const struct path *link,
				 const struct inode *inode,
				 const umode_t dir_mode, const vfsuid_t dir_vfsuid,
				 const unsigned int flags)
{
	const int level = READ_ONCE(warden_sticky_symlinks);
	vfsuid_t link_vfsuid;

	if (!is_checked_component(flags, level) ||
	    !is_shared_sticky_dir(dir_mode, level))
		return 0;

	link_vfsuid = i_uid_into_vfsuid(mnt_idmap(link->mnt), inode);
	if (may_follow_shared(dir_vfsuid, link_vfsuid, current_fsuid()))
		return 0;

	if (flags & LSM_FOLLOW_RCU)
		return -ECHILD;

	warden_report_denial(&(const struct warden_denial){
		.rule = WARDEN_RULE_STICKY_SYMLINKS,
		.path = link,
		.owner = vfsuid_into_kuid(link_vfsuid),
		.dir_owner = vfsuid_into_kuid(dir_vfsuid),
		.dir_mode = dir_mode,
	});
	return -EACCES;
}

static struct security_hook_list warden_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(path_follow_link, hook_path_follow_link),
};

/**
 * warden_add_fs_hooks - Register the filesystem hooks
 */
void __init warden_add_fs_hooks(void)
{
	security_add_hooks(warden_fs_hooks, ARRAY_SIZE(warden_fs_hooks),
			   &warden_lsmid);
}
