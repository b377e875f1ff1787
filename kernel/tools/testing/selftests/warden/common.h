/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden tests - Common helpers
 *
 * The tests run as root in a throwaway guest: they write sysctls, mount a
 * tmpfs in a private mount namespace, and fork children that switch to
 * other users.
 */

#ifndef _SELFTESTS_WARDEN_COMMON_H
#define _SELFTESTS_WARDEN_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* Each rule's name, which is also that of its sysctl and its counter. */
#define SYMLINKS_RULE "protected_sticky_symlinks"
#define HARDLINKS_RULE "protected_nonaccess_hardlinks"
#define FIFOS_RULE "protected_fifos"
#define REGULAR_RULE "protected_regular"
#define PTRACE_RULE "ptrace_scope"
#define SYMLINK_OWNER_RULE "protected_symlink_owner"
#define STICKY_WRITES_RULE "protected_sticky_writes"

/* A rule's complain mode is the sysctl of its name with this suffix. */
#define COMPLAIN_SUFFIX "_complain"

#define WARDEN_SYSCTL_DIR "/proc/sys/kernel/warden/"

#define WARDEN_KNOB "/proc/sys/kernel/warden/" SYMLINKS_RULE
#define MAINLINE_KNOB "/proc/sys/fs/protected_symlinks"
#define WARDEN_HARDLINKS_KNOB "/proc/sys/kernel/warden/" HARDLINKS_RULE
#define MAINLINE_HARDLINKS_KNOB "/proc/sys/fs/protected_hardlinks"
#define WARDEN_FIFOS_KNOB "/proc/sys/kernel/warden/" FIFOS_RULE
#define MAINLINE_FIFOS_KNOB "/proc/sys/fs/protected_fifos"
#define WARDEN_REGULAR_KNOB "/proc/sys/kernel/warden/" REGULAR_RULE
#define MAINLINE_REGULAR_KNOB "/proc/sys/fs/protected_regular"
#define WARDEN_SYMLINK_OWNER_KNOB "/proc/sys/kernel/warden/" SYMLINK_OWNER_RULE
#define WARDEN_STICKY_WRITES_KNOB "/proc/sys/kernel/warden/" STICKY_WRITES_RULE

/**
 * struct warden_rule - A rule as the tests see it
 * @name: Its name; also its sysctl's, and its counter's in the counters
 *        file; its complain mode's sysctl adds COMPLAIN_SUFFIX.
 * @max: Its highest level; the lowest is 0.
 */
struct warden_rule {
	const char *name;
	int max;
};

/*
 * The rules, in the kernel's order: that of the counters file and of a
 * process's policy and effective levels.  A new rule only needs a line
 * here.
 */
static const struct warden_rule warden_rules[] = {
	{ SYMLINKS_RULE, 2 },
	{ HARDLINKS_RULE, 1 },
	{ FIFOS_RULE, 2 },
	{ REGULAR_RULE, 2 },
	{ PTRACE_RULE, 3 },
	{ SYMLINK_OWNER_RULE, 2 },
	{ STICKY_WRITES_RULE, 2 },
};

#define WARDEN_RULE_COUNT ARRAY_SIZE(warden_rules)

#define ROOT_UID 0
#define USER_UID 1000
#define OTHER_UID 1001

/* Name of every child of run_as(), to find it in the kernel log. */
#define CHILD_COMM "warden_child"
/* Exit status of a child that could not do what it was asked to. */
#define CHILD_BROKEN 255

#define TARGET_NAME "file"
#define TARGET_CONTENT "Warden test target\n"

/* Makes the caller @uid, with @uid as its only group and no capability. */
static inline int become_user(const uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return errno;
	return 0;
}

/*
 * Drops @cap from the caller's effective set: returns 0 or an errno.  Root
 * keeps every other capability.
 */
static inline int drop_capability(const int cap)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data))
		return errno;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	if (syscall(SYS_capset, &header, data))
		return errno;
	return 0;
}

/*
 * Forks a child that runs @fn(@arg) as @uid (root keeps all its
 * capabilities) and exits with what @fn returns: 0 or an errno.
 */
