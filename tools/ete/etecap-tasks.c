// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the traced command and its descendants.  The command's tasks
 * and code come from perf's records (etecap-events.c), nothing stopped;
 * where the kernel gives none, or with --ptrace, the command runs under
 * ptrace (PTRACE_SEIZE) so that every process it makes is stopped once at
 * exit, when its memory map and text can still be read (etecap-mem.c);
 * -p attaches to running processes that way.  Every other stop is passed
 * on as it came: a signal is delivered, a group-stop stays stopped
 * (PTRACE_LISTEN), whatever the number of tasks.
 * etecap-capture.c calls these from its loop; every other task's name
 * (and, system-wide, its code) is noted at the stop.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "etecap.h"

/*
 * Every task followed, without a limit: a stop of a task not in it is
 * taken for a new task's first stop, whose signal is not passed on
 */
static pid_t *tracees;
static int ntracees, tracees_max;

/* What a task traced is followed through */
#define ETECAP_PTRACE_OPTS	(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEFORK | \
				 PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
				 PTRACE_O_TRACEEXEC)

static bool is_tracee(pid_t pid)
{
	int i;

	for (i = 0; i < ntracees; i++)
		if (tracees[i] == pid)
			return true;
	return false;
}

static void add_tracee(pid_t pid)
{
	pid_t *more;
	int n;

	if (is_tracee(pid))
		return;
	if (ntracees == tracees_max) {
		n = tracees_max ? 2 * tracees_max : 64;
		more = realloc(tracees, n * sizeof(*tracees));
		if (!more) {
			fprintf(stderr, "etecap: out of memory: task %d is not followed\n",
				pid);
			return;
		}
		tracees = more;
		tracees_max = n;
	}
	tracees[ntracees++] = pid;
}

static void drop_tracee(pid_t pid)
{
	int i;

	for (i = 0; i < ntracees; i++)
		if (tracees[i] == pid)
			tracees[i] = tracees[--ntracees];
}

/*
 * The command waits on a pipe before its exec while etecap opens its perf
 * events (or seizes it) and starts the trace; etecap_run_command() lets
 * it go.  Under ptrace, fork, clone and exec are followed and exit stops
 * each task once.  Seized, not
 * PTRACE_TRACEME: a task's own SIGSTOP is then a signal like any other,
 * and its group-stop a PTRACE_EVENT_STOP that PTRACE_LISTEN leaves
 * stopped (etecap_reap()).
 */
