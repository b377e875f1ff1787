// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - The kernel log: its reader, and the parser of the key=value
 * fields of Warden's reports and counters, shared by status, watch and
 * explain
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wardenctl.h"

/* Key=value fields of log and counters lines */

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
void parse_fields(char *s, struct fields *const f)
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
const char *field(const struct fields *const f, const char *const key)
{
	int i;

	for (i = 0; i < f->count; i++) {
		if (!strcmp(f->key[i], key))
			return f->value[i];
	}
	return NULL;
}

/* Returns the value of @key, or "?" if the line has none. */
const char *field_or_unknown(const struct fields *const f,
				    const char *const key)
{
	const char *const v = field(f, key);

	return v ? v : "?";
}

/* The kernel log */

/*
 * Sets @line to the next line of the log: returns 1, 0 at the end of a
 * file, or -1 with errno (EAGAIN: nothing more for now; EPIPE: records
 * were overwritten before they were read, read on).
 */
int log_next_line(struct log_reader *const r, char **const line)
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
 * Returns the message of a /dev/kmsg record, as the kernel wrote it:
 * without its "prio,seq,usec,flags;" header and with the escaping of
 * /dev/kmsg undone; sets @prio to the record's PRIO, facility << 3 |
 * level.  A line without that header (a saved dmesg, without its "[ time]
 * ", or a syslog file) says nothing of who wrote it: @prio is -1.
 * The record's dictionary lines (they start with a space) have none: NULL.
 */
char *log_message(char *const line, int *const prio)
{
	char *const semicolon = strchr(line, ';');

	*prio = -1;
	if (line[0] == ' ')
		return NULL;
	if (semicolon && is_kmsg_header(line, semicolon)) {
		const unsigned long p = strtoul(line, NULL, 10);

		*prio = p > INT_MAX ? INT_MAX : (int)p;
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

bool open_log(struct log_reader *const r)
{
	char path[PATH_MAX];

	r->start = 0;
	r->len = 0;
	if (!root_path(path, sizeof(path), "%s", KMSG_PATH)) {
		p_err("cannot open the kernel log: %s", strerror(ENAMETOOLONG));
		return false;
	}
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		p_err("cannot open the kernel log %s: %s", path,
		      strerror(errno));
		return false;
	}
	return true;
}

/* Warden's lines */

/*
 * The kernel log is not an authenticated channel: any task may name
 * itself "warden: " and have the kernel print its name at the start of a
 * line (a segfault does, at KERN_INFO), and user space may write any text
 * to /dev/kmsg.  A line is taken for Warden's only if the kernel printed
 * it, at the level Warden prints it, and in the exact shape of one of
 * Warden's printk formats.
 *
 * The kernel's own records have facility 0, which user space cannot give
 * a write to /dev/kmsg (it gets LOG_USER); the level is pr_notice()'s for
 * the reports, pr_info()'s for the line at boot, pr_err()'s for a bad
 * boot parameter.
 */
#define LOG_ERR_PRIO 3
#define LOG_NOTICE_PRIO 5
#define LOG_INFO_PRIO 6

#define WARDEN_PREFIX "warden: "
#define AUDIT_PREFIX "audit: "

/*
 * Where a number printk writes with @sign (%d, %ld) or without (%u, %zu)
 * ends, if one that fits @max starts at @s: no sign but '-', no leading
 * zero, no "-0".
 */
static const char *match_number(const char *s, const bool sign,
				const unsigned long long max)
{
	const bool minus = sign && *s == '-';
	unsigned long long n = 0;
	const char *digits;

	s += minus;
	digits = s;
	while (isdigit((unsigned char)*s)) {
		const unsigned int d = *s - '0';

		if (n > (max + minus - d) / 10)
			return NULL;
		n = n * 10 + d;
		s++;
	}
	if (s == digits || (*digits == '0' && s - digits > 1) ||
	    (minus && !n))
		return NULL;
	return s;
}

/* A word the kernel chose: a rule, an op, a verdict, a key. */
static const char *match_word(const char *s)
{
	const char *const start = s;

	while (is_key_char(*s))
		s++;
	return s > start ? s : NULL;
}

/*
 * Whether report.c's escape_name() would escape @c: every byte but
 * printable ASCII, and the space, the quote and the backslash.
 */
static bool is_escaped_byte(const int c)
{
	return c <= ' ' || c > '~' || c == '"' || c == '\\';
}

/*
 * A name a user chose, as escape_name() writes it, up to its closing
 * quote: printable ASCII but what it escapes, and "\xhh" (lowercase) of
 * only what it escapes.
 */
static const char *match_name(const char *s)
{
	while (*s != '"') {
		if (*s == '\\') {
			const int c = hex_escape(s);

			if (c < 0 || !is_escaped_byte(c) ||
			    isupper((unsigned char)s[2]) ||
			    isupper((unsigned char)s[3]))
				return NULL;
			s += 4;
		} else if (is_escaped_byte((unsigned char)*s)) {
			return NULL;
		} else {
			s++;
		}
	}
	return s;
}

/* A policy as policy.c's format_policy() writes it: "RULE=N RULE=N". */
static const char *match_policy(const char *s)
{
	for (;;) {
		s = match_word(s);
		if (!s || *s != '=')
			return NULL;
		s = match_number(s + 1, false, UINT_MAX);
		if (!s || *s != ' ')
			return s;
		s++;
	}
}

/*
 * A string audit_log_untrustedstring() writes: in quotes if it has no
 * quote, space, control byte nor byte above 0x7e, else in uppercase hex.
 */
static const char *match_audit_string(const char *s)
{
	const char *const start = s;

	if (*s == '"') {
		for (s++; *s && *s != '"'; s++) {
			if (*s < '!' || *s > '~')
				return NULL;
		}
		return *s ? s + 1 : NULL;
	}
	while (isdigit((unsigned char)*s) || (*s >= 'A' && *s <= 'F'))
		s++;
	return s > start && !((s - start) % 2) ? s : NULL;
}

/* A tty as audit_log_task_info() writes it: "(none)", "pts0", "ttyS0". */
static const char *match_tty(const char *s)
{
	const char *const start = s;

	if (!strncmp(s, "(none)", 6))
		return s + 6;
	while (isalnum((unsigned char)*s))
		s++;
	return s > start ? s : NULL;
}

static const char *match_shape(const char *s, const char *fmt);

/* @s without what @fmt matches at its start, or @s if it matches nothing. */
static const char *match_optional(const char *const s, const char *const fmt)
{
	const char *const end = match_shape(s, fmt);

	return end ? end : s;
}

/*
 * audit_log_task_context()'s " subj=LABEL", if there is one: the label is
 * the security module's, and may have a space ("/usr/bin/man (enforce)"),
 * so it runs to the literal text of @fmt that comes next.
 */
static const char *match_subj(const char *s, const char *fmt)
{
	char next[32];
	size_t len = strcspn(fmt, "%");
	const char *end;

	if (strncmp(s, " subj=", 6))
		return s;
	if (!len || len >= sizeof(next))
		return NULL;
	memcpy(next, fmt, len);
	next[len] = '\0';
	end = strstr(s + 6, next);
	if (!end || end == s + 6)
		return NULL;
	for (s += 6; s < end; s++) {
		if (*s < ' ' || *s > '~')
			return NULL;
	}
	return end;
}

/*
 * Where the text at @s that @fmt matches ends, or NULL: @fmt is a printk
 * format of the kernel's, with these conversions:
 *   %d %u %ld %zu  a number of that type, as printk writes it
 *   %04o           four octal digits
 *   %03u           three decimal digits
 *   %w             a word the kernel chose: [a-z0-9_]+
 *   %e             a name a user chose, escaped by report.c, to a quote
 *   %p             a policy, "RULE=N RULE=N ..."
 *   %D             report.c's " dir_uid=%u dir_mode=%04o", or nothing
 *   %T             report.c's " target_uid=%u", or nothing
 *   %C             report.c's " path_cut=%zu", or nothing
 *   %a             a string audit_log_untrustedstring() wrote
 *   %t             the tty of audit_log_task_info()
 *   %S             the " subj=" of audit_log_task_info(), or nothing
 */
static const char *match_shape(const char *s, const char *fmt)
{
	int i;

	while (s && *fmt) {
		if (*fmt != '%') {
			if (*s++ != *fmt++)
				return NULL;
			continue;
		}
		fmt++;
		if (!strncmp(fmt, "04o", 3) || !strncmp(fmt, "03u", 3)) {
			const char last = fmt[2] == 'o' ? '7' : '9';

			for (i = 0; i < fmt[1] - '0'; i++, s++) {
				if (*s < '0' || *s > last)
					return NULL;
			}
			fmt += 3;
			continue;
		}
		if (!strncmp(fmt, "ld", 2) || !strncmp(fmt, "zu", 2)) {
			s = fmt[0] == 'l' ? match_number(s, true, LONG_MAX) :
					    match_number(s, false, ULLONG_MAX);
			fmt += 2;
			continue;
		}
		switch (*fmt++) {
		case 'd':
			s = match_number(s, true, INT_MAX);
			break;
		case 'u':
			s = match_number(s, false, UINT_MAX);
			break;
		case 'w':
			s = match_word(s);
			break;
		case 'e':
			s = match_name(s);
			break;
		case 'p':
			s = match_policy(s);
			break;
		case 'D':
			s = match_optional(s, " dir_uid=%u dir_mode=%04o");
			break;
		case 'C':
			s = match_optional(s, " path_cut=%zu");
			break;
		case 'T':
			s = match_optional(s, " target_uid=%u");
			break;
		case 'a':
			s = match_audit_string(s);
			break;
		case 't':
			s = match_tty(s);
			break;
		case 'S':
			s = match_subj(s, fmt);
			break;
		default:
			return NULL;
		}
	}
	return s;
}

/* Whether all of @s is in the shape of @fmt. */
static bool is_shape(const char *const s, const char *const fmt)
{
	const char *const end = match_shape(s, fmt);

	return end && !*end;
}

/*
 * The formats of security/warden/report.c, after its pr_fmt() "warden: ",
 * as of "warden: Restrict following symlinks whose owner does not
 * match": a file rule's report (the "%s=%u" is link_uid= or file_uid=,
 * target_uid= only protected_symlink_owner's), ptrace_scope's, a change
 * of a setting or of a process's policy, and the ratelimits' notices.
 */
static const char *const report_shapes[] = {
	"rule=%w verdict=%w op=%w knob=kernel.warden.%w allowed_at=%d source=%w pid=%d uid=%u fsuid=%u ppid=%d %w=%u%D%T comm=\"%e\" pcomm=\"%e\"%C path=\"%e\"",
	"rule=ptrace_scope verdict=%w op=%w knob=kernel.warden.ptrace_scope allowed_at=%d source=%w scope=%d tracer_pid=%d tracer_uid=%u target_pid=%d target_uid=%u ppid=%d tracer_comm=\"%e\" target_comm=\"%e\" pcomm=\"%e\"",
	"setting=kernel.warden.%w old=\"%d\" new=\"%d\" via=%w res=%d pid=%d uid=%u auid=%u ses=%u comm=\"%e\"",
	"setting=policy old=\"%p\" new=\"%p\" via=process res=%d pid=%d uid=%u auid=%u ses=%u comm=\"%e\"",
	"rule=%w suppressed=%ld subject=%w",
	"setting=policy suppressed=%ld",
};

/*
 * What the shapes leave open but the kernel cannot print: a key twice
 * (a file report's "%s=%u" is one of its own keys), a knob that is not
 * the rule's, or a file report of ptrace_scope.
 */
static bool is_consistent(const char *const text)
{
	static struct log_line l;
	const char *rule, *knob;
	const struct rule *r;

	parse_line(&l, text);
	if (l.f.malformed)
		return false;
	rule = field(&l.f, "rule");
	knob = field(&l.f, "knob");
	if (!rule || !knob)
		return true;
	r = rule_by_name(rule);
	if (r && r->ptrace && field(&l.f, "path"))
		return false;
	return !strncmp(knob, KNOB_PREFIX, strlen(KNOB_PREFIX)) &&
	       !strcmp(knob + strlen(KNOB_PREFIX), rule);
}

/*
 * settings.c's complaints about a boot parameter, "`%s' invalid for
 * parameter `warden.%s'" and "unknown parameter `warden.%.*s'": the text
 * in the first pair of quotes is the command line's, as root wrote it.
 */
static bool is_param_error(const char *const text)
{
	static const char invalid[] = "' invalid for parameter `warden.";
	static const char unknown[] = "unknown parameter `warden.";
	const size_t len = strlen(text);
	const char *s, *last = NULL;

	if (!len || text[len - 1] != '\'')
		return false;
	if (!strncmp(text, unknown, strlen(unknown)))
		return true;
	if (text[0] != '`')
		return false;
	for (s = text; (s = strstr(s, invalid)); s++)
		last = s;
	s = last ? match_word(last + strlen(invalid)) : NULL;
	return s && !strcmp(s, "'");
}

/**
 * warden_line - Whether a message of the kernel log is one of Warden's
 * @msg: The message, from log_message().
 * @prio: Its record's priority, from log_message().
 *
 * Return: LINE_REPORT for a report, a change of a setting or a notice of
 * the ratelimits; LINE_WARDEN for another of Warden's lines, which
 * explains nothing ("Up and running.", a bad boot parameter); LINE_FORGED for a line that reads
 * like Warden's, but that the kernel did not print as Warden prints, or
 * not in Warden's shape; LINE_OTHER for anything else.
 */
enum line_kind warden_line(const char *const msg, const int prio)
{
	const char *const text = msg + strlen(WARDEN_PREFIX);
	size_t i;

	if (strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX)))
		return LINE_OTHER;
	if (prio == LOG_INFO_PRIO && !strcmp(text, "Up and running."))
		return LINE_WARDEN;
	if (prio == LOG_ERR_PRIO && is_param_error(text))
		return LINE_WARDEN;
	if (prio != LOG_NOTICE_PRIO)
		return LINE_FORGED;
	for (i = 0; i < ARRAY_SIZE(report_shapes); i++) {
		if (is_shape(text, report_shapes[i]))
			return is_consistent(text) ? LINE_REPORT : LINE_FORGED;
	}
	return LINE_FORGED;
}

