/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ETE model's violation log (Documentation/model.rst, debugfs
 * cpuN/violations: one line per access that broke a rule, with its tag),
 * for the selftests that drive the driver through the model: emptied
 * before their first case, and a last case that fails on any line.
 */
#ifndef _ETE_MODEL_LOG_H
#define _ETE_MODEL_LOG_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ETE_MODEL_DIR	"/sys/kernel/debug/ete_model"

/*
 * Call @fn with the path of every CPU's violation log; the number of
 * logs, or -1 without the model.
 */
static inline int ete_model_logs(void (*fn)(const char *path, int cpu,
					    void *arg), void *arg)
{
	DIR *d = opendir(ETE_MODEL_DIR);
	struct dirent *e;
	char path[300];
	int cpu, n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "cpu%d", &cpu) != 1)
			continue;
		snprintf(path, sizeof(path), ETE_MODEL_DIR "/%s/violations",
			 e->d_name);
		fn(path, cpu, arg);
		n++;
	}
	closedir(d);
	return n;
}

static inline void ete_model_log_clear_one(const char *path, int cpu,
					   void *arg)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		/* any write empties it */
		if (write(fd, "\n", 1) < 0)
			perror(path);
		close(fd);
	}
}

/* Empty every CPU's log; -1 without the model */
static inline int ete_model_log_clear(void)
{
	return ete_model_logs(ete_model_log_clear_one, NULL);
}

struct ete_model_log_buf {
	char *buf;
	size_t size;
	size_t len;
};

static inline void ete_model_log_read_one(const char *path, int cpu,
					  void *arg)
{
	struct ete_model_log_buf *b = arg;
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && b->len + 1 < b->size)
		b->len += snprintf(b->buf + b->len, b->size - b->len,
				   "cpu%d: %s", cpu, line);
	if (b->len >= b->size)
		b->len = b->size - 1;
	fclose(f);
}

/*
 * Every CPU's log, each line prefixed with "cpuN: ", into @buf; the
 * length (0: no violation), or -1 without the model.
 */
static inline int ete_model_log_read(char *buf, size_t size)
{
	struct ete_model_log_buf b = { .buf = buf, .size = size };

	buf[0] = '\0';
	if (ete_model_logs(ete_model_log_read_one, &b) < 0)
		return -1;
	return b.len;
}

#endif /* _ETE_MODEL_LOG_H */
