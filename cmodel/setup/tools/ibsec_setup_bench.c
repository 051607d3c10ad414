/*
 * ibsec_setup_bench — figures for docs/setup.md §6; asserts nothing.
 *
 *   1. The cost of one HMAC-SHA-256 tag over a CM MAD (secm_tag_compute), and of the
 *      six tag operations of one setup (REQ, REP, RTU each computed once and verified
 *      once), in CPU microseconds on this machine.
 *   2. Setup time of N connections through the event loop of setup.h: one initiator CA
 *      and four responders, the initiator asking for N connections with W in flight
 *      (W = 1: one at a time), each torn down (DREQ/DREP) once established.  Every
 *      handler is charged the CPU time it took here (CLOCK_THREAD_CPUTIME_ID) and every MAD a
 *      modelled one-way fabric latency (--wire-us).  Reported: simulated time until the
 *      last connection is established on both sides, its ratio to the time of one
 *      connection, and the mean CPU time per connection summed over all CAs.
 *
 * Usage: ibsec_setup_bench [--wire-us U] [--max-n N] [--seconds S]
 * (without --wire-us: two tables, at 5 us and at 50 us one way)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "setup.h"


/* Thread CPU time in seconds (another process on the machine does not count). */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* µs per tag, measured for at least `seconds`. */
static double hmac_us(double seconds)
{
    uint8_t key[32], mad[IB_MAD_LEN], tag[32], chal[32];
    unsigned long n = 0;
    double t0 = now_s(), t;

    kd_random(key, sizeof key);
    kd_random(mad, sizeof mad);
    kd_random(chal, sizeof chal);
    do {
        for (int i = 0; i < 1000; i++, n++) {
            secm_tag_compute(key, SECM_L_REQ, n, chal, 16, mad, tag);
            mad[40] ^= tag[0];
        }
        t = now_s() - t0;
    } while (t < seconds);
    return t * 1e6 / (double)n;
}

struct run { double t_us, cpu_us_per_conn; unsigned established, failed;
             uint64_t attr_ns[0x20], attr_n[0x20]; uint64_t bus_writes, bus_reads; };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One run of n setups with `window` in flight (see the header comment). */
static struct run run_once(unsigned n, unsigned window, uint64_t wire_ns)
{
    setup_sim s;
    setup_request *rq = calloc(n, sizeof *rq);
    struct run out;
    uint64_t busy = 0;

    memset(&out, 0, sizeof out);
    if (rq == NULL || setup_sim_init(&s, 5, wire_ns) != 0 || setup_distribute_keys(&s, 0x1234) != 0) {
        fprintf(stderr, "ibsec_setup_bench: set-up failed\n");
        exit(1);
    }
    for (unsigned i = 0; i < n; i++) {
        rq[i].ini = 0;
        rq[i].rsp = 1 + i % 4;
        rq[i].mode = IBSEC_MODE_STH_AEAD;
        rq[i].sth_code = 2;
        rq[i].pkey = 0x1234;
    }
    s.auto_teardown = true;
    setup_run(&s, rq, n, window);
    out.t_us = (double)s.t_last_established / 1000.0;
    out.established = s.established;
    out.failed = s.failed;
    for (unsigned i = 0; i < s.n_ca; i++) {
        busy += s.busy_ns[i];
        out.bus_writes += s.ca[i].seal.writes + s.ca[i].open.writes;
        out.bus_reads += s.ca[i].seal.reads + s.ca[i].open.reads - 6; /* less attach: 3 each */
    }
    out.cpu_us_per_conn = (double)busy / 1000.0 / n;
    memcpy(out.attr_ns, s.attr_ns, sizeof out.attr_ns);
    memcpy(out.attr_n, s.attr_n, sizeof out.attr_n);
    setup_sim_free(&s);
    free(rq);
    return out;
}

/* The run with the median setup time of three. */
static struct run run_setup(unsigned n, unsigned window, uint64_t wire_ns)
{
    struct run r[3];
    double t[3];

