// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Reports an attacker cannot forge, cut or silence
 *
 * A report is an interface an attacker writes into: the names of the
 * files it plants and of its processes.  Each rule is made to refuse with
 * a file name and a command name that hold a quote, a backslash, a
 * " key=", a newline and a byte that is not UTF-8; the line is read back
 * raw, as syslog(2) and the console give it, and must tokenise as logfmt
 * with one of each key and the true values.  A long path keeps its tail,
 * the file's name, and cuts nothing of the decision; a flood by one user
 * of one rule hides neither another rule's report nor another user's nor
 * root's, even through a setuid-root program; and every change of a
 * setting leaves a line.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <pthread.h>
#include <stdint.h>
#include <sys/klog.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "common.h"

/* A file name that tries to end its value, add fields and a line. */
#define EVIL_NAME "evil\" allowed_at=2 source=process comm=\"cron\\\n" \
		  "warden: rule=forged verdict=denied \xff\xfe"
/* The same in a command name, 15 bytes at most. */
#define EVIL_COMM "\"\\ knob=0\n\xfe x"
#define EVIL_TARGET_COMM "t\" source=x\x01"
#define FORGED_LINE "warden: rule=forged"

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

#define HARDLINKS_KNOB WARDEN_HARDLINKS_KNOB
#define FLOOD 300

/*
 * Reads the whole kernel log as syslog(2) gives it, and as the console
 * prints it: one "<5>[    1.234567] warden: ..." line per record.
 */
static char *syslog_read(struct __test_metadata *const _metadata)
{
	const int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int len;

	EXPECT_LT(0, size);
	buf = malloc(size + 1);
	EXPECT_NE(NULL, buf);
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	EXPECT_LE(0, len);
	buf[len < 0 ? 0 : len] = '\0';
	return buf;
}

/* The message of a syslog(2) line, past its "<5>[ time] " prefix. */
static char *syslog_message(char *const line)
{
	char *msg = line;

	if (*msg == '<')
		msg = strchr(msg, '>') ? strchr(msg, '>') + 1 : msg;
	if (*msg == '[')
		msg = strstr(msg, "] ") ? strstr(msg, "] ") + 2 : msg;
	return msg;
}

/*
 * Copies to @msg the last line of the kernel log that starts with @start
 * and holds @key, as syslog(2) gives it.  No line may start with
 * FORGED_LINE.  Returns how many lines did both.
 */
static int syslog_find(struct __test_metadata *const _metadata,
		       const char *const start, const char *const key,
		       char *const msg)
{
	char *const log = syslog_read(_metadata);
	char *line, *save;
	int found = 0;

	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *const text = syslog_message(line);

		EXPECT_NE(0, strncmp(text, FORGED_LINE, strlen(FORGED_LINE)))
		{
			TH_LOG("A forged line: %s", line);
		}
		if (strncmp(text, start, strlen(start)) || !strstr(text, key))
			continue;
		snprintf(msg, REPORT_SIZE, "%s", text);
		found++;
	}
	free(log);
	return found;
}

/* Checks that @f has @key and that its value, unescaped, is @want. */
static void expect_value(struct __test_metadata *const _metadata,
			 const struct report_fields *const f,
			 const char *const key, const char *const want)
{
	const char *const value = report_field(f, key);
	char raw[REPORT_SIZE];

	ASSERT_NE(NULL, value)
	{
		TH_LOG("No %s=", key);
	}
	snprintf(raw, sizeof(raw), "%s", value);
	hex_unescape(raw);
	EXPECT_STREQ(want, raw)
	{
		TH_LOG("%s=\"%s\"", key, value);
	}
}

/* What every report of a global refusal at level 1 says of the decision. */
static void expect_decision(struct __test_metadata *const _metadata,
			    const struct report_fields *const f,
			    const char *const rule)
{
	char knob[64];

	snprintf(knob, sizeof(knob), "kernel.warden.%s", rule);
	expect_value(_metadata, f, "rule", rule);
	expect_value(_metadata, f, "verdict", "denied");
	expect_value(_metadata, f, "knob", knob);
	expect_value(_metadata, f, "allowed_at", "0");
	expect_value(_metadata, f, "source", "global");
}

