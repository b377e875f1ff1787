// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden LSM - Counters of denials, in /sys/kernel/security/warden
 *
 * The log is ratelimited and audit may be off: the counters are what a
 * monitoring agent can trust.  Each CPU counts on its own, so that a
 * denial costs one increment of a local cache line; a read sums them.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/security.h>
#include <linux/seq_file.h>

#include "common.h"
#include "counters.h"

struct warden_counts {
	u64 n[WARDEN_RULE_COUNT][WARDEN_VERDICT_COUNT];
};

static DEFINE_PER_CPU(struct warden_counts, warden_counts);

/**
 * warden_count - Count a denial, or what complain mode let through
 * @rule: The rule that refused.
 * @verdict: Whether the access was refused or only would have been.
 *
 * Context: Any context.
 */
void warden_count(const enum warden_rule rule,
		  const enum warden_verdict verdict)
{
	this_cpu_inc(warden_counts.n[rule][verdict]);
}

static u64 sum_counts(const enum warden_rule rule,
		      const enum warden_verdict verdict)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&warden_counts, cpu)->n[rule][verdict]);
	return sum;
}

/* One logfmt line per rule: "rule=NAME denied=N would_deny=N". */
static int counters_show(struct seq_file *const m, void *const v)
{
	enum warden_rule rule;

	for (rule = 0; rule < WARDEN_RULE_COUNT; rule++)
		seq_printf(m, "rule=%s denied=%llu would_deny=%llu\n",
			   warden_rule_name(rule),
			   sum_counts(rule, WARDEN_DENIED),
			   sum_counts(rule, WARDEN_WOULD_DENY));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counters);

/**
 * warden_init_securityfs - Create /sys/kernel/security/warden/counters
 *
 * Return: 0, or the error securityfs gave.
 */
int __init warden_init_securityfs(void)
{
	struct dentry *dir, *file;

	dir = securityfs_create_dir(WARDEN_NAME, NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	file = securityfs_create_file("counters", 0444, dir, NULL,
				      &counters_fops);
	if (IS_ERR(file)) {
		securityfs_remove(dir);
		return PTR_ERR(file);
	}
	return 0;
}
