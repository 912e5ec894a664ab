/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-value files of sysfs, configfs and debugfs, written and read whole,
 * with the errno of the write: shared by the ETE selftests.
 */
#ifndef _ETE_FILE_IO_H
#define _ETE_FILE_IO_H

#include <errno.h>
#include <fcntl.h>
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

#endif /* _ETE_FILE_IO_H */
