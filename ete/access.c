// SPDX-License-Identifier: GPL-2.0
/*
 * Register access: the override seam through which a test double stands in
 * for system instructions and the external-debug MMIO view.
 */

#include <linux/module.h>
#include <linux/mutex.h>

#include <ete/access.h>

static DEFINE_MUTEX(ete_override_lock);
static const struct ete_access_override *ete_override;

/**
 * ete_access_override_register() - install a test double for register access
 * @ov: the double; only one may be installed at a time
 *
 * Context: process context; takes a mutex.
 * Return:
 * * 0 on success
 * * -EBUSY if another double is installed
 */
int ete_access_override_register(const struct ete_access_override *ov)
{
	int ret = 0;

	mutex_lock(&ete_override_lock);
	if (ete_override)
		ret = -EBUSY;
	else
		ete_override = ov;
	mutex_unlock(&ete_override_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(ete_access_override_register);

/**
 * ete_access_override_unregister() - remove a test double
 * @ov: the double installed by ete_access_override_register()
 *
 * Context: process context; takes a mutex.
 */
void ete_access_override_unregister(const struct ete_access_override *ov)
{
	mutex_lock(&ete_override_lock);
	if (ete_override == ov)
		ete_override = NULL;
	mutex_unlock(&ete_override_lock);
}
EXPORT_SYMBOL_GPL(ete_access_override_unregister);
