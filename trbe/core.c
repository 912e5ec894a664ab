// SPDX-License-Identifier: GPL-2.0
/*
 * TRBE trace buffer driver: module entry and devicetree binding.
 *
 * Binds the "arm,trace-buffer-extension" node, whose single interrupt is the
 * per-CPU TRBE PPI.
 */

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>

static int trbe_probe(struct platform_device *pdev)
{
	int irq = platform_get_irq(pdev, 0);

	if (irq < 0)
		return irq;
	if (!irq_is_percpu(irq)) {
		dev_err(&pdev->dev, "IRQ %d is not a PPI\n", irq);
		return -EINVAL;
	}
	dev_info(&pdev->dev, "TRBE interrupt: IRQ %d (per-CPU)\n", irq);
	return 0;
}

static const struct of_device_id trbe_of_match[] = {
	{ .compatible = "arm,trace-buffer-extension" },
	{ }
};
MODULE_DEVICE_TABLE(of, trbe_of_match);

static struct platform_driver trbe_driver = {
	.probe = trbe_probe,
	.driver = {
		.name = "trbe",
		.of_match_table = trbe_of_match,
		.suppress_bind_attrs = true,
	},
};
module_platform_driver(trbe_driver);

MODULE_DESCRIPTION("Arm Trace Buffer Extension (TRBE) driver");
MODULE_LICENSE("GPL");
