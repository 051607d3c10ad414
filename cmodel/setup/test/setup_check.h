/*
 * setup_check.h — what the setup tests share: the check counters of cmodel/test/check.h
 * and a summary printed as the plain line "N passed, N failed" (the last line of the
 * test, scripts/run_tests.sh collects it); the exit status is 0 only when nothing failed.
 */
#ifndef IBSEC_SETUP_CHECK_H
#define IBSEC_SETUP_CHECK_H

#include <stdio.h>

#include "check.h"

static inline int setup_check_summary(const check_ctx *c)
{
    fflush(stderr);
    printf("%lu passed, %lu failed\n", c->passed, c->failed);
    fflush(stdout);
    return c->failed == 0 ? 0 : 1;
}

#endif /* IBSEC_SETUP_CHECK_H */
