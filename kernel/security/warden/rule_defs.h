/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - The rules, one line each
 *
 * Everything Warden says of a rule is generated from this list, as
 * include/linux/lsm_hook_defs.h is for the LSM hooks: the includer defines
 * WARDEN_RULE(), includes this file, then undefines it.  The order is that
 * of the rules' ids, counters and reports.
 *
 * WARDEN_RULE(ID, ident, max, cap)
 *
 * @ID: WARDEN_RULE_ID in enum warden_rule; its level at boot is
 *      CONFIG_SECURITY_WARDEN_<ID>, named in a comment above its line:
 *      the name is pasted, which fixdep cannot see, and a file that
 *      pastes it must be rebuilt when the option changes.
 * @ident: The rule's name in reports, counters and policies, and of its
 *         sysctl and boot parameter; @ident_complain is its complain mode's.
 * @max: Its highest level; the lowest is 0.
 * @cap: The capability that changes its settings, in the initial user
 *       namespace: CAP_SYS_PTRACE for the ptrace scope, as Yama's.
 *
 * How each rule reports is report.c's business, not this list's.
 *
 * No include guard: this file is meant to be included several times.
 */

/* CONFIG_SECURITY_WARDEN_STICKY_SYMLINKS */
WARDEN_RULE(STICKY_SYMLINKS, protected_sticky_symlinks, WARDEN_STICKY_GROUP,
	    CAP_SYS_ADMIN)
/* CONFIG_SECURITY_WARDEN_NONACCESS_HARDLINKS */
WARDEN_RULE(NONACCESS_HARDLINKS, protected_nonaccess_hardlinks,
	    WARDEN_HARDLINKS_ON, CAP_SYS_ADMIN)
/* CONFIG_SECURITY_WARDEN_FIFOS */
WARDEN_RULE(FIFOS, protected_fifos, WARDEN_STICKY_GROUP, CAP_SYS_ADMIN)
/* CONFIG_SECURITY_WARDEN_REGULAR */
WARDEN_RULE(REGULAR, protected_regular, WARDEN_STICKY_GROUP, CAP_SYS_ADMIN)
/* CONFIG_SECURITY_WARDEN_PTRACE_SCOPE */
WARDEN_RULE(PTRACE_SCOPE, ptrace_scope, WARDEN_PTRACE_NO_ATTACH,
	    CAP_SYS_PTRACE)
/* CONFIG_SECURITY_WARDEN_SYMLINK_OWNER */
WARDEN_RULE(SYMLINK_OWNER, protected_symlink_owner, WARDEN_SYMLINK_OWNER_ALL,
	    CAP_SYS_ADMIN)
/* CONFIG_SECURITY_WARDEN_STICKY_WRITES */
WARDEN_RULE(STICKY_WRITES, protected_sticky_writes, WARDEN_STICKY_GROUP,
	    CAP_SYS_ADMIN)
