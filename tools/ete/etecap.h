/* SPDX-License-Identifier: GPL-2.0 */
/*
 * etecap: capture ETE trace on a set of CPUs around a command and write an
 * OpenCSD snapshot directory (Documentation/user-guide-capture.rst).
 *
 * One concern per file:
 *   etecap.c           main: the order of the steps
 *   etecap-opts.c      command line and profile names
 *   etecap-sysfs.c     trace unit and TRBE configuration, register read-back
 *   etecap-capture.c   the capture loop: mmap, poll, the consumer protocol,
 *                      signals
 *   etecap-pool.c      the drain threads: the CPUs drained in parallel
 *   etecap-tasks.c     the traced command, its descendants, -p; the other
 *                      tasks' names at the stop
 *   etecap-events.c    the command's tasks and code from perf's records,
 *                      without ptrace
 *   etecap-cpus.c      CPU lists; the tasks of --pid and --comm
 *   etecap-mem.c       what decode needs besides the trace: memory images
 *                      (--mem files first)
 *   etecap-maps.c      the processes' code, mapping by mapping
 *   etecap-kmem.c      the kernel's and its modules' images
 *   etecap-elf.c       build IDs of mapped files
 *   etecap-snapshot.c  the snapshot's ini files, gap lists and summary,
 *                      machine.txt (the tool, the kernel, the CPUs)
 *   etecap-write.c     write errors noted with their file; each file
 *                      flushed, synced and closed, checked
 *   etecap-dirs.c      DIR.tmp published as DIR only when whole, DIR.old,
 *                      flight snapshots DIR.<n>
 *   perfdata.c         --perf-data: the published snapshot as a perf.data
 *                      (shared with the host's ete-decode --to-perf), with
 *                      perfdata-read.c, perfdata-mem.c, perfdata-elf.c,
 *                      perfdata-buf.c; snapshot.c reads the snapshot
 */
#ifndef ETECAP_H
#define ETECAP_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <linux/ete.h>
#include <linux/types.h>

/* From the file VERSION, by the Makefile; built otherwise (host tests): */
#ifndef ETE_VERSION
#define ETE_VERSION		"unknown"
#endif

/* CPU numbers etecap takes: above any kernel's NR_CPUS (arm64: 4096) */
#define ETECAP_CPU_LIMIT	65536
#define ETECAP_ONLINE		"/sys/devices/system/cpu/online"
#define ETECAP_MAX_RANGES	8
#define ETECAP_MAX_SINGLES	8
#define ETECAP_MAX_MEM		16
#define ETECAP_MAX_REGIONS	2048
#define ETECAP_UNSET		(-1)
/* -e kernel: the EL the kernel runs at, 1 or 2 (etecap_kernel_el()) */
#define ETECAP_EL_KERNEL	0x100
#define ETECAP_OTHERS_MAX	(256LL << 20)	/* --others-max default */

#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif
#define ETECAP_MAX_PIDS		8	/* context ID comparators, at most */

/* An address range comparator pair: [start, last] inclusive, as TRCACVR */
struct etecap_range {
	__u64 start;
	__u64 last;
};

/* A --start or --stop address, as etecap gives it a single comparator */
struct etecap_single {
	__u64 addr;
	bool start;
};

/* --preset NAME: what it sets where the command line did not */
struct etecap_preset {
	const char *name;
	const char *el;
	const char *mode;
	long long buffer_size;
	int return_stack;
	int timestamps;
	long long sample_window;	/* 0: continuous */
	long long sample_period;
	const char *what;
};

/* --mem FILE@VA */
struct etecap_mem_arg {
	const char *file;
	__u64 va;
};

/* Everything the command line asked for; ETECAP_UNSET = leave the unit's */
struct etecap_opts {
	int *cpus;		/* -c, a profile's, or the online CPUs */
	int ncpus;
	const char *profile;
	const char *outdir;
	int el_mask;
	bool el_given;		/* -e given (all leaves el_mask unset) */
	bool all_cpus;		/* -a */
	bool attach;		/* -p: pids[] are processes attached to */
	const struct etecap_preset *preset;
	__u32 pids[ETECAP_MAX_PIDS];	/* --pid, --comm: the tasks traced */
	int npids;
	const char *comm;
	struct etecap_range include[ETECAP_MAX_RANGES];
	struct etecap_range exclude[ETECAP_MAX_RANGES];
	int ninclude, nexclude;
	__u64 start_addr[ETECAP_MAX_SINGLES], stop_addr[ETECAP_MAX_SINGLES];
	int nstart, nstop;
	int cycles;		/* 1 on, 0 off */
	int cc_threshold;
	int timestamps;
	int return_stack;
	int branch_broadcast;
	int context_id;
	int q_elements;		/* 1: Q elements with counts */
	long sync_period;
	long long buffer_size;
	const char *mode;	/* fill, wrap, circular */
	const char *when_behind;	/* stop, drop */
	long duration_ms;	/* ETECAP_UNSET: until the command ends or ^C */
	struct etecap_mem_arg mem[ETECAP_MAX_MEM];
	int nmem;
	bool kernel;		/* collect kernel text and modules */
	bool quiet;
	int progress_ms;
	const char *perf_data;	/* --perf-data FILE, or NULL */
	long long others_max;	/* --others-max: code of other tasks, bytes */
	char **cmd;		/* NULL: no command */
	bool all_tasks;		/* --all-tasks: no task mode */
	bool ptrace;		/* --ptrace: the command followed by ptrace */
	long long sample_window;	/* --sample WINDOW/PERIOD, cycles */
	long long sample_period;
	pid_t task_pid;		/* -p in task mode: the process bound */
};

