// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Settings under /proc/sys/kernel/warden
 *
 * proc_dointvec_minmax() accepts "1 2", partial writes and values it
 * silently truncates.  A security setting must be exactly what the
 * administrator wrote or unchanged, so writes are parsed whole here.
 */

#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sysctl.h>

#include "common.h"
#include "fs.h"
#include "limits.h"
#include "sysctl.h"

static int warden_level_min = WARDEN_LEVEL_OFF;
static int warden_sticky_max = WARDEN_STICKY_GROUP;
static int warden_hardlinks_max = WARDEN_HARDLINKS_ON;

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

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (*ppos)
		return -EINVAL;

	err = parse_level(table, buffer, *lenp, &level);
	if (err)
		return err;

	WRITE_ONCE(*(int *)table->data, level);
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
