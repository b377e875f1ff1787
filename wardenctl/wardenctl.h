/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wardenctl - Show and change Warden's settings, follow and explain its
 * reports
 *
 * Everything goes through the files the kernel offers: the sysctls in
 * /proc/sys/kernel/warden, the counters in /sys/kernel/security/warden,
 * the per-process policies in /proc/PID/attr/warden and the kernel log in
 * /dev/kmsg (explain looks for an audit daemon's log, to name it).
 * WARDENCTL_ROOT, if set, is put in front of all of them, so
 * that the tests can run on a fake tree.
 *
 * The files, as bpftool's: main.c the usage, the options and the table of
 * commands; common.c paths, numbers and files; rules.c the table of the
 * rules; log.c the kernel log and the fields of its reports; then a file
 * per command: status.c (status, set, lock), watch.c, explain.c, exec.c.
 */
#ifndef WARDENCTL_H
#define WARDENCTL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define WARDENCTL_VERSION "0.1"

#define SYSCTL_DIR "/proc/sys/kernel/warden"
#define SECURITYFS_DIR "/sys/kernel/security/warden"
#define KMSG_PATH "/dev/kmsg"
#define AUDIT_LOG_PATH "/var/log/audit/audit.log"
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

/* main.c */

extern const char *progname;

void usage(FILE *out);
/*
 * A bad command line: what is wrong, then the usage, on stderr; with
 * --json, what is wrong on stdout too, as p_err() says it.
 */
void usage_error(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
struct option;
int check_option(int c, char *const argv[]);
int next_option(int argc, char *const argv[], const char *shortopts,
		const struct option *longopts);
void reset_options(void);
bool wants_json(int argc, char *const argv[], const char *shortopts,
		const struct option *longopts);
void no_more_args(int argc, char *const argv[]);
unsigned long parse_count(const char *cmd, const char *opt, const char *s);

int cmd_status(int argc, char *const argv[]);
int cmd_set(int argc, char *const argv[]);
int cmd_lock(int argc, char *const argv[]);
int cmd_watch(int argc, char *const argv[]);
int cmd_explain(int argc, char *const argv[]);
int cmd_exec(int argc, char *const argv[]);

/* common.c */

extern bool json_output;

void vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vjson_error(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool root_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void need_warden(void);
bool parse_ull(const char *s, unsigned long long *value);
bool parse_int(const char *s, int *value);
int read_text(const char *path, char *buf, size_t size);
int read_knob(const char *name, int *value);
int write_text(const char *path, const char *text);
int write_knob(const char *name, int value);
void set_knob(const char *name, int value);
void print_text(const char *s);

/* rules.c */

/* A rule, as the kernel names it and as wardenctl shows and explains it. */
struct rule {
	/*
	 * The name of the rule in the reports, the counters and the policies,
	 * and of its level, the sysctl kernel.warden.NAME.
	 */
	const char *name;
	const char *complain;	/* its mode: kernel.warden.NAME_complain */
	const char *alias;	/* for set, exec --ALIAS= and the tables */
	int max;		/* its levels: 0 to max */
	int final;		/* a level no write leaves, never complaining; or 0 */
	/* A file rule: what a report without op= was about, and the file. */
	const char *op;		/* "follow", "link" or "open_creat" */
	const char *file_kind;	/* "open with O_CREAT the existing FIFO" */
	bool ptrace;		/* its reports name a tracer and a target */
};

#define RULE_COUNT 7

extern const struct rule rules[];

const struct rule *find_rule(const char *name);
const struct rule *rule_by_name(const char *name);
const struct rule *rule_of_knob(const char *knob, bool *complain);

/* log.c */

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

void parse_fields(char *s, struct fields *f);
const char *field(const struct fields *f, const char *key);
const char *field_or_unknown(const struct fields *f, const char *key);

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

/* A line of the log cut into its fields, in a copy of its own. */
struct log_line {
	char text[LOG_BUF_SIZE];
	struct fields f;
};

bool open_log(struct log_reader *r);
int log_next_line(struct log_reader *r, char **line);
char *log_message(char *line, int *prio);

/* What a line of the kernel log is, to wardenctl. */
enum line_kind {
	LINE_OTHER,	/* not Warden's, nor reads like it */
	LINE_REPORT,	/* a report, a change of a setting, a notice */
	LINE_WARDEN,	/* another line of Warden's: "Up and running." */
	LINE_FORGED,	/* reads like Warden's, but is not: skipped */
};

enum line_kind warden_line(const char *msg, int prio);
void parse_line(struct log_line *l, const char *msg);
bool is_denial(const struct fields *f);
bool is_suppressed(const struct fields *f);
enum line_kind warden_audit_line(const char *msg, int prio);

#endif /* WARDENCTL_H */