    for (int i = 0; i < 3; i++) {
        r[i] = run_once(n, window, wire_ns);
        t[i] = r[i].t_us;
    }
    qsort(t, 3, sizeof t[0], cmp_double);
    for (int i = 0; i < 3; i++)
        if (r[i].t_us == t[1])
            return r[i];
    return r[0];
}

/* The setup-time table at one fabric latency. */
static void print_table(double wire_us, unsigned max_n)
{
    static const unsigned ns[] = { 1, 2, 4, 8, 16, 64, 256, 1000 };
    static const unsigned ws[] = { 1, 4, 16 };

    printf("\nsetup time, 1 initiator -> 4 responders, fabric latency %.1f us one way\n", wire_us);
    printf("| N | W = 1 (us) | W = 4 (us) | W = 16 (us) | W=1 / one conn | W=16 / one conn |\n");
    printf("|---|---|---|---|---|---|\n");
    double one = 0;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        if (ns[i] > max_n)
            break;
        struct run r[3];
        for (size_t w = 0; w < 3; w++) {
            r[w] = run_setup(ns[i], ws[w], (uint64_t)(wire_us * 1000.0));
            if (r[w].established != ns[i] || r[w].failed)
                printf("(N=%u W=%u: %u established, %u failed)\n", ns[i], ws[w], r[w].established, r[w].failed);
        }
        if (ns[i] == 1)
            one = r[0].t_us;
        printf("| %u | %.1f | %.1f | %.1f | %.2f | %.2f |\n", ns[i], r[0].t_us, r[1].t_us, r[2].t_us,
               r[0].t_us / one, r[2].t_us / one);
    }
}

int main(int argc, char **argv)
{
    double wire_us = -1.0, seconds = 0.3;
    unsigned max_n = 1000;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--wire-us") == 0 && i + 1 < argc)
            wire_us = atof(argv[++i]);
        else if (strcmp(argv[i], "--max-n") == 0 && i + 1 < argc)
            max_n = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
            seconds = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: ibsec_setup_bench [--wire-us U] [--max-n N] [--seconds S]\n");
            return 2;
        }
    }
    double h = hmac_us(seconds);
    printf("HMAC-SHA-256 tag over a CM MAD (312-byte input): %.2f us\n", h);
    printf("tag operations per setup: 6 (REQ, REP, RTU: computed + verified) = %.2f us per connection\n", 6 * h);
    {
        static const struct { unsigned a; const char *what; } steps[] = {
            { 0, "initiator: make REQ (nonce, SK, key wrap, tag)" },
            { IB_CM_ATTR_REQ, "responder: REQ (parse, tag, replay cache, unwrap, REP)" },
            { IB_CM_ATTR_REP, "initiator: REP (parse, tag, R, program 2 engines, RTU)" },
            { IB_CM_ATTR_RTU, "responder: RTU (parse, tag, program 2 engines)" },
            { 1, "initiator: make DREQ" },
            { IB_CM_ATTR_DREQ, "responder: DREQ (tag, teardown, DREP)" },
            { IB_CM_ATTR_DREP, "initiator: DREP (tag, teardown)" },
        };
        struct run r = run_setup(200, 1, 0);
        printf("CPU time per step, mean of 200 setups + teardowns (W = 1):\n");
        for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
            unsigned a = steps[i].a;
            printf("  %-58s %7.1f us\n", steps[i].what,
                   r.attr_n[a] ? (double)r.attr_ns[a] / 1000.0 / (double)r.attr_n[a] : 0.0);
        }
        printf("  %-58s %7.1f us\n", "total per connection, all CAs", r.cpu_us_per_conn);
        printf("register accesses per connection (program + teardown, 4 engines): %.1f writes, "
               "%.1f reads\n", (double)r.bus_writes / 200.0, (double)r.bus_reads / 200.0);
    }
    if (wire_us >= 0)
        print_table(wire_us, max_n);
    else {
        print_table(5.0, max_n);
        print_table(50.0, max_n);
    }
    return 0;
}
