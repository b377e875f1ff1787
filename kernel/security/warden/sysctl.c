// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Settings under /proc/sys/kernel/warden
 *
 * proc_dointvec_minmax() accepts "1 2", partial writes and values it
 * silently truncates.  A security setting must be exactly what the
 * administrator wrote or unchanged, so writes are parsed whole here.
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "common.h"
#include "fs.h"
#include "limits.h"
#include "ptrace.h"
#include "sysctl.h"

static int warden_level_min = WARDEN_LEVEL_OFF;
static int warden_sticky_max = WARDEN_STICKY_GROUP;
static int warden_hardlinks_max = WARDEN_HARDLINKS_ON;
static int warden_ptrace_scope_max = WARDEN_PTRACE_NO_ATTACH;

static int parse_level(const struct ctl_table *table, const char *buffer,
		       const size_t len, int *level)
{
	/* An embedded NUL would hide the rest of the write from kstrtoint(). */
	if (strnlen(buffer, len) != len)
		return -EINVAL;
	if (kstrtoint(buffer, 10, level))
		return -EINVAL;
	if (*level < *(int *)table->extra1 || *level > *(int *)table->extra2)
		return -EINVAL;
	return 0;
}

/*
 * A write is one whole level, at offset 0, by a task with @cap in the
 * initial user namespace.
 */
static int parse_write(const struct ctl_table *table, const int cap,
		       const char *buffer, const size_t *lenp,
		       const loff_t *ppos, int *level)
{
	if (!capable(cap))
		return -EPERM;
	if (*ppos)
		return -EINVAL;
	return parse_level(table, buffer, *lenp, level);
}

/*
 * The mode bits already keep non-root users out; a task that gets past
 * them still needs CAP_SYS_ADMIN in the initial user namespace, so that
 * root in a container cannot weaken the host.
 */
static int warden_dointvec_level(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int level, err;

	if (!write)
		return proc_dointvec(table, write, buffer, lenp, ppos);

	err = parse_write(table, CAP_SYS_ADMIN, buffer, lenp, ppos, &level);
	if (err)
		return err;

	WRITE_ONCE(*(int *)table->data, level);
	*ppos += *lenp;
	return 0;
}

/*
 * As Yama's: CAP_SYS_PTRACE in the initial user namespace may change the
 * scope.  Scope 3 is for systems that must never be traced: once set, it
 * stays until reboot, so that whoever gets that capability later cannot
 * reopen the door.  The compare-and-exchange keeps a concurrent write from
 * lowering it between the test and the store.
 */
static int warden_dointvec_ptrace_scope(const struct ctl_table *table,
					int write, void *buffer, size_t *lenp,
					loff_t *ppos)
{
	int *const scope = table->data;
	int level, old, err;

	if (!write)
		return proc_dointvec(table, write, buffer, lenp, ppos);

	err = parse_write(table, CAP_SYS_PTRACE, buffer, lenp, ppos, &level);
	if (err)
		return err;

	old = READ_ONCE(*scope);
	do {
		if (old == WARDEN_PTRACE_NO_ATTACH && level != old)
			return -EPERM;
	} while (!try_cmpxchg(scope, &old, level));
	*ppos += *lenp;
	return 0;
}

#define WARDEN_LEVEL_SYSCTL(name, var, max)		\
	{						\
		.procname = name,			\
		.data = &(var),				\
		.maxlen = sizeof(int),			\
		.mode = 0644,				\
		.proc_handler = warden_dointvec_level,	\
		.extra1 = &warden_level_min,		\
		.extra2 = &(max),			\
	}

static struct ctl_table warden_sysctl_table[] = {
	WARDEN_LEVEL_SYSCTL("protected_sticky_symlinks", warden_sticky_symlinks,
			    warden_sticky_max),
	WARDEN_LEVEL_SYSCTL("protected_nonaccess_hardlinks",
			    warden_nonaccess_hardlinks, warden_hardlinks_max),
	WARDEN_LEVEL_SYSCTL("protected_fifos", warden_fifos, warden_sticky_max),
	WARDEN_LEVEL_SYSCTL("protected_regular", warden_regular,
			    warden_sticky_max),
	{
		.procname = "ptrace_scope",
		.data = &warden_ptrace_scope,
		.maxlen = sizeof(int),
		.mode = 0644,
		.proc_handler = warden_dointvec_ptrace_scope,
		.extra1 = &warden_level_min,
		.extra2 = &warden_ptrace_scope_max,
	},
};

/**
 * warden_init_sysctl - Register /proc/sys/kernel/warden
 *
 * Return: 0, or -ENOMEM if the table could not be registered.
 */
int __init warden_init_sysctl(void)
{
	if (!register_sysctl("kernel/" WARDEN_NAME, warden_sysctl_table))
		return -ENOMEM;
	return 0;
}
