// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - Show and change Warden's settings, follow and explain its
 * reports
 *
 * Everything goes through the files the kernel offers: the sysctls in
 * /proc/sys/kernel/warden, the counters in /sys/kernel/security/warden,
 * the per-process policies in /proc/PID/attr/warden and the kernel log in
 * /dev/kmsg.  WARDENCTL_ROOT, if set, is put in front of all of them, so
 * that the tests can run on a fake tree.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define WARDENCTL_VERSION "0.1"

#define SYSCTL_DIR "/proc/sys/kernel/warden"
#define SECURITYFS_DIR "/sys/kernel/security/warden"
#define KMSG_PATH "/dev/kmsg"
#define ATTR_DIR "/proc/%s/attr/warden"
#define KNOB_PREFIX "kernel.warden."

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Exit statuses: a refusal or a missing file, a bad command line, and a
 * command that exec could not run (as env(1) says it).
 */
#define EXIT_FAIL 1
#define EXIT_USAGE 2
#define EXIT_NOT_RUN 127

struct rule {
	const char *name;
	const char *alias;
	int max;
};

/* In the kernel's order: the rule ids, and the order of the counters. */
static const struct rule rules[] = {
	{ "protected_sticky_symlinks", "symlinks", 2 },
	{ "protected_nonaccess_hardlinks", "hardlinks", 1 },
	{ "protected_fifos", "fifos", 2 },
	{ "protected_regular", "regular", 2 },
	{ "ptrace_scope", "ptrace", 3 },
};

#define RULE_COUNT ARRAY_SIZE(rules)

/* The scope that no write can leave, and that never complains. */
#define PTRACE_SCOPE_FINAL 3

static const char *progname = "wardenctl";

static void usage(FILE *const out)
{
	size_t i;

	fprintf(out,
		"usage: %s [-h] [-V] COMMAND [ARGS]\n"
		"\n"
		"Show and change the settings of the Warden LSM, and read its reports.\n"
		"\n"
		"commands:\n"
		"  status [--json]         each rule's level, mode and counters, and the lock\n"
		"  status --pid PID [--json]\n"
		"                          a process's policy: each rule's global, process and\n"
		"                          effective level\n"
		"  set RULE LEVEL          set a rule's level (RULE: a name or an alias)\n"
		"  set RULE complain       log and count what the rule would deny, but allow it\n"
		"  set RULE enforce        deny what the rule denies\n"
		"  lock                    freeze every Warden setting until reboot\n"
		"  watch [--all] [--audit] [--count N]\n"
		"                          print Warden's reports as the kernel logs them\n"
		"  explain [-n N]          explain the last N denials in the kernel log (10)\n"
		"  exec [--RULE=LEVEL]... -- CMD [ARGS]\n"
		"                          set no_new_privs, raise the rules for CMD and all\n"
		"                          its descendants, and run it (--symlinks=2 --ptrace=3)\n"
		"\n"
		"rules:\n",
		progname);
	for (i = 0; i < RULE_COUNT; i++)
		fprintf(out, "  %-30s %-10s levels 0..%d\n", rules[i].name,
			rules[i].alias, rules[i].max);
	fprintf(out,
		"\n"
		"options:\n"
		"  -h, --help              this help (also after a command)\n"
		"  -V, --version           the version\n"
		"\n"
		"Exit status: 0 done, 1 the kernel refused or Warden is absent, 2 bad usage;\n"
		"exec: 127 if CMD cannot be run, else CMD's own.\n");
}

/* A bad command line: what is wrong, then the usage, on stderr. */
static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *const fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\n", stderr);
	usage(stderr);
	exit(EXIT_USAGE);
}

