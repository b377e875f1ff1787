// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden benchmarks - what the checks cost, measured in the guest
 *
 * Each workload is timed in batches of many operations, in every
 * configuration in every round: the configurations take turns (A/B/A/B,
 * in reverse order every other pass), switched by writing the sysctls
 * between two batches, so that a drift of the machine hits all of them.
 * A round's ratio is a configuration's time over the time of "off" in the
 * same round; the medians over the rounds are what is reported.
 *
 * The operations are all allowed by every configuration: the cost
 * measured is the check's, not the denial path's.  Every operation's
 * result is checked, so a configuration that refuses one stops the run.
 *
 * "policy" times the file workloads in a worker process that raised
 * Warden's file rules to 1 for itself (/proc/self/attr/warden/policy),
 * while every sysctl is 0: the cost of a per-process level, which each
 * check reads from the credentials.  "worker" is its control: the same
 * worker, woken the same way before each batch, that wrote the same
 * policy with every level 0 and so raised nothing.  policy / worker is
 * the cost of the raised levels alone; worker / off that of being timed
 * in another process.
 *
 * The ptrace workload reads one byte of a target's memory with
 * process_vm_readv() from an unprivileged tracer that is not the target's
 * ancestor, at scope 1: only the target's PR_SET_PTRACER exception lets it
 * in.  Yama keeps the exceptions in one list, newest first, and walks it
 * on every check; the target named its tracer before any other process
 * did, so its exception is the one Yama finds last.  The other processes
 * (clone()d with the bench's memory, files and signal handlers, so they
 * cost little more than their kernel stacks) name init.
 *
 * The host that runs a TCG guest preempts it often, and the guest's own
 * timer ticks every 4 ms: the batches are short (300 us), a round times
 * each configuration PASSES times (forward, backward, forward, after an
 * untimed batch) and keeps its fastest batch, and the medians are over
 * many rounds.
 *
 * With -i the bench counts instructions instead of time.  Under QEMU's
 * "-icount shift=0,sleep=off" the guest's virtual clock, and with it the
 * TSC, advances by exactly one for each instruction the guest runs, on
 * any CPU and in any process (harness/qemu.sh, ICOUNT=1): a batch's TSC
 * delta is the instructions it took, the user's loop and the kernel's
 * system call, entry to exit, and an interrupt's if one came in it.  The
 * bench checks first that its TSC does count instructions (a loop of a
 * known length) and stops if not.  A round keeps the fewest instructions
 * of its PASSES batches, which leaves out a batch that took a timer
 * interrupt; "added" is a configuration's instructions per operation
 * minus those of "off" in the same round.
 *
 * usage: warden_bench [-s] [-i] [-r ROUNDS] [-t USEC] [-n N,N,...]
 *                     [-w WORKLOAD,...]
 *   -s  smoke run: 3 rounds, 100 us batches, 1 and 100 processes
 *   -i  count instructions (under QEMU -icount shift=0): 11 rounds,
 *       batches of about 100,000 instructions
 *   -r  rounds (default 1001; 11 with -i)
 *   -t  how long a batch takes in "off", in us (default 300; 100 with
 *       -i, where a us is 1000 instructions): the number of operations
 *       in a batch of each workload follows
 *   -n  numbers of processes holding an exception (default 1,100,1000,10000)
 *   -w  only these workloads (default: all)
 *
 * Writes CSV to stdout, one row per workload, configuration and number of
 * processes; "n/a" where a configuration does not exist in this kernel.
 * Progress goes to stderr.  The sysctls are set back as they were.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#define USER_UID 1000
#define OTHER_UID 1001
#define DEEP_LINKS 16
#define MAX_ROUNDS 5000
/* Batches of each configuration in a round: the round keeps the fastest. */
#define PASSES 3
#define MAX_PROCS 10000
#define FILLER_STACK 4096

enum knob_id {
	FS_SYMLINKS, FS_HARDLINKS, FS_FIFOS, FS_REGULAR,
	W_SYMLINKS, W_HARDLINKS, W_FIFOS, W_REGULAR, W_PTRACE,
	W_SYMLINK_OWNER, W_STICKY_WRITES,
	/* After the levels: restore_knobs() sets them back last. */
	W_SYMLINKS_COMPLAIN, W_HARDLINKS_COMPLAIN, W_FIFOS_COMPLAIN,
	W_REGULAR_COMPLAIN, W_SYMLINK_OWNER_COMPLAIN, W_STICKY_WRITES_COMPLAIN,
	YAMA_PTRACE,
	THREADS_MAX,
	KNOBS,
};

#define WARDEN_SYSCTL "/proc/sys/kernel/warden/"

