/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - The rules, one line each
 *
 * Everything Warden says of a rule is generated from this list, as
 * include/linux/lsm_hook_defs.h is for the LSM hooks: the includer defines
 * WARDEN_RULE(), includes this file, then undefines it.  The order is that
 * of the rules' ids, counters and reports.
 *
 * WARDEN_RULE(ID, ident, max, cap, op, audit_op, owner_key, avc_class,
 *	       has_dir, has_target)
 *
 * @ID: WARDEN_RULE_ID in enum warden_rule; its level at boot is
 *      CONFIG_SECURITY_WARDEN_ID.
 * @ident: The rule's name in reports, counters and policies, and of its
 *         sysctl and boot parameter; @ident_complain is its complain mode's.
 * @max: Its highest level; the lowest is 0.
 * @cap: The capability that changes its settings, in the initial user
 *       namespace: CAP_SYS_PTRACE for the ptrace scope, as Yama's.
 * @op, @audit_op, @owner_key, @avc_class, @has_dir, @has_target: How a
 *       filesystem rule reports (see struct warden_rule_report); nothing
 *       for ptrace_scope, which reports its own way.
 *
 * No include guard: this file is meant to be included several times.
 */

WARDEN_RULE(STICKY_SYMLINKS, protected_sticky_symlinks, WARDEN_STICKY_GROUP,
	    CAP_SYS_ADMIN, "follow", "follow_link", "link_uid", NULL, true,
	    false)
WARDEN_RULE(NONACCESS_HARDLINKS, protected_nonaccess_hardlinks,
	    WARDEN_HARDLINKS_ON, CAP_SYS_ADMIN, "link", "linkat", "file_uid",
	    NULL, false, false)
WARDEN_RULE(FIFOS, protected_fifos, WARDEN_STICKY_GROUP, CAP_SYS_ADMIN,
	    "open_creat", "sticky_create_fifo", "file_uid", "fifo_file", true,
	    false)
WARDEN_RULE(REGULAR, protected_regular, WARDEN_STICKY_GROUP, CAP_SYS_ADMIN,
	    "open_creat", "sticky_create_regular", "file_uid", "file", true,
	    false)
WARDEN_RULE(PTRACE_SCOPE, ptrace_scope, WARDEN_PTRACE_NO_ATTACH,
	    CAP_SYS_PTRACE, NULL, NULL, NULL, NULL, false, false)
WARDEN_RULE(SYMLINK_OWNER, protected_symlink_owner, WARDEN_SYMLINK_OWNER_ALL,
	    CAP_SYS_ADMIN, "follow", "follow_link", "link_uid", NULL, false,
	    true)
WARDEN_RULE(STICKY_WRITES, protected_sticky_writes, WARDEN_STICKY_GROUP,
	    CAP_SYS_ADMIN, "write", "sticky_write", "file_uid", "file", true,
	    false)