static void __attribute__((format(printf, 1, 2))) warn(const char *const fmt,
						       ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Paths */

/* Puts WARDENCTL_ROOT, if set, in front of @path: fails on overflow. */
static bool root_path(char *const buf, const size_t size,
		      const char *const fmt, ...)
{
	const char *const root = getenv("WARDENCTL_ROOT");
	char rest[PATH_MAX];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(rest, sizeof(rest), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(rest))
		return false;
	len = snprintf(buf, size, "%s%s", root ? root : "", rest);
	return len >= 0 && (size_t)len < size;
}

static bool is_warden_present(void)
{
	char path[PATH_MAX];
	struct stat st;

	return root_path(path, sizeof(path), "%s", SYSCTL_DIR) &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Every command that needs the sysctls checks first. */
static void need_warden(void)
{
	if (is_warden_present())
		return;
	warn("Warden is not active: there is no %s "
	     "(not built in, or left out of lsm=)",
	     SYSCTL_DIR);
	exit(EXIT_FAIL);
}

/* Numbers */

/*
 * Parses a decimal number, with nothing else but a trailing newline or
 * spaces.  Signs, blanks in front and empty strings are refused: a level
 * on the command line is what the user typed, digit by digit.
 */
static bool parse_ull(const char *const s, unsigned long long *const value)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*value = strtoull(s, &end, 10);
	if (errno)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0';
}

static bool parse_int(const char *const s, int *const value)
{
	unsigned long long v;

	if (!parse_ull(s, &v) || v > INT_MAX)
		return false;
	*value = (int)v;
	return true;
}

/* Files */

/* Reads the file @path as a string: returns 0 or an errno. */
static int read_text(const char *const path, char *const buf,
		     const size_t size)
{
	size_t len = 0;
	int fd, err = 0;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while (len < size - 1) {
		const ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	close(fd);
	return err;
}

/* Reads the integer sysctl kernel.warden.@name: returns 0 or an errno. */
static int read_knob(const char *const name, int *const value)
{
	char path[PATH_MAX], buf[64];
	int err;

	if (!root_path(path, sizeof(path), "%s/%s", SYSCTL_DIR, name))
		return ENAMETOOLONG;
	err = read_text(path, buf, sizeof(buf));
	if (err)
		return err;
	return parse_int(buf, value) ? 0 : EINVAL;
}

/*
 * Writes @value to kernel.warden.@name with one write(2) of the whole
 * text, so that the kernel takes all of it or none: returns 0 or an errno.
 * O_TRUNC does nothing to a sysctl, but keeps a fake one exact.
 */
static int write_knob(const char *const name, const int value)
{
	char path[PATH_MAX], buf[32];
	const int len = snprintf(buf, sizeof(buf), "%d\n", value);
	ssize_t n;
	int fd, err = 0;

	if (!root_path(path, sizeof(path), "%s/%s", SYSCTL_DIR, name))
		return ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	do {
		n = write(fd, buf, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	else if (n != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* Sets kernel.warden.@name to @value and reads it back: exits on failure. */
static void set_knob(const char *const name, const int value)
{
	int err, now;

	err = write_knob(name, value);
	if (err) {
		warn("cannot set %s%s to %d: %s", KNOB_PREFIX, name, value,
		     strerror(err));
		exit(EXIT_FAIL);
	}
	err = read_knob(name, &now);
	if (err) {
		warn("cannot read %s%s back: %s", KNOB_PREFIX, name,
		     strerror(err));
		exit(EXIT_FAIL);
	}
	if (now != value) {
		warn("%s%s is %d after writing %d", KNOB_PREFIX, name, now,
		     value);
		exit(EXIT_FAIL);
	}
}

/* Key=value fields of log and counters lines */

#define MAX_FIELDS 48

struct fields {
	int count;
	const char *key[MAX_FIELDS];
	const char *value[MAX_FIELDS];
};

static bool is_key_char(const char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Returns the length of the key of a "key=" at @s, or 0 if none starts there. */
static size_t key_length(const char *const s)
{
	size_t n = 0;

	while (is_key_char(s[n]))
		n++;
	return n && s[n] == '=' ? n : 0;
}

/*
 * Returns the quote that ends a quoted value starting at @s, or NULL.  The
 * kernel escapes control characters in /dev/kmsg but not quotes, so a
 * quote in a path or a command name does not end the value: only one
 * followed by the end of the line or by a space and the next key does.
 */
static char *closing_quote(char *const s)
{
	char *q;

	for (q = strchr(s, '"'); q; q = strchr(q + 1, '"')) {
		if (q[1] == '\0' || (q[1] == ' ' && key_length(q + 2)))
			return q;
	}
	return NULL;
}

/*
 * Splits @s in place into key=value and key="value" fields.  Words that
 * are not fields ("warden:") are skipped; past MAX_FIELDS, fields are
 * dropped.  An unterminated quoted value runs to the end of the line.
 */
static void parse_fields(char *s, struct fields *const f)
{
	f->count = 0;
	while (*s) {
		const size_t klen = key_length(s);
		char *key, *value, *end;

		if (!klen) {
			s += strcspn(s, " ");
			s += strspn(s, " ");
			continue;
		}
		key = s;
		s[klen] = '\0';
		s += klen + 1;
		if (*s == '"') {
			s++;
			end = closing_quote(s);
			if (!end)
				end = s + strlen(s);
		} else {
			end = s + strcspn(s, " ");
		}
		value = s;
		s = *end ? end + 1 : end;
		*end = '\0';
		s += strspn(s, " ");
		if (f->count < MAX_FIELDS) {
			f->key[f->count] = key;
			f->value[f->count] = value;
			f->count++;
		}
	}
}

/* Returns the value of the first field @key, or NULL. */
static const char *field(const struct fields *const f, const char *const key)
{
	int i;

	for (i = 0; i < f->count; i++) {
		if (!strcmp(f->key[i], key))
			return f->value[i];
	}
	return NULL;
}

/* Returns the value of @key, or "?" if the line has none. */
static const char *field_or_unknown(const struct fields *const f,
				    const char *const key)
{
	const char *const v = field(f, key);

	return v ? v : "?";
}

static const struct rule *find_rule(const char *const name)
{
	size_t i;

	for (i = 0; i < RULE_COUNT; i++) {
		if (!strcmp(rules[i].name, name) ||
		    !strcmp(rules[i].alias, name))
			return &rules[i];
	}
	return NULL;
}

/* Subcommand options */

/*
 * Parses the options of a subcommand: @argv[0] is its name.  getopt's own
 * messages would name the subcommand as the program, so they are ours.
 */
static int check_option(const int c, char *const argv[])
{
	if (c == '?') {
		/* A long option is named whole, a short one by its letter. */
		if (!strncmp(argv[optind - 1], "--", 2) || !isprint(optopt))
			usage_error("%s: bad option '%s'", argv[0],
				    argv[optind - 1]);
		usage_error("%s: unknown option '-%c'", argv[0], optopt);
	}
	if (c == ':')
		usage_error("%s: option '%s' needs a value", argv[0],
			    argv[optind - 1]);
	if (c == 'h') {
		usage(stdout);
		exit(EXIT_SUCCESS);
	}
	return c;
}

static int next_option(const int argc, char *const argv[],
		       const char *const shortopts,
		       const struct option *const longopts)
{
	return check_option(getopt_long(argc, argv, shortopts, longopts, NULL),
			    argv);
}

/* Starts option parsing over, for a subcommand's own argv. */
static void reset_options(void)
{
	optind = 0;
	opterr = 0;
}

static void no_more_args(const int argc, char *const argv[])
{
	if (optind < argc)
		usage_error("%s: unexpected argument '%s'", argv[0],
			    argv[optind]);
}

/* A count on the command line: 1 or more. */
static unsigned long parse_count(const char *const cmd, const char *const opt,
				 const char *const s)
{
	unsigned long long v;

	if (!parse_ull(s, &v) || v < 1 || v > 1000000)
		usage_error("%s: %s needs a number from 1 to 1000000, not '%s'",
			    cmd, opt, s);
	return v;
}

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
		const struct rule *r = NULL;
		const char *name;
		struct fields f;

		parse_fields(line, &f);
		name = field(&f, "rule");
		if (name)
			r = find_rule(name);
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

static void json_number(const char *const key, const long long v)
{
	if (v == UNKNOWN)
		printf("\"%s\":null", key);
	else
		printf("\"%s\":%lld", key, v);
}

/* The names are ours, plain ASCII: nothing to escape. */
static void print_json(const struct rule_state *const st,
		       const long long locked)
{
	const char *mode;
	size_t i;

	printf("{\"locked\":%s,\"rules\":[",
	       locked == UNKNOWN ? "null" : locked ? "true" : "false");
	for (i = 0; i < RULE_COUNT; i++) {
		printf("%s{\"name\":\"%s\",\"alias\":\"%s\",", i ? "," : "",
		       rules[i].name, rules[i].alias);
		json_number("level", st[i].level);
		printf(",\"max\":%d,", rules[i].max);
		mode = mode_name(st[i].complain);
		if (mode)
			printf("\"mode\":\"%s\",", mode);
		else
			printf("\"mode\":null,");
		json_number("denied", st[i].denied);
		putchar(',');
		json_number("would_deny", st[i].would_deny);
		putchar('}');
	}
	printf("]}\n");
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
 * name, "rule=NAME global=G process=P effective=E".
 */
static bool read_process_levels(const char *const pid,
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
		warn("cannot read the policy of %s: %s", pid,
		     strerror(ENAMETOOLONG));
		return false;
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
		warn("cannot read the policy of process %s in %s: %s", pid,
		     path, strerror(err));
		return false;
	}
	for (i = 0; i < RULE_COUNT; i++)
		pl[i] = (struct process_level){ v[i][0], v[i][1], v[i][2] };
	return is_rule_table_full(path, ARRAY_SIZE(keys), &v[0][0], "levels");
}

static void print_process_json(const char *const pid,
			       const struct process_level *const pl)
{
	size_t i;

	printf("{\"pid\":%s,\"rules\":[", pid);
	for (i = 0; i < RULE_COUNT; i++) {
		printf("%s{\"name\":\"%s\",\"alias\":\"%s\",", i ? "," : "",
		       rules[i].name, rules[i].alias);
		json_number("global", pl[i].global);
		putchar(',');
		json_number("process", pl[i].process);
		putchar(',');
		json_number("effective", pl[i].effective);
		putchar('}');
	}
	printf("]}\n");
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
	bool ok;

	need_warden();
	ok = read_process_levels(pid, pl);
	/* Nothing read: the warning said why, a table of "?" would not. */
	if (pl[0].effective == UNKNOWN && !ok)
		return EXIT_FAIL;
	if (json)
		print_process_json(pid, pl);
	else
		print_process_table(pid, pl);
	return ok ? EXIT_SUCCESS : EXIT_FAIL;
}

static int cmd_status(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct rule_state st[RULE_COUNT];
	const char *pid = NULL;
	char name[64];
	bool json = false, ok = true;
	long long locked;
	size_t i;
	int c, n;

	reset_options();
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
		snprintf(name, sizeof(name), "%s_complain", rules[i].name);
		ok &= read_state(name, &st[i].complain);
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

static int cmd_set(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const struct rule *rule;
	const char *value;
	char name[64];
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
		snprintf(name, sizeof(name), "%s_complain", rule->name);
		set_knob(name, complain);
		printf("%s%s = %d (%s)\n", KNOB_PREFIX, name, complain,
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

static int cmd_lock(const int argc, char *const argv[])
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

/* The kernel log */

/*
 * /dev/kmsg returns one record per read(2), but a regular file or a FIFO
 * standing in for it returns any number of bytes: lines are cut here.
 * One record is at most 8 KiB with its dictionary.
 */
#define LOG_BUF_SIZE 16384

struct log_reader {
	int fd;
	size_t start, len;
	char buf[LOG_BUF_SIZE];
};

/*
 * Sets @line to the next line of the log: returns 1, 0 at the end of a
 * file, or -1 with errno (EAGAIN: nothing more for now; EPIPE: records
 * were overwritten before they were read, read on).
 */
static int log_next_line(struct log_reader *const r, char **const line)
{
	for (;;) {
		char *const from = r->buf + r->start;
		char *const nl = memchr(from, '\n', r->len - r->start);
		ssize_t n;

		if (nl) {
			*nl = '\0';
			*line = from;
			r->start = nl + 1 - r->buf;
			return 1;
		}
		memmove(r->buf, from, r->len - r->start);
		r->len -= r->start;
		r->start = 0;
		if (r->len == sizeof(r->buf) - 1) {
			/* A line longer than any record: take it as it is. */
			r->buf[r->len] = '\0';
			*line = r->buf;
			r->start = r->len;
			return 1;
		}
		n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			if (!r->len)
				return 0;
			/* The last line of a file, without its newline. */
			r->buf[r->len] = '\0';
			*line = r->buf;
			r->start = r->len;
			return 1;
		}
		r->len += n;
	}
}

static bool is_kmsg_header(const char *s, const char *const end)
{
	if (!isdigit((unsigned char)*s))
		return false;
	for (; s < end; s++) {
		if (*s == ' ' || !isprint((unsigned char)*s))
			return false;
	}
	return true;
}

/*
 * Returns the message of a log line: without the "prio,seq,usec,flags;"
 * header of a /dev/kmsg record, or the "[ time] " of a saved dmesg.  The
 * record's dictionary lines (they start with a space) have none: NULL.
 */
static char *log_message(char *const line)
{
	char *const semicolon = strchr(line, ';');

	if (line[0] == ' ')
		return NULL;
	if (semicolon && is_kmsg_header(line, semicolon))
		return semicolon + 1;
	if (line[0] == '[') {
		char *const end = strstr(line, "] ");

		if (end)
			return end + 2;
	}
	return line;
}

static bool open_log(struct log_reader *const r)
{
	char path[PATH_MAX];

	r->start = 0;
	r->len = 0;
	if (!root_path(path, sizeof(path), "%s", KMSG_PATH)) {
		warn("cannot open the kernel log: %s", strerror(ENAMETOOLONG));
		return false;
	}
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		warn("cannot open the kernel log %s: %s", path,
		     strerror(errno));
		return false;
	}
	return true;
}

#define WARDEN_PREFIX "warden: "

/* Whether @msg is Warden's report of a denial (or of a complain-mode allow). */
static bool is_denial(const char *const msg)
{
	return !strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX)) &&
	       strstr(msg, " rule=");
}

/* Returns how many reports the ratelimit dropped, if @msg says so, or 0. */
static unsigned long long suppressed_count(const char *const msg)
{
	const char *s = msg + strlen(WARDEN_PREFIX);
	unsigned long long n;
	char *end;

	if (strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX)) ||
	    !isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || strncmp(end, " report", strlen(" report")) ||
	    !strstr(end, " suppressed"))
		return 0;
	return n;
}

/*
 * Audit records reach the kernel log when no audit daemon takes them:
 * "audit: type=1702 audit(...): ... lsm=warden".  A record names Warden
 * with lsm=, or at least with one of Warden's rules.
 */
static bool is_warden_audit(const char *const msg)
{
	static const char *const types[] = {
		"audit: type=1702 ", "audit: type=1703 ", "audit: type=1400 ",
	};
	char copy[LOG_BUF_SIZE];
	const char *lsm, *rule;
	struct fields f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!strncmp(msg, types[i], strlen(types[i])))
			break;
	}
	if (i == ARRAY_SIZE(types))
		return false;
	snprintf(copy, sizeof(copy), "%s", msg);
	parse_fields(copy, &f);
	lsm = field(&f, "lsm");
	if (lsm)
		return !strcmp(lsm, "warden");
	rule = field(&f, "rule");
	return rule && find_rule(rule) && !strcmp(find_rule(rule)->name, rule);
}

/* watch */

static volatile sig_atomic_t stop_signal;

static void on_stop(const int sig)
{
	stop_signal = sig;
}

/*
 * SIGINT and SIGTERM are blocked but while waiting in ppoll(), so that
 * one arriving between two reads cannot be missed: the wait ends, and
 * watch exits 0.
 */
static void catch_stop_signals(sigset_t *const waitmask)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, waitmask);
	sigdelset(waitmask, SIGINT);
	sigdelset(waitmask, SIGTERM);
}

