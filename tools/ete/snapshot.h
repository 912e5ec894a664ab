/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - the reader of OpenCSD snapshot directories, as OpenCSD's
 * snapshot parser (decoder/tests/snapshot_parser_lib) defines the format:
 *
 *   snapshot.ini   [device_list] deviceK=FILE, every device's ini file;
 *                  [trace] metadata=FILE, the trace ini (trace.ini)
 *   device ini     [device] name, class, type; [regs] NAME(...)=VALUE;
 *                  [dumpK] file, address, and optional length, offset,
 *                  space (a core's memory images)
 *   trace ini      [trace_buffers] buffers=SECTION,...; each buffer
 *                  section: name, file, format (source_data, coresight,
 *                  dstream_coresight); [source_buffers] SOURCE=BUFFER;
 *                  [core_trace_sources] CORE=SOURCE (a core may have
 *                  several sources: one per trace session)
 *
 * etecap writes this format (one buffer, source and core per CPU); Arm's
 * own snapshots (OpenCSD's decoder/tests/snapshots-ete) use all of it.
 * What the reader cannot represent it refuses with a message naming the
 * file and the key.  ete-decode and perfdata (etecap --perf-data, and
 * ete-decode --to-perf) use it; it has no OpenCSD dependency.
 */
#ifndef ETE_SNAPSHOT_H
#define ETE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One key=value line of an ini file, in file order */
struct ss_kv {
	char *key;
	char *val;
};

struct ss_section {
	char *name;
	struct ss_kv *kv;
	size_t nkv;
};

struct ss_ini {
	char *path;		/* as opened, for messages */
	struct ss_section *sect;
	size_t nsect;
};

/* A memory image of a core: @length bytes of @file from @offset */
struct ss_dump {
	const char *section;	/* its section's name, dumpK, for messages */
	char *file;		/* the path, the snapshot directory's joined */
	uint64_t address;
	uint64_t offset;
	uint64_t length;	/* 0: to the end of the file */
	char *space;		/* "" or a memory space name (EL1N, S, ANY...) */
};

struct ss_device {
	struct ss_ini ini;
	const char *name;
	const char *class;
	const char *type;
	struct ss_dump *dumps;
	size_t ndumps;
};

enum ss_format { SS_SOURCE_DATA, SS_CORESIGHT, SS_DSTREAM_CORESIGHT };

struct ss_buffer {
	const char *name;
	char *file;		/* the path, the snapshot directory's joined */
	enum ss_format format;
};

/* A trace source, the buffer its trace is in and the core it traces */
struct ss_source {
	struct ss_device *dev;
	struct ss_buffer *buf;
	struct ss_device *core;	/* NULL: no core (an STM, an ITM) */
	int cpu;		/* N of a core named cpu_N; else -1 */
};

struct snapshot {
	char *dir;
	struct ss_ini top;	/* snapshot.ini */
	struct ss_ini trace;	/* its [trace] metadata file */
	struct ss_device *dev;
	size_t ndev;
	struct ss_buffer *buf;
	size_t nbuf;
	struct ss_source *src;	/* in [source_buffers] order */
	size_t nsrc;
};

/**
 * ss_open() - read the snapshot in @dir
 * @s: filled; ss_close() it whatever the result
 * @dir: the snapshot directory
 * @err: a message naming the file and key when it fails
 * @errlen: its size
 *
 * Return: 0, -ENOENT (a file missing) or -EINVAL (a key missing, a value
 * the format does not allow, a name that refers to nothing).
 */
int ss_open(struct snapshot *s, const char *dir, char *err, size_t errlen);

/**
 * ss_close() - free what ss_open() read
 * @s: the snapshot
 */
void ss_close(struct snapshot *s);

/**
 * ss_ini_read() - read an ini file whole, as ss_open() reads the snapshot's
 * @ini: all zero; filled, ss_ini_free() it whatever the result
 * @path: the file
 * @bare: KEY=VALUE lines before any [section] are a section named ""
 *	(etecap's machine.txt has no section); else they are refused
 * @err: a message naming the file and line when it fails
 * @errlen: its size
 *
 * Return: 0, -ENOENT (the file cannot be opened) or -EINVAL (a line that
 * is neither a [section], nor KEY=VALUE, nor a comment).
 */
int ss_ini_read(struct ss_ini *ini, const char *path, bool bare, char *err,
		size_t errlen);

/**
 * ss_ini_free() - free what ss_ini_read() read
 * @ini: the file
 */
void ss_ini_free(struct ss_ini *ini);

/**
 * ss_get() - the value of @key in [@section] of @ini
 * @ini: the file
 * @section: the section name
 * @key: the key; case-insensitive, and "TRCIDR0" matches "TRCIDR0(0x078)"
 *
 * Return: the value (the first such key's), or NULL.
 */
const char *ss_get(const struct ss_ini *ini, const char *section,
		   const char *key);

/**
 * ss_reg() - a register of a device's [regs]
 * @d: the device
 * @name: the register's name (TRCIDR0...)
 * @val: its value
 *
 * Return: 0; -ENOENT when it has no such register; -EINVAL when its value
 * is not a number that fits 32 bits.
 */
int ss_reg(const struct ss_device *d, const char *name, uint32_t *val);

/**
 * ss_device() - the device of the snapshot named @name
 * @s: the snapshot
 * @name: the [device] name= of its ini
 *
 * Return: the device, or NULL.
 */
struct ss_device *ss_device(const struct snapshot *s, const char *name);

#endif
