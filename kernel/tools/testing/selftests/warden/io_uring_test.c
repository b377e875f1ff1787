// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - io_uring's personalities and a raised policy
 *
 * An io_uring request may name a personality: credentials its process
 * registered earlier, which the request then runs with.  One registered
 * before the process raised its policy holds the policy of before the
 * raise.  The probe is the symlink rule at global level 0: USER_UID opens,
 * through io_uring, a link of OTHER_UID's in a sticky world-writable
 * directory.  Every refusal has its allowed twin.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <linux/io_uring.h>

#include "common.h"

#define SYMLINKS_1 "protected_sticky_symlinks=1"

/* One ring, one request at a time. */
struct ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_setup(struct ring *const r)
{
	struct io_uring_params p = {};
	void *sq, *cq;

	r->fd = syscall(__NR_io_uring_setup, 1, &p);
	if (r->fd < 0)
		return CHILD_BROKEN;
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(__u32),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(*r->cqes),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p.sq_entries * sizeof(*r->sqes),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return CHILD_BROKEN;
	r->sq_tail = sq + p.sq_off.tail;
	r->sq_mask = sq + p.sq_off.ring_mask;
	r->sq_array = sq + p.sq_off.array;
	r->cq_head = cq + p.cq_off.head;
	r->cq_mask = cq + p.cq_off.ring_mask;
	r->cqes = cq + p.cq_off.cqes;
	return 0;
}

/* Registers the caller's credentials: their id, or -1. */
static int ring_personality(const struct ring *const r)
{
	return syscall(__NR_io_uring_register, r->fd,
		       IORING_REGISTER_PERSONALITY, NULL, 0);
}

/*
 * Opens @path through the ring, as @personality (0: the caller's own
 * credentials), and reads the target: 0 or an errno.
 */
static int ring_open(const struct ring *const r, const char *const path,
		     const int personality)
{
	const unsigned int tail = *r->sq_tail, index = tail & *r->sq_mask;
	struct io_uring_sqe *const sqe = &r->sqes[index];
	char buf[sizeof(TARGET_CONTENT)] = "";
	unsigned int head;
	ssize_t len;
	int fd;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = O_RDONLY | O_CLOEXEC;
	sqe->personality = personality;
	r->sq_array[index] = index;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) != 1)
		return CHILD_BROKEN;
	head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	fd = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	if (fd < 0)
		return -fd;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return len < 0 || strcmp(buf, TARGET_CONTENT) ? EIO : 0;
}

/* When the child registers its personality, and whether it raises. */
struct job {
	const char *path;
	bool raise;
	bool register_after_raise;
};

static int open_as_personality(const void *const arg)
{
	const struct job *const job = arg;
	int personality = -1;
	struct ring r;

	if (ring_setup(&r))
		return CHILD_BROKEN;
	if (!job->register_after_raise)
		personality = ring_personality(&r);
	if (job->raise && sandbox(SYMLINKS_1))
		return CHILD_BROKEN;
	if (job->register_after_raise)
		personality = ring_personality(&r);
	if (personality <= 0)
		return CHILD_BROKEN;
	return ring_open(&r, job->path, personality);
}

/* The same, with the child's own credentials. */
static int open_as_itself(const void *const arg)
{
	const struct job *const job = arg;
	struct ring r;

	if (ring_setup(&r) || (job->raise && sandbox(SYMLINKS_1)))
		return CHILD_BROKEN;
	return ring_open(&r, job->path, 0);
}

FIXTURE(personality) {
	struct scratch s;
	char link[PATH_MAX];
};

FIXTURE_SETUP(personality)
{
	scratch_setup(_metadata, &self->s, "0", 01777, ROOT_UID);
	path_join(_metadata, self->link, self->s.shared, "link");
	make_link(_metadata, self->link, self->s.target, OTHER_UID);
}

FIXTURE_TEARDOWN_PARENT(personality)
{
	scratch_teardown(_metadata, &self->s);
}

TEST_F(personality, from_before_the_raise_refused)
{
	const struct job job = { .path = self->link, .raise = true };

	EXPECT_EQ(EPERM, run_as(USER_UID, open_as_personality, &job));
}

/* Also the same file without a link: the request never runs. */
TEST_F(personality, from_before_the_raise_refused_for_any_file)
{
	const struct job job = { .path = self->s.target, .raise = true };

	EXPECT_EQ(EPERM, run_as(USER_UID, open_as_personality, &job));
}

TEST_F(personality, without_a_raise_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, open_as_personality, &job));
}

/* Registered after the raise, it runs, and the raised rule holds. */
TEST_F(personality, from_after_the_raise_keeps_the_policy)
{
	const struct job job = { .path = self->link, .raise = true,
				 .register_after_raise = true };

	EXPECT_EQ(EACCES, run_as(USER_UID, open_as_personality, &job));
}

TEST_F(personality, from_after_the_raise_opens_a_plain_file)
{
	const struct job job = { .path = self->s.target, .raise = true,
				 .register_after_raise = true };

	EXPECT_EQ(0, run_as(USER_UID, open_as_personality, &job));
}

TEST_F(personality, none_after_the_raise_keeps_the_policy)
{
	const struct job job = { .path = self->link, .raise = true };

	EXPECT_EQ(EACCES, run_as(USER_UID, open_as_itself, &job));
}

TEST_F(personality, none_without_a_raise_allowed)
{
	const struct job job = { .path = self->link };

	EXPECT_EQ(0, run_as(USER_UID, open_as_itself, &job));
}

TEST_HARNESS_MAIN
