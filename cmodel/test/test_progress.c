/*
 * test_progress.c — the progress lines of progress.c (target ctest-progress).
 *
 * Runs the helper against its own stderr, redirected to a temporary file:
 * 1. a run shorter than the interval prints nothing (short tests stay quiet);
 * 2. a run of 4.5 intervals prints at least one line and never more than one per
 *    interval (bounds that hold however the machine is loaded: nothing here asserts a
 *    speed), each a whole line ending in a newline with no carriage return, in the
 *    documented form "name: done/total unit (P %), R unit/s, E elapsed, ETA T", then
 *    the closing line;
 * 3. an unknown total gives lines without an ETA;
 * 4. IBSEC_PROGRESS=0 silences everything;
 * 5. seconds are formatted as documented (known answers).
 * About 1.5 s of wall time (intervals of 0.2 s).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "progress.h"

static char tmp_path[512];
static int saved_stderr = -1;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* stderr into a fresh temporary file */
static int capture_begin(void)
{
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, sizeof tmp_path, "%s/ibsec_progress_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp_path);
    if (fd < 0)
        return -1;
    fflush(stderr);
    saved_stderr = dup(2);
    if (saved_stderr < 0 || dup2(fd, 2) < 0) {
        close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

/* stderr back; the captured text into buf (NUL-terminated); its length */
static size_t capture_end(char *buf, size_t cap)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    FILE *f = fopen(tmp_path, "rb");
    size_t n = 0;
    if (f) {
        n = fread(buf, 1, cap - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    remove(tmp_path);
    return n;
}

static unsigned count_char(const char *s, char c)
{
    unsigned n = 0;
    for (; *s; s++)
        n += (*s == c);
    return n;
}

/* run a loop of `seconds`, counting `total` units evenly; returns the units done */
static uint64_t busy_run(ibsec_progress *p, double seconds, uint64_t total)
{
    double t0 = now_s(), t;
    uint64_t done = 0;
    while ((t = now_s()) - t0 < seconds) {
        done = (uint64_t)((double)total * (t - t0) / seconds);
        ibsec_progress_update(p, done);
    }
    return done;
}

int main(void)
{
    check_ctx c;
    static char out[16384];
    ibsec_progress p;
    check_init(&c, "progress");

    /* 1. shorter than the interval: nothing */
    setenv("IBSEC_PROGRESS", "0.2", 1);
    if (!check_int(&c, "capture stderr", 0, capture_begin()))
        return check_summary(&c);
    ibsec_progress_start(&p, "short", "packets", 1000);
    uint64_t d = busy_run(&p, 0.1, 1000);
    ibsec_progress_end(&p, d);
    capture_end(out, sizeof out);
    check_int(&c, "a run shorter than the interval prints nothing", 0, (long long)strlen(out));

    /* 2. 4.5 intervals */
    if (!check_int(&c, "capture stderr", 0, capture_begin()))
        return check_summary(&c);
    ibsec_progress_start(&p, "long-run", "packets", 100000);
    d = busy_run(&p, 0.9, 100000);
    ibsec_progress_end(&p, d);
    capture_end(out, sizeof out);
    unsigned lines = count_char(out, '\n');
    /* 0.9 s at 0.2 s: at most 4 progress lines (0.2, 0.4, 0.6, 0.8; fewer if the process
       was descheduled), at least one, plus the closing line */
    check_true(&c, lines >= 2 && lines <= 5, "at most one line per interval, at least one, then the closing line");
    check_int(&c, "no carriage return", 0, count_char(out, '\r'));
    check_true(&c, strlen(out) > 0 && out[strlen(out) - 1] == '\n', "output ends with a newline");
    unsigned good = 0, n = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), n++) {
        unsigned long long a, b;
        int pct, pos = 0;
        if (n + 1 < lines) {
            /* "long-run: A/B packets (P %), R packets/s, E elapsed, ETA T" */
            if (sscanf(line, "long-run: %llu/%llu packets (%d %%), %*[0-9.] packets/s, %n", &a, &b, &pct,
                       &pos) == 3 &&
                pos > 0 && b == 100000 && a <= b && strstr(line + pos, " elapsed, ETA ") != NULL)
                good++;
            else
                check_failf(&c, "progress line not in the documented form: '%s'", line);
        } else {
            check_true(&c, strncmp(line, "long-run: ", 10) == 0 && strstr(line, " packets done in ") != NULL,
                       "the closing line says the units done and the time");
        }
    }
    check_true(&c, good >= 1 && good + 1 == lines, "every progress line in the documented form");

    /* 3. unknown total: no ETA */
    if (!check_int(&c, "capture stderr", 0, capture_begin()))
        return check_summary(&c);
    ibsec_progress_start(&p, "open-ended", "records", 0);
    d = busy_run(&p, 0.3, 5000);
    ibsec_progress_end(&p, d);
    capture_end(out, sizeof out);
    check_true(&c, strncmp(out, "open-ended: ", 12) == 0 && strstr(out, " records/s, ") != NULL,
               "an unknown total still gives count and rate");
    check_true(&c, strstr(out, "ETA") == NULL, "an unknown total gives no ETA");

    /* 4. IBSEC_PROGRESS=0: silent */
    setenv("IBSEC_PROGRESS", "0", 1);
    if (!check_int(&c, "capture stderr", 0, capture_begin()))
        return check_summary(&c);
    ibsec_progress_start(&p, "silent", "packets", 1000);
    d = busy_run(&p, 0.3, 1000);
    ibsec_progress_end(&p, d);
    capture_end(out, sizeof out);
    check_int(&c, "IBSEC_PROGRESS=0 prints nothing", 0, (long long)strlen(out));

    /* 5. seconds */
    static const struct { double s; const char *want; } fmt[] = {
        { 0, "0 s" }, { 42.4, "42 s" }, { 99.4, "99 s" }, { 100, "1 min 40 s" }, { 409, "6 min 49 s" },
        { 3599, "59 min 59 s" }, { 3600, "1 h 00 min" }, { 7500, "2 h 05 min" }, { -3, "0 s" },
    };
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        char s[32], what[64];
        ibsec_progress_fmt_seconds(s, sizeof s, fmt[i].s);
        snprintf(what, sizeof what, "%.1f s written as '%s' (got '%s')", fmt[i].s, fmt[i].want, s);
        check_true(&c, strcmp(s, fmt[i].want) == 0, what);
    }
    return check_summary(&c);
}
