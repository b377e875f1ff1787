// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Complain mode and the counters
 *
 * Every rule is tried with one access it refuses: enforced, the access
 * fails, counts as denied and is logged as "denied"; in complain mode it
 * succeeds, counts as would_deny and is logged as "would_deny"; with the
 * rule off it succeeds and counts nothing.  Counters must be exact.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"
#include "ptrace_common.h"

#define ATTEMPTS 50

/* The access each rule refuses, set up in a scratch tree. */
struct attempt {
	char path[PATH_MAX];
	char dest[PATH_MAX];
	pid_t target;
};

static int open_and_read(const void *const arg)
{
	const struct attempt *const a = arg;
	char buf[sizeof(TARGET_CONTENT)] = "";
	const int fd = open(a->path, O_RDONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return errno;
	if (read(fd, buf, sizeof(buf) - 1) < 0 || strcmp(buf, TARGET_CONTENT))
		err = EIO;
	close(fd);
	return err;
}

static int make_hardlink(const void *const arg)
{
	const struct attempt *const a = arg;

	if (link(a->path, a->dest))
		return errno;
	/* Each attempt makes the same link anew. */
	return unlink(a->dest) ? errno : 0;
}

static int open_creat(const void *const arg)
{
	const struct attempt *const a = arg;
	const int fd = open(a->path, O_RDONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC,
			    0600);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int open_mem(const void *const arg)
{
	const struct attempt *const a = arg;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", a->target);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * A new uid makes a process undumpable, which the classic rules keep
 * others out of: the target makes itself dumpable, then says so.
 */
static int wait_forever(const void *const arg)
{
	const int *const ready = arg;

	if (prctl(PR_SET_DUMPABLE, 1))
		return CHILD_BROKEN;
	send_byte(ready[1]);
	pause();
	return 0;
}

FIXTURE(complain) {
	struct scratch s;
	struct knob level, complain, mainline;
	struct ptrace_knobs ptrace;
	struct attempt a;
	struct denial d;
	int kmsg;
	/* The path of the complain knob, which self->complain points to. */
	char complain_knob[PATH_MAX];
};

FIXTURE_VARIANT(complain) {
	const char *rule;
	const char *knob;
	const char *mainline;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(complain, protected_sticky_symlinks) {
	/* clang-format on */
	.rule = "protected_sticky_symlinks",
	.knob = WARDEN_KNOB,
	.mainline = MAINLINE_KNOB,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(complain, protected_nonaccess_hardlinks) {
	/* clang-format on */
	.rule = "protected_nonaccess_hardlinks",
	.knob = WARDEN_HARDLINKS_KNOB,
	.mainline = MAINLINE_HARDLINKS_KNOB,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(complain, protected_fifos) {
	/* clang-format on */
	.rule = "protected_fifos",
	.knob = WARDEN_FIFOS_KNOB,
	.mainline = MAINLINE_FIFOS_KNOB,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(complain, protected_regular) {
	/* clang-format on */
	.rule = "protected_regular",
	.knob = WARDEN_REGULAR_KNOB,
	.mainline = MAINLINE_REGULAR_KNOB,
};

/* clang-format off */
FIXTURE_VARIANT_ADD(complain, ptrace_scope) {
	/* clang-format on */
	.rule = "ptrace_scope",
	.knob = WARDEN_PTRACE_KNOB,
};

/*
 * In a sticky, world-writable directory of root's: a user follows a
 * link of another user's, links another user's private file, and root
 * reopens another user's FIFO or file.  For ptrace, a user opens the
 * memory of a process of its own that is not its descendant.
 */
static void arrange(struct __test_metadata *const _metadata,
		    const struct scratch *const s, const char *const rule,
		    struct attempt *const a, struct denial *const d)
{
	d->arg = a;
	d->path = a->path;
	d->uid = USER_UID;
	d->err = EACCES;
	if (!strcmp(rule, "protected_sticky_symlinks")) {
		path_join(_metadata, a->path, s->shared, "link");
		make_link(_metadata, a->path, s->target, OTHER_UID);
		d->fn = open_and_read;
	} else if (!strcmp(rule, "protected_nonaccess_hardlinks")) {
		make_node(_metadata, a->path, s->target_dir, "private",
			  S_IFREG | 0600, 0, OTHER_UID);
		path_join(_metadata, a->dest, s->out, "pin");
		d->fn = make_hardlink;
		d->err = EPERM;
	} else if (!strcmp(rule, "protected_fifos")) {
		make_node(_metadata, a->path, s->shared, "fifo",
			  S_IFIFO | 0666, 0, OTHER_UID);
		d->fn = open_creat;
		d->uid = ROOT_UID;
	} else if (!strcmp(rule, "protected_regular")) {
		make_node(_metadata, a->path, s->shared, "regular",
			  S_IFREG | 0666, 0, OTHER_UID);
		d->fn = open_creat;
		d->uid = ROOT_UID;
	} else {
		int ready[2];

		ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
		a->target = spawn_as(USER_UID, wait_forever, ready);
		ASSERT_LT(0, a->target);
		close(ready[1]);
		ASSERT_EQ(0, wait_byte(ready[0]));
		close(ready[0]);
		d->fn = open_mem;
		d->path = NULL;
	}
}

FIXTURE_SETUP(complain)
{
	scratch_setup(_metadata, &self->s, "1", 01777, ROOT_UID);
	if (variant->mainline)
		knob_set(_metadata, &self->mainline, variant->mainline, "0");
	if (strcmp(variant->rule, "ptrace_scope"))
		knob_set(_metadata, &self->level, variant->knob, "1");
	else
		ptrace_knobs_setup(_metadata, &self->ptrace, "1", "0");
	snprintf(self->complain_knob, sizeof(self->complain_knob),
		 "%s_complain", variant->knob);
	knob_set(_metadata, &self->complain, self->complain_knob, "0");
	arrange(_metadata, &self->s, variant->rule, &self->a, &self->d);
	self->kmsg = report_open(_metadata);
}

FIXTURE_TEARDOWN_PARENT(complain)
{
	if (self->a.target > 0) {
		kill(self->a.target, SIGKILL);
		waitpid(self->a.target, NULL, 0);
	}
	knob_restore(_metadata, &self->complain);
	if (strcmp(variant->rule, "ptrace_scope"))
		knob_restore(_metadata, &self->level);
	else
		ptrace_knobs_teardown(_metadata, &self->ptrace);
	if (variant->mainline)
		knob_restore(_metadata, &self->mainline);
	scratch_teardown(_metadata, &self->s);
}

static void set_complain(struct __test_metadata *const _metadata,
			 const struct knob *const knob, const char *const value)
{
	ASSERT_EQ(0, write_file(knob->path, value));
}

/* Makes @n attempts of @d: each must give @err.  Gives the counts' changes. */
static void attempt_n(struct __test_metadata *const _metadata,
		      const struct denial *const d, const char *const rule,
		      const int n, const int err, struct counts *const delta)
{
	struct counts before, after;
	int i, unexpected = 0;

	read_counts(_metadata, rule, &before);
	for (i = 0; i < n; i++)
		if (run_as(d->uid, d->fn, d->arg) != err)
			unexpected++;
	read_counts(_metadata, rule, &after);
	EXPECT_EQ(0, unexpected)
	{
		TH_LOG("%d of %d attempts did not get %d", unexpected, n, err);
	}
	delta->denied = after.denied - before.denied;
	delta->would_deny = after.would_deny - before.would_deny;
}

/* The report of one more attempt: @verdict, and the knob that allows it. */
static void expect_logged(struct __test_metadata *const _metadata,
			  const int kmsg, const struct denial *const denial,
			  const char *const rule, const char *const verdict,
			  const int err)
{
	struct denial d = *denial;
	char key[128], tail[128], msg[REPORT_SIZE];

	d.err = err;
	snprintf(key, sizeof(key), "warden: rule=%s verdict=%s ", rule,
		 verdict);
	expect_report(_metadata, kmsg, &d, key, NULL, msg);
	snprintf(tail, sizeof(tail),
		 " knob=kernel.warden.%s allowed_at=0 source=global ", rule);
	EXPECT_NE(NULL, strstr(msg, tail))
	{
		TH_LOG("%s", msg);
	}
}

TEST_F(complain, enforced_denied_and_counted)
{
	struct counts delta;

	attempt_n(_metadata, &self->d, variant->rule, ATTEMPTS, self->d.err,
		  &delta);
	EXPECT_EQ(ATTEMPTS, delta.denied);
	EXPECT_EQ(0, delta.would_deny);
}

TEST_F(complain, complain_allowed_and_counted)
{
	struct counts delta;

	set_complain(_metadata, &self->complain, "1");
	attempt_n(_metadata, &self->d, variant->rule, ATTEMPTS, 0, &delta);
	EXPECT_EQ(0, delta.denied);
	EXPECT_EQ(ATTEMPTS, delta.would_deny);
}

TEST_F(complain, back_to_enforce_denied)
{
	struct counts delta;

	set_complain(_metadata, &self->complain, "1");
	set_complain(_metadata, &self->complain, "0");
	attempt_n(_metadata, &self->d, variant->rule, 1, self->d.err, &delta);
	EXPECT_EQ(1, delta.denied);
	EXPECT_EQ(0, delta.would_deny);
}

TEST_F(complain, off_allowed_and_not_counted)
{
	struct counts delta;

	ASSERT_EQ(0, write_file(variant->knob, "0"));
	attempt_n(_metadata, &self->d, variant->rule, ATTEMPTS, 0, &delta);
	EXPECT_EQ(0, delta.denied);
	EXPECT_EQ(0, delta.would_deny);
}

TEST_F_TIMEOUT(complain, enforced_logged_as_denied, 60)
{
	expect_logged(_metadata, self->kmsg, &self->d, variant->rule, "denied", self->d.err);
}

TEST_F_TIMEOUT(complain, complain_logged_as_would_deny, 60)
{
	set_complain(_metadata, &self->complain, "1");
	expect_logged(_metadata, self->kmsg, &self->d, variant->rule, "would_deny", 0);
}

/* The counters file itself */

TEST(counters_lists_every_rule_in_order)
{
	char buf[1024], name[64];
	unsigned long long denied, would_deny;
	const char *line = buf;
	size_t i;

	ASSERT_EQ(0, read_file(COUNTERS, buf, sizeof(buf)));
	for (i = 0; i < WARDEN_RULE_COUNT; i++) {
		int end = 0;
		const int fields = sscanf(line,
					  "rule=%63s denied=%llu would_deny=%llu%n",
					  name, &denied, &would_deny, &end);

		ASSERT_EQ(3, fields);
		EXPECT_STREQ(warden_rules[i].name, name);
		ASSERT_EQ('\n', line[end]);
		line += end + 1;
	}
	EXPECT_STREQ("", line);
}

static int write_counters(const void *const arg)
{
	return write_file(COUNTERS, "0");
}

TEST(counters_not_writable)
{
	char before[1024], after[1024];
	struct stat st;

	ASSERT_EQ(0, stat(COUNTERS, &st));
	EXPECT_EQ(0444, st.st_mode & 07777);
	ASSERT_EQ(0, read_file(COUNTERS, before, sizeof(before)));
	EXPECT_EQ(EACCES, run_as(USER_UID, write_counters, NULL));
	/* Root gets past the mode bits, not past the missing write. */
	EXPECT_EQ(EINVAL, write_counters(NULL));
	ASSERT_EQ(0, read_file(COUNTERS, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

/* A flood of denials: a bounded log that says what it left out */

/* WARDEN_FLOOD_DENIALS, if set, rounded up to a whole FLOOD_ROUND. */
#define FLOOD_ENV "WARDEN_FLOOD_DENIALS"
#define FLOOD 100000
/*
 * A slow kernel (a debug one, emulated) takes minutes over the flood,
 * and writes more lines in them than the log buffer holds: the log is
 * read after each FLOOD_ROUND denials.
 */
#define FLOOD_ROUND 5000

FIXTURE(flood) {
	struct scratch s;
	char link[PATH_MAX];
};

FIXTURE_SETUP(flood)
{
	scratch_setup(_metadata, &self->s, "1", 01777, ROOT_UID);
	path_join(_metadata, self->link, self->s.shared, "flood");
	make_link(_metadata, self->link, self->s.target, OTHER_UID);
}

FIXTURE_TEARDOWN_PARENT(flood)
{
	scratch_teardown(_metadata, &self->s);
}

/* Returns 1 if any attempt was not refused with EACCES. */
static int open_flood(const void *const link)
{
	int i, fd;

	for (i = 0; i < FLOOD_ROUND; i++) {
		fd = open(link, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 || errno != EACCES)
			return 1;
	}
	return 0;
}

/* Adds the reports about @link and the suppressed ones said, to EOF. */
static void count_reports(struct __test_metadata *const _metadata,
			  const int kmsg, const char *const link,
			  long *const printed, long *const suppressed)
{
	char record[REPORT_SIZE], path_key[PATH_MAX + 8];
	const char *text;
	long n;

	snprintf(path_key, sizeof(path_key), " path=\"%s\"", link);
	while ((text = report_next(_metadata, kmsg, record))) {
		if (strstr(text, "warden: rule=protected_sticky_symlinks verdict=denied ") &&
		    strstr(text, path_key))
			(*printed)++;
		else if (sscanf(text,
				"warden: rule=protected_sticky_symlinks suppressed=%ld subject=user",
				&n) == 1)
			*suppressed += n;
	}
}

TEST_F_TIMEOUT(flood, bounded_and_suppressed_said, 600)
{
	const unsigned long rounds = (env_count(FLOOD_ENV, FLOOD) +
				      FLOOD_ROUND - 1) / FLOOD_ROUND;
	const long flood = rounds * FLOOD_ROUND;
	struct timespec start;
	struct counts before, after;
	long printed = 0, suppressed = 0, windows;
	unsigned long round;
	int kmsg, wait;

	/* What earlier tests left suppressed is said by now. */
	sleep(REPORT_RATELIMIT_S + 1);
	kmsg = report_open(_metadata);
	read_counts(_metadata, "protected_sticky_symlinks", &before);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (round = 0; round < rounds; round++) {
		ASSERT_EQ(0, run_as(USER_UID, open_flood, self->link));
		count_reports(_metadata, kmsg, self->link, &printed,
			      &suppressed);
	}
	windows = report_elapsed_ms(&start) / (REPORT_RATELIMIT_S * 1000) + 1;
	read_counts(_metadata, "protected_sticky_symlinks", &after);
	EXPECT_EQ(flood, after.denied - before.denied);

	/*
	 * The last count is said one window after the flood, by a delayed
	 * work that a loaded machine may run late: the reports are read
	 * for a window at least, and for four at most while some are
	 * missing.
	 */
	for (wait = 1; wait <= 4 * (REPORT_RATELIMIT_S + 1); wait++) {
		sleep(1);
		count_reports(_metadata, kmsg, self->link, &printed,
			      &suppressed);
		if (wait > REPORT_RATELIMIT_S && printed + suppressed >= flood)
			break;
	}
	TH_LOG("%ld denials in %ld window(s): %ld lines, %ld suppressed, read for %d s",
	       flood, windows, printed, suppressed, wait);
	EXPECT_LE(1, printed);
	EXPECT_GE(10 * (windows + 1), printed);
	EXPECT_EQ(flood, printed + suppressed);
}

TEST_HARNESS_MAIN
