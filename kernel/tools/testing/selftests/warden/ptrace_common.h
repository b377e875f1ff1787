/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Warden tests - Scenes of tracers and targets, for the ptrace scopes
 *
 * A scene is a tree of processes under the test process, each running as
 * USER_UID unless a test says otherwise, and dumpable, so that only the
 * scope can refuse a tracer what the classic rules allow.  The test
 * process is a child subreaper: an orphan stays in the scene.  Every
 * member waits until the scene ends, so the tree does not change under
 * a check.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "common.h"

enum role {
	TRACER,
	TARGET,
	TRACER_PARENT,
	TARGET_PARENT,
	ROLES,
	/* Not a member: the test process, or no process at all. */
	TEST_PROCESS = ROLES,
	NO_ONE,
};

/* Where the target is in the family tree of the tracer. */
enum relation {
	/* test ─ tracer ─ target */
	CHILD,
	/* test ─ tracer ─ target_parent ─ target */
	GRANDCHILD,
	/* test ─ tracer_parent ┬ tracer
	 *                      └ target
	 */
	SIBLING,
	/* test ─ target ─ tracer */
	PARENT,
	/* test ┬ tracer_parent ─ tracer
	 *      └ target_parent ─ target
	 */
	UNRELATED,
};

static const enum role parents[][ROLES] = {
	[CHILD] = { TEST_PROCESS, TRACER, NO_ONE, NO_ONE },
	[GRANDCHILD] = { TEST_PROCESS, TARGET_PARENT, NO_ONE, TRACER },
	[SIBLING] = { TRACER_PARENT, TRACER_PARENT, TEST_PROCESS, NO_ONE },
	[PARENT] = { TARGET, TEST_PROCESS, NO_ONE, NO_ONE },
	[UNRELATED] = { TRACER_PARENT, TARGET_PARENT, TEST_PROCESS,
			TEST_PROCESS },
};

static const char *const role_names[] = {
	[TRACER] = "warden_tracer",
	[TARGET] = "warden_target",
	[TRACER_PARENT] = "warden_tracer_p",
	[TARGET_PARENT] = "warden_target_p",
};

/* What the tracer tries. */
enum access {
	ATTACH,
	PROC_MEM,
	VM_READV,
};

/* What the target does with PR_SET_PTRACER before the tracer tries. */
enum grant {
	GRANT_NONE,
	/* Names a member, or the test process. */
	GRANT_ROLE,
	GRANT_ANY,
	/* Names the tracer, then clears it with 0. */
	GRANT_CLEARED,
	/* Names the tracer, then its own parent instead. */
	GRANT_REPLACED,
};

struct scene_spec {
	enum relation relation;
	enum access access;
	enum grant grant;
	enum role named;
	/* PR_SET_PTRACER from a second thread of the target. */
	bool from_thread;
	/* The tracer keeps root's capabilities. */
	bool privileged_tracer;
	/* The tracer is root in a user namespace of its own... */
	bool tracer_user_ns;
	/* ...which the target joins. */
	bool target_joins_user_ns;
};

/* Shared by the whole scene. */
struct scene {
	struct scene_spec spec;
	pid_t pids[ROLES + 1];
	/* 0 or an errno from the tracer, -1 if a member broke. */
	int result;
	int ready[2];
	int release[2];
	int go[ROLES][2];
};

/* Read by the tracer's process_vm_readv() and /proc/PID/mem. */
static const char scene_secret[] = "Warden test secret";

static inline int wait_byte(const int fd)
{
	char byte;

	return read(fd, &byte, 1) == 1 ? 0 : -1;
}

static inline void send_byte(const int fd)
{
	if (write(fd, "", 1) != 1)
		_exit(CHILD_BROKEN);
}

static inline int set_ptracer(const unsigned long tracer)
{
	return prctl(PR_SET_PTRACER, tracer, 0, 0, 0) ? errno : 0;
}