static inline pid_t spawn_as(const uid_t uid, int (*const fn)(const void *arg),
			     const void *const arg)
{
	const pid_t pid = fork();

	if (pid)
		return pid;
	if (prctl(PR_SET_NAME, CHILD_COMM))
		_exit(CHILD_BROKEN);
	if (uid != ROOT_UID && become_user(uid))
		_exit(CHILD_BROKEN);
	_exit(fn(arg));
}

/* Returns what the child @pid returned, or -1 if it broke. */
static inline int wait_child(const pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == CHILD_BROKEN)
		return -1;
	return WEXITSTATUS(status);
}

static inline int run_as(const uid_t uid, int (*const fn)(const void *arg),
			 const void *const arg)
{
	return wait_child(spawn_as(uid, fn, arg));
}

/* Reads @path as a string: returns 0 or an errno. */
static inline int read_file(const char *const path, char *const buf,
			    const size_t size)
{
	const int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t len;
	int err = 0;

	buf[0] = '\0';
	if (fd < 0)
		return errno;
	len = read(fd, buf, size - 1);
	if (len < 0)
		err = errno;
	else
		buf[len] = '\0';
	close(fd);
	return err;
}

/*
 * One write(2) of @len bytes of @buf to @path, at @offset (pwrite(2) if it
 * is not 0): returns 0 or an errno, EIO for a short write.
 */
static inline int write_at(const char *const path, const char *const buf,
			   const size_t len, const off_t offset)
{
	const int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t ret;
	int err = 0;

	if (fd < 0)
		return errno;
	ret = offset ? pwrite(fd, buf, len, offset) : write(fd, buf, len);
	if (ret < 0)
		err = errno;
	else if ((size_t)ret != len)
		err = EIO;
	close(fd);
	return err;
}

/* Writes @value to @path with one write(2): returns 0 or an errno. */
static inline int write_file(const char *const path, const char *const value)
{
	return write_at(path, value, strlen(value), 0);
}

/* A sysctl and the value it had before the test. */
struct knob {
	const char *path;
	char saved[32];
};

static inline void knob_save(struct __test_metadata *const _metadata,
			     struct knob *const knob, const char *const path)
{
	knob->path = path;
	ASSERT_EQ(0, read_file(path, knob->saved, sizeof(knob->saved)));
}

/* Saves the value of @path to @knob, then sets it to @value. */
static inline void knob_set(struct __test_metadata *const _metadata,
			    struct knob *const knob, const char *const path,
			    const char *const value)
{
	knob_save(_metadata, knob, path);
	ASSERT_EQ(0, write_file(path, value))
	{
		TH_LOG("Cannot write \"%s\" to %s", value, path);
	}
}

static inline void knob_restore(struct __test_metadata *const _metadata,
				const struct knob *const knob)
{
	EXPECT_EQ(0, write_file(knob->path, knob->saved));
}

static inline void path_join(struct __test_metadata *const _metadata,
			     char *const buf, const char *const dir,
			     const char *const name)
{
	ASSERT_GT(PATH_MAX, snprintf(buf, PATH_MAX, "%s/%s", dir, name));
}

/* Creates the symlink @link -> @body, owned by @uid. */
static inline void make_link(struct __test_metadata *const _metadata,
			     const char *const link, const char *const body,
			     const uid_t uid)
{
	ASSERT_EQ(0, symlink(body, link));
	ASSERT_EQ(0, lchown(link, uid, uid));
}

static inline void make_dir(struct __test_metadata *const _metadata,
			    char *const path, const char *const parent,
			    const char *const name, const mode_t mode,
			    const uid_t uid)
{
	path_join(_metadata, path, parent, name);
	ASSERT_EQ(0, mkdir(path, 0700));
	ASSERT_EQ(0, chown(path, uid, uid));
	/* After chown(), which may clear mode bits; mkdir() obeys umask. */
	ASSERT_EQ(0, chmod(path, mode));
}

/*
 * Creates the node @parent/@name as @path: a file, a FIFO or a device as
 * @mode says (mknod(2) makes all of them), with @uid as owner and group.
 */