void parse_line(struct log_line *const l, const char *const msg)
{
	snprintf(l->text, sizeof(l->text), "%s", msg);
	parse_fields(l->text, &l->f);
}

/*
 * Whether @f is Warden's report of a denial (or of a complain-mode
 * allow): the ratelimit's notices name a rule too, but no verdict.
 */
bool is_denial(const struct fields *const f)
{
	return field(f, "rule") && field(f, "verdict");
}

/* Whether @f counts the reports a ratelimit dropped. */
bool is_suppressed(const struct fields *const f)
{
	return field(f, "suppressed") &&
	       (field(f, "rule") || field(f, "setting"));
}

/*
 * Audit records reach the kernel log when no audit daemon takes them:
 * kauditd_printk_skb() prints "type=%d %s" with pr_notice() and the
 * pr_fmt "audit: ", after audit_log_start()'s "audit(%llu.%03lu:%u): ".
 * Warden's, from report.c, are of two types of its own, which the audit
 * tools do not name (auditd writes them as UNKNOWN[1430] and
 * UNKNOWN[1431]): AUDIT_WARDEN_ACCESS (1430) for every refusal, a file
 * rule's and ptrace_scope's, and AUDIT_WARDEN_CONFIG_CHANGE (1431) for a
 * change of a setting; audit_log_task_info() writes the
 * task in the middle of a file rule's and of a change.  The fields have
 * the names of audit's field dictionary (res=, permissive=, ouid=, opid=,
 * ocomm=), so that auparse reads them as it reads other records: the
 * owner of a file rule's file is ouid= (the log line's link_uid= or
 * file_uid=).  A record is Warden's by its type and its lsm=warden, in
 * its place in the shape: a record of another type that names lsm=warden
 * (an AVC, 1400, an ANOM_LINK, 1702, a MAC_CONFIG_CHANGE, 1405, as
 * Warden wrote them once, or a user message) is not.
 */