static inline int scene_grant(const struct scene *const scene)
{
	const struct scene_spec *const spec = &scene->spec;
	int err;

	switch (spec->grant) {
	case GRANT_NONE:
		return 0;
	case GRANT_ROLE:
		return set_ptracer(scene->pids[spec->named]);
	case GRANT_ANY:
		return set_ptracer(PR_SET_PTRACER_ANY);
	case GRANT_CLEARED:
		err = set_ptracer(scene->pids[TRACER]);
		return err ?: set_ptracer(0);
	case GRANT_REPLACED:
		err = set_ptracer(scene->pids[TRACER]);
		return err ?: set_ptracer(getppid());
	}
	return CHILD_BROKEN;
}

static void *scene_grant_thread(void *const scene)
{
	return (void *)(intptr_t)scene_grant(scene);
}

static inline int target_act(const struct scene *const scene)
{
	char path[64];
	pthread_t thread;
	void *err;
	int fd;

	if (scene->spec.target_joins_user_ns) {
		snprintf(path, sizeof(path), "/proc/%d/ns/user",
			 scene->pids[TRACER]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWUSER))
			return errno;
		close(fd);
	}
	if (!scene->spec.from_thread)
		return scene_grant(scene);
	if (pthread_create(&thread, NULL, scene_grant_thread, (void *)scene) ||
	    pthread_join(thread, &err))
		return CHILD_BROKEN;
	return (intptr_t)err;
}

static inline int tracer_act(const struct scene *const scene)
{
	const pid_t target = scene->pids[TARGET];
	char path[64], buf[sizeof(scene_secret)];
	struct iovec local = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct iovec remote = {
		.iov_base = (void *)scene_secret,
		.iov_len = sizeof(scene_secret),
	};
	int fd;

	memset(buf, 0, sizeof(buf));
	switch (scene->spec.access) {
	case ATTACH:
		/* Detached when the tracer exits. */
		return ptrace(PTRACE_SEIZE, target, 0, 0) ? errno : 0;
	case PROC_MEM:
		snprintf(path, sizeof(path), "/proc/%d/mem", target);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		if (pread(fd, buf, sizeof(buf), (off_t)(uintptr_t)scene_secret) !=
		    sizeof(buf))
			buf[0] = '\0';
		close(fd);
		break;
	case VM_READV:
		if (process_vm_readv(target, &local, 1, &remote, 1, 0) < 0)
			return errno;
		break;
	}
	return strcmp(buf, scene_secret) ? EBADMSG : 0;
}

static inline void scene_member(struct scene *const scene,
				const enum role role);

static inline void scene_spawn_children(struct scene *const scene,
					const enum role parent)
{
	enum role role;

	for (role = 0; role < ROLES; role++) {
		if (parents[scene->spec.relation][role] != parent)
			continue;
		if (!fork())
			scene_member(scene, role);
	}
}

/* Runs in the forked member @role: never returns. */
static inline void scene_member(struct scene *const scene,
				const enum role role)
{
	int err = 0;

	scene->pids[role] = getpid();
	close(scene->release[1]);
	if (prctl(PR_SET_NAME, role_names[role]))
		_exit(CHILD_BROKEN);
	/*
	 * A privileged tracer's parent keeps root's credentials for it; the
	 * child of a member already has its parent's.
	 */
	if (geteuid() == ROOT_UID &&
	    !((role == TRACER || role == TRACER_PARENT) &&
	      scene->spec.privileged_tracer) &&
	    become_user(USER_UID))
		_exit(CHILD_BROKEN);
	/* A change of uid made it undumpable: only root could trace it. */
	if (prctl(PR_SET_DUMPABLE, 1))
		_exit(CHILD_BROKEN);
	if (role == TRACER && scene->spec.tracer_user_ns &&
	    unshare(CLONE_NEWUSER))
		_exit(CHILD_BROKEN);

	scene_spawn_children(scene, role);
	send_byte(scene->ready[1]);

	if (role == TARGET || role == TRACER) {
		if (wait_byte(scene->go[role][0]))
			_exit(CHILD_BROKEN);
		if (role == TARGET)
			err = target_act(scene);
		else
			scene->result = tracer_act(scene);
		if (err)
			scene->result = err;
		send_byte(scene->ready[1]);
	}

	/*
	 * No wait() here: a tracer would wait for its tracee too.  Orphans
	 * go to the test process, which reaps them all.
	 */
	wait_byte(scene->release[0]);
	_exit(0);
}