static inline void make_node(struct __test_metadata *const _metadata,
			     char *const path, const char *const parent,
			     const char *const name, const mode_t mode,
			     const dev_t dev, const uid_t uid)
{
	path_join(_metadata, path, parent, name);
	ASSERT_EQ(0, mknod(path, (mode & S_IFMT) | 0600, dev));
	ASSERT_EQ(0, chown(path, uid, uid));
	/* After chown(), which clears the setuid and setgid bits. */
	ASSERT_EQ(0, chmod(path, mode & 07777));
}

/*
 * Mounts a private tmpfs, 0755 root, on a new directory in /tmp: @root
 * gets its resolved path, which reports show.
 */
static inline void tmpfs_setup(struct __test_metadata *const _metadata,
			       char *const root)
{
	char template[] = "/tmp/warden.XXXXXX";

	/* The tmpfs vanishes with the test process, even if it crashes. */
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	ASSERT_NE(NULL, mkdtemp(template));
	ASSERT_NE(NULL, realpath(template, root));
	/* Without atime updates, a cached walk can stay in RCU mode. */
	ASSERT_EQ(0, mount("tmpfs", root, "tmpfs", MS_NOATIME, "mode=0755"));
}

/*
 * For FIXTURE_TEARDOWN_PARENT(), which runs even after a failed ASSERT: in
 * the parent, outside the test's mount namespace, the tmpfs is already gone
 * and umount2() fails.
 */
static inline void tmpfs_teardown(struct __test_metadata *const _metadata,
				  const char *const root)
{
	umount2(root, MNT_DETACH);
	EXPECT_EQ(0, rmdir(root));
}

/*
 * A private tmpfs for one test:
 *
 *   root/		0755 root
 *   root/target/	0755 root
 *   root/target/file	0666 root, TARGET_CONTENT
 *   root/out/		0777 root, for files created through links
 *   root/shared/	the directory holding the links: mode and owner per test
 */
struct scratch {
	char root[PATH_MAX];
	char target_dir[PATH_MAX];
	char target[PATH_MAX];
	char out[PATH_MAX];
	char shared[PATH_MAX];
	struct knob mainline, warden;
};

/*
 * Creates the scratch tree and sets Warden's level to @level.  Mainline's
 * fs.protected_symlinks (on by default in Debian) enforces a rule close to
 * Warden's level 1: it is switched off so that only Warden can deny.
 */
static inline void scratch_setup(struct __test_metadata *const _metadata,
				 struct scratch *const s,
				 const char *const level,
				 const mode_t shared_mode,
				 const uid_t shared_uid)
{
	int fd;

	tmpfs_setup(_metadata, s->root);
	make_dir(_metadata, s->target_dir, s->root, "target", 0755, ROOT_UID);
	path_join(_metadata, s->target, s->target_dir, TARGET_NAME);
	fd = open(s->target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(sizeof(TARGET_CONTENT) - 1,
		  (size_t)write(fd, TARGET_CONTENT,
				sizeof(TARGET_CONTENT) - 1));
	ASSERT_EQ(0, fchmod(fd, 0666));
	ASSERT_EQ(0, close(fd));
	make_dir(_metadata, s->out, s->root, "out", 0777, ROOT_UID);
	make_dir(_metadata, s->shared, s->root, "shared", shared_mode,
		 shared_uid);

	knob_save(_metadata, &s->mainline, MAINLINE_KNOB);
	knob_save(_metadata, &s->warden, WARDEN_KNOB);
	ASSERT_EQ(0, write_file(MAINLINE_KNOB, "0"));
	ASSERT_EQ(0, write_file(WARDEN_KNOB, level));
}

/* For FIXTURE_TEARDOWN_PARENT(), as tmpfs_teardown(). */
static inline void scratch_teardown(struct __test_metadata *const _metadata,
				    const struct scratch *const s)
{
	knob_restore(_metadata, &s->warden);
	knob_restore(_metadata, &s->mainline);
	tmpfs_teardown(_metadata, s->root);
}

/*
 * Reports in the kernel log
 *
 * Warden logs at most 10 lines every REPORT_RATELIMIT_S seconds, and
 * kauditd prints audit records asynchronously.
 */
/*
 * Warden's audit records: AUDIT_WARDEN_ACCESS for a refusal,
 * AUDIT_WARDEN_CONFIG_CHANGE for a change of a setting, as the kernel
 * prints them without an audit daemon.
 */
#define AUDIT_ACCESS_KEY "audit: type=1430 "
#define AUDIT_CONFIG_KEY "audit: type=1431 "

#define REPORT_RATELIMIT_S 5
#define REPORT_TIMEOUT_MS 2000
#define REPORT_SIZE 8192

/* What must be denied and reported: @fn(@arg), run as @uid, fails. */
struct denial {
	uid_t uid;
	int (*fn)(const void *arg);
	const void *arg;
	/* The errno @fn must return. */
	int err;
	/* The path the reports name; NULL for ptrace, named by the tracer. */
	const char *path;
};

static inline bool audit_is_on(void)
{
	char cmdline[4096];
	char *arg, *save;

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)))
		return false;
	for (arg = strtok_r(cmdline, "\n ", &save); arg;
	     arg = strtok_r(NULL, "\n ", &save))
		if (!strcmp(arg, "audit=1"))
			return true;
	return false;
}