static struct knob {
	const char *path;
	bool present;
	char saved[32];
} knobs[KNOBS] = {
	[FS_SYMLINKS] = { "/proc/sys/fs/protected_symlinks" },
	[FS_HARDLINKS] = { "/proc/sys/fs/protected_hardlinks" },
	[FS_FIFOS] = { "/proc/sys/fs/protected_fifos" },
	[FS_REGULAR] = { "/proc/sys/fs/protected_regular" },
	[W_SYMLINKS] = { WARDEN_SYSCTL "protected_sticky_symlinks" },
	[W_HARDLINKS] = { WARDEN_SYSCTL "protected_nonaccess_hardlinks" },
	[W_FIFOS] = { WARDEN_SYSCTL "protected_fifos" },
	[W_REGULAR] = { WARDEN_SYSCTL "protected_regular" },
	[W_PTRACE] = { WARDEN_SYSCTL "ptrace_scope" },
	[W_SYMLINK_OWNER] = { WARDEN_SYSCTL "protected_symlink_owner" },
	[W_STICKY_WRITES] = { WARDEN_SYSCTL "protected_sticky_writes" },
	[W_SYMLINKS_COMPLAIN] = { WARDEN_SYSCTL "protected_sticky_symlinks_complain" },
	[W_HARDLINKS_COMPLAIN] = { WARDEN_SYSCTL "protected_nonaccess_hardlinks_complain" },
	[W_FIFOS_COMPLAIN] = { WARDEN_SYSCTL "protected_fifos_complain" },
	[W_REGULAR_COMPLAIN] = { WARDEN_SYSCTL "protected_regular_complain" },
	[W_SYMLINK_OWNER_COMPLAIN] = { WARDEN_SYSCTL "protected_symlink_owner_complain" },
	[W_STICKY_WRITES_COMPLAIN] = { WARDEN_SYSCTL "protected_sticky_writes_complain" },
	[YAMA_PTRACE] = { "/proc/sys/kernel/yama/ptrace_scope" },
	[THREADS_MAX] = { "/proc/sys/kernel/threads-max" },
};

enum config_id {
	OFF, MAINLINE, WARDEN, WARDEN_2, COMPLAIN, WORKER, POLICY, YAMA,
	CONFIGS,
};

/* What the two workers write to /proc/self/attr/warden/policy. */
#define POLICY_ATTR "/proc/self/attr/warden/policy"
#define FILE_RULES(l)                                                  \
	"protected_sticky_symlinks=" l " protected_nonaccess_hardlinks=" l \
	" protected_fifos=" l " protected_regular=" l                      \
	" protected_symlink_owner=" l " protected_sticky_writes=" l
/* The sysctls of the rules FILE_RULES names that not every kernel has. */
#define KNOB(k) (1UL << (k))
#define NEW_RULES (KNOB(W_SYMLINK_OWNER) | KNOB(W_STICKY_WRITES))

/*
 * Every sysctl a configuration does not name is 0.  A configuration that
 * needs a sysctl this kernel does not have, or a per-process policy in a
 * kernel without them (a worker's), is reported as n/a; so is a worker
 * whose policy names a rule this kernel does not have (@needs).
 */
static const struct config {
	const char *name;
	/* Timed in a worker of its own, which wrote this policy first. */
	const char *policy;
	int val[KNOBS];
	/* The sysctls of the rules the policy names, by KNOB(). */
	unsigned long needs;
} configs[CONFIGS] = {
	[OFF] = { "off" },
	[MAINLINE] = { "mainline", NULL, {
		[FS_SYMLINKS] = 1, [FS_HARDLINKS] = 1, [FS_FIFOS] = 1,
		[FS_REGULAR] = 1 } },
	[WARDEN] = { "warden", NULL, {
		[W_SYMLINKS] = 1, [W_HARDLINKS] = 1, [W_FIFOS] = 1,
		[W_REGULAR] = 1, [W_PTRACE] = 1, [W_SYMLINK_OWNER] = 1,
		[W_STICKY_WRITES] = 1 } },
	[WARDEN_2] = { "warden-2", NULL, {
		[W_SYMLINKS] = 2, [W_HARDLINKS] = 1, [W_FIFOS] = 2,
		[W_REGULAR] = 2, [W_SYMLINK_OWNER] = 2,
		[W_STICKY_WRITES] = 2 } },
	[COMPLAIN] = { "complain", NULL, {
		[W_SYMLINKS] = 1, [W_HARDLINKS] = 1, [W_FIFOS] = 1,
		[W_REGULAR] = 1, [W_SYMLINK_OWNER] = 1, [W_STICKY_WRITES] = 1,
		[W_SYMLINKS_COMPLAIN] = 1, [W_HARDLINKS_COMPLAIN] = 1,
		[W_FIFOS_COMPLAIN] = 1, [W_REGULAR_COMPLAIN] = 1,
		[W_SYMLINK_OWNER_COMPLAIN] = 1,
		[W_STICKY_WRITES_COMPLAIN] = 1 } },
	[WORKER] = { "worker", FILE_RULES("0"), {}, NEW_RULES },
	[POLICY] = { "policy", FILE_RULES("1"), {}, NEW_RULES },
	[YAMA] = { "yama", NULL, { [YAMA_PTRACE] = 1 } },
};

