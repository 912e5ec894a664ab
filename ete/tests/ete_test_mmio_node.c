// SPDX-License-Identifier: GPL-2.0
/*
 * Creates the AMBA devices of the disabled "arm,coresight-etm4x" nodes of
 * the test devicetree (tools/testing/qemu/ete-nodes.dtsi), as
 * of_platform_populate() does at boot for enabled ones.
 *
 * Those nodes describe a trace unit's external-debug view at an address
 * nothing backs in QEMU, where any access aborts, until the model serves it
 * (ete_model.ko, parameter mmio_base).  So they stay disabled at boot and
 * this module is loaded after the model; ete.ko then binds each device
 * through its AMBA driver and the MMIO backend, as it would bind a real
 * CoreSight ETM node whose TRCDEVARCH says ETE.
 */

#include <linux/amba/bus.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/slab.h>

struct mmio_node {
	struct list_head node;
	struct amba_device *adev;
	struct device_node *np;
};

static LIST_HEAD(mmio_nodes);

static void mmio_nodes_remove(void)
{
	struct mmio_node *m, *tmp;

	list_for_each_entry_safe(m, tmp, &mmio_nodes, node) {
		amba_device_unregister(m->adev);
		of_node_put(m->np);
		list_del(&m->node);
		kfree(m);
	}
}

static int mmio_node_add(struct device_node *np)
{
	struct amba_device *adev;
	struct mmio_node *m;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	adev = amba_device_alloc(kbasename(np->full_name), 0, 0);
	if (!m || !adev) {
		ret = -ENOMEM;
		goto free;
	}
	ret = of_address_to_resource(np, 0, &adev->res);
	if (ret)
		goto free;
	of_property_read_u32(np, "arm,primecell-periphid", &adev->periphid);
	m->np = of_node_get(np);
	device_set_node(&adev->dev, of_fwnode_handle(np));
	ret = amba_device_add(adev, &iomem_resource);
	if (ret) {
		of_node_put(np);
		goto free;
	}
	m->adev = adev;
	list_add(&m->node, &mmio_nodes);
	pr_info("ete_test_mmio_node: %pOF: AMBA device %s at %pR\n", np,
		dev_name(&adev->dev), &adev->res);
	return 0;

free:
	if (adev)
		amba_device_put(adev);
	kfree(m);
	return ret;
}

static int __init mmio_node_init(void)
{
	struct device_node *np;
	int ret;

	for_each_compatible_node(np, NULL, "arm,coresight-etm4x") {
		if (of_device_is_available(np))
			continue;	/* of_platform_populate() made it */
		ret = mmio_node_add(np);
		if (ret) {
			of_node_put(np);
			mmio_nodes_remove();
			return ret;
		}
	}
	if (list_empty(&mmio_nodes)) {
		pr_err("ete_test_mmio_node: no disabled CoreSight ETM node\n");
		return -ENODEV;
	}
	return 0;
}
module_init(mmio_node_init);

static void __exit mmio_node_exit(void)
{
	mmio_nodes_remove();
}
module_exit(mmio_node_exit);

MODULE_DESCRIPTION("Test: AMBA devices of the disabled CoreSight ETM nodes");
MODULE_LICENSE("GPL");
