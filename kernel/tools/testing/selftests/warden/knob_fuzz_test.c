// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Every setting, written with edge and random inputs
 *
 * Every file in /proc/sys/kernel/warden/ is found by listing the folder, so
 * a new knob is fuzzed without a line here.  Its highest level comes from
 * the rules' table in common.h or, for a knob the table does not know,
 * from the canonical writes "0" to "9" it takes.  Two values are never written,
 * because they stay until reboot: 1 to "lock", 3 to "ptrace_scope"; so no
 * input holding that digit is written to them at all.
 *
 * A write is canonical ("N" or "N\n", N a level without a leading zero or
 * sign): it must succeed and the knob reads back N.  Close to canonical
 * ("+1", "01", "-0"): it may succeed with that number, or fail with EINVAL.
 * Anything else, and a canonical level out of range, a write at a nonzero
 * offset or a write without the capability: EINVAL (EPERM for the
 * capability) and the value stays.  After every write the knob reads back
 * a valid level, and one that was written.
 *
 * Files in /sys/kernel/security/warden/ without a write bit in their mode
 * must refuse every write with EACCES, EPERM or EINVAL.
 *
 * WARDEN_FUZZ_WRITES, if set, is the number of random writes to each knob
 * and of each concurrent writer's writes.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>

#include "common.h"

#define KNOB_DIR "/proc/sys/kernel/warden"
#define SECURITYFS_DIR "/sys/kernel/security/warden"
#define MAX_KNOBS 64
#define UNKNOWN_PROBE_MAX 9
#define FUZZ_WRITES_ENV "WARDEN_FUZZ_WRITES"
#define RANDOM_WRITES 1500
#define WRITERS 4
#define WRITER_ROUNDS 2000
/* What an unprivileged write did if it changed the value. */
#define VALUE_CHANGED 254
#define LONG_INPUT (1024 * 1024)
/* Slow kernels (TCG, KASAN) need more than the harness' 30 seconds. */
#define FUZZ_TIMEOUT_S 900

struct fuzz_knob {
	char name[NAME_MAX + 1];
	char path[PATH_MAX];
	int max;
	/* A level never written, or -1. */
	int forbidden;
	char saved[32];
};

static bool has_suffix(const char *const s, const char *const suffix)
{
	const size_t len = strlen(s), slen = strlen(suffix);

	return len >= slen && !strcmp(s + len - slen, suffix);
}