static int cmd_watch(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "audit", no_argument, NULL, 'A' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	static struct log_reader r;
	bool all = false, audit = false;
	unsigned long count = 0, seen = 0;
	struct pollfd pfd;
	sigset_t waitmask;
	char *line;
	int c;

	reset_options();
	while ((c = next_option(argc, argv, ":hc:", longopts)) != -1) {
		if (c == 'a')
			all = true;
		else if (c == 'A')
			audit = true;
		else if (c == 'c')
			count = parse_count(argv[0], "--count", optarg);
	}
	no_more_args(argc, argv);

	if (!open_log(&r))
		return EXIT_FAIL;
	/* Only what comes next; a FIFO for a test has nothing to skip. */
	if (!all && lseek(r.fd, 0, SEEK_END) < 0 && errno != ESPIPE) {
		warn("cannot skip the kernel log's backlog: %s",
		     strerror(errno));
		return EXIT_FAIL;
	}
	catch_stop_signals(&waitmask);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pfd = (struct pollfd){ .fd = r.fd, .events = POLLIN };

	while (!stop_signal && (!count || seen < count)) {
		const int got = log_next_line(&r, &line);
		const char *msg;

		if (got == 0)
			break;	/* The end of a file standing in for the log. */
		if (got < 0 && errno == EAGAIN) {
			if (ppoll(&pfd, 1, NULL, &waitmask) < 0 &&
			    errno != EINTR) {
				warn("cannot wait for the kernel log: %s",
				     strerror(errno));
				return EXIT_FAIL;
			}
			continue;
		}
		if (got < 0 && errno == EPIPE) {
			warn("some kernel log records were overwritten before they could be read");
			continue;
		}
		if (got < 0) {
			warn("cannot read the kernel log: %s", strerror(errno));
			return EXIT_FAIL;
		}
		msg = log_message(line);
		if (!msg)
			continue;
		if (!strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX)) ||
		    (audit && is_warden_audit(msg))) {
			puts(msg);
			seen++;
		}
	}
	close(r.fd);
	return EXIT_SUCCESS;
}