static char base[] = "/tmp/warden-bench.XXXXXX";
/* The paths are short: base, then at most DEEP_LINKS * 2 components. */
#define DIR_MAX 128
#define PATH_LEN 256
static char link_path[PATH_LEN], plain_path[PATH_LEN], deep_path[PATH_LEN];
static char own_path[PATH_LEN], own_link_path[PATH_LEN], mine_path[PATH_LEN];
static char target_path[PATH_LEN], write_path[PATH_LEN];
static char owner_link_path[PATH_LEN];

/* The ptrace scene: what the tracer reads, and who. */
static char probe = 'w';
static pid_t tracer_pid, target_pid;
static int to_tracer = -1, from_tracer = -1;

/* The workers, by configuration, and the policy the next one writes. */
static struct worker {
	pid_t pid;
	int to, from;
} workers[CONFIGS];
static const char *worker_policy;
static pid_t procs[MAX_PROCS];
static int nprocs;
static char *filler_stacks;
static int filler_ready[2];

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "warden_bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void read_knob(struct knob *const k)
{
	int fd = open(k->path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, k->saved, sizeof(k->saved) - 1);
	close(fd);
	if (n <= 0)
		die("cannot read %s", k->path);
	k->saved[n] = '\0';
	k->present = true;
}

static int write_str(const struct knob *const k, const char *const s)
{
	int fd = open(k->path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static void write_knob(const enum knob_id id, const int val)
{
	char s[16];
	int err;

	snprintf(s, sizeof(s), "%d\n", val);
	err = write_str(&knobs[id], s);
	if (err)
		die("cannot write %d to %s: %s", val, knobs[id].path,
		    strerror(err));
}

/* Whether this kernel has every sysctl configuration @c sets or needs. */
static bool has_knobs(const enum config_id c)
{
	int k;

	for (k = 0; k < KNOBS; k++)
		if ((configs[c].val[k] || configs[c].needs & KNOB(k)) &&
		    !knobs[k].present)
			return false;
	return true;
}

static bool has_config(const enum config_id c)
{
	if (configs[c].policy && workers[c].pid <= 0)
		return false;
	return has_knobs(c);
}

/*
 * Writes every sysctl, changed or not: each batch comes after the same
 * work, whichever configuration came before.
 */
static void set_config(const enum config_id c)
{
	int k;

	for (k = 0; k < THREADS_MAX; k++)
		if (knobs[k].present)
			write_knob(k, configs[c].val[k]);
}

static void restore_knobs(void)
{
	int k;

	/* Levels last: a complain knob may need its level to be set. */
	for (k = KNOBS - 1; k >= 0; k--)
		if (knobs[k].present && write_str(&knobs[k], knobs[k].saved))
			fprintf(stderr, "warden_bench: cannot restore %s\n",
				knobs[k].path);
}

static void make_file(const char *const path, const mode_t mode)
{
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, mode);

	if (fd < 0 || write(fd, "bench\n", 6) != 6 || close(fd))
		die("cannot create %s: %m", path);
}

/* A world-writable sticky directory that OTHER_UID owns. */
static void make_sticky_dir(const char *const path)
{
	if (mkdir(path, 0755) || chmod(path, 01777) ||
	    chown(path, OTHER_UID, OTHER_UID))
		die("cannot make %s: %m", path);
}

/*
 * base/target               the links' target, root's; opened O_RDONLY
 * base/s/                   1777, OTHER_UID's
 *        link -> ../target  root's: root follows its own link
 *        plain              root's file: the same path, no link
 *        own                root's file, hard linked as own.link
 *        mine               root's file, opened with O_CREAT
 *        write              root's file, opened O_WRONLY without O_CREAT
 * base/u/                   0755, USER_UID's: not sticky
 *        link -> file       USER_UID's, to USER_UID's file: root follows
 *                           a link whose owner owns its target
 * base/deep/l/l/.../l/file  each l a root-owned link to the sticky
 *                           directory n beside it
 */
static void make_files(void)
{
	char dir[DIR_MAX], p[PATH_LEN];
	int i;

	if (!mkdtemp(base) || chmod(base, 0755))
		die("cannot make %s: %m", base);
	snprintf(target_path, sizeof(target_path), "%s/target", base);
	make_file(target_path, 0644);
	snprintf(dir, sizeof(dir), "%s/s", base);
	make_sticky_dir(dir);
	snprintf(link_path, sizeof(link_path), "%s/link", dir);
	snprintf(plain_path, sizeof(plain_path), "%s/plain", dir);
	snprintf(own_path, sizeof(own_path), "%s/own", dir);
	snprintf(own_link_path, sizeof(own_link_path), "%s/own.link", dir);
	snprintf(mine_path, sizeof(mine_path), "%s/mine", dir);
	snprintf(write_path, sizeof(write_path), "%s/write", dir);
	if (symlink("../target", link_path))
		die("cannot make %s: %m", link_path);
	make_file(plain_path, 0644);
	make_file(own_path, 0600);
	make_file(mine_path, 0644);
	make_file(write_path, 0644);

	snprintf(dir, sizeof(dir), "%s/u", base);
	if (mkdir(dir, 0755) || chown(dir, USER_UID, USER_UID))
		die("cannot make %s: %m", dir);
	snprintf(p, sizeof(p), "%s/file", dir);
	make_file(p, 0644);
	snprintf(owner_link_path, sizeof(owner_link_path), "%s/link", dir);
	if (chown(p, USER_UID, USER_UID) || symlink("file", owner_link_path) ||
	    lchown(owner_link_path, USER_UID, USER_UID))
		die("cannot make %s: %m", owner_link_path);

	snprintf(dir, sizeof(dir), "%s/deep", base);
	make_sticky_dir(dir);
	strcpy(deep_path, dir);
	for (i = 0; i < DEEP_LINKS; i++) {
		snprintf(p, sizeof(p), "%s/l", dir);
		if (symlink("n", p))
			die("cannot make %s: %m", p);
		strcat(dir, "/n");
		make_sticky_dir(dir);
		strcat(deep_path, "/l");
	}
	strcat(deep_path, "/file");
	snprintf(p, sizeof(p), "%s/file", dir);
	make_file(p, 0644);
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	return remove(path);
}

static void remove_files(void)
{
	if (base[strlen(base) - 1] != 'X' && nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "warden_bench: cannot remove %s\n", base);
}

static int op_stat_link(void)
{
	struct stat st;

	return stat(link_path, &st);
}

static int op_open_link(void)
{
	int fd = open(link_path, O_RDONLY);

	return fd < 0 ? -1 : close(fd);
}

static int op_stat_plain(void)
{
	struct stat st;

	return stat(plain_path, &st);
}

static int op_stat_owner(void)
{
	struct stat st;

	return stat(owner_link_path, &st);
}

static int op_stat_deep(void)
{
	struct stat st;

	return stat(deep_path, &st);
}

static int op_link_unlink(void)
{
	return link(own_path, own_link_path) ?: unlink(own_link_path);
}

static int op_open_creat(void)
{
	int fd = open(mine_path, O_CREAT | O_WRONLY, 0644);

	return fd < 0 ? -1 : close(fd);
}

static int op_open_write(void)
{
	int fd = open(write_path, O_WRONLY);

	return fd < 0 ? -1 : close(fd);
}

static int op_open_plain(void)
{
	int fd = open(target_path, O_RDONLY);

	return fd < 0 ? -1 : close(fd);
}

static int op_ptrace_readv(void)
{
	char byte;
	struct iovec local = { &byte, 1 };
	struct iovec remote = { (void *)&probe, 1 };

	return process_vm_readv(target_pid, &local, 1, &remote, 1, 0) == 1 ?
		       0 : -1;
}

static const enum config_id fs_configs[] = {
	OFF, MAINLINE, WARDEN, WARDEN_2, COMPLAIN, WORKER, POLICY, CONFIGS,
};

static const enum config_id ptrace_configs[] = { OFF, WARDEN, YAMA, CONFIGS };

static const struct workload {
	const char *name;
	int (*op)(void);
	const enum config_id *configs;
	/* Timed in the tracer, as many processes hold exceptions. */
	bool ptrace;
} workloads[] = {
	{ "stat_link", op_stat_link, fs_configs, false },
	{ "open_link", op_open_link, fs_configs, false },
	{ "stat_plain", op_stat_plain, fs_configs, false },
	{ "stat_deep", op_stat_deep, fs_configs, false },
	{ "link_unlink", op_link_unlink, fs_configs, false },
	{ "open_creat", op_open_creat, fs_configs, false },
	{ "stat_owner", op_stat_owner, fs_configs, false },
	{ "open_write", op_open_write, fs_configs, false },
	{ "open_plain", op_open_plain, fs_configs, false },
	{ "ptrace_readv", op_ptrace_readv, ptrace_configs, true },
};

#define WORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

/* -w: the workloads to run. */
static bool chosen[WORKLOADS];
/* -i: the TSC counts instructions, and the rows say so. */
static bool icount;

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * Under TCG the guest kernel cannot calibrate the TSC, and its
 * CLOCK_MONOTONIC moves in jiffies (4 ms).  Batches are timed in TSC
 * cycles, which QEMU takes from the host's, and converted to ns by the
 * cycles per ns of the whole run so far, measured on CLOCK_MONOTONIC's
 * edges: precise to a few jiffies over many seconds.
 */
static struct clock_edge {
	double ns;
	unsigned long long tsc;
} run_start;

static struct clock_edge clock_edge(void)
{
	struct clock_edge e;
	const double ns = mono_ns();

	do {
		e.tsc = __rdtsc();
		e.ns = mono_ns();
	} while (e.ns == ns);
	return e;
}

static double cycles_per_ns(void)
{
	const struct clock_edge now = clock_edge();

	return (now.tsc - run_start.tsc) / (now.ns - run_start.ns);
}

/* TSC ticks of a loop of @n iterations of 2 instructions each. */
static unsigned long long loop_ticks(long n)
{
	const unsigned long long start = __rdtsc();

	asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
	return __rdtsc() - start;
}

/*
 * With -i: the TSC must count instructions.  The loop run 2N times takes
 * exactly 2N instructions more than run N times; the fewest ticks of a
 * few tries of each leave out a timer interrupt.  Anything but 2N ticks
 * more (host cycles, under TCG without -icount shift=0) stops the bench.
 */
static void check_icount(void)
{
	const long n = 100000;
	unsigned long long once = ULLONG_MAX, twice = ULLONG_MAX, t;
	int i;

	for (i = 0; i < 5; i++) {
		t = loop_ticks(n);
		once = t < once ? t : once;
		t = loop_ticks(2 * n);
		twice = t < twice ? t : twice;
	}
	if (twice - once != 2 * n)
		die("-i: %ld more instructions took %lld more TSC ticks: the TSC does not count instructions (boot with ICOUNT=1: QEMU -icount shift=0,sleep=off)",
		    2 * n, (long long)(twice - once));
	fprintf(stderr, "warden_bench: the TSC counts instructions: %ld more took %llu more ticks\n",
		2 * n, twice - once);
}

/* Returns the cycles of one operation, or -errno if one failed. */
static double time_batch(int (*const op)(void), const long ops)
{
	const unsigned long long start = __rdtsc();
	long i;

	for (i = 0; i < ops; i++)
		if (op())
			return -errno;
	return (double)(__rdtsc() - start) / ops;
}

static void read_all(const int fd, void *const buf, const size_t len)
{
	if (read(fd, buf, len) != (ssize_t)len)
		die("lost a helper process");
}

/* What the policy worker is asked to time. */
struct batch {
	long workload;
	long ops;
};

/* Cycles per operation, by workload, configuration and round. */
static double results[WORKLOADS][CONFIGS][MAX_ROUNDS];

static double run_batch(const struct workload *const w, const long ops,
			const enum config_id c)
{
	double cycles;

	if (w->ptrace) {
		if (write(to_tracer, &ops, sizeof(ops)) != sizeof(ops))
			die("lost the tracer");
		read_all(from_tracer, &cycles, sizeof(cycles));
	} else if (configs[c].policy) {
		const struct batch b = { w - workloads, ops };

		if (write(workers[c].to, &b, sizeof(b)) != sizeof(b))
			die("lost the %s worker", configs[c].name);
		read_all(workers[c].from, &cycles, sizeof(cycles));
	} else {
		cycles = time_batch(w->op, ops);
	}
	if (cycles < 0)
		die("%s is refused in configuration %s: %s", w->name,
		    configs[c].name, strerror(-cycles));
	return cycles;
}

static void become_user(void)
{
	if (setgroups(0, NULL) || setresgid(USER_UID, USER_UID, USER_UID) ||
	    setresuid(USER_UID, USER_UID, USER_UID) ||
	    prctl(PR_SET_DUMPABLE, 1))
		_exit(2);
}

/*
 * The tracer: an unprivileged sibling of the target, timing batches of
 * reads for the bench.  It is told the target's pid first; a batch of 0
 * operations ends it.
 */
static void tracer(const int cmd, const int res)
{
	double cycles;
	long ops;

	become_user();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (read(cmd, &target_pid, sizeof(target_pid)) != sizeof(target_pid))
		_exit(2);
	while (read(cmd, &ops, sizeof(ops)) == sizeof(ops) && ops) {
		cycles = time_batch(op_ptrace_readv, ops);
		if (write(res, &cycles, sizeof(cycles)) != sizeof(cycles))
			break;
	}
	_exit(0);
}

static pid_t spawn(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %m");
	return pid;
}

/*
 * Forks a helper that runs @fn(cmd, res), which must not return: the
 * bench writes its commands to *@to and reads its results from *@from.
 */
static pid_t spawn_helper(void (*const fn)(int cmd, int res), int *const to,
			  int *const from)
{
	int cmd[2], res[2];
	pid_t pid;

	if (pipe(cmd) || pipe(res))
		die("pipe: %m");
	pid = spawn();
	if (!pid) {
		close(cmd[1]);
		close(res[0]);
		fn(cmd[0], res[1]);
	}
	close(cmd[0]);
	close(res[1]);
	*to = cmd[1];
	*from = res[0];
	return pid;
}

/*
 * A worker: root, like the bench, but with no_new_privs and
 * worker_policy written for itself (Warden's file rules raised to 1 for
 * "policy", left at 0 for "worker").  It says whether the kernel took the
 * policy (0 or the errno), then times the batches it is sent; a batch of
 * 0 operations ends it.
 */
static void policy_worker(const int cmd, const int res)
{
	const ssize_t len = strlen(worker_policy);
	struct batch b;
	double cycles;
	int fd, err = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(POLICY_ATTR, O_WRONLY);
	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    write(fd, worker_policy, len) != len)
		err = errno;
	if (write(res, &err, sizeof(err)) != sizeof(err) || err)
		_exit(2);
	close(fd);
	while (read(cmd, &b, sizeof(b)) == sizeof(b) && b.ops) {
		cycles = time_batch(workloads[b.workload].op, b.ops);
		if (write(res, &cycles, sizeof(cycles)) != sizeof(cycles))
			break;
	}
	_exit(0);
}