/*
 * Plays the scene @spec: returns what the tracer got, 0 or an errno, or
 * what the target got from PR_SET_PTRACER if that failed.  Gives the pids
 * of the tracer and the target.
 */
static inline int play_scene_pids(struct __test_metadata *const _metadata,
				  const struct scene_spec *const spec,
				  pid_t *const tracer, pid_t *const target)
{
	struct scene *scene;
	enum role role;
	int members = 0, result, i;

	scene = mmap(NULL, sizeof(*scene), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, scene);
	scene->spec = *spec;
	scene->pids[TEST_PROCESS] = getpid();
	ASSERT_EQ(0, pipe2(scene->ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(scene->release, O_CLOEXEC));
	for (role = 0; role < ROLES; role++) {
		ASSERT_EQ(0, pipe2(scene->go[role], O_CLOEXEC));
		if (parents[spec->relation][role] != NO_ONE)
			members++;
	}
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));

	scene_spawn_children(scene, TEST_PROCESS);
	close(scene->ready[1]);
	for (i = 0; i < members; i++)
		ASSERT_EQ(0, wait_byte(scene->ready[0]));

	/* The target grants first, then the tracer tries. */
	send_byte(scene->go[TARGET][1]);
	ASSERT_EQ(0, wait_byte(scene->ready[0]));
	if (!scene->result) {
		send_byte(scene->go[TRACER][1]);
		ASSERT_EQ(0, wait_byte(scene->ready[0]));
	}

	result = scene->result;
	*tracer = scene->pids[TRACER];
	*target = scene->pids[TARGET];
	close(scene->release[1]);
	while (wait(NULL) > 0)
		;
	munmap(scene, sizeof(*scene));
	return result;
}

static inline int play_scene(struct __test_metadata *const _metadata,
			     const struct scene_spec *const spec)
{
	pid_t tracer, target;

	return play_scene_pids(_metadata, spec, &tracer, &target);
}

/* What a refused access fails with. */
static inline int denial_errno(const enum access access)
{
	/* mm_access() refuses with EACCES, process_vm_readv() maps it. */
	return access == PROC_MEM ? EACCES : EPERM;
}

/* The ptrace scopes of Warden and, when it is there, Yama. */
struct ptrace_knobs {
	struct knob warden, yama;
	bool yama_saved;
};

/* Sets Warden's scope to @warden, Yama's to @yama (only Warden denies at 0). */
static inline void ptrace_knobs_setup(struct __test_metadata *const _metadata,
				      struct ptrace_knobs *const knobs,
				      const char *const warden,
				      const char *const yama)
{
	knob_save(_metadata, &knobs->warden, WARDEN_PTRACE_KNOB);
	if (has_yama()) {
		knob_save(_metadata, &knobs->yama, YAMA_PTRACE_KNOB);
		knobs->yama_saved = true;
		ASSERT_EQ(0, write_file(YAMA_PTRACE_KNOB, yama));
	}
	ASSERT_EQ(0, write_file(WARDEN_PTRACE_KNOB, warden));
}

static inline void
ptrace_knobs_teardown(struct __test_metadata *const _metadata,
		      const struct ptrace_knobs *const knobs)
{
	/* Scope 3 cannot be lowered: that is tested apart. */
	if (strcmp(knobs->warden.saved, "3\n"))
		knob_restore(_metadata, &knobs->warden);
	if (knobs->yama_saved)
		knob_restore(_metadata, &knobs->yama);
}

static inline int traceme(void)
{
	return ptrace(PTRACE_TRACEME, 0, 0, 0) ? errno : 0;
}

/* Runs as the parent: its child, with the same credentials, asks. */
static inline int parent_of_traceme(const void *const arg)
{
	const pid_t child = fork();

	if (!child)
		_exit(traceme());
	return wait_child(child);
}

/*
 * Returns what PTRACE_TRACEME gives a process whose parent is USER_UID,
 * or root with CAP_SYS_PTRACE if @privileged_parent.
 */
static inline int traceme_from_child(const bool privileged_parent)
{
	return run_as(privileged_parent ? ROOT_UID : USER_UID,
		      parent_of_traceme, NULL);
}
