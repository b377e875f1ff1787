// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - status, status --pid, set and lock
 */

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_writer.h"
#include "wardenctl.h"

/* status */

#define UNKNOWN (-1LL)

struct rule_state {
	long long level;
	long long complain;
	long long denied;
	long long would_deny;
};

/* Reads one integer knob into @out, or UNKNOWN with a warning. */
static bool read_state(const char *const name, long long *const out)
{
	int value, err;

	err = read_knob(name, &value);
	if (err) {
		warn("cannot read %s%s: %s", KNOB_PREFIX, name, strerror(err));
		*out = UNKNOWN;
		return false;
	}
	*out = value;
	return true;
}

static long long parse_counter(const char *const s)
{
	unsigned long long v;

	return s && parse_ull(s, &v) && v <= LLONG_MAX ? (long long)v : UNKNOWN;
}

/*
 * Reads a file of lines "rule=NAME KEY=N ...": the value of @keys[k] for
 * rules[i] goes to @values[i * @nkeys + k], UNKNOWN where it is missing.
 * Lines are matched by rule name, not by position, so that a kernel with
 * more rules still reads right.  Returns 0 or the errno of the read.
 */
static int read_rule_table(const char *const path, const char *const keys[],
			   const size_t nkeys, long long *const values)
{
	char buf[8192], *line, *save;
	size_t i, k;
	int err;

	for (i = 0; i < RULE_COUNT * nkeys; i++)
		values[i] = UNKNOWN;
	err = read_text(path, buf, sizeof(buf));
	if (err)
		return err;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const struct rule *r;
		struct fields f;

		parse_fields(line, &f);
		/* Which of two values is right cannot be told: neither. */
		r = f.malformed ? NULL : rule_by_name(field(&f, "rule"));
		for (k = 0; r && k < nkeys; k++)
			values[(size_t)(r - rules) * nkeys + k] =
				parse_counter(field(&f, keys[k]));
	}
	return 0;
}

/* Whether read_rule_table() found every key of every rule, with a warning. */
static bool is_rule_table_full(const char *const path, const size_t nkeys,
			       const long long *const values,
			       const char *const what)
{
	bool full = true;
	size_t i, k;

	for (i = 0; i < RULE_COUNT; i++) {
		for (k = 0; k < nkeys; k++) {
			if (values[i * nkeys + k] != UNKNOWN)
				continue;
			warn("no %s for %s in %s", what, rules[i].name, path);
			full = false;
			break;
		}
	}
	return full;
}

/* Fills in the counters from the securityfs file. */
static bool read_counters(struct rule_state *const st)
{
	static const char *const keys[] = { "denied", "would_deny" };
	long long v[RULE_COUNT][ARRAY_SIZE(keys)];
	char path[PATH_MAX];
	size_t i;
	int err;

	if (!root_path(path, sizeof(path), "%s/counters", SECURITYFS_DIR))
		return false;
	err = read_rule_table(path, keys, ARRAY_SIZE(keys), &v[0][0]);
	for (i = 0; i < RULE_COUNT; i++) {
		st[i].denied = v[i][0];
		st[i].would_deny = v[i][1];
	}
	if (err) {
		warn("cannot read the counters in %s: %s", path,
		     strerror(err));
		return false;
	}
	return is_rule_table_full(path, ARRAY_SIZE(keys), &v[0][0],
				  "counters");
}

static const char *mode_name(const long long complain)
{
	if (complain == UNKNOWN)
		return NULL;
	return complain ? "complain" : "enforce";
}

/* A number read from the kernel, or null where it could not be. */
static void json_number(json_writer_t *const w, const char *const key,
			const long long v)
{
	if (v == UNKNOWN)
		jsonw_null_field(w, key);
	else
		jsonw_int_field(w, key, v);
}

/* The document's "rules": [ ... ]: opens it, after the fields before it. */
static void json_start_rules(json_writer_t *const w)
{
	jsonw_name(w, "rules");
	jsonw_start_array(w);
}

/* Closes "rules", the document's object, and the document. */
static void json_end_rules(json_writer_t *const w)
{
	jsonw_end_array(w);
	jsonw_end_object(w);
	jsonw_end(w);
}

/* Opens the object of rules[@i], with its name and alias. */
static void json_start_rule(json_writer_t *const w, const size_t i)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "name", rules[i].name);
	jsonw_string_field(w, "alias", rules[i].alias);
}

