// SPDX-License-Identifier: GPL-2.0
/*
 * Task mode (ETE_TRBE_IOC_SET_TASKS, issue 34) against the ETE/TRBE model:
 * a session bound to a process lets trace through on its CPU only while a
 * task of the process runs there.
 *
 * The model generates trace at each 1 ms tick while TRFCR allows it, and
 * with cpu<N>/cid_ticks counts those ticks by the context ID of the task
 * they interrupted (CONTEXTIDR_EL1: the kernel writes the running task's
 * PID there at each switch).  So "who ran while trace was allowed" is the
 * model's record, not the driver's: a test passes when that record holds
 * the bound process's tasks and nothing else.  Busy programs share CPU 1
 * (sched_setaffinity), members and non-members, so the scheduler switches
 * between them all the time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/ete.h>

#include "kselftest_harness.h"

#include "trbe_model.h"

#define CPU		1
#define MAX_TASKS	8

/* Pin the caller to @cpu */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *spin(void *arg)
{
	unsigned long n = 0;

	for (;;)
		__atomic_store_n(&n, n + 1, __ATOMIC_RELAXED);
	return NULL;
}

/* A process on CPU that spins for ever (killed by the test) */
static pid_t spawn_busy(int cpu)
{
	pid_t pid = fork();

	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(cpu);
		spin(NULL);
	}
	return pid;
}

/* Whether @pid is asleep (state S in /proc/PID/stat) */
static int asleep(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * A process on CPU that sleeps for ever, returned once it sleeps: its
 * pinning and its way into pause() run on CPU, and would be traced if a
 * session bound to it started meanwhile (up to 10 s).
 */
static pid_t spawn_sleeper(int cpu)
{
	int ready[2], i;
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(cpu);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) == 1) {
		/* after the byte, it sleeps only in pause() */
		for (i = 0; i < 1000 && !asleep(pid); i++)
			usleep(10000);
	}
	close(ready[0]);
	return pid;
}

/*
 * A process on @cpu that waits for a byte on @go, then forks a child that
 * starts @threads more spinning threads and spins itself; the child's
 * PID goes to @ids.
 */
static pid_t spawn_family(int cpu, int go, int ids, int threads)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	pin(cpu);
	if (read(go, &c, 1) != 1)
		_exit(1);
	if (!fork()) {
		pthread_t th;
		pid_t tid = getpid();
		int i;

		/* dies with its parent, which the test kills */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(cpu);
		if (write(ids, &tid, sizeof(tid)) != sizeof(tid))
			_exit(1);
		for (i = 0; i < threads; i++)
			pthread_create(&th, NULL, spin, NULL);
		spin(NULL);
	}
	for (;;)
		pause();
}

/* The thread IDs of @child, once it has @max threads (up to 10 s) */
static int family_ids(pid_t child, pid_t *tids, int max)
{
	char path[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", child);
	for (int tries = 0; tries < 200; tries++) {
		dir = opendir(path);
		if (!dir)
			return -1;
		n = 0;
		while (n < max && (d = readdir(dir)))
			if (d->d_name[0] != '.')
				tids[n++] = atoi(d->d_name);
		closedir(dir);
		if (n == max)
			break;
		usleep(50000);
	}
	return n;
}

struct cid_table {
	unsigned int n;
	unsigned int cid[64];
	unsigned long ticks[64];
	unsigned long lost;
};

static int cid_track(int on)
{
	return model_set(CPU, "cid_ticks", on ? "1" : "0");
}

static int cid_read(struct cid_table *t)
{
	char path[128];
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), MODEL "cpu%d/cid_ticks", CPU);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (t->n < 64 &&
	       fscanf(f, "%x %lu", &t->cid[t->n], &t->ticks[t->n]) == 2)
		t->n++;
	if (fscanf(f, "lost %lu", &t->lost) != 1)
		t->lost = 0;
	fclose(f);
	return 0;
}

static unsigned long cid_ticks_of(const struct cid_table *t, pid_t pid)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (t->cid[i] == (unsigned int)pid)
			return t->ticks[i];
	return 0;
}

/* Wait up to @secs until each of @pids has @min ticks */
static void cid_wait(struct cid_table *t, const pid_t *pids, int n,
		     unsigned long min, double secs)
{
	double end = now_s() + secs;
	int i;

	for (;;) {
		cid_read(t);
		for (i = 0; i < n; i++)
			if (cid_ticks_of(t, pids[i]) < min)
				break;
		if (i == n || now_s() > end)
			return;
		usleep(100000);
	}
}

