// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - io_uring's personalities, SQPOLL rings and a raised policy
 *
 * An io_uring request may name a personality: credentials its process
 * registered earlier, which the request then runs with.  One registered
 * before the process raised its policy holds the policy of before the
 * raise.  So does the thread of an SQPOLL ring, which submits with the
 * credentials of the ring's creator: a process holding a parent's ring
 * cannot raise its policy.  The probe is the symlink rule at global level 0: USER_UID opens,
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
	void *sq_map, *cq_map;
	size_t sq_len, cq_len, sqes_len;
};

static int ring_setup_flags(struct ring *const r, const unsigned int flags)
{
	struct io_uring_params p = { .flags = flags };
	void *sq, *cq;

	r->fd = syscall(__NR_io_uring_setup, 1, &p);
	if (r->fd < 0)
		return CHILD_BROKEN;
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(__u32);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(*r->cqes);
	r->sqes_len = p.sq_entries * sizeof(*r->sqes);
	sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return CHILD_BROKEN;
	r->sq_tail = sq + p.sq_off.tail;
	r->sq_mask = sq + p.sq_off.ring_mask;
	r->sq_array = sq + p.sq_off.array;
	r->cq_head = cq + p.cq_off.head;
	r->cq_mask = cq + p.cq_off.ring_mask;
	r->cqes = cq + p.cq_off.cqes;
	r->sq_map = sq;
	r->cq_map = cq;
	return 0;
}

/* Unmaps the ring: a busy SQPOLL thread reads the mapped ring itself. */
static void ring_unmap(const struct ring *const r)
{
	munmap(r->sq_map, r->sq_len);
	munmap(r->cq_map, r->cq_len);
	munmap(r->sqes, r->sqes_len);
}

static int ring_setup(struct ring *const r)
{
	return ring_setup_flags(r, 0);
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

/*
 * The ring of a process (@sqpoll: with an SQPOLL thread), and a child
 * that raises its policy with the ring's descriptor open, or closed
 * first (@close_first), and its mappings kept or unmapped first
 * (@unmap_first): the raise's errno.
 */
struct ring_job {
	bool sqpoll;
	bool close_first;
	bool unmap_first;
};

static int raise_beside_parents_ring(const void *const arg)
{
	const struct ring_job *const job = arg;
	struct ring r;
	int status;
	pid_t pid;

	if (ring_setup_flags(&r, job->sqpoll ? IORING_SETUP_SQPOLL : 0))
		return CHILD_BROKEN;
	pid = fork();
	if (pid < 0)
		return CHILD_BROKEN;
	if (!pid) {
		if (job->close_first)
			close(r.fd);
		if (job->unmap_first)
			ring_unmap(&r);
		_exit(sandbox(SYMLINKS_1));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return CHILD_BROKEN;
	return WEXITSTATUS(status);
}

/* Its requests would run as the parent: the link would open. */
TEST_F(personality, parents_sqpoll_ring_refuses_the_raise)
{
	const struct ring_job job = { .sqpoll = true };

	EXPECT_EQ(EBUSY, run_as(USER_UID, raise_beside_parents_ring, &job));
}

/* Closed but still mapped: the thread reads what is written there. */
TEST_F(personality, parents_sqpoll_ring_mapped_refuses_the_raise)
{
	const struct ring_job job = { .sqpoll = true, .close_first = true };

	EXPECT_EQ(EBUSY, run_as(USER_UID, raise_beside_parents_ring, &job));
}

TEST_F(personality, parents_sqpoll_ring_closed_allows_the_raise)
{
	const struct ring_job job = { .sqpoll = true, .close_first = true,
				      .unmap_first = true };

	EXPECT_EQ(0, run_as(USER_UID, raise_beside_parents_ring, &job));
}

/* Without SQPOLL, a request runs with the submitter's credentials. */
TEST_F(personality, parents_plain_ring_allows_the_raise)
{
	const struct ring_job job = { .sqpoll = false };

	EXPECT_EQ(0, run_as(USER_UID, raise_beside_parents_ring, &job));
}

/* A process's own SQPOLL thread is a thread of it: the raise waits. */
static int raise_beside_own_sqpoll_ring(const void *const arg)
{
	struct ring r;

	if (ring_setup_flags(&r, IORING_SETUP_SQPOLL))
		return CHILD_BROKEN;
	return sandbox(SYMLINKS_1);
}

TEST_F(personality, own_sqpoll_ring_refuses_the_raise)
{
	EXPECT_EQ(EBUSY, run_as(USER_UID, raise_beside_own_sqpoll_ring, NULL));
}

TEST_HARNESS_MAIN
