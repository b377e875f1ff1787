// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Settings under /proc/sys/kernel/warden
 */

#include <linux/capability.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/sysctl.h>

#include "common.h"
#include "settings.h"

/*
 * The mode bits already keep non-root users out; a task that gets past
 * them still needs the knob's capability in the initial user namespace,
 * so that root in a container cannot weaken the host.  A write is one
 * whole value, at offset 0.
 */
static int warden_dointvec_knob(const struct ctl_table *table, int write,
				void *buffer, size_t *lenp, loff_t *ppos)
{
	const struct warden_knob *const knob = table->extra1;
	int value, err;

	if (!write)
		return proc_dointvec(table, write, buffer, lenp, ppos);

	if (!capable(knob->cap))
		return -EPERM;
	if (*ppos)
		return -EINVAL;
	err = warden_parse_knob(knob, buffer, *lenp, &value);
	if (!err)
		err = warden_set_knob(knob, value);
	if (err)
		return err;
	*ppos += *lenp;
	return 0;
}

/**
 * warden_init_sysctl - Register /proc/sys/kernel/warden
 *
 * Return: 0, or -ENOMEM if the table could not be registered.
 */
int __init warden_init_sysctl(void)
{
	struct ctl_table *table;
	size_t i;

	table = kcalloc(warden_knob_count, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < warden_knob_count; i++) {
		const struct warden_knob *const knob = warden_knobs[i];

		table[i] = (struct ctl_table){
			.procname = knob->name,
			.data = warden_knob_value(knob),
			.maxlen = sizeof(int),
			.mode = 0644,
			.proc_handler = warden_dointvec_knob,
			.extra1 = (void *)knob,
		};
	}
	if (!register_sysctl_sz("kernel/" WARDEN_NAME, table, warden_knob_count))
		return -ENOMEM;
	return 0;
}