static int set_tasks(int fd, pid_t pid, unsigned int flags)
{
	struct ete_trbe_tasks req = { .pid = pid, .flags = flags };

	return ioctl(fd, ETE_TRBE_IOC_SET_TASKS, &req) ? -errno : 0;
}

FIXTURE(task) {
	struct tbuf t;
	pid_t kill[MAX_TASKS];
	int nkill;
};

FIXTURE_SETUP(task)
{
	self->nkill = 0;
	self->t.fd = -1;
	if (!model_present(CPU))
		SKIP(return, "no ETE/TRBE model loaded");
	model_configure(CPU, "1048576", "fill", "ignore", "0", "stop");
	model_set(CPU, "rate", "64");
	ASSERT_EQ(0, tbuf_open(&self->t, CPU));
	ASSERT_EQ(0, cid_track(1));
}

FIXTURE_TEARDOWN(task)
{
	int i;

	for (i = 0; i < self->nkill; i++) {
		kill(self->kill[i], SIGKILL);
		waitpid(self->kill[i], NULL, 0);
	}
	if (self->t.fd >= 0) {
		ioctl(self->t.fd, ETE_TRBE_IOC_STOP);
		tbuf_close(&self->t);
	}
	if (model_present(CPU))
		cid_track(0);
}

static void keep(struct _test_data_task *self, pid_t pid)
{
	if (pid > 0 && self->nkill < MAX_TASKS)
		self->kill[self->nkill++] = pid;
}

/* A member and a non-member share the CPU: only the member is traced */
TEST_F_TIMEOUT(task, only_the_member_is_traced, 120)
{
	struct cid_table t;
	pid_t a, b;

	a = spawn_busy(CPU);
	keep(self, a);
	b = spawn_busy(CPU);
	keep(self, b);
	ASSERT_EQ(0, set_tasks(self->t.fd, a, 0));
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_START));
	cid_wait(&t, &a, 1, 50, 30);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	cid_read(&t);
	EXPECT_LE(50UL, cid_ticks_of(&t, a));
	EXPECT_EQ(0UL, cid_ticks_of(&t, b));
	for (unsigned int i = 0; i < t.n; i++) {
		EXPECT_EQ((unsigned int)a, t.cid[i])
			TH_LOG("context ID 0x%x traced for %lu ticks",
			       t.cid[i], t.ticks[i]);
	}
	EXPECT_LT(0ULL, tbuf_head(&self->t));
}

/* A member that never runs: nothing is traced, whoever else runs */
TEST_F_TIMEOUT(task, a_sleeping_member_gives_no_trace, 60)
{
	struct cid_table t;
	pid_t s, b;

	s = spawn_sleeper(CPU);
	keep(self, s);
	b = spawn_busy(CPU);
	keep(self, b);
	ASSERT_EQ(0, set_tasks(self->t.fd, s, 0));
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_START));
	sleep(2);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	cid_read(&t);
	EXPECT_EQ(0U, t.n)
		TH_LOG("cid 0x%x: %lu ticks (sleeper %d, stranger %d, test %d)",
		       t.cid[0], t.ticks[0], s, b, getpid());
	EXPECT_EQ(0ULL, tbuf_head(&self->t));
}

/*
 * Bound before it forks: the child and its threads, created after the
 * bind, are traced on the CPU; a busy stranger beside them is not.
 */
TEST_F_TIMEOUT(task, children_and_threads_are_traced, 120)
{
	int go[2], ids[2], n;
	pid_t p, b, child, tids[4];
	struct cid_table t;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ids));
	p = spawn_family(CPU, go[0], ids[1], 3);
	keep(self, p);
	b = spawn_busy(CPU);
	keep(self, b);
	ASSERT_EQ(0, set_tasks(self->t.fd, p, 0));
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_START));
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ((ssize_t)sizeof(child), read(ids[0], &child, sizeof(child)));
	n = family_ids(child, tids, 4);
	ASSERT_EQ(4, n);
	cid_wait(&t, tids, 4, 5, 60);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	cid_read(&t);
	/* the child's process is killed with its parent's group below */
	keep(self, child);
	for (int i = 0; i < 4; i++) {
		EXPECT_LE(5UL, cid_ticks_of(&t, tids[i]))
			TH_LOG("thread %d of the child traced %lu ticks", tids[i],
			       cid_ticks_of(&t, tids[i]));
	}
	EXPECT_EQ(0UL, cid_ticks_of(&t, b));
	/* The bound parent is a member too: its read and fork are traced */
	for (unsigned int i = 0; i < t.n; i++) {
		bool ours = t.cid[i] == (unsigned int)p;

		for (int j = 0; j < 4; j++)
			ours |= t.cid[i] == (unsigned int)tids[j];
		EXPECT_TRUE(ours)
			TH_LOG("cid 0x%x: %lu ticks (parent %d child %d stranger %d test %d)",
			       t.cid[i], t.ticks[i], p, child, b, getpid());
	}
}