/* Without per-process policies in this kernel, the workers are n/a. */
static void start_workers(void)
{
	struct worker *w;
	int c, err;

	if (access(POLICY_ATTR, F_OK))
		return;
	for (c = 0; c < CONFIGS; c++) {
		if (!configs[c].policy || !has_knobs(c))
			continue;
		w = &workers[c];
		worker_policy = configs[c].policy;
		w->pid = spawn_helper(policy_worker, &w->to, &w->from);
		read_all(w->from, &err, sizeof(err));
		if (err)
			die("the %s worker cannot write its policy: %s",
			    configs[c].name, strerror(err));
	}
}

static void stop_workers(void)
{
	const struct batch stop = { 0, 0 };
	struct worker *w;

	for (w = workers; w < workers + CONFIGS; w++) {
		if (w->pid <= 0)
			continue;
		if (write(w->to, &stop, sizeof(stop)) != sizeof(stop))
			kill(w->pid, SIGKILL);
		waitpid(w->pid, NULL, 0);
		w->pid = 0;
	}
}

static void start_ptrace_scene(void)
{
	int ready[2];
	char c;

	tracer_pid = spawn_helper(tracer, &to_tracer, &from_tracer);
	if (pipe(ready))
		die("pipe: %m");

	/* Before any other exception: Yama's list keeps it last. */
	target_pid = spawn();
	if (!target_pid) {
		become_user();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		c = prctl(PR_SET_PTRACER, tracer_pid) ? 'E' : 'R';
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	read_all(ready[0], &c, 1);
	if (c != 'R')
		die("the target cannot name its tracer");
	if (write(to_tracer, &target_pid, sizeof(target_pid)) !=
	    sizeof(target_pid))
		die("lost the tracer");
	close(ready[0]);
	close(ready[1]);
	nprocs = 1;
}

/*
 * A process that holds an exception for init and sleeps.  It shares the
 * bench's memory: only raw system calls, on its own small stack.
 */
static int filler(void *const arg)
{
	char c = syscall(SYS_prctl, PR_SET_PTRACER, 1, 0, 0, 0) ? 'E' : 'R';

	syscall(SYS_write, filler_ready[1], &c, 1);
	for (;;)
		syscall(SYS_pause);
	return 0;
}

static long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void grow_ptrace_scene(const int n)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			  SIGCHLD;
	int i, start = nprocs;
	char c;

	if (n < nprocs)
		die("give the numbers of processes in increasing order");
	for (; nprocs < n; nprocs++) {
		procs[nprocs] = clone(filler,
				      filler_stacks + (nprocs + 1) * FILLER_STACK,
				      flags, NULL);
		if (procs[nprocs] < 0)
			die("process %d of %d: %m (give the guest more memory: BENCH_MEM)",
			    nprocs + 1, n);
	}
	for (i = start; i < n; i++) {
		read_all(filler_ready[0], &c, 1);
		if (c != 'R')
			die("a process cannot name init as its tracer");
	}
	fprintf(stderr, "warden_bench: %d processes hold an exception, %ld MB available\n",
		nprocs, mem_available_kb() / 1024);
}