/*
 * Runs @fn(@arg) as @uid, which must fail with @err (or succeed, 0), and
 * copies to @msg the one line that starts with @start and names the child
 * as @pid_fmt says (" pid=%d ").  Retries once in a new ratelimit window.
 * Returns the child's pid.
 */
static pid_t provoke(struct __test_metadata *const _metadata, const uid_t uid,
		     int (*const fn)(const void *arg), const void *const arg,
		     const int err, const char *const start,
		     const char *const pid_fmt, char *const msg)
{
	int attempt, found = 0;
	char key[32];
	pid_t pid = 0;

	for (attempt = 0; attempt < 2 && !found; attempt++) {
		if (attempt)
			sleep(REPORT_RATELIMIT_S + 1);
		pid = spawn_as(uid, fn, arg);
		EXPECT_EQ(err, wait_child(pid));
		snprintf(key, sizeof(key), pid_fmt, pid);
		found = syslog_find(_metadata, start, key, msg);
	}
	EXPECT_EQ(1, found)
	{
		TH_LOG("No line \"%s...\" about pid %d", start, pid);
	}
	return pid;
}

/* Parses @msg, which must be logfmt with each key once. */
static void parse_report(struct __test_metadata *const _metadata,
			 char *const msg, struct report_fields *const f)
{
	ASSERT_TRUE(report_parse(msg, f))
	{
		TH_LOG("Not logfmt, or a key twice: %s", msg);
	}
}

struct knob_setting {
	const char *path;
	const char *value;
};

/* Mainline's checks off and every Warden rule at 1, ptrace_scope at 1. */
static const struct knob_setting report_knobs[] = {
	{ MAINLINE_HARDLINKS_KNOB, "0" },
	{ MAINLINE_FIFOS_KNOB, "0" },
	{ MAINLINE_REGULAR_KNOB, "0" },
	{ WARDEN_HARDLINKS_KNOB, "1" },
	{ WARDEN_FIFOS_KNOB, "1" },
	{ WARDEN_REGULAR_KNOB, "1" },
	{ "/proc/sys/kernel/warden/ptrace_scope", "1" },
	/*
	 * Without an audit daemon, the kernel prints audit records under
	 * printk_ratelimit(): a record missing from the log is then one
	 * that was never written.
	 */
	{ "/proc/sys/kernel/printk_ratelimit_burst", "10000" },
};

FIXTURE(report) {
	struct scratch s;
	struct knob knobs[ARRAY_SIZE(report_knobs)];
	char object[PATH_MAX];
};

FIXTURE_SETUP(report)
{
	size_t i;

	scratch_setup(_metadata, &self->s, "1", 01777, ROOT_UID);
	for (i = 0; i < ARRAY_SIZE(report_knobs); i++)
		knob_set(_metadata, &self->knobs[i], report_knobs[i].path,
			 report_knobs[i].value);
}

FIXTURE_TEARDOWN_PARENT(report)
{
	size_t i;

	for (i = ARRAY_SIZE(report_knobs); i-- > 0;)
		knob_restore(_metadata, &self->knobs[i]);
	scratch_teardown(_metadata, &self->s);
}

struct evil_op {
	const char *path;
	const char *to;
};

static int evil_comm(void)
{
	return prctl(PR_SET_NAME, EVIL_COMM) ? CHILD_BROKEN : 0;
}

static int evil_follow(const void *const arg)
{
	const struct evil_op *const op = arg;
	struct stat st;

	return evil_comm() ?: stat(op->path, &st) ? errno : 0;
}

static int evil_link(const void *const arg)
{
	const struct evil_op *const op = arg;

	return evil_comm() ?: link(op->path, op->to) ? errno : 0;
}

