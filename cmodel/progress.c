/*
 * progress.c — progress lines for long loops (see progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The interval from IBSEC_PROGRESS (seconds, 0 = off), or the default. */
static double interval_s(void)
{
    const char *v = getenv("IBSEC_PROGRESS");
    if (v == NULL || *v == '\0')
        return IBSEC_PROGRESS_DEFAULT_S;
    char *end;
    double s = strtod(v, &end);
    if (*end != '\0' || s < 0)
        return IBSEC_PROGRESS_DEFAULT_S;
    return s;
}

void ibsec_progress_fmt_seconds(char *out, size_t outlen, double s)
{
    unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);
    if (t < 100)
        snprintf(out, outlen, "%lu s", t);
    else if (t < 3600)
        snprintf(out, outlen, "%lu min %lu s", t / 60, t % 60);
    else
        snprintf(out, outlen, "%lu h %02lu min", t / 3600, t / 60 % 60);
}

void ibsec_progress_start(ibsec_progress *p, const char *name, const char *unit, uint64_t total)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->unit = unit;
    p->total = total;
    p->every = interval_s();
    p->t0 = now_s();
    p->next = p->t0 + p->every;
}

static void rate_str(char *out, size_t outlen, double r)
{
    if (r >= 100)
        snprintf(out, outlen, "%.0f", r);
    else if (r >= 1)
        snprintf(out, outlen, "%.1f", r);
    else
        snprintf(out, outlen, "%.3f", r);
}

void ibsec_progress_update(ibsec_progress *p, uint64_t done)
{
    if (p->every <= 0)
        return;
    double t = now_s();
    if (t < p->next)
        return;
    /* the next line one interval from now, not from when this one was due: a loop
       that stalled for a while does not then print a burst */
    p->next = t + p->every;
    double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
    char rs[32], es[32], ls[32];
    rate_str(rs, sizeof rs, rate);
    ibsec_progress_fmt_seconds(es, sizeof es, el);
    if (p->total > 0 && done <= p->total) {
        if (rate > 0)
            ibsec_progress_fmt_seconds(ls, sizeof ls, (double)(p->total - done) / rate);
        else
            snprintf(ls, sizeof ls, "unknown");
        fprintf(stderr, "%s: %llu/%llu %s (%.0f %%), %s %s/s, %s elapsed, ETA %s\n", p->name,
                (unsigned long long)done, (unsigned long long)p->total, p->unit,
                100.0 * (double)done / (double)p->total, rs, p->unit, es, ls);
    } else {
        fprintf(stderr, "%s: %llu %s, %s %s/s, %s elapsed\n", p->name, (unsigned long long)done,
                p->unit, rs, p->unit, es);
    }
    fflush(stderr);
    p->lines++;
}

void ibsec_progress_end(ibsec_progress *p, uint64_t done)
{
    if (p->lines == 0)
        return;
    double el = now_s() - p->t0;
    char rs[32], es[32];
    rate_str(rs, sizeof rs, el > 0 ? (double)done / el : 0);
    ibsec_progress_fmt_seconds(es, sizeof es, el);
    fprintf(stderr, "%s: %llu %s done in %s, %s %s/s\n", p->name, (unsigned long long)done, p->unit,
            es, rs, p->unit);
    fflush(stderr);
    p->lines++;
}
