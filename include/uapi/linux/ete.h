/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User ABI of the ETE/TRBE drivers: the /dev/trbe<N> character devices.
 *
 * A privileged process opens /dev/trbe<N> (CPU N), maps the header page at
 * offset 0 and the data pages after it, starts a session with
 * ETE_TRBE_IOC_START and consumes trace the way perf's ring buffer is
 * consumed: read data_head, a read barrier, copy [data_tail, data_head),
 * a full barrier, write data_tail.  Documentation/abi-trbe.rst has the
 * details and a complete example.
 */
#ifndef _UAPI_LINUX_ETE_H
#define _UAPI_LINUX_ETE_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Version of struct ete_trbe_mmap_page; bumped only for incompatible changes */
#define ETE_TRBE_ABI_VERSION		1

/* Gap records kept in the header page (a ring indexed by gap_count) */
#define ETE_TRBE_MAX_GAPS		64

/* ete_trbe_gap.lost when the amount lost is unknown */
#define ETE_TRBE_LOST_UNKNOWN		(~(__u64)0)

/**
 * enum ete_trbe_state - state of a CPU's trace buffer
 * @ETE_TRBE_STATE_IDLE: no session; the buffer keeps what was published
 * @ETE_TRBE_STATE_RUNNING: collecting (fill mode may be waiting for the
 *	reader, see @ETE_TRBE_STATE_WAITING)
 * @ETE_TRBE_STATE_WAITING: fill mode, reader behind: the TRBE is stopped
 *	until data_tail frees a chunk; a gap is recorded where it resumes
 * @ETE_TRBE_STATE_STOPPED: collection ended by the hardware (trigger in
 *	stop mode): no more data will come until the next start
 * @ETE_TRBE_STATE_FAULT: the TRBE reported a fault; last_error and
 *	last_status say which.  The next start clears it.
 */
enum ete_trbe_state {
	ETE_TRBE_STATE_IDLE = 0,
	ETE_TRBE_STATE_RUNNING = 1,
	ETE_TRBE_STATE_WAITING = 2,
	ETE_TRBE_STATE_STOPPED = 3,
	ETE_TRBE_STATE_FAULT = 4,
};

/**
 * enum ete_trbe_gap_reason - why continuity broke at a gap
 * @ETE_TRBE_GAP_STOPPED: the TRBE was stopped (buffer full while the
 *	reader was behind, or a restart): the trace unit's output until the
 *	restart is lost, in an unknown amount; at the end of a session that
 *	ended stopped, the stream broke off there (last packet maybe cut)
 * @ETE_TRBE_GAP_DROPPED: the driver overwrote unconsumed data (policy
 *	"drop"); ete_trbe_gap.lost is exact
 * @ETE_TRBE_GAP_OVERWRITTEN: wrap or circular mode overwrote older data
 * @ETE_TRBE_GAP_FAULT: a fault stopped the session
 * @ETE_TRBE_GAP_SESSION: a new session starts here
 * @ETE_TRBE_GAP_ERRATUM: a TRBE erratum (Neoverse N2 2139208, Cortex-A710
 *	2119858) may have written trace fragments over the padding that
 *	follows, after it was published; no trace is lost (lost is 0)
 */
enum ete_trbe_gap_reason {
	ETE_TRBE_GAP_STOPPED = 1,
	ETE_TRBE_GAP_DROPPED = 2,
	ETE_TRBE_GAP_OVERWRITTEN = 3,
	ETE_TRBE_GAP_FAULT = 4,
	ETE_TRBE_GAP_SESSION = 5,
	ETE_TRBE_GAP_ERRATUM = 6,
};

/**
 * struct ete_trbe_gap - a break in the trace byte stream
 * @offset: stream offset of the first byte after the break; decoders
 *	resynchronise at the next A-Sync packet from here
 * @lost: bytes known to be lost at the break, or ETE_TRBE_LOST_UNKNOWN
 * @reason: an &enum ete_trbe_gap_reason
 * @__reserved: zero
 */
struct ete_trbe_gap {
	__u64 offset;
	__u64 lost;
	__u32 reason;
	__u32 __reserved;
};

/**
 * struct ete_trbe_mmap_page - the header page, at mmap offset 0
 * @version: ETE_TRBE_ABI_VERSION
 * @hdr_size: sizeof(struct ete_trbe_mmap_page) as the kernel knows it
 * @data_offset: mmap offset of the data pages (the page size)
 * @data_size: size of the data area in bytes (a power of two); the byte
 *	at stream offset p is at data_offset + p % data_size
 * @state: an &enum ete_trbe_state
 * @last_error: negative errno of the last fault, 0 if none
 * @last_status: the TRBSR_EL1 value of the last fault
 * @wrap_count: times the TRBE wrapped (wrap and circular modes, as far as
 *	the hardware tells: circular mode reports at most one per snapshot)
 * @lost_bytes: bytes the driver itself dropped, exact (policy "drop")
 * @gap_count: gaps recorded since the buffer was allocated; gap i is
 *	gaps[i % ETE_TRBE_MAX_GAPS] while i >= gap_count - ETE_TRBE_MAX_GAPS
 * @trigger_offset: stream offset at which the TRBE reported a trigger
 *	event, or ETE_TRBE_LOST_UNKNOWN if none yet
 * @data_lost_tail: stream offset below which data was overwritten or
 *	dropped: valid data is [max(data_tail, data_lost_tail), data_head)
 * @__reserved1: zero
 * @data_head: stream offset one past the last published byte (written by
 *	the kernel; read it, then issue a read barrier)
 * @data_tail: stream offset of the first byte not yet consumed (written
 *	by user space after a full barrier; the only field the kernel reads)
 * @__reserved2: zero
 * @gaps: the gap ring
 *
 * Everything but data_tail is written by the kernel only.
 */