/* Reads the knob as a level: returns it, or -1 if it is not one. */
static int read_level(const char *const path)
{
	char buf[64], *end;
	long value;

	if (read_file(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	value = strtol(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n"))
		return -1;
	return value >= 0 && value <= INT_MAX ? (int)value : -1;
}

enum class {
	CANONICAL,
	CLOSE,
	INVALID,
};

/* What @buf (@len bytes) must do to a knob whose highest level is @max. */
static enum class classify(const char *const buf, const size_t len,
			   const int max, int *const value)
{
	size_t end = len, i = 0;
	bool close = false;
	long v = 0;

	if (end && buf[end - 1] == '\n')
		end--;
	if (i < end && (buf[i] == '+' || buf[i] == '-')) {
		close = true;
		if (buf[i] == '-')
			v = -1;
		i++;
	}
	if (i == end)
		return INVALID;
	if (buf[i] == '0' && i + 1 < end)
		close = true;
	for (; i < end; i++) {
		if (!isdigit((unsigned char)buf[i]))
			return INVALID;
		if (v < 0) {
			/* A minus sign: only "-0", "-00"... are levels. */
			if (buf[i] != '0')
				return INVALID;
			continue;
		}
		v = v * 10 + buf[i] - '0';
		if (v > max)
			return INVALID;
	}
	*value = v < 0 ? 0 : (int)v;
	return close ? CLOSE : CANONICAL;
}

/* Whether @buf may be written to @knob at all. */
static bool is_harmless(const struct fuzz_knob *const knob,
			const char *const buf, const size_t len)
{
	return knob->forbidden < 0 ||
	       !memchr(buf, '0' + knob->forbidden, len);
}

static void check_value(struct __test_metadata *const _metadata,
			const struct fuzz_knob *const knob, const int expected,
			const char *const what)
{
	const int value = read_level(knob->path);

	ASSERT_LE(0, value)
	{
		TH_LOG("%s: not a level after %s", knob->path, what);
	}
	ASSERT_GE(knob->max, value);
	if (expected >= 0)
		ASSERT_EQ(expected, value)
		{
			TH_LOG("%s: wrong value after %s", knob->path, what);
		}
}

/* Writes @buf and checks the outcome its class says. */
static void fuzz_write(struct __test_metadata *const _metadata,
		       const struct fuzz_knob *const knob,
		       const char *const buf, const size_t len)
{
	const int before = read_level(knob->path);
	char what[96];
	enum class class;
	int value = -1, err;
	size_t i;

	if (!is_harmless(knob, buf, len))
		return;
	class = classify(buf, len, knob->max, &value);
	snprintf(what, sizeof(what), "writing %zu bytes \"", len);
	for (i = 0; i < len && i < 24; i++) {
		const size_t at = strlen(what);

		snprintf(what + at, sizeof(what) - at,
			 isprint((unsigned char)buf[i]) ? "%c" : "\\x%02x",
			 (unsigned char)buf[i]);
	}
	strncat(what, len > 24 ? "...\"" : "\"", sizeof(what) - strlen(what) - 1);

	err = write_at(knob->path, buf, len, 0);
	switch (class) {
	case CANONICAL:
		ASSERT_EQ(0, err)
		{
			TH_LOG("%s: %s: %s", knob->path, what, strerror(err));
		}
		check_value(_metadata, knob, value, what);
		break;
	case CLOSE:
		if (err) {
			ASSERT_EQ(EINVAL, err)
			{
				TH_LOG("%s: %s", knob->path, what);
			}
			check_value(_metadata, knob, before, what);
		} else {
			check_value(_metadata, knob, value, what);
		}
		break;
	case INVALID:
		ASSERT_EQ(EINVAL, err)
		{
			TH_LOG("%s: %s: %s", knob->path, what,
			       err ? strerror(err) : "accepted");
		}
		check_value(_metadata, knob, before, what);
		break;
	}
}

static void write_str(struct __test_metadata *const _metadata,
		      const struct fuzz_knob *const knob, const char *const s)
{
	fuzz_write(_metadata, knob, s, strlen(s));
}

/* A highest level for a knob the table does not know. */
static int probe_max(struct __test_metadata *const _metadata,
		     const char *const path)
{
	char buf[4];
	int level, max = -1;

	for (level = 0; level <= UNKNOWN_PROBE_MAX; level++) {
		snprintf(buf, sizeof(buf), "%d", level);
		if (write_file(path, buf))
			break;
		max = level;
	}
	TH_LOG("%s: unknown knob, takes 0 to %d", path, max);
	return max;
}

FIXTURE(knobs) {
	struct fuzz_knob knobs[MAX_KNOBS];
	size_t count;
	unsigned int seed;
};

FIXTURE_SETUP(knobs)
{
	const char *const seed = getenv("WARDEN_FUZZ_SEED");
	struct dirent *entry;
	DIR *dir;

	self->seed = seed ? strtoul(seed, NULL, 0) : (unsigned int)time(NULL);
	TH_LOG("seed %u (WARDEN_FUZZ_SEED)", self->seed);
	srandom(self->seed);

	dir = opendir(KNOB_DIR);
	ASSERT_NE(NULL, dir);
	while ((entry = readdir(dir))) {
		struct fuzz_knob *const knob = &self->knobs[self->count];
		size_t i;

		if (entry->d_name[0] == '.')
			continue;
		ASSERT_GT(MAX_KNOBS, self->count);
		snprintf(knob->name, sizeof(knob->name), "%s", entry->d_name);
		path_join(_metadata, knob->path, KNOB_DIR, entry->d_name);
		ASSERT_EQ(0, read_file(knob->path, knob->saved,
				       sizeof(knob->saved)));
		knob->max = -1;
		knob->forbidden = -1;
		for (i = 0; i < WARDEN_RULE_COUNT; i++)
			if (!strcmp(knob->name, warden_rules[i].name))
				knob->max = warden_rules[i].max;
		if (!strcmp(knob->name, PTRACE_RULE))
			knob->forbidden = 3;
		if (knob->max < 0 && has_suffix(knob->name, COMPLAIN_SUFFIX))
			knob->max = 1;
		/* Probing writes 1: never to a lock of any name. */
		if (knob->max < 0 && strstr(knob->name, "lock")) {
			knob->max = 1;
			knob->forbidden = 1;
		}
		if (knob->max < 0)
			knob->max = probe_max(_metadata, knob->path);
		ASSERT_LE(0, knob->max);
		/* A knob that locks cannot be locked now. */
		ASSERT_NE(knob->forbidden, read_level(knob->path))
		{
			TH_LOG("%s is already at %d", knob->path,
			       knob->forbidden);
		}
		self->count++;
	}
	closedir(dir);
	/* Every rule at least. */
	ASSERT_LE(WARDEN_RULE_COUNT, self->count);
}

FIXTURE_TEARDOWN(knobs)
{
	size_t i;

	for (i = 0; i < self->count; i++) {
		/* The rules restored last: the complain knobs may need them. */
		if (strstr(self->knobs[i].name, "complain"))
			EXPECT_EQ(0, write_file(self->knobs[i].path,
						self->knobs[i].saved));
	}
	for (i = 0; i < self->count; i++) {
		if (!strstr(self->knobs[i].name, "complain"))
			EXPECT_EQ(0, write_file(self->knobs[i].path,
						self->knobs[i].saved));
	}
}

static const char *const edge_inputs[] = {
	"", "\n", " ", "0", "1", "2", "3", "4", "9", "0\n", "1\n", "2\n",
	"-1", "-0", "+0", "+1", "+2", "01", "00", "002", "0x1", "0x0", "0b1",
	"1 2", "1\n2", "1\n\n", " 1", "1 ", "\t1", "1\t", "1.0", "1e0", "1a",
	"a1", "abc", "--1", "++1", "+-1", "-", "+", "2147483647",
	"2147483648", "4294967296", "4294967297", "4294967299",
	"9223372036854775807", "9223372036854775808",
	"18446744073709551616", "-2147483648", "-2147483649",
	"99999999999999999999999999999999", "\xff", "\2001", "1\r",
};

TEST_F_TIMEOUT(knobs, edge_inputs, FUZZ_TIMEOUT_S)
{
	size_t k, i;

	for (k = 0; k < self->count; k++) {
		const struct fuzz_knob *const knob = &self->knobs[k];

		for (i = 0; i < ARRAY_SIZE(edge_inputs); i++)
			write_str(_metadata, knob, edge_inputs[i]);
	}
}

/* Embedded NULs, and inputs longer than any level. */
TEST_F_TIMEOUT(knobs, nul_and_long_inputs, FUZZ_TIMEOUT_S)
{
	static const char *const nul_inputs[] = { "1\0", "\0001", "0\0\n",
						  "\0", "1\0002", "0\n\0" };
	static const size_t nul_lengths[] = { 2, 2, 3, 1, 3, 3 };
	char *const buf = malloc(LONG_INPUT);
	size_t k, i, len;

	ASSERT_NE(NULL, buf);
	for (k = 0; k < self->count; k++) {
		const struct fuzz_knob *const knob = &self->knobs[k];

		for (i = 0; i < ARRAY_SIZE(nul_inputs); i++)
			fuzz_write(_metadata, knob, nul_inputs[i],
				   nul_lengths[i]);
		for (len = 16; len <= LONG_INPUT; len *= 16) {
			memset(buf, '0', len);
			fuzz_write(_metadata, knob, buf, len);
			buf[len - 1] = knob->forbidden == 2 ? '0' : '2';
			fuzz_write(_metadata, knob, buf, len);
			memset(buf, '9', len);
			fuzz_write(_metadata, knob, buf, len);
			memset(buf, 'x', len);
			fuzz_write(_metadata, knob, buf, len);
			memset(buf, ' ', len);
			buf[len - 1] = '0';
			fuzz_write(_metadata, knob, buf, len);
		}
	}
	free(buf);
}

/* A write at a nonzero offset: pwrite(2), or a second write(2). */
TEST_F_TIMEOUT(knobs, writes_at_an_offset, FUZZ_TIMEOUT_S)
{
	size_t k;

	for (k = 0; k < self->count; k++) {
		const struct fuzz_knob *const knob = &self->knobs[k];
		int fd;

		write_str(_metadata, knob, "0");
		ASSERT_EQ(EINVAL, write_at(knob->path, "0", 1, 1));
		ASSERT_EQ(EINVAL, write_at(knob->path, "0\n", 2, 4096));
		check_value(_metadata, knob, 0, "pwrite");

		/* "0" then "\n", or "0" then "0": the second is refused. */
		fd = open(knob->path, O_WRONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(1, write(fd, "0", 1));
		ASSERT_EQ(-1, write(fd, "\n", 1));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, write(fd, "0", 1));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(0, close(fd));
		check_value(_metadata, knob, 0, "a second write");
	}
}

static void random_input(char *const buf, size_t *const len)
{
	static const char alphabet[] = "0123456789+-\n \t\0xX.";
	const long kind = random() % 4;
	size_t i;

	*len = random() % 12;
	for (i = 0; i < *len; i++) {
		if (kind == 0)
			buf[i] = '0' + random() % 10;
		else if (kind == 1)
			buf[i] = alphabet[random() % (sizeof(alphabet) - 1)];
		else if (kind == 2)
			buf[i] = random() % 256;
		else
			buf[i] = i ? '0' + random() % 10 : "+-0 "[random() % 4];
	}
	/* A level, sometimes with a newline. */
	if (random() % 4 == 0) {
		*len = snprintf(buf, 16, "%ld%s", random() % 5,
				random() % 2 ? "\n" : "");
	}
}

TEST_F_TIMEOUT(knobs, random_inputs, FUZZ_TIMEOUT_S)
{
	const unsigned long writes = env_count(FUZZ_WRITES_ENV, RANDOM_WRITES);
	unsigned long i;
	size_t k, len;
	char buf[16];

	for (k = 0; k < self->count; k++) {
		for (i = 0; i < writes; i++) {
			random_input(buf, &len);
			fuzz_write(_metadata, &self->knobs[k], buf, len);
		}
	}
}

/* Without CAP_SYS_ADMIN and CAP_SYS_PTRACE even a valid level is refused. */
static int write_without_capabilities(const void *const arg)
{
	const struct fuzz_knob *const knob = arg;
	const int before = read_level(knob->path);
	/* Another level, or the same one if the other would lock. */
	const int level = (before ? 0 : 1) == knob->forbidden ? before :
								(before ? 0 : 1);
	const char value[] = { '0' + level, '\0' };
	int err;

	if (before < 0 || drop_capability(CAP_SYS_ADMIN) ||
	    drop_capability(CAP_SYS_PTRACE))
		return CHILD_BROKEN;
	err = write_file(knob->path, value);
	if (read_level(knob->path) != before)
		return VALUE_CHANGED;
	return err;
}

TEST_F_TIMEOUT(knobs, unprivileged_writes_refused, FUZZ_TIMEOUT_S)
{
	size_t k;

	for (k = 0; k < self->count; k++) {
		EXPECT_EQ(EPERM, run_as(ROOT_UID, write_without_capabilities,
					&self->knobs[k]))
		{
			TH_LOG("%s", self->knobs[k].path);
		}
	}
}

struct writer {
	const struct fuzz_knob *knob;
	unsigned long writes;
	unsigned int seed;
	/* 0, or what went wrong. */
	int err;
};

static void *writer_thread(void *const arg)
{
	struct writer *const w = arg;
	unsigned long i;

	for (i = 0; i < w->writes && !w->err; i++) {
		char buf[16];
		int level = rand_r(&w->seed) % (w->knob->max + 1);
		int err;

		if (level == w->knob->forbidden)
			level = 0;
		if (rand_r(&w->seed) % 2) {
			snprintf(buf, sizeof(buf), "%d", level);
			err = write_file(w->knob->path, buf);
		} else {
			snprintf(buf, sizeof(buf), "%d", w->knob->max + 1 +
				 rand_r(&w->seed) % 4);
			if (w->knob->forbidden >= 0 &&
			    strchr(buf, '0' + w->knob->forbidden))
				continue;
			err = write_file(w->knob->path, buf) == EINVAL ? 0 :
									 EINVAL;
		}
		if (err)
			w->err = err;
	}
	return NULL;
}

/* Several writers at once, and a reader that checks every value it reads. */
TEST_F_TIMEOUT(knobs, concurrent_writers, FUZZ_TIMEOUT_S)
{
	const unsigned long writes = env_count(FUZZ_WRITES_ENV, WRITER_ROUNDS);
	size_t k;

	for (k = 0; k < self->count; k++) {
		const struct fuzz_knob *const knob = &self->knobs[k];
		struct writer writers[WRITERS];
		pthread_t threads[WRITERS];
		unsigned long reads = 0;
		int i, value;

		for (i = 0; i < WRITERS; i++) {
			writers[i] = (struct writer){
				.knob = knob,
				.writes = writes,
				.seed = self->seed + i,
			};
			ASSERT_EQ(0, pthread_create(&threads[i], NULL,
						    writer_thread, &writers[i]));
		}
		for (i = 0; i < WRITERS;) {
			value = read_level(knob->path);
			reads++;
			EXPECT_TRUE(value >= 0 && value <= knob->max &&
				    value != knob->forbidden)
			{
				TH_LOG("%s read %d", knob->path, value);
			}
			if (!pthread_tryjoin_np(threads[i], NULL))
				i++;
		}
		for (i = 0; i < WRITERS; i++) {
			EXPECT_EQ(0, writers[i].err)
			{
				TH_LOG("%s: writer %d: %s", knob->path, i,
				       strerror(writers[i].err));
			}
		}
		check_value(_metadata, knob, -1, "concurrent writes");
		TH_LOG("%s: %d writers, %lu reads", knob->path, WRITERS, reads);
	}
}

/* securityfs: a file without a write bit refuses every write. */
TEST(securityfs_read_only_files_refuse_writes)
{
	static const char *const inputs[] = { "0", "1", "0\n", "reset", "",
					      "-1", "1 2" };
	char path[PATH_MAX], before[4096], after[4096];
	struct dirent *entry;
	unsigned int files = 0;
	struct stat st;
	size_t i;
	DIR *dir;

	dir = opendir(SECURITYFS_DIR);
	if (!dir)
		SKIP(return, "No %s", SECURITYFS_DIR);
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] == '.')
			continue;
		path_join(_metadata, path, SECURITYFS_DIR, entry->d_name);
		ASSERT_EQ(0, stat(path, &st));
		if (!S_ISREG(st.st_mode) || (st.st_mode & 0222)) {
			TH_LOG("%s: writable, not fuzzed", path);
			continue;
		}
		files++;
		EXPECT_EQ(0, read_file(path, before, sizeof(before)));
		for (i = 0; i < ARRAY_SIZE(inputs); i++) {
			const int err = write_file(path, inputs[i]);

			EXPECT_TRUE(err == EACCES || err == EPERM ||
				    err == EINVAL)
			{
				TH_LOG("%s: writing \"%s\": %s", path,
				       inputs[i],
				       err ? strerror(err) : "accepted");
			}
		}
		EXPECT_EQ(0, read_file(path, after, sizeof(after)));
	}
	closedir(dir);
	TH_LOG("%u read-only files", files);
}

TEST_HARNESS_MAIN
