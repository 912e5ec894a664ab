// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: the command's tasks and code without stopping them.  Before the
 * command's exec, etecap opens a perf "dummy" software event on it on
 * every CPU, inherited by every thread and process it makes (an inherited
 * event is mapped per CPU: the kernel refuses a ring for cpu -1 with
 * inherit), for the records the kernel writes whatever the event counts:
 *
 *   PERF_RECORD_MMAP2   each executable mapping: address, length, file
 *                       offset, device and inode, and path ("//anon" when
 *                       no file backs it); an exec's own images included
 *   PERF_RECORD_COMM    a task's name (misc COMM_EXEC: after an execve)
 *   PERF_RECORD_FORK    a new thread or process, and its parent
 *   PERF_RECORD_LOST    records the ring had no room for
 *
 * each with its time (sample_id_all): a process made by fork has, until
 * it execs, its parent's mappings of before the fork, which no record
 * repeats; after an exec only what was mapped since.  The rings of the
 * CPUs are read one after the other, not in time order.
 *
 * The rings are read each time the capture loop wakes (at most 200 ms
 * apart).  At each snapshot and at the end, every mapping recorded is
 * saved, newest first so that what a task mapped last wins where an exec
 * put other code at the same addresses: from its file
 * (etecap_mem_add_mapping(): /proc/<pid>/map_files while the task lives,
 * else its path while that is still the same file) or, for code no file
 * backs, from /proc/<pid>/mem while the task lives.  The images of a
 * program that exec'd another are kept, no task is stopped and no signal
 * passes through etecap.  Anonymous code (a JIT's) of a task that ended
 * before the snapshot is lost, where ptrace (--ptrace) would have kept it.
 *
 * Where the kernel has no perf events (CONFIG_PERF_EVENTS), refuses them
 * (kernel.perf_event_paranoid without CAP_PERFMON), or a ring cannot be
 * mapped (kernel.perf_event_mlock_kb), etecap follows the command with
 * ptrace instead (etecap-tasks.c); etecap.txt's code= says which, and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "etecap.h"

#define EV_DATA_PAGES	16	/* a ring's data: 64 KiB with 4 KiB pages */
#define EV_COMM		16	/* TASK_COMM_LEN */

struct ev_task {
	pid_t tid, pid;
	pid_t ppid;		/* a process made by fork: its parent, or 0 */
	__u64 fork_time;
	__u64 exec_time;	/* its last execve's, or 0 */
	char comm[EV_COMM];
};

/* A mapping recorded: its fields as etecap_map's, the path allocated */
struct ev_map {
	pid_t pid;
	__u64 time;
	unsigned long long start, end, off;
	unsigned long major, minor, inode;
	char *path;
};

static struct {
	int *fd;
	void **ring;
	int n;			/* events open, one per online CPU */
	size_t ring_len;
	size_t data_len;
	struct ev_map *maps;
	size_t nmaps, maps_cap;
	struct ev_task *tasks;
	size_t ntasks, tasks_cap;
	unsigned long long lost;
	bool on;		/* the command is followed by these records */
	char why_not[160];	/* why it is not, when that was tried */
} ev;

/* A record, copied out of the ring (its size is a __u16), aligned */
static union {
	struct perf_event_header h;
	__u64 align;
	unsigned char b[65536];
} rec;

static int open_event(pid_t pid, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.mmap = 1;
	a.mmap2 = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	a.inherit = 1;
	/* each record ends with its time */
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TIME;
	/* user only: allowed up to kernel.perf_event_paranoid 2 */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return syscall(__NR_perf_event_open, &a, pid, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/**
 * etecap_events_open() - follow @pid and what it starts by perf's records
 * @pid: the command, waiting before its exec
 *
 * One event and one ring per CPU the kernel has online (an offline CPU,
 * ENODEV, has none: a task that runs only on a CPU brought online later
 * is not followed there).  On failure nothing stays open and
 * etecap_events_why_not() says what refused.
 *
 * Return: 0, or -errno.
 */
int etecap_events_open(pid_t pid)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	const char *what = "perf_event_open";
	int cpu, fd, err = 0;
	void *ring;

	if (ncpus < 1 || page < 1)
		return -EINVAL;
	ev.fd = calloc(ncpus, sizeof(*ev.fd));
	ev.ring = calloc(ncpus, sizeof(*ev.ring));
	if (!ev.fd || !ev.ring) {
		err = ENOMEM;
		goto fail;
	}
	ev.data_len = EV_DATA_PAGES * page;
	ev.ring_len = ev.data_len + page;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = open_event(pid, cpu);
		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0) {
			err = errno;
			goto fail;
		}
		ring = mmap(NULL, ev.ring_len, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0);
		if (ring == MAP_FAILED) {
			err = errno;
			what = "its ring (mmap)";
			close(fd);
			goto fail;
		}
		ev.fd[ev.n] = fd;
		ev.ring[ev.n++] = ring;
	}
	if (!ev.n) {
		err = ENODEV;
		goto fail;
	}
	ev.on = true;
	return 0;
fail:
	snprintf(ev.why_not, sizeof(ev.why_not), "perf events: %s: %s", what,
		 strerror(err));
	etecap_events_close();
	free(ev.fd);
	free(ev.ring);
	ev.fd = NULL;
	ev.ring = NULL;
	return -err;
}