/* One CPU's capture */
/* Where the reader jumped over bytes it never read (etecap-gaps.c) */
struct etecap_jump {
	__u64 stream;	/* stream offset of the first byte after the jump */
	__u64 file;	/* its file offset */
	__u64 skipped;	/* bytes jumped over */
};

struct etecap_cpu {
	int cpu;
	FILE *out;
	__u64 bytes;
	__u64 next;	/* stream offset after the last byte read */
	__u64 first;	/* stream offset of the file's first byte */
	struct etecap_jump *jumps;
	unsigned int njumps;
	unsigned int jumps_cap;
	struct ete_trbe_gap *gaps;	/* the driver's records, copied */
	unsigned int ngaps;
	unsigned int gaps_cap;
	__u64 gaps_seen;	/* records of the ring looked at */
	__u64 gaps_missed;	/* records gone from the ring unread */
	__u64 gap_count;
	__u64 lost_bytes;
	__u64 wrap_count;
	unsigned int state;
	int last_error;
	bool running;
	bool flight;	/* wrap or circular mode: read after the stop only */
};

/* One executable mapping: a line of /proc/<pid>/maps, or perf's MMAP2 */
struct etecap_map {
	unsigned long long start, end, off;
	unsigned long major, minor, inode;
	char perms[8];
	char path[PATH_MAX];		/* ETECAP_PATH: %4095[^\n] */
};

/* One memory image in the snapshot */
struct etecap_region {
	__u64 va;
	__u64 len;
	char file[64];		/* relative to the snapshot directory */
	char what[160];		/* where the bytes came from */
	char build_id[41];	/* hex, or empty */
	/* the mapped file, for images shared by tasks: inode 0 if none */
	unsigned long dev_major, dev_minor, inode;
	__u64 offset;		/* in the mapped file */
	bool nodump;		/* a file only, maps_<pid>.txt places it */
};

struct etecap_memset {
	struct etecap_region r[ETECAP_MAX_REGIONS];
	int n;
	FILE *log;		/* memory.txt: every region added or refused */
	char log_path[PATH_MAX];	/* its path (ETECAP_PATH) */
	long long others_left;	/* bytes other tasks' code may still take */
	unsigned int others_skipped;	/* mappings refused for the cap */
};

