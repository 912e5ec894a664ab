/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-value files of sysfs, configfs and debugfs, written and read whole,
 * with the errno of the write: shared by the ETE selftests.
 */
#ifndef _ETE_FILE_IO_H
#define _ETE_FILE_IO_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write @val; 0 or -errno */
static inline int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Read a whole file into @buf; length or -errno */
static inline int get(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

/*
 * The value of @reg in @path, a file of "NAME value" lines (the test sink's
 * regsN): 0 and *@v, or -1 if the file or the line is missing.
 */
static inline int reg_in_file(const char *path, const char *reg,
			      unsigned long long *v)
{
	static char buf[16384];
	char key[32];
	char *p;

	if (get(path, buf, sizeof(buf)) < 0)
		return -1;
	snprintf(key, sizeof(key), "\n%s ", reg);
	if (!strncmp(buf, key + 1, strlen(key) - 1)) {
		p = buf;
	} else {
		p = strstr(buf, key);
		if (!p)
			return -1;
		p++;
	}
	*v = strtoull(p + strlen(key) - 1, NULL, 0);
	return 0;
}

#endif /* _ETE_FILE_IO_H */