bool etecap_events_on(void)
{
	return ev.on;
}

/* Why the command is followed by ptrace although perf events were tried */
const char *etecap_events_why_not(void)
{
	return ev.why_not[0] ? ev.why_not : NULL;
}

static struct ev_task *find_task(pid_t tid)
{
	size_t i;

	/* the newest first: a tid used again is the later task */
	for (i = ev.ntasks; i-- > 0;)
		if (ev.tasks[i].tid == tid)
			return &ev.tasks[i];
	return NULL;
}

bool etecap_events_has_task(pid_t tid)
{
	return !!find_task(tid);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? 2 * *cap : 64;
	void *more;

	if (n < *cap)
		return p;
	more = realloc(p, want * size);
	if (more)
		*cap = want;
	return more;
}

static struct ev_task *add_task(pid_t tid, pid_t pid, const char *comm)
{
	struct ev_task *t, *more;

	more = grow(ev.tasks, &ev.tasks_cap, ev.ntasks, sizeof(*t));
	if (!more) {
		ev.lost++;
		return NULL;
	}
	ev.tasks = more;
	t = &ev.tasks[ev.ntasks++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return t;
}

/* The fixed part of each record read, as the ABI lays it out */
struct ev_mmap2 {
	struct perf_event_header h;
	__u32 pid, tid;
	__u64 addr, len, pgoff;
	__u32 maj, min;
	__u64 ino, ino_generation;
	__u32 prot, flags;
	char filename[];
};

struct ev_comm {
	struct perf_event_header h;
	__u32 pid, tid;
	char comm[];
};

struct ev_fork {
	struct perf_event_header h;
	__u32 pid, ppid, tid, ptid;
	__u64 time;
};

struct ev_lost {
	struct perf_event_header h;
	__u64 id, lost;
};

/* The string at @s, of at most @room bytes: NULL if not terminated */
static const char *string_in(const char *s, size_t room)
{
	return memchr(s, 0, room) ? s : NULL;
}

/* A record's time: the last 8 bytes (sample_id_all, PERF_SAMPLE_TIME) */
static __u64 record_time(const struct perf_event_header *h)
{
	__u64 t;

	memcpy(&t, (const unsigned char *)h + h->size - sizeof(t), sizeof(t));
	return t;
}

static void add_mapping(const struct ev_mmap2 *r, size_t size)
{
	const char *name = string_in(r->filename, size - sizeof(*r));
	struct ev_map *m, *more;

	if (!name || !r->len || r->addr + r->len < r->addr)
		return;
	more = grow(ev.maps, &ev.maps_cap, ev.nmaps, sizeof(*m));
	if (!more) {
		ev.lost++;
		return;
	}
	ev.maps = more;
	m = &ev.maps[ev.nmaps];
	memset(m, 0, sizeof(*m));
	m->pid = r->pid;
	m->time = record_time(&r->h);
	m->start = r->addr;
	m->end = r->addr + r->len;
	m->off = r->pgoff;
	/* "//anon", "[vdso]": no file; a path starts with '/' */
	if (name[0] == '/' && name[1] != '/') {
		m->major = r->maj;
		m->minor = r->min;
		m->inode = r->ino;
	}
	m->path = strdup(strcmp(name, "//anon") ? name : "");
	if (!m->path) {
		ev.lost++;
		return;
	}
	ev.nmaps++;
}

static void handle(const struct perf_event_header *h)
{
	const struct ev_mmap2 *mm = (const void *)h;
	const struct ev_comm *c = (const void *)h;
	const struct ev_fork *f = (const void *)h;
	const struct ev_lost *l = (const void *)h;
	const struct ev_task *parent;
	const char *name;
	struct ev_task *t;

	switch (h->type) {
	case PERF_RECORD_MMAP2:
		if (h->size > sizeof(*mm))
			add_mapping(mm, h->size);
		break;
	case PERF_RECORD_COMM:
		if (h->size <= sizeof(*c))
			break;
		name = string_in(c->comm, h->size - sizeof(*c));
		if (!name)
			break;
		t = find_task(c->tid);
		if (t)
			snprintf(t->comm, sizeof(t->comm), "%s", name);
		else
			t = add_task(c->tid, c->pid, name);
		/* the rings are not read in time order: the latest exec */
		if (t && (h->misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    record_time(h) > t->exec_time)
			t->exec_time = record_time(h);
		break;
	case PERF_RECORD_FORK:
		if (h->size < sizeof(*f))
			break;
		/* a new task has its parent's name until it execs or sets one */
		parent = find_task(f->ptid);
		t = add_task(f->tid, f->pid, parent ? parent->comm : "?");
		/* a new process (not a thread): its parent's address space */
		if (t && f->pid != f->ppid) {
			t->ppid = f->ppid;
			t->fork_time = f->time;
		}
		break;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*l))
			ev.lost += l->lost;
		break;
	}
}

