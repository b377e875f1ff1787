// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - Hard links racing changes of the file's mode and owner
 *
 *   root/		0755 root
 *   root/file		root toggles it between a mode (or an owner) that
 *			lets USER_UID link it and one that does not
 *   root/links/	0755 USER_UID, where USER_UID links root/file,
 *			again and again, and removes each link it made
 *
 * A hard link is checked when it is made, and the file can change right
 * after: a link made while the file was safe and kept after it became
 * unsafe is not an escape, it is the rule.  An escape is a link made
 * while the file was unsafe during the whole link(2) call.  Root says so
 * with a sequence number in shared memory: odd only once the file is
 * unsafe (chmod() or chown() done), even again before it stops being so.
 * A link(2) that succeeds between two reads of the same odd number is an
 * escape; a link(2) that is refused fails with EPERM.  One attempt is one
 * link(2).
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

#define DEFAULT_ATTEMPTS 20000

/* A state of the file: its owner and mode, and whether USER_UID may link. */
struct file_state {
	uid_t uid;
	mode_t mode;
	bool safe;
};

FIXTURE(hardlink_race) {
	char root[PATH_MAX];
	char file[PATH_MAX];
	char links[PATH_MAX];
	struct knob mainline, warden;
	pid_t linker;
};

FIXTURE_VARIANT(hardlink_race) {
	/* Root cycles through these, and back to the first. */
	const struct file_state *states;
	size_t count;
};

/* Root's file: readable and writable by all, then setuid or setgid. */
static const struct file_state chmod_states[] = {
	{ ROOT_UID, 0666, true },
	{ ROOT_UID, 04666, false },
	{ ROOT_UID, 0666, true },
	{ ROOT_UID, 02676, false },
	{ ROOT_UID, 0606, true },
	{ ROOT_UID, 0644, false },
	{ ROOT_UID, 02666, true },
	{ ROOT_UID, 0600, false },
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink_race, chmod) {
	/* clang-format on */
	.states = chmod_states,
	.count = ARRAY_SIZE(chmod_states),
};

/* A 0600 file, the user's, then root's: only its owner may link it. */
static const struct file_state chown_states[] = {
	{ USER_UID, 0600, true },
	{ ROOT_UID, 0600, false },
	{ USER_UID, 04700, true },
	{ ROOT_UID, 04755, false },
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hardlink_race, chown) {
	/* clang-format on */
	.states = chown_states,
	.count = ARRAY_SIZE(chown_states),
};

FIXTURE_SETUP(hardlink_race)
{
	char links[PATH_MAX];

	tmpfs_setup(_metadata, self->root);
	make_node(_metadata, self->file, self->root, "file", S_IFREG | 0666, 0,
		  ROOT_UID);
	make_dir(_metadata, links, self->root, "links", 0755, USER_UID);
	path_join(_metadata, self->links, links, "link");

	knob_set(_metadata, &self->mainline, MAINLINE_HARDLINKS_KNOB, "0");
	knob_set(_metadata, &self->warden, WARDEN_HARDLINKS_KNOB, "1");
}

FIXTURE_TEARDOWN_PARENT(hardlink_race)
{
	knob_restore(_metadata, &self->warden);
	knob_restore(_metadata, &self->mainline);
	tmpfs_teardown(_metadata, self->root);
}

/* Shared between root and the linker. */
struct race {
	unsigned long seq;
	unsigned long attempts;
	unsigned long linked;
	unsigned long refused;
	/* The first escape, or the first unexpected error. */
	unsigned long bad_attempt;
	unsigned long bad_seq;
	int bad_errno;
	bool done;
	const char *file;
	const char *link;
};

static unsigned long seq_read(const struct race *const r)
{
	return __atomic_load_n(&r->seq, __ATOMIC_SEQ_CST);
}

/* Runs as USER_UID: returns 0, or an errno if it could not go on. */
static int link_loop(const void *const arg)
{
	struct race *const r = (struct race *)arg;
	unsigned long i;

	if (die_with_parent())
		return errno;
	for (i = 0; i < r->attempts; i++) {
		const unsigned long before = seq_read(r);
		const int ret = link(r->file, r->link);
		const int err = errno;
		const unsigned long after = seq_read(r);

		if (!ret) {
			r->linked++;
			if (before == after && (before & 1) && !r->bad_attempt) {
				r->bad_attempt = i + 1;
				r->bad_seq = before;
			}
			if (unlink(r->link))
				return errno;
		} else if (err == EPERM) {
			r->refused++;
		} else if (!r->bad_errno) {
			r->bad_attempt = i + 1;
			r->bad_errno = err;
		}
	}
	__atomic_store_n(&r->done, true, __ATOMIC_SEQ_CST);
	return 0;
}

static int set_state(const char *const file, const struct file_state *const s)
{
	struct stat st;

	if (stat(file, &st))
		return errno;
	/* chown() drops the setuid bit: the mode comes after it. */
	if (st.st_uid != s->uid && chown(file, s->uid, s->uid))
		return errno;
	if (chmod(file, s->mode))
		return errno;
	return 0;
}

TEST_F_TIMEOUT(hardlink_race, no_link_while_unsafe, STRESS_TIMEOUT_S)
{
	struct race *const r = shared_alloc(_metadata, sizeof(*r));
	unsigned long seq = 0, toggles = 0;
	size_t i;

	/* The cycle starts and ends safe, and alternates. */
	for (i = 0; i < variant->count; i++)
		ASSERT_EQ(!(i & 1), variant->states[i].safe);
	ASSERT_EQ(0, set_state(self->file, &variant->states[0]));

	r->attempts = stress_attempts(DEFAULT_ATTEMPTS);
	r->file = self->file;
	r->link = self->links;
	self->linker = spawn_as(USER_UID, link_loop, r);
	ASSERT_LT(0, self->linker);

	for (i = 1; !__atomic_load_n(&r->done, __ATOMIC_SEQ_CST);
	     i = (i + 1) % variant->count, toggles++) {
		const struct file_state *const s = &variant->states[i];
		int status;

		if (s->safe) {
			/* Even before the file is safe again. */
			__atomic_store_n(&r->seq, ++seq, __ATOMIC_SEQ_CST);
			ASSERT_EQ(0, set_state(self->file, s));
		} else {
			ASSERT_EQ(0, set_state(self->file, s));
			/* Odd once it is unsafe. */
			__atomic_store_n(&r->seq, ++seq, __ATOMIC_SEQ_CST);
		}
		if (waitpid(self->linker, &status, WNOHANG) == self->linker) {
			self->linker = 0;
			ASSERT_TRUE(WIFEXITED(status));
			ASSERT_EQ(0, WEXITSTATUS(status));
			break;
		}
	}
	if (self->linker) {
		ASSERT_EQ(0, wait_child(self->linker));
		self->linker = 0;
	}

	TH_LOG("%lu attempts: %lu linked, %lu refused, %lu changes of the file",
	       r->attempts, r->linked, r->refused, toggles);
	EXPECT_EQ(0, r->bad_errno)
	{
		TH_LOG("Attempt %lu: link(2) failed with %s", r->bad_attempt,
		       strerror(r->bad_errno));
	}
	EXPECT_EQ(0, r->bad_attempt)
	{
		TH_LOG("Attempt %lu: a link was made while the file was unsafe (sequence %lu)",
		       r->bad_attempt, r->bad_seq);
	}
	EXPECT_EQ(r->attempts, r->linked + r->refused);
	/* The race happened both ways. */
	EXPECT_LT(0, r->linked);
	EXPECT_LT(0, r->refused);
}

TEST_HARNESS_MAIN
