// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - Show and change Warden's settings, follow and explain its
 * reports: the usage, the options of the commands, and the commands' table
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wardenctl.h"

const char *progname = "wardenctl";

void usage(FILE *const out)
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

void usage_error(const char *const fmt, ...)
{
	va_list ap;

	if (json_output) {
		va_start(ap, fmt);
		vjson_error(fmt, ap);
		va_end(ap);
	}
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(EXIT_USAGE);
}

/* Subcommand options */

/*
 * Parses the options of a subcommand: @argv[0] is its name.  getopt's own
 * messages would name the subcommand as the program, so they are ours.
 */
int check_option(const int c, char *const argv[])
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

int next_option(const int argc, char *const argv[],
		       const char *const shortopts,
		       const struct option *const longopts)
{
	return check_option(getopt_long(argc, argv, shortopts, longopts, NULL),
			    argv);
}

/* Starts option parsing over, for a subcommand's own argv. */
void reset_options(void)
{
	optind = 0;
	opterr = 0;
}

/*
 * Whether a command's options (--json is 'j') ask for JSON, wherever
 * --json stands: a silent pass of getopt before the real one, so that a
 * bad option or value before --json is told in JSON too.
 */
bool wants_json(const int argc, char *const argv[], const char *const shortopts,
		const struct option *const longopts)
{
	bool json = false;
	int c;

	reset_options();
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		json |= c == 'j';
	reset_options();
	return json;
}

void no_more_args(const int argc, char *const argv[])
{
	if (optind < argc)
		usage_error("%s: unexpected argument '%s'", argv[0],
			    argv[optind]);
}

/* A count on the command line: 1 or more. */
unsigned long parse_count(const char *const cmd, const char *const opt,
				 const char *const s)
{
	unsigned long long v;

	if (!parse_ull(s, &v) || v < 1 || v > 1000000)
		usage_error("%s: %s needs a number from 1 to 1000000, not '%s'",
			    cmd, opt, s);
	return v;
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
