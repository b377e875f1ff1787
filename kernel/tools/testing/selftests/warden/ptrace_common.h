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
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
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

/*
 * Snooping: what a process learns of another without attaching to it,
 * through the accesses the kernel checks as PTRACE_MODE_READ, and by
 * raising its core limit (then a signal makes it dump its memory).  The
 * victim, of USER_UID, holds a secret in its environment and in a memfd,
 * and runs VICTIM_PROGRAM: its environment is then exactly VICTIM_ENV.
 */
#define VICTIM_PROGRAM "/bin/sleep"
#define VICTIM_ENV "WARDEN_SECRET=Warden test secret"
/* The victim's memfd, holding scene_secret. */
#define VICTIM_FD 10
#define PERF_PARANOID_KNOB "/proc/sys/kernel/perf_event_paranoid"

enum snoop {
	/* Reads /proc/PID/environ. */
	SNOOP_ENVIRON,
	/* Opens the victim's memfd again through /proc/PID/fd/VICTIM_FD. */
	SNOOP_FD,
	/* Raises its RLIMIT_CORE to its hard limit with prlimit(2). */
	SNOOP_PRLIMIT,
	/* Counts its user-space time with perf_event_open(2). */
	SNOOP_PERF,
};

/* Who snoops: a process of USER_UID, unless root. */
enum snooper {
	/* test ┬ victim
	 *      └ snooper
	 */
	SNOOPER_SIBLING,
	/* test ─ snooper ─ victim */
	SNOOPER_PARENT,
	/* The sibling, as root with all its capabilities. */
	SNOOPER_ROOT,
};

/* What a refused snoop fails with. */
static inline int snoop_errno(const enum snoop how)
{
	/* Changing limits is refused as an attach, reads as mm_access(). */
	return how == SNOOP_PRLIMIT ? EPERM : EACCES;
}

/* Runs in the victim: never returns. */
static inline void be_victim(const char *const policy, const int failed)
{
	char *const argv[] = { "sleep", "1000", NULL };
	char *const envp[] = { VICTIM_ENV, NULL };
	struct rlimit core;
	int memfd;

	if (geteuid() == ROOT_UID && become_user(USER_UID))
		goto broken;
	if (policy && sandbox(policy))
		goto broken;
	/* Its core limit at 0, so that a raise shows. */
	if (getrlimit(RLIMIT_CORE, &core))
		goto broken;
	core.rlim_cur = 0;
	if (setrlimit(RLIMIT_CORE, &core))
		goto broken;
	memfd = memfd_create("warden_secret", 0);
	if (memfd < 0 ||
	    write(memfd, scene_secret, sizeof(scene_secret)) !=
		    sizeof(scene_secret) ||
	    dup2(memfd, VICTIM_FD) != VICTIM_FD)
		goto broken;
	execve(VICTIM_PROGRAM, argv, envp);
broken:
	send_byte(failed);
	_exit(CHILD_BROKEN);
}

static inline void stop_victim(const pid_t victim)
{
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
}

/*
 * Whether @pid sleeps in VICTIM_PROGRAM: its execve() is over.  The state
 * and the comm of /proc/PID/stat are shown to anyone.
 */
static inline bool victim_sleeps(const pid_t pid)
{
	char path[64], buf[512];
	const char *end;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) || !strstr(buf, " (sleep) "))
		return false;
	end = strrchr(buf, ')');
	return end && end[1] == ' ' && end[2] == 'S';
}

/*
 * Starts a victim that raised @policy (unless NULL): returns its pid once
 * it sleeps in VICTIM_PROGRAM, or -1.
 */
static inline pid_t start_victim(const char *const policy)
{
	int failed[2], i;
	bool execed;
	pid_t pid;

	if (pipe2(failed, O_CLOEXEC))
		return -1;
	pid = fork();
	if (!pid) {
		close(failed[0]);
		be_victim(policy, failed[1]);
	}
	close(failed[1]);
	/* The pipe closes in the execve(): a byte says it failed. */
	execed = pid > 0 && wait_byte(failed[0]);
	close(failed[0]);
	if (pid < 0)
		return -1;
	/* Until it sleeps, its execve() may not have set up its mm. */
	for (i = 0; execed && i < 5000; i++) {
		if (victim_sleeps(pid))
			return pid;
		usleep(1000);
	}
	stop_victim(pid);
	return -1;
}