/* explain */

/* A denial to explain, and how many reports the ratelimit dropped before it. */
struct report {
	char *msg;
	unsigned long long suppressed;
};

static void print_name(const char *const v)
{
	if (v)
		printf("\"%s\"", v);
	else
		printf("?");
}

/* The field @prefix@name, as "tracer_" "pid": ptrace reports name two tasks. */
static const char *task_field(const struct fields *const f,
			      const char *const prefix, const char *const name)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", prefix, name);
	return field(f, key);
}

/* "comm" (pid N, uid N[, fsuid N]), of the task whose fields start with @prefix */
static void print_task(const struct fields *const f, const char *const prefix)
{
	const char *const pid = task_field(f, prefix, "pid");
	const char *const uid = task_field(f, prefix, "uid");
	const char *const fsuid = task_field(f, prefix, "fsuid");

	print_name(task_field(f, prefix, "comm"));
	printf(" (pid %s, uid %s", pid ? pid : "?", uid ? uid : "?");
	if (fsuid)
		printf(", fsuid %s", fsuid);
	printf(")");
}

/* The acting task, and its parent (ppid= and pcomm=). */
static void explain_who(const struct fields *const f, const char *const prefix)
{
	printf("    who:     ");
	print_task(f, prefix);
	printf(", child of ");
	print_name(field(f, "pcomm"));
	printf(" (pid %s)\n", field_or_unknown(f, "ppid"));
}