/* @len bytes at ring offset @pos (which may wrap) into @to */
static void ring_copy(const unsigned char *data, __u64 pos, void *to,
		      size_t len)
{
	size_t at = pos % ev.data_len, first = ev.data_len - at;

	if (first > len)
		first = len;
	memcpy(to, data + at, first);
	memcpy((unsigned char *)to + first, data, len - first);
}

static void drain_ring(void *ring)
{
	struct perf_event_mmap_page *pg = ring;
	const unsigned char *data = (const unsigned char *)ring +
				    (ev.ring_len - ev.data_len);
	__u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = pg->data_tail;
	struct perf_event_header *h = &rec.h;

	while (head - tail >= sizeof(*h)) {
		ring_copy(data, tail, h, sizeof(*h));
		if (h->size < sizeof(*h) || h->size > head - tail) {
			/* not a record the kernel wrote: drop what is there */
			ev.lost++;
			tail = head;
			break;
		}
		ring_copy(data, tail, rec.b, h->size);
		handle(h);
		tail += h->size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* What the rings hold now, into the task and mapping lists */
void etecap_events_drain(void)
{
	int i;

	for (i = 0; i < ev.n; i++)
		drain_ring(ev.ring[i]);
}

/* The process @pid's leader as recorded by its fork, or NULL */
static const struct ev_task *forked_process(pid_t pid)
{
	const struct ev_task *t = find_task(pid);

	return t && t->pid == pid && t->ppid ? t : NULL;
}

/* A process's mappings being gathered for its maps_<pid>.txt */
struct ev_list {
	const struct ev_map **m;
	size_t n, cap;
};

/*
 * The mappings @pid had before @until into @l: after its last exec before
 * then, its own; with none, those its parent had before the fork that
 * made it (up to EV_FORK_DEPTH forks back), then its own
 */
#define EV_FORK_DEPTH	64
static void gather_maps(struct ev_list *l, pid_t pid, __u64 until, int depth)
{
	const struct ev_task *t = find_task(pid);
	const struct ev_map **more;
	__u64 from = 0;
	size_t i;

	if (t && t->pid == pid && t->exec_time && t->exec_time < until)
		from = t->exec_time;
	else if (t && t->pid == pid && t->ppid && depth < EV_FORK_DEPTH)
		gather_maps(l, t->ppid, t->fork_time < until ? t->fork_time : until,
			    depth + 1);
	for (i = 0; i < ev.nmaps; i++) {
		const struct ev_map *m = &ev.maps[i];

		if (m->pid != pid || m->time < from || m->time >= until)
			continue;
		more = grow(l->m, &l->cap, l->n, sizeof(*l->m));
		if (!more)
			return;
		l->m = more;
		l->m[l->n++] = m;
	}
}

static int by_address(const void *a, const void *b)
{
	const struct ev_map *x = *(const struct ev_map * const *)a;
	const struct ev_map *y = *(const struct ev_map * const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * maps_<pid>.txt: the executable mappings @pid had at the end, as
 * /proc/<pid>/maps lists them (by address): of two that overlap, the
 * later
 */
static void write_maps(const char *dir, pid_t pid)
{
	struct ev_list l = { 0 };
	char path[ETECAP_PATH];
	size_t i, kept = 0;
	FILE *f;

	f = fopen(etecap_path(path, sizeof(path), "%s/maps_%d.txt", dir, pid),
		  "w");
	if (!f) {
		etecap_write_error(path, -errno);
		return;
	}
	gather_maps(&l, pid, ~0ULL, 0);
	qsort(l.m, l.n, sizeof(*l.m), by_address);
	for (i = 0; i < l.n; i++) {
		if (kept && l.m[i]->start < l.m[kept - 1]->end) {
			if (l.m[i]->time > l.m[kept - 1]->time)
				l.m[kept - 1] = l.m[i];
			continue;
		}
		l.m[kept++] = l.m[i];
	}
	for (i = 0; i < kept; i++)
		fprintf(f, "%llx-%llx r-xp %08llx %02lx:%02lx %lu %s\n",
			l.m[i]->start, l.m[i]->end, l.m[i]->off, l.m[i]->major,
			l.m[i]->minor, l.m[i]->inode, l.m[i]->path);
	free(l.m);
	etecap_fclose(f, path);
}

/* Whether @pid made a mapping of its own */
static bool maps_of(pid_t pid)
{
	size_t i;

	for (i = 0; i < ev.nmaps; i++)
		if (ev.maps[i].pid == pid)
			return true;
	return false;
}

static bool first_of_pid(size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (ev.maps[j].pid == ev.maps[i].pid)
			return false;
	return true;
}

/**
 * etecap_events_collect() - what decode needs of the command's tasks
 * @e: the capture, its snapshot directory being written
 *
 * Every task recorded goes into contexts.txt (its last name), every
 * mapping recorded into the snapshot's memory (newest first), each
 * process's mappings into maps_<pid>.txt, its JIT symbols beside them.
 */
void etecap_events_collect(struct etecap *e)
{
	struct etecap_map *ml = malloc(sizeof(*ml));
	char path[ETECAP_PATH];
	pid_t memfd_pid = 0;
	int memfd = -1;
	size_t i;

	etecap_events_drain();
	for (i = 0; e->contexts && i < ev.ntasks; i++)
		fprintf(e->contexts, "%d %d %s\n", ev.tasks[i].tid,
			ev.tasks[i].pid, ev.tasks[i].comm);
	if (ev.lost)
		fprintf(e->mem.log,
			"# perf events: %llu record(s) lost: code mapped then may be missing\n",
			ev.lost);
	for (i = ev.nmaps; ml && i-- > 0;) {
		const struct ev_map *m = &ev.maps[i];

		if (m->pid != memfd_pid) {
			if (memfd >= 0)
				close(memfd);
			snprintf(path, sizeof(path), "/proc/%d/mem", m->pid);
			memfd = open(path, O_RDONLY | O_CLOEXEC);
			memfd_pid = m->pid;
		}
		memset(ml, 0, sizeof(*ml));
		ml->start = m->start;
		ml->end = m->end;
		ml->off = m->off;
		ml->major = m->major;
		ml->minor = m->minor;
		ml->inode = m->inode;
		snprintf(ml->perms, sizeof(ml->perms), "r-xp");
		snprintf(ml->path, sizeof(ml->path), "%s", m->path);
		etecap_mem_add_mapping(&e->mem, e->o.outdir, m->pid, ml, memfd,
				       false);
	}
	if (memfd >= 0)
		close(memfd);
	free(ml);
	for (i = 0; i < ev.nmaps; i++) {
		if (!first_of_pid(i))
			continue;
		write_maps(e->o.outdir, ev.maps[i].pid);
		etecap_mem_add_perf_map(&e->mem, e->o.outdir, ev.maps[i].pid);
	}
	/* processes forked that never exec'd or mapped code: inherited only */
	for (i = 0; i < ev.ntasks; i++)
		if (forked_process(ev.tasks[i].tid) == &ev.tasks[i] &&
		    !maps_of(ev.tasks[i].tid))
			write_maps(e->o.outdir, ev.tasks[i].tid);
}

/* The events closed (at the end); what they recorded stays */
void etecap_events_close(void)
{
	int i;

	for (i = 0; i < ev.n; i++) {
		munmap(ev.ring[i], ev.ring_len);
		close(ev.fd[i]);
	}
	ev.n = 0;
}