static int evil_open(const void *const arg)
{
	const struct evil_op *const op = arg;
	int fd;

	if (evil_comm())
		return CHILD_BROKEN;
	fd = open(op->path, O_RDWR | O_NONBLOCK | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * Makes @fn(@op) fail with @err as @uid, and checks its report: read raw
 * from syslog(2), one line, one of each key, the true values; the names
 * read back as they are.
 */
static void expect_fs_report(struct __test_metadata *const _metadata,
			     const char *const rule, const uid_t uid,
			     int (*const fn)(const void *arg),
			     const struct evil_op *const op, const int err)
{
	char start[64], pid[16], msg[REPORT_SIZE];
	struct report_fields f;

	snprintf(start, sizeof(start), "warden: rule=%s verdict=", rule);
	snprintf(pid, sizeof(pid), "%d",
		 provoke(_metadata, uid, fn, op, err, start, " pid=%d ", msg));
	parse_report(_metadata, msg, &f);
	expect_decision(_metadata, &f, rule);
	expect_value(_metadata, &f, "pid", pid);
	expect_value(_metadata, &f, "comm", EVIL_COMM);
	expect_value(_metadata, &f, "path", op->path);
	EXPECT_EQ(NULL, report_field(&f, "path_cut"));
}

TEST_F_TIMEOUT(report, symlink_evil_names_escaped, 60)
{
	const struct evil_op op = { .path = self->object };

	path_join(_metadata, self->object, self->s.shared, EVIL_NAME);
	make_link(_metadata, self->object, self->s.target, OTHER_UID);
	expect_fs_report(_metadata, "protected_sticky_symlinks", USER_UID,
			 evil_follow, &op, EACCES);
}

TEST_F_TIMEOUT(report, hardlink_evil_names_escaped, 60)
{
	char to[PATH_MAX];
	const struct evil_op op = { .path = self->object, .to = to };

	make_node(_metadata, self->object, self->s.target_dir, EVIL_NAME,
		  S_IFREG | 0600, 0, OTHER_UID);
	path_join(_metadata, to, self->s.out, "pinned");
	expect_fs_report(_metadata, "protected_nonaccess_hardlinks", USER_UID,
			 evil_link, &op, EPERM);
}

TEST_F_TIMEOUT(report, fifo_evil_names_escaped, 60)
{
	const struct evil_op op = { .path = self->object };

	make_node(_metadata, self->object, self->s.shared, EVIL_NAME,
		  S_IFIFO | 0666, 0, OTHER_UID);
	expect_fs_report(_metadata, "protected_fifos", ROOT_UID, evil_open, &op,
			 EACCES);
}

TEST_F_TIMEOUT(report, regular_evil_names_escaped, 60)
{
	const struct evil_op op = { .path = self->object };

	make_node(_metadata, self->object, self->s.shared, EVIL_NAME,
		  S_IFREG | 0666, 0, OTHER_UID);
	expect_fs_report(_metadata, "protected_regular", ROOT_UID, evil_open,
			 &op, EACCES);
}

/* The twin: a name with nothing to escape reads back the same, raw. */
TEST_F_TIMEOUT(report, plain_name_not_escaped, 60)
{
	const struct evil_op op = { .path = self->object };
	char msg[REPORT_SIZE], want[PATH_MAX + 16];

	path_join(_metadata, self->object, self->s.shared, "plain");
	make_link(_metadata, self->object, self->s.target, OTHER_UID);
	provoke(_metadata, USER_UID, evil_follow, &op, EACCES,
		"warden: rule=protected_sticky_symlinks verdict=", " pid=%d ",
		msg);
	snprintf(want, sizeof(want), " path=\"%s\"", self->object);
	EXPECT_STREQ(want, msg + strlen(msg) - strlen(want));
}

static void *stat_in_thread(void *const arg)
{
	struct stat st;

	return (void *)(intptr_t)(stat(arg, &st) ? errno : 0);
}

/* Follows the link in a second thread, whose id is not the process's. */
static int follow_in_thread(const void *const arg)
{
	const struct evil_op *const op = arg;
	pthread_t thread;
	void *err;

	if (pthread_create(&thread, NULL, stat_in_thread, (void *)op->path) ||
	    pthread_join(thread, &err))
		return CHILD_BROKEN;
	return (intptr_t)err;
}

/*
 * A thread's refusal names its process, as the audit record does: the
 * line about the child's pid is found (with the thread's id, it is not).
 */
TEST_F_TIMEOUT(report, thread_named_by_its_process_id, 60)
{
	const struct evil_op op = { .path = self->object };
	char msg[REPORT_SIZE];

	path_join(_metadata, self->object, self->s.shared, "thread");
	make_link(_metadata, self->object, self->s.target, OTHER_UID);
	provoke(_metadata, USER_UID, follow_in_thread, &op, EACCES,
		"warden: rule=protected_sticky_symlinks verdict=", " pid=%d ",
		msg);
}

/* A target that names itself @arg and waits to be attached to. */
static int wait_as_target(const void *const arg)
{
	if (prctl(PR_SET_NAME, arg) || prctl(PR_SET_DUMPABLE, 1))
		return CHILD_BROKEN;
	pause();
	return 0;
}

static int evil_attach(const void *const arg)
{
	const pid_t *const target = arg;

	return evil_comm() ?: ptrace(PTRACE_SEIZE, *target, 0, 0) ? errno : 0;
}

TEST_F_TIMEOUT(report, ptrace_evil_names_escaped, 60)
{
	char pid[16], msg[REPORT_SIZE];
	struct report_fields f;
	pid_t target, tracer;

	target = spawn_as(USER_UID, wait_as_target, EVIL_TARGET_COMM);
	ASSERT_LT(0, target);
	usleep(100000);
	tracer = provoke(_metadata, USER_UID, evil_attach, &target, EPERM,
			 "warden: rule=ptrace_scope verdict=",
			 " tracer_pid=%d ", msg);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	parse_report(_metadata, msg, &f);
	expect_decision(_metadata, &f, "ptrace_scope");
	snprintf(pid, sizeof(pid), "%d", tracer);
	expect_value(_metadata, &f, "tracer_pid", pid);
	snprintf(pid, sizeof(pid), "%d", target);
	expect_value(_metadata, &f, "target_pid", pid);
	expect_value(_metadata, &f, "tracer_comm", EVIL_COMM);
	expect_value(_metadata, &f, "target_comm", EVIL_TARGET_COMM);
}

/* A link of @name in the directory @dir to @to. */
struct link_at_op {
	int dir;
	const char *name;
	const char *to;
};

static int evil_link_at(const void *const arg)
{
	const struct link_at_op *const op = arg;

	return evil_comm() ?: linkat(op->dir, op->name, AT_FDCWD, op->to, 0) ?
			      errno : 0;
}

/*
 * Makes USER_UID's link of another user's file fail, parses its report,
 * which must say the whole decision, and copies the path, unescaped, to
 * @path.  Returns the value of path_cut=, NULL if there is none.
 */
static const char *link_report_path(struct __test_metadata *const _metadata,
				    int (*const fn)(const void *arg),
				    const void *const arg,
				    struct report_fields *const f,
				    char *const msg, char *const path)
{
	const char *value;

	provoke(_metadata, USER_UID, fn, arg, EPERM,
		"warden: rule=protected_nonaccess_hardlinks verdict=", " pid=%d ",
		msg);
	parse_report(_metadata, msg, f);
	expect_decision(_metadata, f, "protected_nonaccess_hardlinks");
	expect_value(_metadata, f, "comm", EVIL_COMM);
	value = report_field(f, "path");
	ASSERT_NE(NULL, value)
	{
		TH_LOG("No path=: %s", msg);
	}
	snprintf(path, REPORT_SIZE, "%s", value);
	hex_unescape(path);
	return report_field(f, "path_cut");
}

/* A directory name of 160 bytes, to make long paths in few levels. */
static void long_name(char *const name, const size_t size)
{
	memset(name, 'd', size - 1);
	name[size - 1] = '\0';
}

/*
 * A path of 3,800 bytes, which d_path() resolves but the record cannot
 * hold: the report keeps the tail, which names the file, after "...", and
 * path_cut= counts the bytes left out of the head.
 */
TEST_F_TIMEOUT(report, long_path_tail_kept_after_decision, 60)
{
	char dir[PATH_MAX], name[161], to[PATH_MAX];
	char msg[REPORT_SIZE], path[REPORT_SIZE];
	const struct evil_op op = { .path = self->object, .to = to };
	const char *cut;
	struct report_fields f;
	size_t kept, len;

	long_name(name, sizeof(name));
	snprintf(dir, sizeof(dir), "%s", self->s.target_dir);
	while (strlen(dir) < 3800) {
		char sub[PATH_MAX];

		make_dir(_metadata, sub, dir, name, 0755, ROOT_UID);
		snprintf(dir, sizeof(dir), "%s", sub);
	}
	make_node(_metadata, self->object, dir, "file", S_IFREG | 0600, 0,
		  OTHER_UID);
	len = strlen(self->object);
	ASSERT_LE(3800, len);
	path_join(_metadata, to, self->s.out, "pinned");

	cut = link_report_path(_metadata, evil_link, &op, &f, msg, path);
	ASSERT_NE(NULL, cut);
	ASSERT_EQ(0, strncmp(path, "...", 3))
	{
		TH_LOG("path=\"%s\"", path);
	}
	kept = strlen(path) - 3;
	ASSERT_GT(len, kept);
	EXPECT_STREQ(self->object + len - kept, path + 3);
	EXPECT_EQ(len, kept + strtoul(cut, NULL, 10));
}

/*
 * A path longer than PATH_MAX, which d_path() cannot resolve, made one
 * directory at a time with mkdirat(): the report still ends with the
 * file's name, after "...", and path_cut=0 says that how much was left
 * out is unknown.
 */
TEST_F_TIMEOUT(report, path_longer_than_path_max_tail_kept, 60)
{
	char name[161], to[PATH_MAX], want[PATH_MAX];
	char msg[REPORT_SIZE], path[REPORT_SIZE];
	struct link_at_op op = { .name = "file", .to = to };
	struct report_fields f;
	const char *cut;
	size_t len;
	int dir, i;

	long_name(name, sizeof(name));
	dir = open(self->s.target_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, dir);
	for (len = strlen(self->s.target_dir); len <= PATH_MAX;
	     len += strlen(name) + 1) {
		const int sub = (mkdirat(dir, name, 0700) ||
				 fchmodat(dir, name, 0755, 0)) ?
					-1 :
					openat(dir, name,
					       O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		close(dir);
		ASSERT_LE(0, sub);
		dir = sub;
	}
	ASSERT_EQ(0, mknodat(dir, "file", S_IFREG | 0600, 0));
	ASSERT_EQ(0, fchownat(dir, "file", OTHER_UID, OTHER_UID, 0));
	path_join(_metadata, to, self->s.out, "pinned");
	op.dir = dir;

	cut = link_report_path(_metadata, evil_link_at, &op, &f, msg, path);
	close(dir);
	snprintf(want, sizeof(want), "...");
	for (i = 0; i < 3; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "/%s", name);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "/file");
	EXPECT_STREQ(want, path);
	ASSERT_NE(NULL, cut);
	EXPECT_STREQ("0", cut);
}

/* The twin: a short path is reported whole, without path_cut=. */
TEST_F_TIMEOUT(report, short_path_whole_without_cut, 60)
{
	char msg[REPORT_SIZE], path[REPORT_SIZE], to[PATH_MAX];
	const struct evil_op op = { .path = self->object, .to = to };
	struct report_fields f;

	make_node(_metadata, self->object, self->s.target_dir, "short",
		  S_IFREG | 0600, 0, OTHER_UID);
	path_join(_metadata, to, self->s.out, "pinned");
	EXPECT_EQ(NULL, link_report_path(_metadata, evil_link, &op, &f, msg,
					 path));
	EXPECT_STREQ(self->object, path);
}

static int follow_link(const void *const arg)
{
	struct stat st;

	return stat(arg, &st) ? errno : 0;
}

static int link_flood(const void *const arg)
{
	const struct evil_op *const op = arg;
	int i;

	for (i = 0; i < FLOOD; i++)
		if (!link(op->path, op->to) || errno != EPERM)
			return CHILD_BROKEN;
	return 0;
}

static int follow_flood(const void *const arg)
{
	struct stat st;
	int i;

	for (i = 0; i < FLOOD; i++)
		if (!stat(arg, &st) || errno != EACCES)
			return CHILD_BROKEN;
	return 0;
}

/* Whether the denial of @uid following @link is in the log. */
static bool follow_reported(struct __test_metadata *const _metadata,
			    const char *const link, const uid_t uid)
{
	char key[32], msg[REPORT_SIZE];
	const pid_t pid = spawn_as(uid, follow_link, link);

	EXPECT_EQ(EACCES, wait_child(pid));
	snprintf(key, sizeof(key), " pid=%d ", pid);
	return syslog_find(_metadata,
			   "warden: rule=protected_sticky_symlinks verdict=",
			   key, msg) == 1;
}

static void make_flood_scene(struct __test_metadata *const _metadata,
			     FIXTURE_DATA(report) * const self,
			     struct evil_op *const op, char *const link,
			     char *const to)
{
	make_node(_metadata, self->object, self->s.target_dir, "pinned",
		  S_IFREG | 0600, 0, OTHER_UID);
	path_join(_metadata, to, self->s.out, "pin");
	path_join(_metadata, link, self->s.shared, "planted");
	make_link(_metadata, link, self->s.target, OTHER_UID);
	op->path = self->object;
	op->to = to;
	/* Every ratelimit starts a new window. */
	sleep(REPORT_RATELIMIT_S + 1);
}

/* A user that owns nothing in the scene, neither the link nor its folder. */
#define THIRD_UID 1002

/* A setuid-root program run by USER_UID: real uid 1000, euid and fsuid 0. */
static int setuid_follow_flood(const void *const arg)
{
	if (setresuid(USER_UID, ROOT_UID, ROOT_UID))
		return CHILD_BROKEN;
	return follow_flood(arg);
}

enum flood_kind {
	FLOOD_LINKS,
	FLOOD_FOLLOWS,
	FLOOD_SETUID_FOLLOWS,
};

/*
 * Floods the log with FLOOD refusals of uid 1000 (of hard links, of
 * follows of a planted link, or of such follows by a setuid-root program
 * it ran), then whether the next refusal of @uid following that link is
 * in the log must be @reported.
 */
static void expect_after_flood(struct __test_metadata *const _metadata,
			       FIXTURE_DATA(report) * const self,
			       const enum flood_kind kind, const uid_t uid,
			       const bool reported)
{
	char link[PATH_MAX], to[PATH_MAX];
	struct evil_op op;

	make_flood_scene(_metadata, self, &op, link, to);
	switch (kind) {
	case FLOOD_LINKS:
		ASSERT_EQ(0, run_as(USER_UID, link_flood, &op));
		break;
	case FLOOD_FOLLOWS:
		ASSERT_EQ(0, run_as(USER_UID, follow_flood, link));
		break;
	case FLOOD_SETUID_FOLLOWS:
		ASSERT_EQ(0, run_as(ROOT_UID, setuid_follow_flood, link));
		break;
	}
	EXPECT_EQ(reported, follow_reported(_metadata, link, uid));
}

/* A flood of one rule does not hide another rule's report. */
TEST_F_TIMEOUT(report, flood_of_one_rule_other_rule_reported, 60)
{
	expect_after_flood(_metadata, self, FLOOD_LINKS, USER_UID, true);
}

/* The twin: the same flood does hide the same rule's next report. */
TEST_F_TIMEOUT(report, flood_of_one_rule_same_rule_suppressed, 60)
{
	expect_after_flood(_metadata, self, FLOOD_FOLLOWS, USER_UID, false);
}

/* A user's flood does not hide what root is refused, under the same rule. */
TEST_F_TIMEOUT(report, flood_by_user_root_reported, 60)
{
	expect_after_flood(_metadata, self, FLOOD_FOLLOWS, ROOT_UID, true);
}

/* Nor what another user is refused. */
TEST_F_TIMEOUT(report, flood_by_user_other_user_reported, 60)
{
	expect_after_flood(_metadata, self, FLOOD_FOLLOWS, THIRD_UID, true);
}

/*
 * A user who drives a setuid-root program into refusals floods their own
 * bucket: root's next report is still there...
 */
TEST_F_TIMEOUT(report, flood_by_setuid_program_root_reported, 60)
{
	expect_after_flood(_metadata, self, FLOOD_SETUID_FOLLOWS, ROOT_UID,
			   true);
}

/* ... and the twin: the user's own next one is not. */
TEST_F_TIMEOUT(report, flood_by_setuid_program_user_suppressed, 60)
{
	expect_after_flood(_metadata, self, FLOOD_SETUID_FOLLOWS, USER_UID,
			   false);
}

/*
 * Audit records have the log's ratelimits: FLOOD refusals of uid 1000
 * write a few records, a burst in each window the flood lasts (a bound
 * loose enough for any guest), and the next refusal of another user
 * still writes its own.  Each refused follow brings its SYSCALL record
 * too: only the rule's own records are counted.
 */
TEST_F_TIMEOUT(report, flood_by_user_audit_bounded_other_user_audited, 60)
{
	char link[PATH_MAX], to[PATH_MAX], record[REPORT_SIZE], pid_key[32];
	const char *const needles[] = { AUDIT_ACCESS_KEY,
					" rule=protected_sticky_symlinks ",
					pid_key, NULL };
	int kmsg, flooded = 0, elapsed = 0;
	struct timespec start;
	struct evil_op op;
	bool found = false;
	pid_t pid;

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");
	make_flood_scene(_metadata, self, &op, link, to);
	kmsg = report_open(_metadata);
	ASSERT_EQ(0, run_as(USER_UID, follow_flood, link));
	pid = spawn_as(THIRD_UID, follow_link, link);
	ASSERT_EQ(EACCES, wait_child(pid));
	snprintf(pid_key, sizeof(pid_key), " pid=%d ", pid);

	/* Audit's queue is in order: the flood's records come first. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!found && elapsed < REPORT_TIMEOUT_MS) {
		const char *const text = report_next(_metadata, kmsg, record);

		elapsed = report_elapsed_ms(&start);
		if (!text) {
			usleep(100000);
			continue;
		}
		if (report_matches(text, needles))
			found = true;
		else if (strstr(text, AUDIT_ACCESS_KEY) &&
			 strstr(text, " rule=protected_sticky_symlinks ") &&
			 strstr(text, " uid=1000 "))
			flooded++;
	}
	close(kmsg);
	EXPECT_TRUE(found)
	{
		TH_LOG("No record about pid %d", pid);
	}
	EXPECT_LT(0, flooded);
	EXPECT_GE(FLOOD / 10, flooded);
}

/* What the ratelimit dropped is said, per rule. */
TEST_F_TIMEOUT(report, flood_suppressed_count_said_per_rule, 60)
{
	char link[PATH_MAX], to[PATH_MAX], msg[REPORT_SIZE];
	struct evil_op op;
	long printed, said = 0;
	char *log, *line, *save;

	make_flood_scene(_metadata, self, &op, link, to);
	ASSERT_EQ(0, run_as(USER_UID, link_flood, &op));
	sleep(2 * REPORT_RATELIMIT_S + 1);
	printed = syslog_find(_metadata,
			      "warden: rule=protected_nonaccess_hardlinks verdict=",
			      " path=\"", msg);
	log = syslog_read(_metadata);
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long n;

		if (sscanf(syslog_message(line),
			   "warden: rule=protected_nonaccess_hardlinks suppressed=%ld subject=user",
			   &n) == 1)
			said += n;
	}
	free(log);
	/* Earlier tests' reports of the rule are in the log too. */
	EXPECT_LT(0, said);
	EXPECT_LE(FLOOD, printed + said);
}

/* Settings */

#define REGULAR_SETTING "warden: setting=kernel.warden.protected_regular "

/*
 * Runs @fn(@arg) as @uid, which must succeed, and checks the line that
 * says what setting it changed, from @old to @new, and who did.
 */
static void expect_setting_line(struct __test_metadata *const _metadata,
				const uid_t uid,
				int (*const fn)(const void *arg),
				const void *const arg, const char *const start,
				const char *const old, const char *const new,
				const char *const via)
{
	char msg[REPORT_SIZE], pid[16];
	struct report_fields f;

	snprintf(pid, sizeof(pid), "%d",
		 provoke(_metadata, uid, fn, arg, 0, start, " pid=%d ", msg));
	parse_report(_metadata, msg, &f);
	expect_value(_metadata, &f, "old", old);
	expect_value(_metadata, &f, "new", new);
	expect_value(_metadata, &f, "via", via);
	expect_value(_metadata, &f, "res", "1");
	expect_value(_metadata, &f, "pid", pid);
	expect_value(_metadata, &f, "comm", EVIL_COMM);
	EXPECT_NE(NULL, report_field(&f, "auid"));
	EXPECT_NE(NULL, report_field(&f, "ses"));
	EXPECT_NE(NULL, report_field(&f, "uid"));
}

static int write_regular(const void *const arg)
{
	return evil_comm() ?: write_file(WARDEN_REGULAR_KNOB, arg);
}

TEST_F(report, sysctl_change_logged)
{
	expect_setting_line(_metadata, ROOT_UID, write_regular, "2",
			    REGULAR_SETTING, "1", "2", "sysctl");
}

/* The twin: writing the value a setting has changes nothing, says nothing. */
TEST_F(report, sysctl_same_value_not_logged)
{
	char key[32], msg[REPORT_SIZE];
	pid_t pid = spawn_as(ROOT_UID, write_regular, "1");

	ASSERT_EQ(0, wait_child(pid));
	snprintf(key, sizeof(key), " pid=%d ", pid);
	EXPECT_EQ(0, syslog_find(_metadata, REGULAR_SETTING, key, msg));
}

/*
 * Without an audit daemon, the kernel prints audit records at most 10
 * every 5 seconds, and the floods above made hundreds: the record is
 * looked for in a window of its own, twice.
 */
TEST_F_TIMEOUT(report, sysctl_change_audited, 60)
{
	/* 1 -> 2, then 2 -> 1 if a second window is needed. */
	static const char *const changes[][2] = {
		{ "2", " old=\"1\" new=\"2\" via=sysctl " },
		{ "1", " old=\"2\" new=\"1\" via=sysctl " },
	};
	char msg[REPORT_SIZE], change[64], pid_key[32];
	const char *const needles[] = {
		AUDIT_CONFIG_KEY,
		" lsm=warden op=set setting=kernel.warden.protected_regular ",
		change, pid_key, " res=1", NULL
	};
	bool found = false;
	size_t i;

	if (!audit_is_on())
		SKIP(return, "audit=1 is not on the kernel command line");
	for (i = 0; i < ARRAY_SIZE(changes) && !found; i++) {
		const int kmsg = report_open(_metadata);
		pid_t pid;

		sleep(REPORT_RATELIMIT_S + 1);
		pid = spawn_as(ROOT_UID, write_regular, changes[i][0]);
		ASSERT_EQ(0, wait_child(pid));
		snprintf(change, sizeof(change), "%s", changes[i][1]);
		snprintf(pid_key, sizeof(pid_key), " pid=%d ", pid);
		found = report_find(_metadata, kmsg, needles, NULL, msg);
		close(kmsg);
	}
	EXPECT_TRUE(found)
	{
		TH_LOG("No record \"%s\"", needles[1]);
	}
}

static int raise_policy(const void *const arg)
{
	return evil_comm() ?: sandbox(arg);
}

static int lower_policy(const void *const arg)
{
	if (evil_comm() || sandbox("protected_fifos=2"))
		return CHILD_BROKEN;
	return set_policy(arg);
}

#define POLICY_SETTING "warden: setting=policy "

TEST_F_TIMEOUT(report, policy_raise_logged, 60)
{
	expect_setting_line(_metadata, USER_UID, raise_policy,
			    "protected_fifos=2", POLICY_SETTING,
			    "protected_sticky_symlinks=0 protected_nonaccess_hardlinks=0 protected_fifos=0 protected_regular=0 ptrace_scope=0 protected_symlink_owner=0 protected_sticky_writes=0",
			    "protected_sticky_symlinks=0 protected_nonaccess_hardlinks=0 protected_fifos=2 protected_regular=0 ptrace_scope=0 protected_symlink_owner=0 protected_sticky_writes=0",
			    "process");
}

/* The twin: a refused lowering changes nothing and says nothing more. */
TEST_F_TIMEOUT(report, policy_lower_refused_not_logged, 60)
{
	char msg[REPORT_SIZE];

	provoke(_metadata, USER_UID, lower_policy, "protected_fifos=1", EPERM,
		POLICY_SETTING, " pid=%d ", msg);
	EXPECT_NE(NULL, strstr(msg, " protected_fifos=2 protected_regular=0 "));
}

TEST_HARNESS_MAIN