static const char *file_kind(const char *const rule)
{
	if (!strcmp(rule, "protected_fifos"))
		return "FIFO";
	if (!strcmp(rule, "protected_regular"))
		return "regular file";
	return "file";
}

/* The operation each fs rule checks, for a report that lost its op=. */
static const char *default_op(const char *const rule)
{
	if (!strcmp(rule, "protected_sticky_symlinks"))
		return "follow";
	if (!strcmp(rule, "protected_nonaccess_hardlinks"))
		return "link";
	if (!strcmp(rule, "protected_fifos") ||
	    !strcmp(rule, "protected_regular"))
		return "open_creat";
	return "?";
}

static void explain_fs(const struct fields *const f, const char *const rule)
{
	const char *const op = field(f, "op") ? field(f, "op") : default_op(rule);
	const char *owner = field(f, "file_uid");

	explain_who(f, "");
	printf("    what:    ");
	if (!strcmp(op, "follow")) {
		owner = field(f, "link_uid");
		printf("follow the symlink ");
	} else if (!strcmp(op, "link")) {
		printf("make a hard link to ");
	} else if (!strcmp(op, "open_creat")) {
		printf("open with O_CREAT the existing %s ", file_kind(rule));
	} else {
		printf("%s ", op);
	}
	print_name(field(f, "path"));
	printf(", owned by uid %s", owner ? owner : "?");
	if (field(f, "dir_uid") || field(f, "dir_mode"))
		printf(",\n             in a sticky directory owned by uid %s, mode %s",
		       field_or_unknown(f, "dir_uid"),
		       field_or_unknown(f, "dir_mode"));
	printf("\n");
}

