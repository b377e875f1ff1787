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
		"  explain [-n N] [--json] explain the last N denials and settings changes in\n"
		"                          the kernel log (10)\n"
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

#define MAX_FIELDS 64

/*
 * The fields of one line, in the order of the line.  A line whose key
 * comes twice, or with more fields than MAX_FIELDS, is @malformed: which
 * of two values is the true one cannot be told, so neither is.
 */
struct fields {
	int count;
	bool malformed;
	const char *duplicate;
	const char *key[MAX_FIELDS];
	const char *value[MAX_FIELDS];
};

static bool is_key_char(const char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Returns the length of the key of a "key=" at @s, or 0 if none starts there. */
static size_t key_length(const char *const s)
{
	size_t n = 0;

	while (is_key_char(s[n]))
		n++;
	return n && s[n] == '=' ? n : 0;
}

static void add_field(struct fields *const f, const char *const key,
		      const char *const value)
{
	int i;

	for (i = 0; i < f->count; i++) {
		if (!strcmp(f->key[i], key)) {
			f->malformed = true;
			if (!f->duplicate)
				f->duplicate = key;
			return;
		}
	}
	if (f->count == MAX_FIELDS) {
		f->malformed = true;
		return;
	}
	f->key[f->count] = key;
	f->value[f->count] = value;
	f->count++;
}

/*
 * Splits @s in place into key=value and key="value" fields, as the kernel
 * writes them: a key is [a-z0-9_]+ at the start of a word, a value runs to
 * the next space, a quoted one to the next quote.  The kernel escapes the
 * quote, the backslash and the space in every name a user chose (\x22),
 * so a name can neither end its value nor start a field.  Words that are
 * not fields ("warden:") are skipped.  An unterminated quoted value runs
 * to the end of the line; text stuck to a closing quote makes the line
 * malformed, as a key given twice does.
 */
static void parse_fields(char *s, struct fields *const f)
{
	f->count = 0;
	f->malformed = false;
	f->duplicate = NULL;
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
		value = s + klen + 1;
		if (*value == '"') {
			value++;
			end = value + strcspn(value, "\"");
			s = *end ? end + 1 : end;
			if (*s && *s != ' ')
				f->malformed = true;
			s += strcspn(s, " ");
		} else {
			end = value + strcspn(value, " ");
			s = end;
		}
		s += strspn(s, " ");
		*end = '\0';
		add_field(f, key, value);
	}
}

/* Returns the value of the field @key, or NULL. */
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

/*
 * Prints @s as it is, but for the bytes a terminal would act on: control
 * bytes and bytes above 0x7e are shown as the kernel escapes them, \xHH.
 * The names in a report are escaped already, and stay so.
 */