#define AUDIT_TASK_INFO " ppid=%d pid=%d auid=%u uid=%u gid=%u euid=%u suid=%u fsuid=%u egid=%u sgid=%u fsgid=%u tty=%t ses=%u comm=%a exe=%a%S"

static const char *const audit_shapes[] = {
	"type=1430 lsm=warden rule=%w op=%w res=%d permissive=%d allowed_at=%d source=%w" AUDIT_TASK_INFO " path=%a ouid=%u%D%T",
	"type=1430 lsm=warden rule=ptrace_scope op=%w res=%d permissive=%d allowed_at=%d source=%w scope=%d pid=%d uid=%u auid=%u ses=%u comm=%a opid=%d ocomm=%a",
	"type=1431 lsm=warden op=set setting=kernel.warden.%w old=\"%d\" new=\"%d\" via=%w" AUDIT_TASK_INFO " res=%d",
	"type=1431 lsm=warden op=set setting=policy old=\"%p\" new=\"%p\" via=process" AUDIT_TASK_INFO " res=%d",
};

/*
 * What the audit shapes leave open but the kernel cannot write: a key
 * twice, a file rule's record of ptrace_scope, or a refusal whose res=
 * is not its permissive= (res=0 permissive=0 for one that enforced, res=1
 * permissive=1 for one that complain mode let through).
 */