/* Opens the kernel log, past every record already in it. */
static inline int report_open(struct __test_metadata *const _metadata)
{
	const int kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	return kmsg;
}

static inline int report_elapsed_ms(const struct timespec *const start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

static inline bool report_matches(const char *const text,
				  const char *const *const needles)
{
	size_t i;

	for (i = 0; needles[i]; i++) {
		if (!strstr(text, needles[i]))
			return false;
	}
	return true;
}

/*
 * Undoes \xHH escapes in place: those of /dev/kmsg, which writes a
 * backslash and every byte below 0x20 or above 0x7e of a message so, and
 * those of Warden in a value of a report.
 */
static inline void hex_unescape(char *const text)
{
	char *in = text, *out = text;
	unsigned int byte;

	while (*in) {
		if (in[0] == '\\' && in[1] == 'x' &&
		    sscanf(in + 2, "%2x", &byte) == 1) {
			*out++ = byte;
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

/*
 * Reads the next record of the kernel log into @record: returns its
 * message, as the kernel wrote it, without the header and the newline,
 * or NULL if none is there yet.  Records overwritten before they were
 * read are skipped.
 */
static inline char *report_next(struct __test_metadata *const _metadata,
				const int kmsg, char *const record)
{
	for (;;) {
		/* One record: "prio,seq,time,flags;message\n" */
		const ssize_t len = read(kmsg, record, REPORT_SIZE - 1);
		char *text;

		if (len < 0) {
			/* EPIPE: records were overwritten, read on. */
			if (errno == EAGAIN)
				return NULL;
			ASSERT_EQ(EPIPE, errno);
			continue;
		}
		record[len] = '\0';
		text = strchr(record, ';');
		if (!text)
			continue;
		text++;
		text[strcspn(text, "\n")] = '\0';
		hex_unescape(text);
		return text;
	}
}

/*
 * Reads kernel log records until one holds all of @needles (NULL
 * terminated), for at most REPORT_TIMEOUT_MS.  Copies the message of that
 * record to @msg.  No record may contain @reject, if not NULL.
 */
static inline bool report_find(struct __test_metadata *const _metadata,
			       const int kmsg,
			       const char *const *const needles,
			       const char *const reject, char *const msg)
{
	struct pollfd pfd = { .fd = kmsg, .events = POLLIN };
	char record[REPORT_SIZE];
	struct timespec start;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (report_elapsed_ms(&start) < REPORT_TIMEOUT_MS) {
		const char *const text = report_next(_metadata, kmsg, record);

		if (!text) {
			poll(&pfd, 1, 100);
			continue;
		}
		if (reject)
			ASSERT_EQ(NULL, strstr(text, reject));
		if (report_matches(text, needles)) {
			snprintf(msg, REPORT_SIZE, "%s", text);
			return true;
		}
	}
	return false;
}

/*
 * Makes @d happen and copies to @msg the record starting with @key about
 * it: it names @d->path and the pid that was denied.  If the denial went
 * unreported because the log was ratelimited, the next one in a new window
 * must be.  No record before it may contain @reject, if not NULL.  Returns
 * the pid that was denied.
 */
static inline pid_t expect_report(struct __test_metadata *const _metadata,
				  const int kmsg, const struct denial *const d,
				  const char *const key,
				  const char *const reject, char *const msg)
{
	char path_key[PATH_MAX + 8], pid_key[32];
	const char *const needles[] = { key, path_key, pid_key, NULL };
	pid_t pid;
	int attempt;

	if (d->path)
		snprintf(path_key, sizeof(path_key), " path=\"%s\"", d->path);
	else
		snprintf(path_key, sizeof(path_key), "rule=ptrace_scope ");
	for (attempt = 0;; attempt++) {
		pid = spawn_as(d->uid, d->fn, d->arg);
		ASSERT_EQ(d->err, wait_child(pid));
		snprintf(pid_key, sizeof(pid_key),
			 d->path ? " pid=%d " : " tracer_pid=%d ", pid);
		if (report_find(_metadata, kmsg, needles, reject, msg))
			return pid;
		ASSERT_EQ(0, attempt)
		{
			TH_LOG("No record \"%s\" about %s", key, d->path);
		}
		sleep(REPORT_RATELIMIT_S + 1);
	}
}

/*
 * Writes to @buf the line Warden logs when a child of spawn_as() run as
 * @uid, without a policy of its own, is refused by the filesystem rule
 * @rule: its parent is the test process.  @object holds the fields about
 * the object, "link_uid=1001 dir_uid=0 dir_mode=1777".  Names with
 * nothing to escape only.
 */
static inline void fs_report_line(char *const buf, const size_t size,
				  const char *const rule, const char *const op,
				  const pid_t pid, const uid_t uid,
				  const char *const object,
				  const char *const path)
{
	char comm[16] = "";

	prctl(PR_GET_NAME, comm);
	snprintf(buf, size,
		 "warden: rule=%s verdict=denied op=%s knob=kernel.warden.%s allowed_at=0 source=global pid=%d uid=%u fsuid=%u ppid=%d %s comm=\"%s\" pcomm=\"%s\" path=\"%s\"",
		 rule, op, rule, pid, uid, uid, getpid(), object, CHILD_COMM,
		 comm, path);
}

/*
 * A report read back as the logfmt it is: key=value or key="value"
 * fields, in which Warden escaped every byte a user chose (\xHH).  A line
 * that is not that, or holds a key twice, is refused whole.
 */
#define REPORT_MAX_FIELDS 48

struct report_fields {
	int count;
	char *key[REPORT_MAX_FIELDS];
	char *value[REPORT_MAX_FIELDS];
};

static inline const char *report_field(const struct report_fields *const f,
				       const char *const key)
{
	int i;

	for (i = 0; i < f->count; i++) {
		if (!strcmp(f->key[i], key))
			return f->value[i];
	}
	return NULL;
}

/* Splits @text ("warden: k=v ...") in place: returns false if malformed. */
static inline bool report_parse(char *text, struct report_fields *const f)
{
	static const char prefix[] = "warden: ";

	f->count = 0;
	if (strncmp(text, prefix, strlen(prefix)))
		return false;
	text += strlen(prefix);
	while (*text) {
		const size_t klen = strspn(text,
					   "abcdefghijklmnopqrstuvwxyz0123456789_");
		char *value, *end;

		if (!klen || text[klen] != '=' || f->count == REPORT_MAX_FIELDS)
			return false;
		text[klen] = '\0';
		value = text + klen + 1;
		if (*value == '"') {
			value++;
			end = strchr(value, '"');
			if (!end || (end[1] && end[1] != ' '))
				return false;
		} else {
			end = value + strcspn(value, " ");
		}
		if (report_field(f, text))
			return false;
		f->key[f->count] = text;
		f->value[f->count++] = value;
		text = *end ? end + 1 : end;
		if (*end == '"' && *text == ' ')
			text++;
		*end = '\0';
	}
	return true;
}

/* Per-process policies */

/* Each rule's refusals, exact, as complain_test.c checks. */
#define COUNTERS "/sys/kernel/security/warden/counters"

struct counts {
	unsigned long long denied, would_deny;
};

/* Reads the counters of @rule. */
static inline void read_counts(struct __test_metadata *const _metadata,
			       const char *const rule, struct counts *const c)
{
	char buf[1024], key[64];
	const char *line;

	ASSERT_EQ(0, read_file(COUNTERS, buf, sizeof(buf)));
	snprintf(key, sizeof(key), "rule=%s ", rule);
	line = strstr(buf, key);
	ASSERT_NE(NULL, line)
	{
		TH_LOG("No line for %s in:\n%s", rule, buf);
	}
	ASSERT_EQ(2, sscanf(line + strlen(key), "denied=%llu would_deny=%llu\n",
			    &c->denied, &c->would_deny));
}

#define POLICY_ATTR "/proc/self/attr/warden/policy"
#define WARDEN_SYMLINKS_COMPLAIN_KNOB WARDEN_KNOB "_complain"

/* Sets no_new_privs: returns 0 or an errno. */
static inline int set_no_new_privs(void)
{
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? errno : 0;
}

/* Raises the caller's policy, e.g. "ptrace_scope=2": returns 0 or an errno. */
static inline int set_policy(const char *const policy)
{
	return write_file(POLICY_ATTR, policy);
}

/* What an unprivileged sandbox does: no_new_privs, then its policy. */
static inline int sandbox(const char *const policy)
{
	return set_no_new_privs() ?: set_policy(policy);
}

/* Reads /proc/@pid/attr/warden/@name: returns 0 or an errno. */
static inline int read_policy(const pid_t pid, const char *const name,
			      char *const buf, const size_t size)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/attr/warden/%s", pid, name);
	return read_file(path, buf, size);
}

/* Ptrace scopes */

#define WARDEN_PTRACE_KNOB "/proc/sys/kernel/warden/ptrace_scope"
#define YAMA_PTRACE_KNOB "/proc/sys/kernel/yama/ptrace_scope"

/* Yama may be built in but left out of lsm=: then it has no knob. */
static inline bool has_yama(void)
{
	return !access(YAMA_PTRACE_KNOB, F_OK);
}

/*
 * How much work a test does, from the environment variable @name (a
 * positive decimal number): @fallback if it is not set or not such a
 * number.  A slow kernel (a debug one, emulated) runs the same paths
 * with less.
 */
static inline unsigned long env_count(const char *const name,
				      const unsigned long fallback)
{
	const char *const value = getenv(name);
	unsigned long count;
	char *end;

	if (!value || !*value)
		return fallback;
	errno = 0;
	count = strtoul(value, &end, 10);
	if (errno || *end || !count)
		return fallback;
	return count;
}

/*
 * Race tests
 *
 * Each makes WARDEN_STRESS_ATTEMPTS attempts (the environment variable; a
 * test says what one attempt is), @fallback if it is not set.
 */
#define STRESS_ATTEMPTS_ENV "WARDEN_STRESS_ATTEMPTS"
/* Longer than any run: QEMU_TIMEOUT bounds the whole guest instead. */
#define STRESS_TIMEOUT_S 7200

static inline unsigned long stress_attempts(const unsigned long fallback)
{
	return env_count(STRESS_ATTEMPTS_ENV, fallback);
}

/* Memory that forked children share with the test process. */
static inline void *shared_alloc(struct __test_metadata *const _metadata,
				 const size_t size)
{
	void *const mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, mem);
	return mem;
}

/*
 * For a child that must not outlive a test that failed: call it after the
 * last change of credentials, which clears the setting.
 */
static inline int die_with_parent(void)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		return -1;
	/* The parent may have gone before. */
	return getppid() == 1 ? -1 : 0;
}

/* Kills and reaps the child @pid, if there is one. */
static inline void kill_child(pid_t *const pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	waitpid(*pid, NULL, 0);
	*pid = 0;
}

#endif /* _SELFTESTS_WARDEN_COMMON_H */