static void stop_ptrace_scene(void)
{
	long stop = 0;
	int i;

	if (!nprocs)
		return;
	for (i = 1; i < nprocs; i++)
		kill(procs[i], SIGKILL);
	kill(target_pid, SIGKILL);
	if (write(to_tracer, &stop, sizeof(stop)) != sizeof(stop))
		kill(tracer_pid, SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	nprocs = 0;
}

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of n sorted values, interpolated. */
static double quantile(const double *const v, const int n, const double q)
{
	const double pos = q * (n - 1);
	const int i = pos;

	return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[i];
}

static void print_header(void)
{
	if (icount)
		printf("workload,config,procs,rounds,ops,insn_median,insn_min,"
		       "insn_max,added_median,added_min,added_max\n");
	else
		printf("workload,config,procs,rounds,ops,ns_median,ns_q1,ns_q3,"
		       "ratio_median,ratio_q1,ratio_q3,ratio_min,ratio_max\n");
}

/*
 * Sorts @cycles and @ratio (with -i: instructions per operation, and
 * those minus off's); a NULL @cycles prints n/a.
 */
static void print_row(const struct workload *const w, const enum config_id c,
		      const int procs, const int rounds, const long ops,
		      double *const cycles, double *const ratio,
		      const double cpn)
{
	printf("%s,%s,%d,%d,%ld,", w->name, configs[c].name, procs, rounds, ops);
	if (!cycles) {
		printf(icount ? "n/a,n/a,n/a,n/a,n/a,n/a\n" :
				"n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a\n");
		return;
	}
	qsort(cycles, rounds, sizeof(*cycles), cmp_double);
	qsort(ratio, rounds, sizeof(*ratio), cmp_double);
	if (icount) {
		printf("%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n",
		       quantile(cycles, rounds, 0.5), cycles[0],
		       cycles[rounds - 1], quantile(ratio, rounds, 0.5),
		       ratio[0], ratio[rounds - 1]);
		return;
	}
	printf("%.1f,%.1f,%.1f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
	       quantile(cycles, rounds, 0.5) / cpn,
	       quantile(cycles, rounds, 0.25) / cpn,
	       quantile(cycles, rounds, 0.75) / cpn,
	       quantile(ratio, rounds, 0.5), quantile(ratio, rounds, 0.25),
	       quantile(ratio, rounds, 0.75), ratio[0], ratio[rounds - 1]);
}

/*
 * Time the workloads @first..@last (which share their configurations) in
 * every configuration they have, @rounds times, in batches that take
 * about @batch_ns in "off", and print their rows.
 */
static void bench(const struct workload *const first,
		  const struct workload *const last, const int rounds,
		  const double batch_ns, const int procs)
{
	static double cycles[CONFIGS][MAX_ROUNDS], ratio[CONFIGS][MAX_ROUNDS];
	const enum config_id *const cs = first->configs;
	const struct workload *w;
	long ops[WORKLOADS];
	int ncs, r, i, p;
	double cpn;

	for (ncs = 0; cs[ncs] != CONFIGS; ncs++)
		;
	/* Warm up the caches and every check; size the batches. */
	for (w = first; w <= last; w++) {
		if (!chosen[w - workloads])
			continue;
		for (i = ncs - 1; i >= 0; i--)
			if (has_config(cs[i])) {
				set_config(cs[i]);
				run_batch(w, 100, cs[i]);
			}
		ops[w - workloads] = batch_ns * cycles_per_ns() /
				     run_batch(w, 100, OFF);
		if (ops[w - workloads] < 10)
			ops[w - workloads] = 10;
	}
	for (r = 0; r < rounds; r++) {
		for (w = first; w <= last; w++) {
			double (*const res)[MAX_ROUNDS] = results[w - workloads];

			if (!chosen[w - workloads])
				continue;
			for (i = 0; i < ncs; i++)
				res[i][r] = INFINITY;
			/* Untimed: the first batch after another workload's. */
			set_config(cs[0]);
			run_batch(w, ops[w - workloads], cs[0]);
			for (p = 0; p < PASSES * ncs; p++) {
				const int pass = p / ncs, i = p % ncs;
				const int j = pass % 2 ? ncs - 1 - i : i;
				double t;

				if (!has_config(cs[j]))
					continue;
				set_config(cs[j]);
				t = run_batch(w, ops[w - workloads], cs[j]);
				if (t < res[j][r])
					res[j][r] = t;
			}
		}
		if ((r + 1) % (rounds / 10 ?: 1) == 0)
			fprintf(stderr, "warden_bench: round %d/%d of %s..%s done\n",
				r + 1, rounds, first->name, last->name);
	}
	set_config(OFF);
	cpn = cycles_per_ns();
	for (w = first; w <= last; w++) {
		if (!chosen[w - workloads])
			continue;
		for (i = 0; i < ncs; i++)
			for (r = 0; has_config(cs[i]) && r < rounds; r++) {
				const double off = results[w - workloads][0][r];

				cycles[i][r] = results[w - workloads][i][r];
				ratio[i][r] = icount ? cycles[i][r] - off :
						       cycles[i][r] / off;
			}
		for (i = 0; i < ncs; i++)
			print_row(w, cs[i], procs, rounds, ops[w - workloads],
				  has_config(cs[i]) ? cycles[i] : NULL,
				  ratio[i], cpn);
	}
	fflush(stdout);
}

/* At exit, even a failed one: leave the guest as it was. */
static void cleanup(void)
{
	stop_ptrace_scene();
	stop_workers();
	remove_files();
	restore_knobs();
}

/* Whether @name is in the comma-separated @list. */
static bool listed(const char *list, const char *const name)
{
	const size_t len = strlen(name);

	for (; list; list = strchr(list, ',') ? strchr(list, ',') + 1 : NULL)
		if (!strncmp(list, name, len) &&
		    (list[len] == ',' || !list[len]))
			return true;
	return false;
}

static void usage(void)
{
	die("usage: warden_bench [-s] [-i] [-r ROUNDS] [-t USEC] [-n N,N,...] [-w WORKLOAD,...]");
}

int main(int argc, char **argv)
{
	const int nfs = WORKLOADS - 1;
	char *counts = "1,100,1000,10000", *n, *only = NULL;
	int rounds = 0, max = 0, nchosen = 0, opt, k;
	double batch_us = 0;
	bool smoke = false, any_fs = false;
	cpu_set_t cpu0;

	while ((opt = getopt(argc, argv, "sir:t:n:w:")) != -1) {
		switch (opt) {
		case 's':
			smoke = true;
			counts = "1,100";
			break;
		case 'i':
			icount = true;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 't':
			batch_us = atof(optarg);
			break;
		case 'n':
			counts = optarg;
			break;
		case 'w':
			only = optarg;
			break;
		default:
			usage();
		}
	}
	if (!rounds)
		rounds = smoke ? 3 : icount ? 11 : 1001;
	if (!batch_us)
		batch_us = smoke || icount ? 100 : 300;
	if (optind != argc || rounds < 1 || rounds > MAX_ROUNDS ||
	    !(batch_us > 0))
		usage();
	for (k = 0; k < (int)WORKLOADS; k++) {
		chosen[k] = !only || listed(only, workloads[k].name);
		nchosen += chosen[k];
		any_fs |= chosen[k] && k < nfs;
	}
	/* Every name a workload's, once. */
	for (n = only; n && *n; n = strchr(n, ',') ? strchr(n, ',') + 1 : "")
		nchosen--;
	if (only && (nchosen || !*only))
		die("-w %s: not a list of workloads", only);
	for (n = counts; *n; n = strchr(n, ',') ? strchr(n, ',') + 1 : "")
		if (atoi(n) > max)
			max = atoi(n);
	if (max < 1 || max > MAX_PROCS)
		usage();

	/* One CPU for the bench and its helpers: less noise. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	sched_setaffinity(0, sizeof(cpu0), &cpu0);

	for (k = 0; k < KNOBS; k++)
		read_knob(&knobs[k]);
	if (!knobs[W_SYMLINKS].present)
		die("no %s: is Warden active?", knobs[W_SYMLINKS].path);
	atexit(cleanup);
	if (knobs[THREADS_MAX].present &&
	    atoi(knobs[THREADS_MAX].saved) < max + 1000)
		write_knob(THREADS_MAX, max + 1000);

	if (icount)
		check_icount();
	run_start = clock_edge();
	make_files();
	/* After make_files(): the workers need the paths it set. */
	start_workers();
	for (k = 0; k < CONFIGS; k++)
		if (!has_config(k))
			fprintf(stderr, "warden_bench: configuration %s is n/a: %s\n",
				configs[k].name,
				configs[k].policy && has_knobs(k) ?
					"no " POLICY_ATTR " (a kernel without per-process policies)" :
					"a sysctl is missing");
	print_header();
	if (any_fs)
		bench(&workloads[0], &workloads[nfs - 1], rounds,
		      batch_us * 1000, 0);
	stop_workers();
	if (!chosen[nfs])
		return 0;

	filler_stacks = mmap(NULL, (size_t)(max + 1) * FILLER_STACK,
			     PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (filler_stacks == MAP_FAILED || pipe(filler_ready))
		die("cannot prepare %d processes: %m", max);
	start_ptrace_scene();
	for (n = counts; *n; n = strchr(n, ',') ? strchr(n, ',') + 1 : "") {
		grow_ptrace_scene(atoi(n));
		bench(&workloads[nfs], &workloads[nfs], rounds, batch_us * 1000,
		      nprocs);
	}
	return 0;
}