static void print_json(const struct rule_state *const st,
		       const long long locked)
{
	json_writer_t w;
	const char *mode;
	size_t i;

	jsonw_init(&w, stdout);
	jsonw_start_object(&w);
	if (locked == UNKNOWN)
		jsonw_null_field(&w, "locked");
	else
		jsonw_bool_field(&w, "locked", locked);
	json_start_rules(&w);
	for (i = 0; i < RULE_COUNT; i++) {
		json_start_rule(&w, i);
		json_number(&w, "level", st[i].level);
		jsonw_int_field(&w, "max", rules[i].max);
		mode = mode_name(st[i].complain);
		if (mode)
			jsonw_string_field(&w, "mode", mode);
		else
			jsonw_null_field(&w, "mode");
		json_number(&w, "denied", st[i].denied);
		json_number(&w, "would_deny", st[i].would_deny);
		jsonw_end_object(&w);
	}
	json_end_rules(&w);
}

#define COLUMNS 7

static void cell_number(char *const buf, const size_t size, const long long v)
{
	if (v == UNKNOWN)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%lld", v);
}

/* One table, columns as wide as their widest cell; numbers to the right. */
static void print_table(const struct rule_state *const st,
			const long long locked)
{
	static const char *const header[COLUMNS] = {
		"RULE", "ALIAS", "LEVEL", "RANGE", "MODE", "DENIED", "WOULD_DENY",
	};
	static const bool right[COLUMNS] = { false, false, true, false,
					     false, true,  true };
	char cells[RULE_COUNT][COLUMNS][32];
	int width[COLUMNS];
	size_t i, c;

	for (i = 0; i < RULE_COUNT; i++) {
		const char *const mode = mode_name(st[i].complain);

		snprintf(cells[i][0], 32, "%s", rules[i].name);
		snprintf(cells[i][1], 32, "%s", rules[i].alias);
		cell_number(cells[i][2], 32, st[i].level);
		snprintf(cells[i][3], 32, "0..%d", rules[i].max);
		snprintf(cells[i][4], 32, "%s", mode ? mode : "?");
		cell_number(cells[i][5], 32, st[i].denied);
		cell_number(cells[i][6], 32, st[i].would_deny);
	}
	for (c = 0; c < COLUMNS; c++) {
		width[c] = (int)strlen(header[c]);
		for (i = 0; i < RULE_COUNT; i++) {
			const int w = (int)strlen(cells[i][c]);

			if (w > width[c])
				width[c] = w;
		}
	}
	for (i = 0; i <= RULE_COUNT; i++) {
		for (c = 0; c < COLUMNS; c++) {
			const char *const s = i ? cells[i - 1][c] : header[c];
			const char *const sep = c + 1 < COLUMNS ? "  " : "\n";

			if (c + 1 == COLUMNS && !right[c])
				printf("%s%s", s, sep);
			else
				printf(right[c] ? "%*s%s" : "%-*s%s", width[c],
				       s, sep);
		}
	}
	printf("\nsettings: %s\n",
	       locked == UNKNOWN ? "? (cannot read kernel.warden.lock)" :
	       locked		 ? "locked until reboot" :
				   "not locked");
}

/* status --pid */

struct process_level {
	long long global;
	long long process;
	long long effective;
};

/*
 * Reads /proc/@pid/attr/warden/effective: one line per rule, matched by
 * name, "rule=NAME global=G process=P effective=E": returns 1, 0 if some
 * value is missing (with a warning), -1 if the file cannot be read.
 */
static int read_process_levels(const char *const pid,
			       struct process_level *const pl)
{
	static const char *const keys[] = { "global", "process", "effective" };
	long long v[RULE_COUNT][ARRAY_SIZE(keys)];
	char path[PATH_MAX];
	size_t i;
	int err;

	for (i = 0; i < RULE_COUNT; i++)
		pl[i] = (struct process_level){ UNKNOWN, UNKNOWN, UNKNOWN };
	if (!root_path(path, sizeof(path), ATTR_DIR "/effective", pid)) {
		p_err("cannot read the policy of %s: %s", pid,
		      strerror(ENAMETOOLONG));
		return -1;
	}
	err = read_rule_table(path, keys, ARRAY_SIZE(keys), &v[0][0]);
	if (err == ENOENT) {
		char dir[PATH_MAX];
		struct stat st;

		/* No process, or a kernel without per-process policies. */
		if (root_path(dir, sizeof(dir), "/proc/%s", pid) &&
		    stat(dir, &st))
			err = ESRCH;
	}
	if (err) {
		p_err("cannot read the policy of process %s in %s: %s", pid,
		      path, strerror(err));
		return -1;
	}
	for (i = 0; i < RULE_COUNT; i++)
		pl[i] = (struct process_level){ v[i][0], v[i][1], v[i][2] };
	return is_rule_table_full(path, ARRAY_SIZE(keys), &v[0][0], "levels");
}

