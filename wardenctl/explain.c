// SPDX-License-Identifier: GPL-2.0-only
/*
 * wardenctl - explain: the last denials and settings changes in plain words
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_writer.h"
#include "wardenctl.h"

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
	const struct rule *const r = rule_by_name(rule);

	if (!rule)
		return DROP_POLICY;
	return r ? (size_t)(r - rules) : DROP_OTHER;
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
 * Files one of Warden's lines (warden_line() took it, so it is not
 * malformed; the check stays, as a second one): a denial, or a line naming a
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

/* The kind of file rule @r (NULL: a rule unknown here) opens with O_CREAT. */
static const char *file_kind(const struct rule *const r)
{
	return r && r->file_kind ? r->file_kind : "file";
}

/* The operation the file rule @r checks, for a report that lost its op=. */
static const char *default_op(const struct rule *const r)
{
	return r && r->op ? r->op : "?";
}

/*
 * The path as logged: "?" is one d_path() could not resolve, and one too
 * long for the record starts with "..." with path_cut= bytes of its head
 * left out; path_cut=0 is a path longer than PATH_MAX, cut by an unknown
 * count.
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
	if (cut && !strcmp(cut, "0")) {
		printf(" (cut: longer than PATH_MAX, how much more is unknown)");
	} else if (cut) {
		printf(" (cut: ");
		print_value(cut);
		printf(" more bytes not logged)");
	}
}

static void explain_fs(const struct fields *const f, const struct rule *const r)
{
	const char *const op = field(f, "op") ? field(f, "op") : default_op(r);
	const char *owner = field(f, "file_uid");

	explain_who(f, "");
	printf("    what:    ");
	if (!strcmp(op, "follow") && field(f, "target_uid")) {
		/* protected_symlink_owner: the path is where the link led. */
		printf("follow a symlink owned by uid ");
		print_value(field(f, "link_uid"));
		printf(" to ");
		owner = field(f, "target_uid");
	} else if (!strcmp(op, "follow")) {
		owner = field(f, "link_uid");
		printf("follow the symlink ");
	} else if (!strcmp(op, "follow_untrusted")) {
		/* protected_symlink_owner: owners a user wrote (FUSE, userns). */
		owner = field(f, "link_uid");
		printf("follow, where a user writes the owners, the symlink ");
	} else if (!strcmp(op, "link")) {
		printf("make a hard link to ");
	} else if (!strcmp(op, "exec")) {
		/* protected_nonaccess_hardlinks: a pinned, removed file. */
		printf("run with its privileges the removed file ");
	} else if (!strcmp(op, "open_creat")) {
		printf("open with O_CREAT the existing %s ", file_kind(r));
	} else if (!strcmp(op, "write")) {
		printf("write to (open for writing, or truncate) ");
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
	} else if (!strcmp(op, "read")) {
		/* PTRACE_MODE_READ: /proc/PID/environ, fd, perf_event_open() */
		printf("read the /proc files (environ, fd, maps) or perf events of ");
	} else if (!strcmp(op, "setrlimit")) {
		printf("change the resource limits (prlimit) of ");
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
	const struct rule *const r = rule_by_name(rule);
	const char *const knob = field(f, "knob");
	const char *const scope = field(f, "scope");
	/* A set command needs a rule this wardenctl knows. */
	const char *const alias = r ? r->alias : NULL;
	const bool final = r && r->final && scope && atoi(scope) == r->final;
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
		printf("    %s %d cannot be lowered and always enforces until reboot:\n"
		       "      boot with warden.%s=%s instead\n",
		       r->name, r->final, r->name, level[0] ? level : "N");
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
	const struct rule *r;
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
	r = rule_by_name(rule);
	if (r && r->ptrace)
		explain_ptrace(f);
	else
		explain_fs(f, r);
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
	bool complain = false;
	const struct rule *const r = rule_of_knob(setting, &complain);
	const char *const name = r ? r->name : NULL;
	int from, to;

	if (!r || !parse_int(old, &from) || !parse_int(new, &to) ||
	    to == from || (complain ? to < from : to > from))
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

/* The notices of @d, as [{"rule":R,"subject":S,"suppressed":N}, ...]. */
static void json_drops(json_writer_t *const w, const struct drops *const d)
{
	size_t row, col;

	jsonw_start_array(w);
	for (row = 0; d && row < DROP_ROWS; row++) {
		for (col = 0; col < DROP_COLUMNS; col++) {
			if (!d->n[row][col])
				continue;
			jsonw_start_object(w);
			if (row == DROP_POLICY)
				jsonw_string_field(w, "setting", "policy");
			else if (row == DROP_OTHER)
				jsonw_null_field(w, "rule");
			else
				jsonw_string_field(w, "rule", rules[row].name);
			if (col != DROP_NO_SUBJECT)
				jsonw_string_field(w, "subject", subjects[col]);
			jsonw_uint_field(w, "suppressed", d->n[row][col]);
			jsonw_end_object(w);
		}
	}
	jsonw_end_array(w);
}

/* {"line":..., "malformed":false, "fields":{...}, "suppressed_before":[...]} */
static void json_report(json_writer_t *const w, const struct report *const rep)
{
	static struct log_line l;
	int i;

	parse_line(&l, rep->msg);
	jsonw_start_object(w);
	jsonw_string_field(w, "line", rep->msg);
	jsonw_bool_field(w, "malformed", l.f.malformed);
	if (l.f.malformed) {
		jsonw_null_field(w, "fields");
	} else {
		jsonw_name(w, "fields");
		jsonw_start_object(w);
		for (i = 0; i < l.f.count; i++)
			jsonw_string_field(w, l.f.key[i], l.f.value[i]);
		jsonw_end_object(w);
	}
	jsonw_name(w, "suppressed_before");
	json_drops(w, rep->drops);
	jsonw_end_object(w);
}

static void json_ring(json_writer_t *const w, const char *const name,
		      const struct ring *const r)
{
	unsigned long i;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (i = 0; i < ring_kept(r); i++)
		json_report(w, ring_at(r, i));
	jsonw_end_array(w);
}

static void print_explain_json(const struct ring *const denials,
			       const struct ring *const settings,
			       const unsigned long skipped, const bool audit)
{
	struct drops after = { 0 };
	json_writer_t w;

	merge_drops(&after, denials->pending);
	merge_drops(&after, settings->pending);
	jsonw_init(&w, stdout);
	jsonw_start_object(&w);
	json_ring(&w, "denials", denials);
	json_ring(&w, "settings", settings);
	jsonw_name(&w, "suppressed_after");
	json_drops(&w, &after);
	jsonw_string_field(&w, "source", KMSG_PATH);
	jsonw_uint_field(&w, "skipped", skipped);
	if (audit)
		jsonw_string_field(&w, "audit_log", AUDIT_LOG_PATH);
	else
		jsonw_null_field(&w, "audit_log");
	jsonw_end_object(&w);
	jsonw_end(&w);
}

/*
 * Whether an audit daemon keeps its log here: its records reach it from
 * the kernel by netlink, of types no user can write, where the kernel
 * log takes anyone's text.  Where it is, it is the source to prefer.
 */
static bool has_audit_log(void)
{
	char path[PATH_MAX];
	struct stat st;

	return root_path(path, sizeof(path), "%s", AUDIT_LOG_PATH) &&
	       !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Where the reports come from, and that it is not an authenticated
 * channel: what wardenctl skipped there reads like Warden's, and is
 * someone else's.  Where audit keeps a log, that is the better source.
 */
static void print_source(const unsigned long skipped, const bool audit)
{
	printf("From the kernel log, " KMSG_PATH ": not an authenticated channel; only\n"
	       "lines the kernel printed at NOTICE in the shape of Warden's are read.\n");
	if (audit)
		printf("Audit keeps a log here, " AUDIT_LOG_PATH ": its records, which\n"
		       "no user can forge, are the better source (ausearch(8); see wardenctl(8)).\n");
	if (skipped)
		printf("Skipped %lu line%s that read%s like Warden's but %s not (see wardenctl(8)).\n",
		       skipped, skipped == 1 ? "" : "s", skipped == 1 ? "s" : "",
		       skipped == 1 ? "is" : "are");
	printf("\n");
}

int cmd_explain(const int argc, char *const argv[])
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
	unsigned long want = 10, skipped = 0;
	enum line_kind kind;
	bool json = false;
	char *line;
	int c, got, prio;

	json_output = wants_json(argc, argv, ":hn:", longopts);
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
		p_err("%s", strerror(ENOMEM));
		return EXIT_FAIL;
	}
	/* The backlog only: EAGAIN from /dev/kmsg, EOF from a file. */
	while ((got = log_next_line(&r, &line)) != 0) {
		char *msg;

		if (got < 0 && errno == EPIPE)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got < 0) {
			p_err("cannot read the kernel log: %s", strerror(errno));
			return EXIT_FAIL;
		}
		msg = log_message(line, &prio);
		kind = msg ? warden_line(msg, prio) : LINE_OTHER;
		if (kind == LINE_FORGED)
			skipped++;
		if (kind != LINE_REPORT)
			continue;
		if (!take_line(msg, &denials, &settings)) {
			p_err("%s", strerror(ENOMEM));
			return EXIT_FAIL;
		}
	}
	close(r.fd);

	if (json) {
		print_explain_json(&denials, &settings, skipped,
				   has_audit_log());
	} else {
		print_source(skipped, has_audit_log());
		explain_ring(&denials, &denial);
		printf("\n");
		explain_ring(&settings, &setting);
	}
	ring_free(&denials);
	ring_free(&settings);
	return EXIT_SUCCESS;
}
