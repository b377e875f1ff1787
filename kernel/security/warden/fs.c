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
 * Outside sticky directories, a symlink in a directory the attacker owns
 * is just as much a trap for a privileged program that walks through it,
 * as any component of a path (CVE-2018-6954).  With protected_symlink_owner
 * a link is followed only if root owns it, or the follower, or the owner
 * of what it leads to: then it leads nowhere its owner does not already
 * control.
 *
 * A file planted there is just as much a trap for a privileged program
 * that opens it for writing without O_CREAT, or truncates it: with
 * protected_sticky_writes only its owner, or the directory's, may.
 *
 * Hard links that link(2) makes are checked anywhere: a link to a file one
 * cannot read and write pins it, a setuid binary included, in a directory
 * the attacker controls, long after the administrator removed or fixed
 * the original; a setuid binary left with no name at all runs with
 * its privileges no more, whatever descriptor still reaches it.
 */

#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fcntl.h>
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

/*
 * A file of the directory's owner is theirs only while it has no other
 * name: a hard link that another user made of it (a root-owned file that
 * anyone may write, linked into /tmp) is that user's trap, for root too,
 * whose own file it is.  (A symlink cannot be so linked: the hard-link
 * rule refuses a link to a file that is not regular.)
 */
static bool is_trusted_file(const vfsuid_t dir_vfsuid,
			    const vfsuid_t file_vfsuid, const kuid_t fsuid,
			    const unsigned int nlink)
{
	if (vfsuid_valid(dir_vfsuid) && vfsuid_eq(dir_vfsuid, file_vfsuid))
		return nlink == 1;
	return vfsuid_eq_kuid(file_vfsuid, fsuid);
}