struct ete_trbe_mmap_page {
	__u32 version;
	__u32 hdr_size;
	__u64 data_offset;
	__u64 data_size;
	__u32 state;
	__s32 last_error;
	__u64 last_status;
	__u64 wrap_count;
	__u64 lost_bytes;
	__u64 gap_count;
	__u64 trigger_offset;
	__u64 data_lost_tail;
	__u64 __reserved1[6];
	/* offset 128: the consumer protocol, on its own cache line */
	__u64 data_head;
	__u64 data_tail;
	__u64 __reserved2[14];
	/* offset 256 */
	struct ete_trbe_gap gaps[ETE_TRBE_MAX_GAPS];
};

/**
 * struct ete_trbe_status - what ETE_TRBE_IOC_STATUS returns
 * @state: an &enum ete_trbe_state
 * @last_error: negative errno of the last fault, 0 if none
 * @last_status: TRBSR_EL1 of the last fault
 * @data_head: as in the header page
 * @data_tail: the kernel's view of data_tail
 * @data_size: buffer size in bytes
 * @wrap_count: as in the header page
 * @lost_bytes: as in the header page
 * @gap_count: as in the header page
 * @present: 1 if this CPU has a usable TRBE now, else 0
 * @errata: bitmap of the TRBE errata applied on this CPU
 */
struct ete_trbe_status {
	__u32 state;
	__s32 last_error;
	__u64 last_status;
	__u64 data_head;
	__u64 data_tail;
	__u64 data_size;
	__u64 wrap_count;
	__u64 lost_bytes;
	__u64 gap_count;
	__u32 present;
	__u32 errata;
};

#define ETE_IOC_MAGIC			0xE7

/* Start a session on this CPU: TRBE first, then the trace unit */
#define ETE_TRBE_IOC_START		_IO(ETE_IOC_MAGIC, 0x01)
/* Stop it: trace unit first, then TRBE; publishes what was collected */
#define ETE_TRBE_IOC_STOP		_IO(ETE_IOC_MAGIC, 0x02)
/* Wrap and circular modes: publish the newest data without stopping */
#define ETE_TRBE_IOC_SNAPSHOT		_IO(ETE_IOC_MAGIC, 0x03)
/* Fill a struct ete_trbe_status */
#define ETE_TRBE_IOC_STATUS		_IOR(ETE_IOC_MAGIC, 0x04, struct ete_trbe_status)
/*
 * Fill mode: publish what the TRBE wrote so far without stopping it, and
 * wake the readers (EINVAL without a session, EOPNOTSUPP in wrap and
 * circular modes: use ETE_TRBE_IOC_SNAPSHOT)
 */
#define ETE_TRBE_IOC_FLUSH		_IO(ETE_IOC_MAGIC, 0x05)
/*
 * The watermark: poll() and a blocking read() are woken once this many
 * published bytes are unread.  A __u64 of bytes, 1 to data_size (ERANGE
 * above), or 0 for the default, the sysfs watermark (half the buffer
 * unless set).  Kept until the last close.
 */
#define ETE_TRBE_IOC_SET_WATERMARK	_IOW(ETE_IOC_MAGIC, 0x06, __u64)
/* The watermark in force, in bytes */
#define ETE_TRBE_IOC_GET_WATERMARK	_IOR(ETE_IOC_MAGIC, 0x07, __u64)

/**
 * struct ete_trbe_tasks - what ETE_TRBE_IOC_SET_TASKS takes
 * @pid: the process to trace, by any of its thread IDs in the caller's
 *	PID namespace: its threads, and every thread and child any of them
 *	creates from now on; 0 for whatever runs on the CPU (the default)
 * @flags: 0 (none is defined yet)
 */
struct ete_trbe_tasks {
	__s32 pid;
	__u32 flags;
};

/*
 * Task mode: the sessions ETE_TRBE_IOC_START starts from now on let trace
 * through only while a task of the process runs on this CPU (trace is
 * prohibited at every other task's switch-in).  Kept until set again or
 * the last close.  EBUSY while a session runs on the CPU; ESRCH: no such
 * process; EPERM: the caller may not trace it (CAP_SYS_PTRACE, or its own
 * user and group IDs, a dumpable process that is the caller's or its
 * descendant); EINVAL: a flag, a negative pid or a kernel thread.
 */
#define ETE_TRBE_IOC_SET_TASKS		_IOW(ETE_IOC_MAGIC, 0x08, struct ete_trbe_tasks)

#endif /* _UAPI_LINUX_ETE_H */
