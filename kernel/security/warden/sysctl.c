// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Settings under /proc/sys/kernel/warden
 */

#include <linux/capability.h>
#include <linux/init.h>
#include <linux/panic.h>
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

	if (!capable(warden_knob_cap(knob)))
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

#define WARDEN_RULE(ID, ident, ...)					\
	[WARDEN_LEVEL_KNOB(WARDEN_RULE_##ID)] = {			\
		.procname = #ident,					\
		.data = &warden_levels[WARDEN_RULE_##ID],		\
		.maxlen = sizeof(int),					\
		.mode = 0644,						\
		.proc_handler = warden_dointvec_knob,			\
		.extra1 = (void *)&warden_knobs[WARDEN_LEVEL_KNOB(WARDEN_RULE_##ID)], \
	},								\
	[WARDEN_COMPLAIN_KNOB(WARDEN_RULE_##ID)] = {			\
		.procname = #ident "_complain",				\
		.data = &warden_complain_modes[WARDEN_RULE_##ID],	\
		.maxlen = sizeof(int),					\
		.mode = 0644,						\
		.proc_handler = warden_dointvec_knob,			\
		.extra1 = (void *)&warden_knobs[WARDEN_COMPLAIN_KNOB(WARDEN_RULE_##ID)], \
	},

/* An entry per setting, at its index in warden_knobs[]. */
static const struct ctl_table warden_sysctl_table[WARDEN_KNOB_COUNT] = {
#include "rule_defs.h"
	[WARDEN_LOCK_KNOB] = {
		.procname = "lock",
		.data = &warden_locked,
		.maxlen = sizeof(int),
		.mode = 0644,
		.proc_handler = warden_dointvec_knob,
		.extra1 = (void *)&warden_knobs[WARDEN_LOCK_KNOB],
	},
};

#undef WARDEN_RULE

/**
 * warden_init_sysctl - Register /proc/sys/kernel/warden
 *
 * As Yama's: a Warden whose settings cannot be changed is not what the
 * administrator asked for.
 */
void __init warden_init_sysctl(void)
{
	if (!register_sysctl("kernel/" WARDEN_NAME, warden_sysctl_table))
		panic("Warden: sysctl registration failed.\n");
}
