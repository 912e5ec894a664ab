// SPDX-License-Identifier: GPL-2.0
/*
 * trbe_kunit.ko: the KUnit suites for the pure functions of trbe.ko.
 */

#include <kunit/test.h>
#include <linux/module.h>

#include <ete/compat.h>

#include "trbe_tests.h"

kunit_test_suites(&trbe_status_suite, &trbe_regs_suite, &trbe_window_suite,
		  &trbe_errata_suite, &trbe_claim_suite);

MODULE_DESCRIPTION("KUnit tests for the TRBE driver's pure functions");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ETE_COMPAT_KUNIT_NS);