static void explain_ptrace(const struct fields *const f)
{
	const char *const op = field_or_unknown(f, "op");
	/* For PTRACE_TRACEME the tracee asks: it is the one acting. */
	const bool traceme = !strcmp(op, "traceme");

	explain_who(f, traceme ? "target_" : "tracer_");
	printf("    what:    ");
	if (traceme)
		printf("PTRACE_TRACEME, to be traced by ");
	else if (!strcmp(op, "attach"))
		printf("ptrace attach to ");
	else
		printf("%s ", op);
	print_task(f, traceme ? "tracer_" : "target_");
	printf(" at ptrace_scope %s\n", field_or_unknown(f, "scope"));
}

/* Which setting allows it, and what complain mode would do instead. */
static void explain_knobs(const struct fields *const f, const char *const rule,
			  const bool denied)
{
	const struct rule *const r = find_rule(rule);
	const char *const allowed_at = field(f, "allowed_at");
	const char *const knob = field(f, "knob");
	const char *const scope = field(f, "scope");
	/* A set command needs a rule this wardenctl knows. */
	const char *const alias = r && !strcmp(r->name, rule) ? r->alias : NULL;
	const bool final = !strcmp(rule, "ptrace_scope") && scope &&
			   atoi(scope) == PTRACE_SCOPE_FINAL;
	const char *const source = field(f, "source");
	char knob_name[128];

	if (source && !strcmp(source, "process")) {
		printf("    allowed with: nothing: the process's own policy refused it (see\n"
		       "             wardenctl status --pid); a process level cannot be lowered,\n"
		       "             and complain mode does not apply to it\n");
		return;
	}
	if (knob)
		snprintf(knob_name, sizeof(knob_name), "%s", knob);
	else
		snprintf(knob_name, sizeof(knob_name), KNOB_PREFIX "%s", rule);

	printf("    %s ", denied ? "allowed with:" :
	       "allowed even when enforced, with:");
	if (!allowed_at)
		printf("a lower %s (the report does not say which level)\n",
		       knob_name);
	else if (alias)
		printf("sysctl %s=%s  (wardenctl set %s %s)\n", knob_name,
		       allowed_at, alias, allowed_at);
	else
		printf("sysctl %s=%s\n", knob_name, allowed_at);
	if (final) {
		printf("    ptrace_scope 3 cannot be lowered and always enforces until reboot:\n"
		       "      boot with warden.ptrace_scope=%s instead\n",
		       allowed_at ? allowed_at : "N");
		return;
	}
	if (denied) {
		printf("    or, to log and count it but allow it: ");
		if (alias)
			printf("wardenctl set %s complain  (sysctl %s_complain=1)\n",
			       alias, knob_name);
		else
			printf("sysctl %s_complain=1\n", knob_name);
	} else {
		printf("    to deny it instead: ");
		if (alias)
			printf("wardenctl set %s enforce  (sysctl %s_complain=0)\n",
			       alias, knob_name);
		else
			printf("sysctl %s_complain=0\n", knob_name);
	}
}

