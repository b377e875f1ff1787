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
 * Returns the message of a log line, as the kernel wrote it: that of a
 * /dev/kmsg record without its "prio,seq,usec,flags;" header and with the
 * escaping of /dev/kmsg undone, or that of a saved dmesg, raw already,
 * without its "[ time] ".  The record's dictionary lines (they start with
 * a space) have none: NULL.  Nor has a record that user space wrote to
 * /dev/kmsg: the kernel gives those a facility other than its own, 0.
 */
char *log_message(char *const line)
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

#define WARDEN_PREFIX "warden: "

bool is_warden_line(const char *const msg)
{
	return !strncmp(msg, WARDEN_PREFIX, strlen(WARDEN_PREFIX));
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
 * "audit: type=1702 audit(...): lsm=warden ...", and the same for the
 * types 1703 (ANOM_CREAT), 1400 (AVC) and 1405 (MAC_CONFIG_CHANGE).
 */
bool is_warden_audit(const char *const msg)
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
