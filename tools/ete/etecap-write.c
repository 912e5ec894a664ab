// SPDX-License-Identifier: GPL-2.0
/*
 * etecap: every file of a snapshot written whole or the snapshot not
 * kept.  Each writer notes its first error here with its file; each file
 * is flushed, synced and closed with its errors checked; a complete
 * directory is synced file by file before it is published (etecap.c,
 * etecap-dirs.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "etecap.h"

/*
 * Write errors: the first of the capture and its file.  A snapshot with
 * one is not published (main(), etecap_flight_close()): the previous one
 * stays, the directory being written is removed.
 */
static struct {
	int err;
	char path[ETECAP_PATH];
} werr;
/* the drain threads note theirs too (etecap-pool.c) */
static pthread_mutex_t werr_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * etecap_write_error() - note that writing @path failed with -@err
 * @path: the file
 * @err: a negative errno; 0 is ignored
 */
void etecap_write_error(const char *path, int err)
{
	if (!err)
		return;
	pthread_mutex_lock(&werr_lock);
	if (!werr.err) {
		werr.err = err;
		snprintf(werr.path, sizeof(werr.path), "%s", path);
	}
	pthread_mutex_unlock(&werr_lock);
}

/**
 * etecap_write_failed() - the first write error noted, if any
 * @path: set to the file it was on
 *
 * Return: 0, or a negative errno.
 */
int etecap_write_failed(const char **path)
{
	*path = werr.path;
	return werr.err;
}

/**
 * etecap_write_error_clear() - forget the write error noted (a flight
 * snapshot's, which was not published: the capture goes on)
 */
void etecap_write_error_clear(void)
{
	werr.err = 0;
	werr.path[0] = 0;
}

/**
 * etecap_fclose() - flush, sync and close a file the snapshot holds
 * @f: the stream; NULL is a no-op
 * @path: its path, for the error noted
 *
 * A write that failed earlier (the stream's error flag), the flush, the
 * fsync (where a delayed ENOSPC or EIO shows) and the close are checked.
 *
 * Return: 0 or the negative errno noted.
 */
int etecap_fclose(FILE *f, const char *path)
{
	int ret = 0;

	if (!f)
		return 0;
	if (ferror(f))
		ret = -EIO;
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	etecap_write_error(path, ret);
	return ret;
}

/**
 * etecap_sync_dir() - fsync every regular file of @dir, then @dir itself
 * @dir: the snapshot directory, complete
 *
 * Return: 0 or the first negative errno (noted with its file).
 */
int etecap_sync_dir(const char *dir)
{
	char path[ETECAP_PATH];
	struct dirent *de;
	int fd, ret = 0;
	DIR *dp;

	dp = opendir(dir);
	if (!dp) {
		etecap_write_error(dir, -errno);
		return -errno;
	}
	while ((de = readdir(dp)) && !ret) {
		if (de->d_type != DT_REG)
			continue;
		etecap_path(path, sizeof(path), "%s/%s", dir, de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd))
			ret = -errno;
		if (fd >= 0)
			close(fd);
		etecap_write_error(path, ret);
	}
	closedir(dp);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!ret && (fd < 0 || fsync(fd))) {
		ret = -errno;
		etecap_write_error(dir, ret);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}