static void print_text(const char *s)
{
	for (; *s; s++) {
		const unsigned char c = *s;

		if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
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
		/* Which of two values is right cannot be told: neither. */
		name = f.malformed ? NULL : field(&f, "rule");
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

static int hex_digit(const char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Returns the byte of a "\xHH" at @s, or -1 if none starts there. */
static int hex_escape(const char *const s)
{
	int hi, lo;

	if (s[0] != '\\' || s[1] != 'x')
		return -1;
	hi = hex_digit(s[2]);
	lo = hi < 0 ? -1 : hex_digit(s[3]);
	return lo < 0 ? -1 : hi << 4 | lo;
}

/*
 * /dev/kmsg writes every byte of a message below 0x20 or above 0x7e, and
 * the backslash, as \xHH: undoes that in place, so that @s becomes the
 * text the kernel wrote, where the \x22 of a name came as \x5cx22.  A NUL
 * stays escaped, as it would end the string.
 */
static void unescape_kmsg(char *s)
{
	char *out = s;

	while (*s) {
		const int c = hex_escape(s);

		if (c > 0) {
			*out++ = (char)c;
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/*
 * Returns the message of a log line, as the kernel wrote it: that of a
 * /dev/kmsg record without its "prio,seq,usec,flags;" header and with the
 * escaping of /dev/kmsg undone, or that of a saved dmesg, raw already,
 * without its "[ time] ".  The record's dictionary lines (they start with
 * a space) have none: NULL.  Nor has a record that user space wrote to
 * /dev/kmsg: the kernel gives those a facility other than its own, 0.
 */
static char *log_message(char *const line)
{
	char *const semicolon = strchr(line, ';');

	if (line[0] == ' ')
		return NULL;
	if (semicolon && is_kmsg_header(line, semicolon)) {
		if (strtoul(line, NULL, 10) >> 3)
			return NULL;
		unescape_kmsg(semicolon + 1);
		return semicolon + 1;
	}
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

static bool is_warden_line(const char *const msg)
{
	return !strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX));
}

/* A line of the log cut into its fields, in a copy of its own. */
struct log_line {
	char text[LOG_BUF_SIZE];
	struct fields f;
};

static void parse_line(struct log_line *const l, const char *const msg)
{
	snprintf(l->text, sizeof(l->text), "%s", msg);
	parse_fields(l->text, &l->f);
}

/*
 * Whether @f is Warden's report of a denial (or of a complain-mode
 * allow): the ratelimit's notices name a rule too, but no verdict.
 */
static bool is_denial(const struct fields *const f)
{
	return field(f, "rule") && field(f, "verdict");
}

/* Whether @f counts the reports a ratelimit dropped. */
static bool is_suppressed(const struct fields *const f)
{
	return field(f, "suppressed") &&
	       (field(f, "rule") || field(f, "setting"));
}

/*
 * Audit records reach the kernel log when no audit daemon takes them:
 * "audit: type=1702 audit(...): lsm=warden ...", and the same for the
 * types 1703 (ANOM_CREAT), 1400 (AVC) and 1405 (MAC_CONFIG_CHANGE).
 */
static bool is_warden_audit(const char *const msg)
{
	static const char *const types[] = {
		"audit: type=1702 ", "audit: type=1703 ", "audit: type=1400 ",
		"audit: type=1405 ",
	};
	static struct log_line l;
	const char *lsm;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!strncmp(msg, types[i], strlen(types[i])))
			break;
	}
	if (i == ARRAY_SIZE(types))
		return false;
	parse_line(&l, msg);
	lsm = field(&l.f, "lsm");
	return !l.f.malformed && lsm && !strcmp(lsm, "warden");
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
		if (is_warden_line(msg) || (audit && is_warden_audit(msg))) {
			print_text(msg);
			putchar('\n');
			seen++;
		}
	}
	close(r.fd);
	return EXIT_SUCCESS;
}

/* explain */

/*
 * The ratelimits' notices, added up per rule and subject: a row per rule,
 * then one for the process policies' lines (setting=policy) and one for
 * rules this wardenctl does not know; a column per subject, then one for
 * none.
 */
#define DROP_POLICY RULE_COUNT
#define DROP_OTHER (RULE_COUNT + 1)
#define DROP_ROWS (RULE_COUNT + 2)

static const char *const subjects[] = { "root", "user" };

#define DROP_NO_SUBJECT ARRAY_SIZE(subjects)
#define DROP_COLUMNS (DROP_NO_SUBJECT + 1)

struct drops {
	unsigned long long n[DROP_ROWS][DROP_COLUMNS];
};

/* A report to explain, and what the ratelimits dropped just before it. */
struct report {
	char *msg;
	struct drops *drops;
};

/* The last @want reports of one kind, of @total, and what came after. */
struct ring {
	struct report *slot;
	unsigned long want, total;
	struct drops *pending;
};

static size_t drop_row(const struct fields *const f)
{
	const char *const rule = field(f, "rule");
	const struct rule *const r = rule ? find_rule(rule) : NULL;

	if (!rule)
		return DROP_POLICY;
	return r && !strcmp(r->name, rule) ? (size_t)(r - rules) : DROP_OTHER;
}

static size_t drop_column(const struct fields *const f)
{
	const char *const subject = field(f, "subject");
	size_t i;

	for (i = 0; subject && i < ARRAY_SIZE(subjects); i++) {
		if (!strcmp(subjects[i], subject))
			return i;
	}
	return DROP_NO_SUBJECT;
}

/* Adds a notice "rule=R suppressed=N subject=S" to @d: false without memory. */
static bool add_drops(struct drops **const d, const struct fields *const f)
{
	unsigned long long n;

	if (!parse_ull(field(f, "suppressed"), &n))
		return true;
	if (!*d)
		*d = calloc(1, sizeof(**d));
	if (!*d)
		return false;
	(*d)->n[drop_row(f)][drop_column(f)] += n;
	return true;
}

static void merge_drops(struct drops *const to, const struct drops *const from)
{
	size_t row, col;

	for (row = 0; from && row < DROP_ROWS; row++) {
		for (col = 0; col < DROP_COLUMNS; col++)
			to->n[row][col] += from->n[row][col];
	}
}

static bool ring_init(struct ring *const r, const unsigned long want)
{
	*r = (struct ring){ .want = want };
	r->slot = calloc(want, sizeof(*r->slot));
	return r->slot;
}

/* Keeps @msg, and the drops before it, in place of the oldest report. */
static bool ring_add(struct ring *const r, const char *const msg)
{
	struct report *const slot = &r->slot[r->total % r->want];

	free(slot->msg);
	free(slot->drops);
	slot->msg = strdup(msg);
	slot->drops = r->pending;
	r->pending = NULL;
	r->total++;
	return slot->msg;
}

static unsigned long ring_kept(const struct ring *const r)
{
	return r->total < r->want ? r->total : r->want;
}

/* The @i-th of the reports kept, oldest first. */
static const struct report *ring_at(const struct ring *const r,
				    const unsigned long i)
{
	return &r->slot[(r->total - ring_kept(r) + i) % r->want];
}

static void ring_free(struct ring *const r)
{
	unsigned long i;

	for (i = 0; i < r->want; i++) {
		free(r->slot[i].msg);
		free(r->slot[i].drops);
	}
	free(r->slot);
	free(r->pending);
}

/*
 * Files one of Warden's lines: a denial, or a malformed line naming a
 * rule, in @denials; a settings change in @settings; a ratelimit notice
 * with the next report of its kind.  False when out of memory.
 */
static bool take_line(const char *const msg, struct ring *const denials,
		      struct ring *const settings)
{
	static struct log_line l;
	const struct fields *const f = &l.f;

	parse_line(&l, msg);
	if (!f->malformed && is_suppressed(f))
		return add_drops(field(f, "rule") ? &denials->pending :
						    &settings->pending,
				 f);
	if (field(f, "rule") && (f->malformed || is_denial(f)))
		return ring_add(denials, msg);
	if (field(f, "setting"))
		return ring_add(settings, msg);
	return true;
}

/* A value of the log, escaped as it was logged, or "?" if missing. */
static void print_value(const char *const v)
{
	print_text(v ? v : "?");
}

/* A name in quotes, escaped as it was logged, or "?" if missing. */
static void print_name(const char *const v)
{
	if (!v) {
		printf("?");
		return;
	}
	putchar('"');
	print_text(v);
	putchar('"');
}

/* The fields @prefix@keys as "pid 300, uid 0, auid 1000", "?" where missing. */
static void print_ids(const struct fields *const f, const char *const prefix,
		      const char *const keys[], const size_t count)
{
	char key[64];
	size_t i;

	for (i = 0; i < count; i++) {
		const char *v;

		snprintf(key, sizeof(key), "%s%s", prefix, keys[i]);
		v = field(f, key);
		/* An unset auid or session, as (uid_t)-1. */
		if (v && !strcmp(v, "4294967295"))
			v = "unset";
		printf("%s%s ", i ? ", " : "", keys[i]);
		print_value(v);
	}
}

/* "comm" (pid N, uid N[, fsuid N]), of the task whose fields start with @prefix */
static void print_task(const struct fields *const f, const char *const prefix)
{
	static const char *const ids[] = { "pid", "uid", "fsuid" };
	char key[64];

	snprintf(key, sizeof(key), "%scomm", prefix);
	print_name(field(f, key));
	snprintf(key, sizeof(key), "%sfsuid", prefix);
	printf(" (");
	print_ids(f, prefix, ids, field(f, key) ? 3 : 2);
	printf(")");
}

/* The acting task, and its parent (ppid= and pcomm=). */
static void explain_who(const struct fields *const f, const char *const prefix)
{
	printf("    who:     ");
	print_task(f, prefix);
	printf(", child of ");
	print_name(field(f, "pcomm"));
	printf(" (pid ");
	print_value(field(f, "ppid"));
	printf(")\n");
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

/*
 * The path as logged: "?" is one d_path() could not resolve, and one too
 * long for the record ends in "..." with path_cut= bytes left out.
 */
static void print_path(const struct fields *const f)
{
	const char *const path = field(f, "path");
	const char *const cut = field(f, "path_cut");

	if (path && !strcmp(path, "?")) {
		printf("? (a path the kernel could not resolve)");
		return;
	}
	print_name(path);
	if (cut) {
		printf(" (cut: ");
		print_value(cut);
		printf(" more bytes not logged)");
	}
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
		print_text(op);
		putchar(' ');
	}
	print_path(f);
	printf(", owned by uid ");
	print_value(owner);
	if (field(f, "dir_uid") || field(f, "dir_mode")) {
		printf(",\n             in a sticky directory owned by uid ");
		print_value(field(f, "dir_uid"));
		printf(", mode ");
		print_value(field(f, "dir_mode"));
	}
	printf("\n");
}

static void explain_ptrace(const struct fields *const f)
{
	const char *const op = field_or_unknown(f, "op");
	/* For PTRACE_TRACEME the tracee asks: it is the one acting. */
	const bool traceme = !strcmp(op, "traceme");

	explain_who(f, traceme ? "target_" : "tracer_");
	printf("    what:    ");
	if (traceme) {
		printf("PTRACE_TRACEME, to be traced by ");
	} else if (!strcmp(op, "attach")) {
		printf("ptrace attach to ");
	} else {
		print_text(op);
		putchar(' ');
	}
	print_task(f, traceme ? "tracer_" : "target_");
	printf(" at ptrace_scope ");
	print_value(field(f, "scope"));
	printf("\n");
}

/* "sysctl KNOB[SUFFIX]=VALUE": the knob as logged, escaped. */
static void print_sysctl(const char *const knob, const char *const suffix,
			 const char *const value)
{
	printf("sysctl ");
	print_text(knob);
	printf("%s=%s", suffix, value);
}

/* Which setting allows it, and what complain mode would do instead. */
static void explain_knobs(const struct fields *const f, const char *const rule,
			  const bool denied)
{
	const struct rule *const r = find_rule(rule);
	const char *const knob = field(f, "knob");
	const char *const scope = field(f, "scope");
	/* A set command needs a rule this wardenctl knows. */
	const char *const alias = r && !strcmp(r->name, rule) ? r->alias : NULL;
	const bool final = !strcmp(rule, "ptrace_scope") && scope &&
			   atoi(scope) == PTRACE_SCOPE_FINAL;
	const char *const source = field(f, "source");
	char knob_name[128], level[16] = "";
	int allowed_at;

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
	if (field(f, "allowed_at") && parse_int(field(f, "allowed_at"), &allowed_at))
		snprintf(level, sizeof(level), "%d", allowed_at);

	printf("    %s ", denied ? "allowed with:" :
	       "allowed even when enforced, with:");
	if (!level[0]) {
		printf("a lower ");
		print_text(knob_name);
		printf(" (the report does not say which level)");
	} else {
		print_sysctl(knob_name, "", level);
		if (alias)
			printf("  (wardenctl set %s %s)", alias, level);
	}
	printf("\n");
	if (final) {
		printf("    ptrace_scope 3 cannot be lowered and always enforces until reboot:\n"
		       "      boot with warden.ptrace_scope=%s instead\n",
		       level[0] ? level : "N");
		return;
	}
	printf(denied ? "    or, to log and count it but allow it: " :
			"    to deny it instead: ");
	if (alias)
		printf("wardenctl set %s %s  (", alias,
		       denied ? "complain" : "enforce");
	print_sysctl(knob_name, "_complain", denied ? "1" : "0");
	printf("%s\n", alias ? ")" : "");
}

/* A line that cannot be read one way only, shown as it is, explained not. */
static void explain_malformed(const struct fields *const f,
			      const char *const msg)
{
	printf("malformed report, not explained: ");
	if (f->duplicate)
		printf("the field %s= comes twice\n", f->duplicate);
	else
		printf("text after a closing quote, or too many fields\n");
	printf("    line:    ");
	print_text(msg);
	printf("\n");
}

/*
 * Says what the ratelimits dropped: "(12 reports of protected_regular by
 * users were not logged: ratelimit; ...)", @more for those after the last
 * report.
 */
static void print_drops(const struct drops *const d, const char *const more)
{
	static const char *const by[DROP_COLUMNS] = { " by root", " by users",
						      "" };
	size_t row, col;

	for (row = 0; d && row < DROP_ROWS; row++) {
		for (col = 0; col < DROP_COLUMNS; col++) {
			const unsigned long long n = d->n[row][col];

			if (!n)
				continue;
			printf("(%llu %sreport%s of ", n, more, n == 1 ? "" : "s");
			if (row == DROP_POLICY)
				printf("process policy changes");
			else if (row == DROP_OTHER)
				printf("rules unknown to this wardenctl");
			else
				printf("%s", rules[row].name);
			printf("%s %s not logged: ratelimit%s)\n", by[col],
			       n == 1 ? "was" : "were",
			       row == DROP_POLICY ? "" :
			       "; the counters count every one");
		}
	}
}

static void explain_denial(const struct fields *const f)
{
	const char *rule, *verdict;
	bool denied;

	rule = field_or_unknown(f, "rule");
	verdict = field_or_unknown(f, "verdict");
	denied = strcmp(verdict, "would_deny");

	print_text(rule);
	printf(": ");
	if (!strcmp(verdict, "denied"))
		printf("denied");
	else if (!strcmp(verdict, "would_deny"))
		printf("would have been denied");
	else
		print_text(verdict);
	printf("\n");
	if (!strcmp(rule, "ptrace_scope"))
		explain_ptrace(f);
	else
		explain_fs(f, rule);
	if (!strcmp(verdict, "denied")) {
		printf("    verdict: denied: the rule is enforced, the access failed\n");
	} else if (!strcmp(verdict, "would_deny")) {
		printf("    verdict: allowed, because the rule is in complain mode; it was only\n"
		       "             logged and counted\n");
	} else {
		printf("    verdict: ");
		print_text(verdict);
		printf(" (unknown to this wardenctl)\n");
	}
	explain_knobs(f, rule, denied);
}

/*
 * Warns of a change of @setting from @old to @new that took from the
 * protection: a rule switched off, lowered, or put in complain mode; one
 * the kernel @refused is an attempt, and worth a look too.
 */
static void explain_weakening(const char *const setting, const char *const old,
			      const char *const new, const bool refused)
{
	static const char suffix[] = "_complain";
	const size_t prefix = strlen(KNOB_PREFIX);
	const struct rule *r;
	bool complain = false;
	char name[64];
	int from, to;
	size_t len;

	if (strncmp(setting, KNOB_PREFIX, prefix) || !parse_int(old, &from) ||
	    !parse_int(new, &to) || to == from)
		return;
	len = strlen(setting + prefix);
	if (len > strlen(suffix) &&
	    !strcmp(setting + prefix + len - strlen(suffix), suffix)) {
		complain = true;
		len -= strlen(suffix);
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, setting + prefix);
	r = find_rule(name);
	if (!r || strcmp(r->name, name) || (complain ? to < from : to > from))
		return;
	printf("    warning: %s", refused ? "a refused attempt to " : "this ");
	if (complain)
		printf("put %s in complain mode%s\n", name,
		       refused ? "" : ": it logs, but denies nothing");
	else if (!to)
		printf("%s %s off\n", refused ? "switch" : "switched", name);
	else
		printf("%s %s\n", refused ? "lower" : "lowered", name);
}

/* The levels a process raised its own policy to: "ptrace_scope 0 -> 3". */
static void explain_policy(const char *const old, const char *const new)
{
	static struct log_line from, to;
	bool any = false;
	int i;

	parse_line(&from, old ? old : "");
	parse_line(&to, new ? new : "");
	printf("    raised:  ");
	for (i = 0; i < to.f.count; i++) {
		const char *const was = field(&from.f, to.f.key[i]);

		if (was && !strcmp(was, to.f.value[i]))
			continue;
		printf("%s", any ? ", " : "");
		print_text(to.f.key[i]);
		printf(" ");
		print_value(was);
		printf(" -> ");
		print_text(to.f.value[i]);
		any = true;
	}
	printf("%s\n", any ? "" : "nothing");
}

static void explain_setting(const struct fields *const f)
{
	static const char *const ids[] = { "pid", "uid", "auid", "ses" };
	const char *setting, *via, *res;
	bool policy, refused;

	setting = field_or_unknown(f, "setting");
	via = field_or_unknown(f, "via");
	res = field(f, "res");
	policy = !strcmp(setting, "policy");
	refused = res && !strcmp(res, "0");

	print_text(setting);
	if (policy) {
		printf(": a process raised its own policy");
	} else {
		printf(": ");
		print_value(field(f, "old"));
		printf(" -> ");
		print_value(field(f, "new"));
	}
	if (!strcmp(via, "sysctl")) {
		printf(", by sysctl");
	} else if (!strcmp(via, "boot")) {
		printf(", by a boot parameter");
	} else if (strcmp(via, "process")) {
		printf(", via ");
		print_text(via);
	}
	if (refused)
		printf(": refused (the lock, or ptrace_scope 3)");
	printf("\n    who:     ");
	print_name(field(f, "comm"));
	printf(" (");
	print_ids(f, "", ids, ARRAY_SIZE(ids));
	printf(")\n");
	if (policy)
		explain_policy(field(f, "old"), field(f, "new"));
	else
		explain_weakening(setting, field_or_unknown(f, "old"),
				  field_or_unknown(f, "new"), refused);
}

/* How a kind of report is named, "Warden denial(s)", and explained. */
struct kind {
	const char *one;
	const char *many;
	void (*explain)(const struct fields *f);
};

/* "[i/n] ", what the ratelimits dropped before it, and the report. */
static void explain_report(const struct report *const rep,
			   const unsigned long i, const unsigned long n,
			   const struct kind *const k)
{
	static struct log_line l;

	print_drops(rep->drops, "");
	if (rep->drops)
		printf("\n");
	parse_line(&l, rep->msg);
	printf("[%lu/%lu] ", i, n);
	if (l.f.malformed)
		explain_malformed(&l.f, rep->msg);
	else
		k->explain(&l.f);
}

static void explain_ring(const struct ring *const r, const struct kind *const k)
{
	const unsigned long kept = ring_kept(r);
	unsigned long i;

	if (!kept)
		printf("No %s in the kernel log.\n", k->one);
	else if (kept == 1)
		printf("The last %s in the kernel log:\n\n", k->one);
	else
		printf("The last %lu %s in the kernel log, oldest first:\n\n",
		       kept, k->many);
	for (i = 0; i < kept; i++) {
		explain_report(ring_at(r, i), i + 1, kept, k);
		if (i + 1 < kept)
			printf("\n");
	}
	if (r->pending) {
		printf("\n");
		print_drops(r->pending, "more ");
	}
}

/*
 * A string in JSON: the text as print_text() shows it, escaped as JSON
 * wants, so that the \xHH of a name is "\\xHH".
 */
static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		const unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			printf("\\\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void json_drops(const struct drops *const d)
{
	const char *sep = "";
	size_t row, col;

	putchar('[');
	for (row = 0; d && row < DROP_ROWS; row++) {
		for (col = 0; col < DROP_COLUMNS; col++) {
			if (!d->n[row][col])
				continue;
			if (row == DROP_POLICY)
				printf("%s{\"setting\":\"policy\"", sep);
			else if (row == DROP_OTHER)
				printf("%s{\"rule\":null", sep);
			else
				printf("%s{\"rule\":\"%s\"", sep, rules[row].name);
			if (col != DROP_NO_SUBJECT)
				printf(",\"subject\":\"%s\"", subjects[col]);
			printf(",\"suppressed\":%llu}", d->n[row][col]);
			sep = ",";
		}
	}
	putchar(']');
}

/* {"line":..., "malformed":false, "fields":{...}, "suppressed_before":[...]} */
static void json_report(const struct report *const rep)
{
	static struct log_line l;
	int i;

	parse_line(&l, rep->msg);
	printf("{\"line\":");
	json_string(rep->msg);
	printf(",\"malformed\":%s,\"fields\":", l.f.malformed ? "true" : "false");
	if (l.f.malformed)
		printf("null");
	for (i = 0; !l.f.malformed && i < l.f.count; i++) {
		putchar(i ? ',' : '{');
		json_string(l.f.key[i]);
		putchar(':');
		json_string(l.f.value[i]);
	}
	if (!l.f.malformed)
		fputs(l.f.count ? "}" : "{}", stdout);
	printf(",\"suppressed_before\":");
	json_drops(rep->drops);
	putchar('}');
}

static void json_ring(const char *const name, const struct ring *const r)
{
	unsigned long i;

	printf("\"%s\":[", name);
	for (i = 0; i < ring_kept(r); i++) {
		if (i)
			putchar(',');
		json_report(ring_at(r, i));
	}
	putchar(']');
}

static void print_explain_json(const struct ring *const denials,
			       const struct ring *const settings)
{
	struct drops after = { 0 };

	merge_drops(&after, denials->pending);
	merge_drops(&after, settings->pending);
	putchar('{');
	json_ring("denials", denials);
	putchar(',');
	json_ring("settings", settings);
	printf(",\"suppressed_after\":");
	json_drops(&after);
	printf("}\n");
}

static int cmd_explain(const int argc, char *const argv[])
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	static const struct kind denial = {
		"Warden denial", "Warden denials", explain_denial,
	};
	static const struct kind setting = {
		"change of a Warden setting", "changes of Warden settings",
		explain_setting,
	};
	static struct log_reader r;
	struct ring denials, settings;
	unsigned long want = 10;
	bool json = false;
	char *line;
	int c, got;

	reset_options();
	while ((c = next_option(argc, argv, ":hn:", longopts)) != -1) {
		if (c == 'n')
			want = parse_count(argv[0], "-n", optarg);
		else if (c == 'j')
			json = true;
	}
	no_more_args(argc, argv);

	if (!open_log(&r))
		return EXIT_FAIL;
	if (!ring_init(&denials, want) || !ring_init(&settings, want)) {
		warn("%s", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	/* The backlog only: EAGAIN from /dev/kmsg, EOF from a file. */
	while ((got = log_next_line(&r, &line)) != 0) {
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
		if (!msg || !is_warden_line(msg))
			continue;
		if (!take_line(msg, &denials, &settings)) {
			warn("%s", strerror(ENOMEM));
			return EXIT_FAIL;
		}
	}
	close(r.fd);

	if (json) {
		print_explain_json(&denials, &settings);
	} else {
		explain_ring(&denials, &denial);
		printf("\n");
		explain_ring(&settings, &setting);
	}
	ring_free(&denials);
	ring_free(&settings);
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
