// SPDX-License-Identifier: GPL-2.0
/*
 * The drivers bind what the devicetree describes: one ETE trace unit per
 * CPU and the TRBE node.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
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

TEST(ete_bound_to_every_cpu)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	ASSERT_GT(cpus, 0);
	ASSERT_EQ(bound_devices("ete"), cpus);
}

TEST(trbe_bound)
{
	ASSERT_EQ(bound_devices("trbe"), 1);
}

TEST_HARNESS_MAIN
