// SPDX-License-Identifier: GPL-2.0
/*
 * The drivers bind what the devicetree describes: one ETE trace unit per
 * CPU and the TRBE node.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kselftest_harness.h"

/* Count the devices bound to a platform driver (its sysfs links). */
static int bound_devices(const char *driver)
{
	char path[256];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/platform/drivers/%s", driver);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_type == DT_LNK && strcmp(d->d_name, "module"))
			n++;
	closedir(dir);
	return n;
}

/* Count the kernel log lines containing @what */
static int klog_count(const char *what)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *p;
	int n = 0;

	if (size <= 0)
		return -1;
	buf = calloc(1, size + 1);
	if (!buf)
		return -1;
	size = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	for (p = buf; size > 0 && (p = strstr(p, what)); p++)
		n++;
	free(buf);
	return n;
}

/*
 * Each CPU's trace unit is either bound or, where the PE has no ETE (QEMU
 * before the model is loaded), refused with one log line.
 */
TEST(ete_bound_or_refused_on_every_cpu)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int bound = bound_devices("ete");
	int refused = klog_count("has no ETE (ID_AA64DFR0_EL1.TraceVer is 0)");

	ASSERT_GT(cpus, 0);
	TH_LOG("%d bound, %d refused", bound, refused);
	ASSERT_EQ(bound == cpus || (bound == 0 && refused == cpus), 1);
}

TEST(trbe_bound)
{
	ASSERT_EQ(bound_devices("trbe"), 1);
}

TEST_HARNESS_MAIN