static void explain_one(const struct report *const rep, const unsigned long i,
			const unsigned long n)
{
	char copy[LOG_BUF_SIZE];
	const char *rule, *verdict;
	struct fields f;
	bool denied;

	if (rep->suppressed)
		printf("(%llu report%s before the next one %s not logged: ratelimit;\n"
		       " the counters in 'wardenctl status' count every one)\n\n",
		       rep->suppressed, rep->suppressed == 1 ? "" : "s",
		       rep->suppressed == 1 ? "was" : "were");
	snprintf(copy, sizeof(copy), "%s", rep->msg);
	parse_fields(copy, &f);
	rule = field_or_unknown(&f, "rule");
	verdict = field_or_unknown(&f, "verdict");
	denied = strcmp(verdict, "would_deny");

	printf("[%lu/%lu] %s: %s\n", i, n, rule,
	       !strcmp(verdict, "denied")     ? "denied" :
	       !strcmp(verdict, "would_deny") ? "would have been denied" :
						verdict);
	if (!strcmp(rule, "ptrace_scope"))
		explain_ptrace(&f);
	else
		explain_fs(&f, rule);
	if (!strcmp(verdict, "denied"))
		printf("    verdict: denied: the rule is enforced, the access failed\n");
	else if (!strcmp(verdict, "would_deny"))
		printf("    verdict: allowed, because the rule is in complain mode; it was only\n"
		       "             logged and counted\n");
	else
		printf("    verdict: %s (unknown to this wardenctl)\n", verdict);
	explain_knobs(&f, rule, denied);
}