struct etecap {
	struct etecap_opts o;	/* o.outdir: where files go (DIR.tmp) */
	const char *dest;	/* -o DIR, renamed from DIR.tmp at the end */
	char *work;		/* DIR.tmp, until then */
	struct etecap_cpu *cpu;	/* one per o.cpus[] */
	struct etecap_memset mem;
	bool started;		/* the trace ran: a snapshot is worth writing */
	pid_t child;		/* the traced command, or 0 */
	int child_go;		/* its pipe: a byte lets it exec, or -1 */
	pid_t bound;		/* task mode: the process the CPUs follow */
	int child_status;
	long elapsed_ms;
	const char *ended;	/* why the capture ended: etecap.txt ended= */
	FILE *contexts;		/* contexts.txt: pid tgid comm */
	int snapshot_no;	/* flight snapshot DIR.<n> being written, or 0 */
	int snapshots;		/* flight snapshots written */
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* CLOCK_MONOTONIC in milliseconds */
static inline long etecap_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The signal that ended the capture (SIGINT, SIGTERM, SIGHUP), or 0 */
int etecap_interrupted(void);

/* etecap-opts.c */
int etecap_parse(struct etecap_opts *o, int argc, char **argv);
void etecap_usage(FILE *f);
int etecap_parse_cpulist(const char *s, int **cpus, const char **why);
int etecap_singles(const struct etecap_opts *o, struct etecap_single *out);
const struct etecap_preset *etecap_find_preset(const char *name);
void etecap_apply_preset(struct etecap_opts *o);
int etecap_parse_el(const char *s, int *mask);
const char *etecap_parse_sample(const char *arg, struct etecap_opts *o);
int etecap_resolve_pids(struct etecap_opts *o, const char *proc);
int etecap_online_cpus(const char *path, int **cpus);

/* etecap-sysfs.c */
int etecap_sysfs_write(const char *path, const char *fmt, ...);
int etecap_sysfs_read(const char *path, char *buf, size_t size);
int etecap_configure(const struct etecap_opts *o);
int etecap_profile_cpus(const char *name, int **cpus);
int etecap_profile_buffers(const char *name, const int *cpus, int n);
int etecap_profile_activate(const char *name, bool on);
int etecap_write_unit_ini(const char *dir, int cpu);
int etecap_kernel_el(int cpu);
bool etecap_task_mode(const struct etecap_opts *o);
int etecap_bind_task(int fd, int cpu, pid_t pid);

/* etecap-capture.c */
int etecap_setup_signals(void);
int etecap_capture(struct etecap *e);

/* etecap-pool.c: the drain threads, a group of CPUs each */
typedef void (*etecap_pool_fn)(struct etecap *e, int i, void *arg);
int etecap_pool_start(struct etecap *e);
void etecap_pool_run(struct etecap *e, etecap_pool_fn fn, void *arg);
void etecap_pool_stop(void);

/* etecap-tasks.c */
int etecap_spawn(struct etecap *e);
void etecap_run_command(struct etecap *e);
int etecap_attach_tasks(struct etecap *e);
bool etecap_reap(struct etecap *e);
void etecap_collect_tracees(struct etecap *e);
void etecap_release_tracees(struct etecap *e);
void etecap_note_other_tasks(struct etecap *e);
bool etecap_system_wide(const struct etecap_opts *o);

/*
 * etecap-dirs.c: the snapshot directories, and a flight snapshot, DIR.<n>
 * (SIGUSR2 in wrap or circular mode)
 */
int etecap_remove_snapshot(const char *dir);
int etecap_prepare_dir(const char *dir);
int etecap_publish(struct etecap *e);
int etecap_open_contexts(struct etecap *e);
int etecap_flight_open(struct etecap *e, int n);
int etecap_flight_close(struct etecap *e, int ret);

/* etecap.c */
int etecap_complete(struct etecap *e);

/* A part of a region that overlaps nothing saved before it */
#define ETECAP_MAX_PIECES	64
struct etecap_piece {
	__u64 va, len;
};

/* etecap-mem.c */
int etecap_mem_init(struct etecap_memset *m, const char *dir);
int etecap_mem_cut(const struct etecap_memset *m, __u64 va, __u64 len,
		   struct etecap_piece *out);
__u64 etecap_mem_copy(int fd, off_t off, __u64 len, const char *path);
int etecap_mem_add_files(struct etecap_memset *m, const char *dir,
			 const struct etecap_opts *o);
int etecap_mem_add_region(struct etecap_memset *m, const char *dir, __u64 va,
			  __u64 len, int fd, off_t off, const char *what,
			  const char *build_id);
void etecap_mem_finish(struct etecap_memset *m);

/* etecap-maps.c */
int etecap_mem_add_process(struct etecap_memset *m, const char *dir, pid_t pid);
int etecap_mem_add_other(struct etecap_memset *m, const char *dir, pid_t pid);
int etecap_mem_add_mapping(struct etecap_memset *m, const char *dir,
			   pid_t pid, const struct etecap_map *ml, int memfd,
			   bool capped);
void etecap_mem_add_perf_map(struct etecap_memset *m, const char *dir,
			     pid_t pid);

/* etecap-events.c: the command's tasks and code from perf's records */
int etecap_events_open(pid_t pid);
bool etecap_events_on(void);
const char *etecap_events_why_not(void);
void etecap_events_drain(void);
bool etecap_events_has_task(pid_t tid);
void etecap_events_collect(struct etecap *e);
void etecap_events_close(void);

/* etecap-kmem.c */
int etecap_mem_add_kernel(struct etecap_memset *m, const char *dir);

/* etecap-elf.c */
bool etecap_read_at(int fd, void *buf, size_t n, off_t off);
void etecap_build_id(const char *path, char *hex);

/* etecap-snapshot.c */
int etecap_write_snapshot(struct etecap *e);

/* etecap-write.c */
void etecap_write_error(const char *path, int err);
int etecap_write_failed(const char **path);
void etecap_write_error_clear(void);
int etecap_fclose(FILE *f, const char *path);
int etecap_sync_dir(const char *dir);

/* etecap-gaps.c */
int etecap_track_piece(struct etecap_cpu *c, __u64 offset, size_t len);
__u64 etecap_file_offset(const struct etecap_cpu *c, __u64 stream);
int etecap_collect_gaps(struct etecap_cpu *c,
			const struct ete_trbe_mmap_page *h);
int etecap_write_gaps(const char *dir, struct etecap_cpu *c,
		      const struct ete_trbe_mmap_page *h);

/*
 * Paths: every buffer that holds one is ETECAP_PATH bytes, what Linux
 * takes.  The longest name etecap appends to $ETECAP_SYSROOT or to the
 * snapshot directory is well under ETECAP_NAME_ROOM, and setup() refuses
 * a root or an -o DIR that leaves less, so no path is ever cut; should one
 * be, etecap_path() and etecap_sys() give "" and ENAMETOOLONG rather than
 * another file's name.  A line of /proc/<pid>/maps holds a path and at
 * most ~100 bytes before it.
 */
#define ETECAP_PATH		PATH_MAX
#define ETECAP_NAME_ROOM	256
#define ETECAP_MAPS_LINE	(ETECAP_PATH + 128)

/* helpers */
int etecap_check_path_room(const char *what, const char *path);
char *etecap_path(char *buf, size_t size, const char *fmt, ...);
char *etecap_sys(char *buf, size_t size, const char *fmt, ...);

#endif /* ETECAP_H */