/* pid 0 unbinds: the next session traces whatever runs */
TEST_F_TIMEOUT(task, unbound_traces_every_task, 120)
{
	struct cid_table t;
	pid_t s, b;

	s = spawn_sleeper(CPU);
	keep(self, s);
	b = spawn_busy(CPU);
	keep(self, b);
	ASSERT_EQ(0, set_tasks(self->t.fd, s, 0));
	ASSERT_EQ(0, set_tasks(self->t.fd, 0, 0));
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_START));
	cid_wait(&t, &b, 1, 20, 30);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	EXPECT_LE(20UL, cid_ticks_of(&t, b));
}

/* What the ioctl refuses, and that a refusal leaves the binding as it was */
TEST_F(task, refusals)
{
	struct cid_table t;
	pid_t s;

	s = spawn_sleeper(CPU);
	keep(self, s);
	EXPECT_EQ(-EINVAL, set_tasks(self->t.fd, s, 1));
	EXPECT_EQ(-EINVAL, set_tasks(self->t.fd, -1, 0));
	EXPECT_EQ(-ESRCH, set_tasks(self->t.fd, 0x3ffffff0, 0));
	/* kthreadd: a kernel thread has no user code to trace */
	EXPECT_EQ(-EINVAL, set_tasks(self->t.fd, 2, 0));
	ASSERT_EQ(0, set_tasks(self->t.fd, s, 0));
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_START));
	EXPECT_EQ(-EBUSY, set_tasks(self->t.fd, 0, 0));
	/* still bound to the sleeper: nothing is traced */
	sleep(1);
	ASSERT_EQ(0, ioctl(self->t.fd, ETE_TRBE_IOC_STOP));
	cid_read(&t);
	EXPECT_EQ(0U, t.n)
		TH_LOG("cid 0x%x: %lu ticks (sleeper %d, test %d)", t.cid[0],
		       t.ticks[0], s, getpid());
	EXPECT_EQ(0, set_tasks(self->t.fd, 0, 0));
}

/*
 * Without CAP_SYS_PTRACE a caller binds only its own processes (its user
 * and group, dumpable, itself or a descendant): never init, another
 * user's process, or a process of its user that is not its descendant.
 */
TEST_F(task, unprivileged_binds_only_its_own)
{
	pid_t other, stranger, pid;
	int status;

	other = fork();
	if (!other) {
		if (setresgid(1001, 1001, 1001) || setresuid(1001, 1001, 1001))
			_exit(1);
		for (;;)
			pause();
	}
	keep(self, other);
	stranger = fork();
	if (!stranger) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(1);
		prctl(PR_SET_DUMPABLE, 1);
		for (;;)
			pause();
	}
	keep(self, stranger);
	usleep(200000);
	pid = fork();
	if (!pid) {
		pid_t mine;
		int bad = 0;

		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(100);
		prctl(PR_SET_DUMPABLE, 1);
		bad |= (set_tasks(self->t.fd, 1, 0) != -EPERM) << 0;
		bad |= (set_tasks(self->t.fd, other, 0) != -EPERM) << 1;
		bad |= (set_tasks(self->t.fd, stranger, 0) != -EPERM) << 2;
		bad |= (set_tasks(self->t.fd, getpid(), 0) != 0) << 3;
		mine = fork();
		if (!mine) {
			for (;;)
				pause();
		}
		bad |= (set_tasks(self->t.fd, mine, 0) != 0) << 4;
		kill(mine, SIGKILL);
		waitpid(mine, NULL, 0);
		set_tasks(self->t.fd, 0, 0);
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("wrong answers (bits: init, another user, %s): 0x%x",
		       "a non-descendant, itself, its child",
		       WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