/* Whether the current task may open @inode in a directory of @dir_vfsuid. */
static bool is_trusted_reopen(const vfsuid_t dir_vfsuid,
			      const vfsuid_t file_vfsuid,
			      const struct inode *const inode)
{
	return is_trusted_file(dir_vfsuid, file_vfsuid, current_fsuid(),
			       READ_ONCE(inode->i_nlink));
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

/*
 * Decides what the refusal by @rule of an access by the current task
 * comes to, which its own policy may make final, and reports it.
 */
static int refuse(const enum warden_rule rule, const int allowed_at,
		  const struct warden_fs_object *const object, const int err)
{
	const struct warden_decision decision =
		warden_decide(rule, warden_current_level(rule), allowed_at);

	warden_report(&(const struct warden_report){
		.rule = rule,
		.decision = decision,
		.fs = *object,
	});
	return warden_enforce(&decision, err);
}

static int refuse_sticky(const enum warden_rule rule, const struct path *path,
			 const vfsuid_t obj_vfsuid, const umode_t dir_mode,
			 const vfsuid_t dir_vfsuid, const int allowed_at)
{
	return refuse(rule, allowed_at, &(const struct warden_fs_object){
		.path = path,
		.owner = vfsuid_into_kuid(obj_vfsuid),
		.dir_owner = vfsuid_into_kuid(dir_vfsuid),
		.dir_mode = dir_mode,
	}, -EACCES);
}

/*
 * The powers a link attack turns against their holder: to write, read,
 * chmod or chown what the holder is led to, whoever owns it.  A service
 * that runs as its own user with one of them (a backup agent with
 * CAP_DAC_READ_SEARCH, rsync's daemon with CAP_CHOWN) is as much the
 * attack's target as root.
 */
static const kernel_cap_t warden_link_attack_caps = { BIT_ULL(CAP_CHOWN) |
	BIT_ULL(CAP_DAC_OVERRIDE) | BIT_ULL(CAP_DAC_READ_SEARCH) |
	BIT_ULL(CAP_FOWNER) };

/*
 * Whether protected_symlink_owner at @level binds a follower with @cred.
 * The effective set is read, not checked with capable(): holding the
 * power is what makes the follower a target, and a check would audit
 * every link it follows.
 */
static bool is_bound_follower(const struct cred *const cred, const int level)
{
	if (level >= WARDEN_SYMLINK_OWNER_ALL)
		return true;
	if (level != WARDEN_SYMLINK_OWNER_ROOT)
		return false;
	return uid_eq(cred->fsuid, GLOBAL_ROOT_UID) ||
	       !cap_isclear(cap_intersect(cred->cap_effective,
					  warden_link_attack_caps));
}

/*
 * Root's links are the system's own; a link of the follower's own cannot
 * be a trap set for it.  Decided before the target's owner is even read:
 * that is most links a walk follows.
 */
static bool is_trusted_link_owner(const vfsuid_t link_vfsuid,
				  const kuid_t fsuid)
{
	return vfsuid_eq_kuid(link_vfsuid, GLOBAL_ROOT_UID) ||
	       vfsuid_eq_kuid(link_vfsuid, fsuid);
}

/*
 * A link whose owner also owns its target leads the follower to nothing
 * that its owner does not already control.  An unmapped owner is
 * nobody's.
 */
static bool is_owners_target(const vfsuid_t link_vfsuid,
			     const vfsuid_t target_vfsuid)
{
	return vfsuid_valid(target_vfsuid) &&
	       vfsuid_eq(link_vfsuid, target_vfsuid);
}

/* The highest level at which the link would lead a follower with @cred. */
static int target_allowed_at(const struct cred *const cred)
{
	return is_bound_follower(cred, WARDEN_SYMLINK_OWNER_ROOT) ?
		WARDEN_LEVEL_OFF : WARDEN_SYMLINK_OWNER_ROOT;
}

/*
 * Whether @inode's owner is one that a user wrote, not the system: any
 * owner on FUSE mounted by a user (SB_I_UNTRUSTED_MOUNTER), whose server
 * reports what it likes, and, on a file system of a user namespace (a
 * rootless container's), an owner of that namespace, which its root gives
 * any file.  An owner from outside the namespace is the host's: /proc/self
 * in a container's procfs is the kernel's link.
 */
static bool has_forgeable_owner(const struct inode *const inode)
{
	const struct super_block *const sb = inode->i_sb;

	if (sb->s_iflags & SB_I_UNTRUSTED_MOUNTER)
		return true;
	return sb->s_user_ns != &init_user_ns &&
	       kuid_has_mapping(sb->s_user_ns, inode->i_uid);
}

/*
 * Such an owner grants nothing, be it root or the owner of the link's
 * target: a bound follower follows the link only if it owns it itself,
 * and is not root, whose uid a FUSE server may write.
 */
static int check_untrusted_link(const struct path *link,
				const struct inode *inode,
				const unsigned int flags)
{
	const struct cred *const cred = current_cred();
	vfsuid_t link_vfsuid;

	/* First what most links fail, before the level is even read. */
	if (likely(!has_forgeable_owner(inode)) ||
	    !is_bound_follower(cred, warden_level(WARDEN_RULE_SYMLINK_OWNER)))
		return 0;

	link_vfsuid = i_uid_into_vfsuid(mnt_idmap(link->mnt), inode);
	if (!uid_eq(cred->fsuid, GLOBAL_ROOT_UID) &&
	    vfsuid_eq_kuid(link_vfsuid, cred->fsuid))
		return 0;

	if (flags & LSM_FOLLOW_RCU)
		return -ECHILD;

	return refuse(WARDEN_RULE_SYMLINK_OWNER, target_allowed_at(cred),
		      &(const struct warden_fs_object){
			.path = link,
			.owner = vfsuid_into_kuid(link_vfsuid),
			.target_owner = INVALID_UID,
			.op = "follow_untrusted",
		      }, -EACCES);
}

/*
 * Capabilities are deliberately not consulted: CAP_DAC_OVERRIDE is what
 * makes root the target of this attack, not a reason to let it through.
 */
static int check_sticky_follow(const struct path *link,
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
 * hook_path_follow_link - Restrict following links by where they are
 * @link: The symlink about to be followed.
 * @inode: The symlink's inode.
 * @dir_mode: Mode of the directory holding @link, as the walk saw it.
 * @dir_vfsuid: Owner of that directory, mapped through its mount.
 * @flags: LSM_FOLLOW_RCU and LSM_FOLLOW_TRAILING.
 *
 * protected_sticky_symlinks judges a link in a shared sticky directory,
 * protected_symlink_owner one on a file system whose owners mean nothing.
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
	const int err = check_sticky_follow(link, inode, dir_mode, dir_vfsuid,
					    flags);

	if (err)
		return err;
	return check_untrusted_link(link, inode, flags);
}

/*
 * An O_CREAT open that finds a FIFO or a regular file already there.
 * Only those two are covered, each by its own rule, as the rules' names
 * say.  (Mainline's may_create_in_sticky() also refuses others' devices
 * and sockets, even with both of its knobs at 0; Warden leaves those to
 * mainline.)
 */
static int check_creat_reopen(const struct path *path,
			      const struct inode *inode,
			      const umode_t dir_mode,
			      const vfsuid_t dir_vfsuid)
{
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
	if (is_trusted_reopen(dir_vfsuid, file_vfsuid, inode))
		return 0;

	return refuse_sticky(rule, path, file_vfsuid, dir_mode, dir_vfsuid,
			     reopen_allowed_at(dir_mode, level));
}

/*
 * O_TRUNC empties the file even with O_RDONLY.  O_APPEND writes nothing
 * without write access, but it says what the open is for.
 */
static bool is_write_open(const int open_flag)
{
	return (open_flag & O_ACCMODE) != O_RDONLY ||
	       (open_flag & (O_TRUNC | O_APPEND));
}

/*
 * A write into a FIFO or regular file that someone else left in a shared
 * sticky directory, with or without O_CREAT: root's rsync --inplace, its
 * O_CREAT open refused, retries without O_CREAT and writes into the file
 * anyway.  A write the caller could not make anyway is left, unreported,
 * to the permission check that follows.
 */
static int check_sticky_write(const struct path *path, struct inode *inode,
			      const umode_t dir_mode,
			      const vfsuid_t dir_vfsuid)
{
	const int level = warden_level(WARDEN_RULE_STICKY_WRITES);
	struct mnt_idmap *const idmap = mnt_idmap(path->mnt);
	vfsuid_t file_vfsuid;

	if (!S_ISREG(inode->i_mode) && !S_ISFIFO(inode->i_mode))
		return 0;
	if (!is_shared_sticky_dir(dir_mode, level))
		return 0;

	file_vfsuid = i_uid_into_vfsuid(idmap, inode);
	if (is_trusted_reopen(dir_vfsuid, file_vfsuid, inode))
		return 0;
	if (inode_permission(idmap, inode, MAY_WRITE))
		return 0;

	return refuse_sticky(WARDEN_RULE_STICKY_WRITES, path, file_vfsuid,
			     dir_mode, dir_vfsuid,
			     reopen_allowed_at(dir_mode, level));
}

/**
 * hook_path_open_existing - Restrict reopening others' files in shared dirs
 * @path: The file that the open found, or says it created.
 * @dir_mode: Mode of the directory holding @path, as the walk saw it.
 * @dir_vfsuid: Owner of that directory, mapped through its mount.
 * @open_flag: The open's flags.
 *
 * O_CREAT opens are protected_fifos' and protected_regular's; writes,
 * with or without O_CREAT, protected_sticky_writes'.  A file the open
 * marked FMODE_CREATED is checked too, as mainline checks it: on NFSv2/v3
 * and FUSE it may be a file that was already there.
 *
 * Return: 0 if the open may go on, or -EACCES.
 */
static int hook_path_open_existing(const struct path *path,
				   const umode_t dir_mode,
				   const vfsuid_t dir_vfsuid,
				   const int open_flag)
{
	struct inode *const inode = d_backing_inode(path->dentry);
	int err;

	if (open_flag & O_CREAT) {
		err = check_creat_reopen(path, inode, dir_mode, dir_vfsuid);
		if (err)
			return err;
	}
	if (!is_write_open(open_flag))
		return 0;
	return check_sticky_write(path, inode, dir_mode, dir_vfsuid);
}

/**
 * hook_path_truncate - Restrict truncating others' files in shared dirs
 * @path: The file that truncate(2) names.
 *
 * truncate(2) has no walk's snapshot of the directory: the file's parent
 * is taken now.  ftruncate(2) needs a file opened for writing, which
 * hook_path_open_existing() already checked.
 *
 * Return: 0 if the file may be truncated, or -EACCES.
 */
static int hook_path_truncate(const struct path *path)
{
	struct inode *const inode = d_backing_inode(path->dentry);
	struct dentry *parent;
	vfsuid_t dir_vfsuid;
	umode_t dir_mode;

	if (!warden_level(WARDEN_RULE_STICKY_WRITES))
		return 0;

	parent = dget_parent(path->dentry);
	dir_mode = READ_ONCE(d_inode(parent)->i_mode);
	dir_vfsuid = i_uid_into_vfsuid(mnt_idmap(path->mnt), d_inode(parent));
	dput(parent);

	return check_sticky_write(path, inode, dir_mode, dir_vfsuid);
}

/**
 * hook_path_link_target - Restrict links to what their owner does not own
 * @link_vfsuid: Owner of the followed link, mapped through its mount.
 * @target: What the link led the walk to, or with LSM_FOLLOW_CREATE the
 *          directory in which an O_CREAT open would create the file that
 *          the dangling link names.
 * @inode: @target's inode, NULL if it does not exist.
 * @flags: LSM_FOLLOW_RCU and LSM_FOLLOW_CREATE.
 *
 * Every followed link is checked, wherever it is and whichever component
 * it is, and where the walk lands after it: where a magic link that it
 * names jumps, and where a ".." after it climbs.  A walk that starts at a
 * magic link, with no link before it, is not checked.  A link to nothing,
 * without O_CREAT, leads nowhere: the walk fails without Warden.
 *
 * Return: 0 if the link may lead the walk to @target, -ECHILD to redo an
 * RCU walk that would be refused in ref walk, or -EACCES.
 */
static int hook_path_link_target(const vfsuid_t link_vfsuid,
				 const struct path *target,
				 const struct inode *inode,
				 const unsigned int flags)
{
	const int level = warden_level(WARDEN_RULE_SYMLINK_OWNER);
	const struct cred *const cred = current_cred();
	vfsuid_t target_vfsuid;

	if (!is_bound_follower(cred, level) ||
	    is_trusted_link_owner(link_vfsuid, cred->fsuid) || !inode)
		return 0;

	target_vfsuid = i_uid_into_vfsuid(mnt_idmap(target->mnt), inode);
	if (is_owners_target(link_vfsuid, target_vfsuid))
		return 0;

	if (flags & LSM_FOLLOW_RCU)
		return -ECHILD;

	return refuse(WARDEN_RULE_SYMLINK_OWNER, target_allowed_at(cred),
		      &(const struct warden_fs_object){
			.path = target,
			.owner = vfsuid_into_kuid(link_vfsuid),
			.target_owner = vfsuid_into_kuid(target_vfsuid),
		      }, -EACCES);
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

	return refuse(WARDEN_RULE_NONACCESS_HARDLINKS, WARDEN_LEVEL_OFF,
		      &(const struct warden_fs_object){
			.path = &old_path,
			.owner = vfsuid_into_kuid(i_uid_into_vfsuid(idmap,
								    inode)),
		      }, -EPERM);
}

/*
 * Whether the exec gains what its caller did not have: another euid or
 * egid (a setuid or setgid file), or permitted capabilities (file
 * capabilities, which the capability module, always first, has set).
 */
static bool is_privilege_raise(const struct linux_binprm *bprm)
{
	const struct cred *const old = current_cred();
	const struct cred *const new = bprm->cred;

	return !uid_eq(new->euid, old->euid) || !gid_eq(new->egid, old->egid) ||
	       !cap_issubset(new->cap_permitted, old->cap_permitted);
}

/**
 * hook_bprm_creds_from_file - Refuse privileges from a file with no name
 * @bprm: The exec, its credentials computed from @file.
 * @file: The file whose owner and mode give them.
 *
 * protected_nonaccess_hardlinks keeps a user from pinning a setuid binary
 * under a name of their own, so that removing it (an upgrade, a fix) ends
 * it.  A descriptor opened before the removal, an O_PATH one included,
 * pins it just as well, and execveat(fd, "", AT_EMPTY_PATH) runs it:
 * once the file has no name left, its privileges are refused.  Running
 * it without a raise (as its owner, or a file without setuid bits) stays
 * allowed: a program upgraded under a running process may still re-exec
 * itself through /proc/self/exe.
 *
 * Return: 0 if the exec may go on, or -EPERM.
 */
static int hook_bprm_creds_from_file(struct linux_binprm *bprm,
				     const struct file *file)
{
	struct inode *const inode = file_inode(file);

	if (warden_level(WARDEN_RULE_NONACCESS_HARDLINKS) < WARDEN_HARDLINKS_ON)
		return 0;
	if (inode->i_nlink || !is_privilege_raise(bprm))
		return 0;

	return refuse(WARDEN_RULE_NONACCESS_HARDLINKS, WARDEN_LEVEL_OFF,
		      &(const struct warden_fs_object){
			.path = &file->f_path,
			.owner = vfsuid_into_kuid(i_uid_into_vfsuid(file_mnt_idmap(file),
								    inode)),
			.op = "exec",
		      }, -EPERM);
}

static struct security_hook_list warden_fs_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(path_follow_link, hook_path_follow_link),
	LSM_HOOK_INIT(path_link_target, hook_path_link_target),
	LSM_HOOK_INIT(path_open_existing, hook_path_open_existing),
	LSM_HOOK_INIT(path_truncate, hook_path_truncate),
	LSM_HOOK_INIT(path_link, hook_path_link),
	LSM_HOOK_INIT(bprm_creds_from_file, hook_bprm_creds_from_file),
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