static inline int steal_environ(const pid_t victim)
{
	char path[64], buf[sizeof(VICTIM_ENV) + 1];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", victim);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	return len != sizeof(VICTIM_ENV) || memcmp(buf, VICTIM_ENV, len) ?
		       EBADMSG : 0;
}

static inline int steal_fd(const pid_t victim)
{
	char path[64], buf[sizeof(scene_secret) + 1];
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", victim, VICTIM_FD);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	len = read(fd, buf, sizeof(buf));
	close(fd);
	return len != sizeof(scene_secret) || memcmp(buf, scene_secret, len) ?
		       EBADMSG : 0;
}

static inline int raise_core_limit(const pid_t victim)
{
	struct rlimit old, raised, now;
	bool changed;

	if (prlimit(victim, RLIMIT_CORE, NULL, &old))
		return errno;
	raised.rlim_cur = old.rlim_max;
	raised.rlim_max = old.rlim_max;
	if (prlimit(victim, RLIMIT_CORE, &raised, NULL))
		return errno;
	if (prlimit(victim, RLIMIT_CORE, NULL, &now))
		return errno;
	/* Its soft limit was 0: a raise shows. */
	changed = old.rlim_cur != now.rlim_cur;
	return changed && now.rlim_cur == raised.rlim_cur ? 0 : EBADMSG;
}

static inline int open_perf_event(const pid_t victim)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	uint64_t count;
	int fd, err = 0;

	fd = syscall(SYS_perf_event_open, &attr, victim, -1, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno;
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		err = EBADMSG;
	close(fd);
	return err;
}

static inline int do_snoop(const enum snoop how, const pid_t victim)
{
	switch (how) {
	case SNOOP_ENVIRON:
		return steal_environ(victim);
	case SNOOP_FD:
		return steal_fd(victim);
	case SNOOP_PRLIMIT:
		return raise_core_limit(victim);
	case SNOOP_PERF:
		return open_perf_event(victim);
	}
	return CHILD_BROKEN;
}

struct snoop_job {
	enum snoop how;
	const char *policy;
	pid_t victim;
};

static inline int snoop_victim(const void *const arg)
{
	const struct snoop_job *const job = arg;

	return do_snoop(job->how, job->victim);
}

/* The snooper as the victim's parent: it starts the victim itself. */
static inline int snoop_own_child(const void *const arg)
{
	const struct snoop_job *const job = arg;
	const pid_t victim = start_victim(job->policy);
	int err;

	if (victim < 0)
		return CHILD_BROKEN;
	err = do_snoop(job->how, victim);
	stop_victim(victim);
	return err;
}

/*
 * Starts a victim that raised @policy (unless NULL), which @who snoops
 * on @how: returns 0 or the errno the snooper got, EBADMSG if what it
 * read was not the secret.  Gives the victim's pid, if @victim is not
 * NULL.
 */
static inline int play_snoop_pid(struct __test_metadata *const _metadata,
				 const char *const policy,
				 const enum snooper who, const enum snoop how,
				 pid_t *const victim)
{
	struct snoop_job job = { .how = how, .policy = policy };
	int result;

	if (who == SNOOPER_PARENT)
		return run_as(USER_UID, snoop_own_child, &job);
	job.victim = start_victim(policy);
	ASSERT_LT(0, job.victim);
	result = run_as(who == SNOOPER_ROOT ? ROOT_UID : USER_UID,
			snoop_victim, &job);
	stop_victim(job.victim);
	if (victim)
		*victim = job.victim;
	return result;
}

static inline int play_snoop(struct __test_metadata *const _metadata,
			     const char *const policy, const enum snooper who,
			     const enum snoop how)
{
	return play_snoop_pid(_metadata, policy, who, how, NULL);
}