static void print_process_json(const char *const pid,
			       const struct process_level *const pl)
{
	json_writer_t w;
	size_t i;

	jsonw_init(&w, stdout);
	jsonw_start_object(&w);
	/* cmd_status() took digits only. */
	jsonw_uint_field(&w, "pid", strtoull(pid, NULL, 10));
	json_start_rules(&w);
	for (i = 0; i < RULE_COUNT; i++) {
		json_start_rule(&w, i);
		json_number(&w, "global", pl[i].global);
		json_number(&w, "process", pl[i].process);
		json_number(&w, "effective", pl[i].effective);
		jsonw_end_object(&w);
	}
	json_end_rules(&w);
}

static void print_process_table(const char *const pid,
				const struct process_level *const pl)
{
	char global[32], process[32], effective[32];
	size_t i;

	printf("%-30s %-10s %6s %7s %9s\n", "RULE", "ALIAS", "GLOBAL",
	       "PROCESS", "EFFECTIVE");
	for (i = 0; i < RULE_COUNT; i++) {
		cell_number(global, sizeof(global), pl[i].global);
		cell_number(process, sizeof(process), pl[i].process);
		cell_number(effective, sizeof(effective), pl[i].effective);
		printf("%-30s %-10s %6s %7s %9s\n", rules[i].name,
		       rules[i].alias, global, process, effective);
	}
	printf("\nprocess %s: the effective level is the stricter of the global and the\n"
	       "process level; a process level never goes down, and always enforces.\n",
	       pid);
}

static int status_of_process(const char *const pid, const bool json)
{
	struct process_level pl[RULE_COUNT];
	int ok;

	need_warden();
	ok = read_process_levels(pid, pl);
	/* Nothing read: the error said why, a table of "?" would not. */
	if (ok < 0)
		return EXIT_FAIL;
	if (json)
		print_process_json(pid, pl);
	else
		print_process_table(pid, pl);
	return ok > 0 ? EXIT_SUCCESS : EXIT_FAIL;
}

int cmd_status(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct rule_state st[RULE_COUNT];
	const char *pid = NULL;
	bool json = false, ok = true;
	long long locked;
	size_t i;
	int c, n;

	json_output = wants_json(argc, argv, ":hp:", longopts);
	while ((c = next_option(argc, argv, ":hp:", longopts)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'p')
			pid = optarg;
	}
	no_more_args(argc, argv);
	if (pid) {
		if (!parse_int(pid, &n) || n < 1 || strchr(pid, ' ') ||
		    strchr(pid, '\n'))
			usage_error("status: --pid needs a process id, not '%s'",
				    pid);
		return status_of_process(pid, json);
	}
	need_warden();

	for (i = 0; i < RULE_COUNT; i++) {
		ok &= read_state(rules[i].name, &st[i].level);
		ok &= read_state(rules[i].complain, &st[i].complain);
	}
	ok &= read_counters(st);
	ok &= read_state("lock", &locked);
	if (json)
		print_json(st, locked);
	else
		print_table(st, locked);
	return ok ? EXIT_SUCCESS : EXIT_FAIL;
}

/* set */

int cmd_set(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const struct rule *rule;
	const char *value;
	int level;

	reset_options();
	while (next_option(argc, argv, ":h", longopts) != -1)
		;
	if (argc - optind < 2)
		usage_error("set: needs a RULE and a LEVEL, complain or enforce");
	rule = find_rule(argv[optind]);
	if (!rule)
		usage_error("set: unknown rule '%s'", argv[optind]);
	value = argv[optind + 1];
	optind += 2;
	no_more_args(argc, argv);

	if (!strcmp(value, "complain") || !strcmp(value, "enforce")) {
		const int complain = value[0] == 'c';

		need_warden();
		set_knob(rule->complain, complain);
		printf("%s%s = %d (%s)\n", KNOB_PREFIX, rule->complain, complain,
		       complain ? "complain: log and count, but allow" :
				  "enforce: deny");
		return EXIT_SUCCESS;
	}
	/* The kernel would refuse it too, but a typo should not reach it. */
	if (!parse_int(value, &level) || level > rule->max)
		usage_error("set: the level of %s is 0 to %d, or complain or enforce, not '%s'",
			    rule->name, rule->max, value);
	need_warden();
	set_knob(rule->name, level);
	printf("%s%s = %d\n", KNOB_PREFIX, rule->name, level);
	return EXIT_SUCCESS;
}

/* lock */

int cmd_lock(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int locked;

	reset_options();
	while (next_option(argc, argv, ":h", longopts) != -1)
		;
	no_more_args(argc, argv);
	need_warden();

	/* The kernel refuses any write once locked, the lock's own too. */
	if (!read_knob("lock", &locked) && locked) {
		printf("Warden's settings are already locked until reboot.\n");
		return EXIT_SUCCESS;
	}
	set_knob("lock", 1);
	printf("Warden's settings are now locked: no level, mode or the lock itself\n"
	       "can be changed until reboot (%slock = 1).\n",
	       KNOB_PREFIX);
	return EXIT_SUCCESS;
}
