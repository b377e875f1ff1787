// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - watch: Warden's reports as the kernel logs them
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wardenctl.h"

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

/*
 * Says, on stderr, that a line that reads like Warden's was not printed:
 * the kernel log is not authenticated, and the line is someone else's.
 * The record's sequence number (its header is not escaped) finds it in
 * /dev/kmsg; its text is not shown, it is not Warden's.
 */
static void skipped(const char *const line)
{
	const size_t seq = strcspn(line, ",");

	if (line[seq] == ',')
		warn("skipped a kernel log record that reads like Warden's but is not (seq %.*s)",
		     (int)strcspn(line + seq + 1, ",;"), line + seq + 1);
	else
		warn("skipped a kernel log line that reads like Warden's but is not: it has no /dev/kmsg header");
}

int cmd_watch(const int argc, char *const argv[])
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
		enum line_kind kind;
		const char *msg;
		int prio;

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
		msg = log_message(line, &prio);
		if (!msg)
			continue;
		kind = warden_line(msg, prio);
		if (audit && kind == LINE_OTHER)
			kind = warden_audit_line(msg, prio);
		if (kind == LINE_FORGED) {
			skipped(line);
			continue;
		}
		if (kind == LINE_OTHER)
			continue;
		print_text(msg);
		putchar('\n');
		seen++;
	}
	close(r.fd);
	return EXIT_SUCCESS;
}