static bool is_consistent_audit(const char *const text)
{
	static struct log_line l;
	const char *rule, *res, *permissive;
	const struct rule *r;

	parse_line(&l, text);
	if (l.f.malformed)
		return false;
	rule = field(&l.f, "rule");
	if (!rule)
		return true;	/* A change of a setting. */
	r = rule_by_name(rule);
	if (r && r->ptrace && field(&l.f, "path"))
		return false;
	res = field(&l.f, "res");
	permissive = field(&l.f, "permissive");
	return res && permissive && !strcmp(res, permissive) &&
	       (!strcmp(res, "0") || !strcmp(res, "1"));
}

/*
 * Like warden_line(), for an audit record in the kernel log: LINE_REPORT
 * for one of Warden's, LINE_FORGED for one that names lsm=warden but is
 * not one the kernel printed in Warden's shape, else LINE_OTHER.
 */
enum line_kind warden_audit_line(const char *const msg, const int prio)
{
	static char text[LOG_BUF_SIZE];
	const char *const type = msg + strlen(AUDIT_PREFIX);
	const char *rest;
	size_t i;

	if (strncmp(msg, AUDIT_PREFIX, strlen(AUDIT_PREFIX)) ||
	    !strstr(msg, "lsm=warden"))
		return LINE_OTHER;
	/* "type=N " then "audit(%llu.%03lu:%u): ", cut out for the shapes. */
	rest = match_shape(type, "type=%u audit(%zu.%03u:%u): ");
	if (prio != LOG_NOTICE_PRIO || !rest)
		return LINE_FORGED;
	snprintf(text, sizeof(text), "%.*s%s", (int)strcspn(type, " ") + 1,
		 type, rest);
	for (i = 0; i < ARRAY_SIZE(audit_shapes); i++) {
		if (is_shape(text, audit_shapes[i]))
			return is_consistent_audit(text) ? LINE_REPORT :
							   LINE_FORGED;
	}
	return LINE_FORGED;
}
