/*
 * progress.h — progress lines for long loops (regressions, benches, tools).
 *
 * A loop that may run for minutes says how far it is, on stderr:
 *
 *     gcm-L4: 120000/1000000 messages (12 %), 2150 messages/s, 56 s elapsed, ETA 6 min 49 s
 *
 * At most one line every interval (5 s by default), and the first only when the run
 * has lasted one interval, so a short run prints nothing. Every line ends with a
 * newline — no carriage-return redraw — so a CI log holds one line per interval and
 * no control characters. The rate and the time left are averages since the start.
 *
 * The environment variable IBSEC_PROGRESS sets the interval in seconds; 0 turns the
 * lines off. Stdout is left alone: the summary lines tests print stay where they are.
 *
 * An update reads the monotonic clock and returns unless a line is due, so calling it
 * on every iteration of a simulation loop costs next to nothing.
 */
#ifndef IBSEC_PROGRESS_H
#define IBSEC_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#define IBSEC_PROGRESS_DEFAULT_S 5.0  /* seconds between lines unless IBSEC_PROGRESS says */

typedef struct ibsec_progress {
    char        name[64];   /* the run's name, as in its summary line ("engine-L1") */
    const char *unit;       /* what is counted, plural ("packets", "messages", "cycles") */
    uint64_t    total;      /* what the run will count; 0 = not known (no ETA) */
    double      t0;         /* start, monotonic seconds */
    double      next;       /* when the next line is due */
    double      every;      /* seconds between lines; 0 = silent */
    unsigned    lines;      /* lines printed so far */
} ibsec_progress;

/* Start a run of `total` units (0 if not known). */
void ibsec_progress_start(ibsec_progress *p, const char *name, const char *unit, uint64_t total);
/* `done` units so far: prints a line if one is due. */
void ibsec_progress_update(ibsec_progress *p, uint64_t done);
/* The run is over: if it printed any progress line, a last one with the total time. */
void ibsec_progress_end(ibsec_progress *p, uint64_t done);

/* Seconds as a person reads them: "42 s", "6 min 49 s", "2 h 05 min". */
void ibsec_progress_fmt_seconds(char *out, size_t outlen, double s);

#endif /* IBSEC_PROGRESS_H */
