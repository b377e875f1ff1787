// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - Paths, numbers and files: what every command needs
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_writer.h"
#include "wardenctl.h"

/* Set by a command's --json: its errors are JSON on stdout too. */
bool json_output;

void vwarn(const char *const fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* A warning, or the reason of a failure, on stderr. */
void warn(const char *const fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

/* An error as one JSON object on stdout, {"error":"..."}, as bpftool's. */
void vjson_error(const char *const fmt, va_list ap)
{
	char msg[2 * PATH_MAX];
	json_writer_t w;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	jsonw_init(&w, stdout);
	jsonw_start_object(&w);
	jsonw_string_field(&w, "error", msg);
	jsonw_end_object(&w);
	jsonw_end(&w);
}

/*
 * Why a command fails: on stderr, or with --json, as JSON on stdout
 * instead, where a program reading the JSON finds it.  A warning that
 * comes with the command's output stays a warn().
 */
void p_err(const char *const fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (json_output)
		vjson_error(fmt, ap);
	else
		vwarn(fmt, ap);
	va_end(ap);
}

/* Paths */

/* Puts WARDENCTL_ROOT, if set, in front of @path: fails on overflow. */
bool root_path(char *const buf, const size_t size,
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
void need_warden(void)
{
	if (is_warden_present())
		return;
	p_err("Warden is not active: there is no %s "
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
bool parse_ull(const char *const s, unsigned long long *const value)
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

bool parse_int(const char *const s, int *const value)
{
	unsigned long long v;

	if (!parse_ull(s, &v) || v > INT_MAX)
		return false;
	*value = (int)v;
	return true;
}

/* Files */

/* Reads the file @path as a string: returns 0 or an errno. */
int read_text(const char *const path, char *const buf,
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
int read_knob(const char *const name, int *const value)
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
 * Writes @text to @path with one write(2) of the whole text, so that the
 * kernel takes all of it or none: returns 0 or an errno.  O_TRUNC does
 * nothing to a sysctl or an attr file, but keeps a fake one exact.
 */
int write_text(const char *const path, const char *const text)
{
	const size_t len = strlen(text);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	do {
		n = write(fd, text, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* Writes @value to kernel.warden.@name: returns 0 or an errno. */
int write_knob(const char *const name, const int value)
{
	char path[PATH_MAX], buf[32];

	if (!root_path(path, sizeof(path), "%s/%s", SYSCTL_DIR, name))
		return ENAMETOOLONG;
	snprintf(buf, sizeof(buf), "%d\n", value);
	return write_text(path, buf);
}

/* Sets kernel.warden.@name to @value and reads it back: exits on failure. */
void set_knob(const char *const name, const int value)
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

/*
 * Prints @s as it is, but for the bytes a terminal would act on: control
 * bytes and bytes above 0x7e are shown as the kernel escapes them, \xHH.
 * The names in a report are escaped already, and stay so.
 */
void print_text(const char *s)
{
	for (; *s; s++) {
		const unsigned char c = *s;

		if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}
