/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden LSM - Reports of denials
 */

#ifndef _SECURITY_WARDEN_REPORT_H
#define _SECURITY_WARDEN_REPORT_H

#include <linux/path.h>
#include <linux/types.h>
#include <linux/uidgid.h>

enum warden_rule {
	WARDEN_RULE_STICKY_SYMLINKS,
	WARDEN_RULE_NONACCESS_HARDLINKS,
	WARDEN_RULE_FIFOS,
	WARDEN_RULE_REGULAR,
};

/**
 * struct warden_denial - What a rule refused, for its report
 * @rule: The rule that refused.
 * @path: The object refused; only used while the report is written.
 * @owner: Owner of @path, mapped through its mount.
 * @dir_owner: Owner of the directory holding @path, as the walk saw it,
 *             for the rules about sticky directories.
 * @dir_mode: Mode of that directory, as the walk saw it, or 0.
 */
struct warden_denial {
	enum warden_rule rule;
	const struct path *path;
	kuid_t owner;
	kuid_t dir_owner;
	umode_t dir_mode;
};

void warden_report_denial(const struct warden_denial *denial);

#endif /* _SECURITY_WARDEN_REPORT_H */