int etecap_spawn(struct etecap *e)
{
	int go[2], err;
	pid_t pid;
	char c;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(go[0]);
		close(go[1]);
		return -err;
	}
	if (!pid) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* etecap gave up on it */
		execvp(e->o.cmd[0], e->o.cmd);
		fprintf(stderr, "etecap: %s: %s\n", e->o.cmd[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (!e->o.ptrace && !etecap_events_open(pid)) {
		e->child = pid;
		e->child_go = go[1];
		return 0;
	}
	if (ptrace(PTRACE_SEIZE, pid, NULL, ETECAP_PTRACE_OPTS)) {
		err = errno;
		fprintf(stderr, "etecap: %s: cannot follow it: %s\n",
			e->o.cmd[0], strerror(err));
		close(go[1]);
		waitpid(pid, NULL, 0);
		return -err;
	}
	e->child = pid;
	e->child_go = go[1];
	add_tracee(pid);
	return 0;
}

/* The trace started: the command goes on to its exec */
void etecap_run_command(struct etecap *e)
{
	if (e->child_go < 0)
		return;
	if (write(e->child_go, "", 1) != 1)
		fprintf(stderr, "etecap: %s: cannot start it: %s\n",
			e->o.cmd[0], strerror(errno));
	close(e->child_go);
	e->child_go = -1;
}

/* Seize @tid (@opts followed); 0 or -errno, having said why */
static int seize(pid_t tid, long opts)
{
	int err;

	if (!ptrace(PTRACE_SEIZE, tid, NULL, opts)) {
		add_tracee(tid);
		return 0;
	}
	err = errno;
	fprintf(stderr, "etecap: --attach %d: %s%s\n", tid, strerror(err),
		err != EPERM ? "" :
		" (needs CAP_SYS_PTRACE, or the task's user and kernel.yama.ptrace_scope 0)");
	return -err;
}

/*
 * Task mode: every thread of @pid, seized with their threads and children
 * followed.  A thread that a thread not yet seized starts meanwhile is
 * found by the next pass; one that ends meanwhile (ESRCH) is no loss.
 */
static int attach_process(pid_t pid)
{
	char path[64];
	struct dirent *d;
	int pass, added, ret = 0;
	DIR *dir;

	for (pass = 0; pass < 8 && !ret; pass++) {
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		dir = opendir(path);
		if (!dir) {
			fprintf(stderr, "etecap: --attach %d: %s\n", pid,
				strerror(errno));
			return pass ? 0 : -ESRCH;
		}
		added = 0;
		while (!ret && (d = readdir(dir))) {
			pid_t tid = strtol(d->d_name, NULL, 10);

			if (tid <= 0 || is_tracee(tid))
				continue;
			ret = seize(tid, ETECAP_PTRACE_OPTS);
			if (ret == -ESRCH)
				ret = 0;
			else if (!ret)
				added++;
		}
		closedir(dir);
		if (!added)
			break;
	}
	return ret;
}

/*
 * -p: attach to running processes without stopping them (PTRACE_SEIZE),
 * to save the code of a task that exits during the capture and to end
 * when all have.  In task mode (o->task_pid) the process's threads and
 * what they start are followed, as the driver traces them; with
 * --all-tasks the threads o->pids holds (etecap_resolve_pids()) and no
 * child, as the context ID filter traces them.  They are detached when
 * etecap exits, running.  0 or -errno, having said who refused.
 */
int etecap_attach_tasks(struct etecap *e)
{
	int i, ret = 0;

	if (e->o.task_pid)
		return attach_process(e->o.task_pid);
	for (i = 0; i < e->o.npids && !ret; i++)
		ret = seize(e->o.pids[i], PTRACE_O_TRACEEXIT);
	return ret;
}

/* What decode needs of a task that is about to exit (or is left running) */
static void collect_task(struct etecap *e, pid_t pid)
{
	char path[ETECAP_PATH], line[256], name[64] = "?";
	long tgid = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "Name:", 5))
				sscanf(line + 5, " %63[^\n]", name);
			else if (!strncmp(line, "Tgid:", 5))
				tgid = strtol(line + 5, NULL, 10);
		}
		fclose(f);
	}
	/* CONFIG_PID_IN_CONTEXTIDR: the context ID is this task's PID */
	if (e->contexts)
		fprintf(e->contexts, "%d %ld %s\n", pid, tgid, name);
	etecap_mem_add_process(&e->mem, e->o.outdir, pid);
}

/* What decode needs of every task traced now (a flight snapshot) */
void etecap_collect_tracees(struct etecap *e)
{
	int i;

	if (etecap_events_on()) {
		etecap_events_collect(e);
		return;
	}
	for (i = 0; i < ntracees; i++)
		collect_task(e, tracees[i]);
}

/*
 * A capture of whatever runs: no command, no -p, no --pid or --comm.  Its
 * snapshot holds the code of every task alive at the stop.
 */
bool etecap_system_wide(const struct etecap_opts *o)
{
	return !o->cmd && !o->attach && !o->npids && !o->comm;
}

/*
 * After the traced tasks, every other task alive at the stop (threads
 * included), so that the context IDs of a trace that is not filtered to
 * the command (kernel threads, other processes) have a name too.  A task
 * that came and went during the capture without being traced is not
 * there: its context ID stays unnamed.  System-wide, each process's code
 * is saved too (etecap_mem_add_other(): its map, its executable mappings,
 * an image shared by processes once, up to --others-max).
 */
