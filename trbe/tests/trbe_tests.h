/* SPDX-License-Identifier: GPL-2.0 */
/* The suites of trbe_kunit.ko, one per file. */
#ifndef _TRBE_TESTS_H
#define _TRBE_TESTS_H

#include <kunit/test.h>

extern struct kunit_suite trbe_status_suite;
extern struct kunit_suite trbe_regs_suite;
extern struct kunit_suite trbe_window_suite;
extern struct kunit_suite trbe_errata_suite;
extern struct kunit_suite trbe_claim_suite;

#endif /* _TRBE_TESTS_H */