static int cmd_explain(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	static struct log_reader r;
	unsigned long long pending = 0, stray;
	unsigned long want = 10, total = 0, kept, i;
	struct report *ring;
	char *line;
	int c, got;

	reset_options();
	while ((c = next_option(argc, argv, ":hn:", longopts)) != -1) {
		if (c == 'n')
			want = parse_count(argv[0], "-n", optarg);
	}
	no_more_args(argc, argv);

	if (!open_log(&r))
		return EXIT_FAIL;
	ring = calloc(want, sizeof(*ring));
	if (!ring) {
		warn("%s", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	/* The backlog only: EAGAIN from /dev/kmsg, EOF from a file. */
	while ((got = log_next_line(&r, &line)) != 0) {
		struct report *slot;
		const char *msg;

		if (got < 0 && errno == EPIPE)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got < 0) {
			warn("cannot read the kernel log: %s", strerror(errno));
			return EXIT_FAIL;
		}
		msg = log_message(line);
		if (!msg)
			continue;
		stray = suppressed_count(msg);
		if (stray) {
			pending += stray;
			continue;
		}
		if (!is_denial(msg))
			continue;
		slot = &ring[total % want];
		free(slot->msg);
		slot->msg = strdup(msg);
		if (!slot->msg) {
			warn("%s", strerror(ENOMEM));
			return EXIT_FAIL;
		}
		slot->suppressed = pending;
		pending = 0;
		total++;
	}
	close(r.fd);

	kept = total < want ? total : want;
	if (!kept)
		printf("No Warden denial in the kernel log.\n");
	else if (kept == 1)
		printf("The last Warden denial in the kernel log:\n\n");
	else
		printf("The last %lu Warden denials in the kernel log, oldest first:\n\n",
		       kept);
	for (i = 0; i < kept; i++) {
		explain_one(&ring[(total - kept + i) % want], i + 1, kept);
		if (i + 1 < kept)
			printf("\n");
	}
	if (pending)
		printf("\n(%llu more report%s not logged: ratelimit)\n", pending,
		       pending == 1 ? " was" : "s were");
	for (i = 0; i < want; i++)
		free(ring[i].msg);
	free(ring);
	return EXIT_SUCCESS;
}

/* exec */

/* Writes @policy to the current process's policy: returns 0 or an errno. */
static int write_policy(const char *const policy)
{
	char path[PATH_MAX];
	const size_t len = strlen(policy);
	ssize_t n;
	int fd, err = 0;

	if (!root_path(path, sizeof(path), ATTR_DIR "/policy", "self"))
		return ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	do {
		n = write(fd, policy, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

static const char *raise_hint(const int err)
{
	switch (err) {
	case EPERM:
		return " (a level lower than the process's own cannot be set)";
	case ENOENT:
		return " (this kernel has no per-process policies)";
	case EBUSY:
		return " (the process has other threads)";
	default:
		return "";
	}
}

/*
 * exec [--RULE=LEVEL]... -- CMD [ARGS]: the long options are the rules'
 * aliases and names; their index in longopts is the rule's.
 */
static int cmd_exec(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "symlinks", required_argument, NULL, 0 },
		{ "hardlinks", required_argument, NULL, 0 },
		{ "fifos", required_argument, NULL, 0 },
		{ "regular", required_argument, NULL, 0 },
		{ "ptrace", required_argument, NULL, 0 },
		{ "protected_sticky_symlinks", required_argument, NULL, 0 },
		{ "protected_nonaccess_hardlinks", required_argument, NULL, 0 },
		{ "protected_fifos", required_argument, NULL, 0 },
		{ "protected_regular", required_argument, NULL, 0 },
		{ "ptrace_scope", required_argument, NULL, 0 },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int levels[RULE_COUNT];
	char policy[512];
	size_t i, len = 0;
	int c, index = 0, err;

	for (i = 0; i < RULE_COUNT; i++)
		levels[i] = -1;
	reset_options();
	for (;;) {
		const struct rule *rule;
		int level;

		c = check_option(getopt_long(argc, argv, "+:h", longopts,
					     &index),
				 argv);
		if (c == -1)
			break;
		rule = &rules[index % RULE_COUNT];
		if (!parse_int(optarg, &level) || level > rule->max)
			usage_error("exec: the level of %s is 0 to %d, not '%s'",
				    rule->name, rule->max, optarg);
		if (levels[index % RULE_COUNT] != -1)
			usage_error("exec: %s given twice", rule->name);
		levels[index % RULE_COUNT] = level;
	}
	/* getopt stops at "--", and at the first word that is not an option. */
	if (optind >= argc)
		usage_error("exec: needs a command to run, after --");
	for (i = 0; i < RULE_COUNT; i++) {
		if (levels[i] < 0)
			continue;
		len += snprintf(policy + len, sizeof(policy) - len, "%s%s=%d",
				len ? " " : "", rules[i].name, levels[i]);
	}
	if (!len)
		usage_error("exec: name at least one rule to raise, as --symlinks=2");
	need_warden();

	/* As seccomp and Landlock want: no setuid program under a policy. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		warn("cannot set no_new_privs: %s", strerror(errno));
		return EXIT_FAIL;
	}
	err = write_policy(policy);
	if (err) {
		warn("cannot raise the policy to %s: %s%s", policy,
		     strerror(err), raise_hint(err));
		return EXIT_FAIL;
	}
	execvp(argv[optind], argv + optind);
	warn("cannot run %s: %s", argv[optind], strerror(errno));
	return EXIT_NOT_RUN;
}

/* main */

struct command {
	const char *name;
	int (*run)(int argc, char *const argv[]);
};

static const struct command commands[] = {
	{ "status", cmd_status }, { "set", cmd_set },
	{ "lock", cmd_lock },	  { "watch", cmd_watch },
	{ "explain", cmd_explain }, { "exec", cmd_exec },
};

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	size_t i;
	int c;

	opterr = 0;
	/* "+": the options after the command are the command's. */
	while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_SUCCESS;
		}
		if (c == 'V') {
			printf("wardenctl %s\n", WARDENCTL_VERSION);
			return EXIT_SUCCESS;
		}
		usage_error("unknown option '%s'", argv[optind - 1]);
	}
	if (optind >= argc)
		usage_error("no command given");
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[optind], commands[i].name))
			return commands[i].run(argc - optind, argv + optind);
	}
	usage_error("unknown command '%s'", argv[optind]);
}