void etecap_note_other_tasks(struct etecap *e)
{
	bool code = etecap_system_wide(&e->o) && e->o.others_max;
	char path[ETECAP_PATH], line[256], name[64];
	struct dirent *p, *t;
	DIR *procs, *tasks;
	FILE *f;

	procs = opendir("/proc");
	if (!procs || !e->contexts)
		goto out;
	fprintf(e->contexts, "# other tasks alive at the stop\n");
	while ((p = readdir(procs))) {
		int pid = atoi(p->d_name);

		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		if (code && pid != getpid() && !is_tracee(pid) &&
		    !etecap_events_has_task(pid))
			etecap_mem_add_other(&e->mem, e->o.outdir, pid);
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		tasks = opendir(path);
		if (!tasks)
			continue;
		while ((t = readdir(tasks))) {
			int tid = atoi(t->d_name);

			if (!isdigit((unsigned char)t->d_name[0]) ||
			    is_tracee(tid) || etecap_events_has_task(tid))
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/comm",
				 pid, tid);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(line, sizeof(line), f) &&
			    sscanf(line, "%63[^\n]", name) == 1)
				fprintf(e->contexts, "%d %d %s\n", tid, pid,
					name);
			fclose(f);
		}
		closedir(tasks);
	}
out:
	if (procs)
		closedir(procs);
}

/*
 * The command followed by perf's records: only its own end is waited for
 * (what it starts is not etecap's child); true once it ended
 */
static bool reap_command(struct etecap *e)
{
	int st;

	etecap_events_drain();
	if (e->child && waitpid(e->child, &st, WNOHANG) == e->child) {
		e->child_status = st;
		e->child = 0;
	}
	return !e->child;
}

/* Handle every pending ptrace stop and exit; true once the command ended */
bool etecap_reap(struct etecap *e)
{
	int st, sig, event;
	pid_t pid;

	if (etecap_events_on())
		return reap_command(e);
	while ((pid = waitpid(-1, &st, WNOHANG | __WALL)) > 0) {
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			drop_tracee(pid);
			if (pid == e->child) {
				e->child_status = st;
				e->child = 0;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = WSTOPSIG(st);
		event = st >> 16;
		if (!is_tracee(pid)) {
			/* a new task's first stop: follow it */
			add_tracee(pid);
			sig = 0;
		} else if (event == PTRACE_EVENT_EXIT) {
			collect_task(e, pid);
			sig = 0;
		} else if (event == PTRACE_EVENT_STOP &&
			   (sig == SIGSTOP || sig == SIGTSTP ||
			    sig == SIGTTIN || sig == SIGTTOU)) {
			/* a group-stop of a task attached to: it stays stopped */
			ptrace(PTRACE_LISTEN, pid, NULL, NULL);
			continue;
		} else if (event) {
			sig = 0;	/* fork, clone, exec: no signal */
		}
		ptrace(PTRACE_CONT, pid, NULL, sig);
	}
	if (e->o.attach)
		return !ntracees;	/* every task attached to has ended */
	return e->o.cmd && !e->child;
}

/*
 * The capture ended with the command still running (duration, signal):
 * save what its tasks have mapped, then end it with SIGTERM (SIGKILL if
 * it is still there 2 s later).  Tasks it left behind run on, detached
 * when etecap exits.
 */
void etecap_release_tracees(struct etecap *e)
{
	long deadline = etecap_now_ms() + 2000;

	etecap_collect_tracees(e);
	if (!e->child)
		goto out;
	kill(e->child, SIGTERM);
	while (!etecap_reap(e)) {
		if (deadline && etecap_now_ms() > deadline) {
			kill(e->child, SIGKILL);
			deadline = 0;
		}
		usleep(10000);
	}
out:
	etecap_events_close();
}
