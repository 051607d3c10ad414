/*
 * ibsec_pcap — seal or open every packet of a pcap file with the C model.
 *
 *   ibsec_pcap seal|open --keys KEYFILE [--peer] [--quiet] IN.pcap OUT.pcap
 *
 * The link comes from IN's link type: LINKTYPE_INFINIBAND (247) is native IBA,
 * LINKTYPE_ETHERNET (1) is RoCEv2.  The engine is loaded from KEYFILE
 * (docs/keyfile.md) as the endpoint the file describes, or with --peer as its
 * peer (ibsec_engine_make_peer: directions inverted, EPSNs swapped), and keeps
 * its state from packet to packet, exactly as ibsec_seal / ibsec_open do.
 * Every delivered packet is written to OUT (same link type, same time stamp);
 * a dropped packet is not written.  At the end the tool prints per mode the
 * packets and deliveries, per reason the count, and a summary line:
 *
 *   ibsec_pcap: seal IN -> OUT: N packets, N delivered, N dropped
 *
 * Exit status:
 *   0  every packet delivered
 *   3  the run completed but some packets were dropped (OUT holds the others)
 *   1  bad input: IN missing, unreadable, not a pcap, unsupported link type,
 *      a truncated or oversized record; KEYFILE missing or malformed; OUT not
 *      writable or the same file as IN.  One line on stderr names the file
 *      and the problem; OUT is removed; nothing is skipped silently.
 *   2  usage error
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ibsec.h"
#include "keyfile.h"
#include "pcap.h"

#define EXIT_ALL_DELIVERED 0
#define EXIT_BAD_INPUT     1
#define EXIT_USAGE         2
#define EXIT_SOME_DROPPED  3
#define PKT_BUF            262144u  /* largest snaplen the pcap reader accepts */

struct run {
    enum ibsec_op op;
    const char   *keys, *in, *out;
    bool          peer, quiet;
    uint64_t      mode_pkts[IBSEC_MODE_COUNT], mode_ok[IBSEC_MODE_COUNT];
};

static void usage(const char *why)
{
    if (why)
        fprintf(stderr, "ibsec_pcap: %s\n", why);
    fprintf(stderr, "usage: ibsec_pcap seal|open --keys KEYFILE [--peer] [--quiet] IN.pcap OUT.pcap\n");
    exit(EXIT_USAGE);
}

static void parse_args(int argc, char **argv, struct run *r)
{
    const char *pos[2] = { NULL, NULL };
    int npos = 0;
    memset(r, 0, sizeof *r);
    if (argc < 2)
        usage(NULL);
    if (strcmp(argv[1], "seal") == 0)
        r->op = IBSEC_OP_SEAL;
    else if (strcmp(argv[1], "open") == 0)
        r->op = IBSEC_OP_OPEN;
    else
        usage("the first argument must be 'seal' or 'open'");
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--keys") == 0) {
            if (i + 1 >= argc)
                usage("--keys needs a file name");
            r->keys = argv[++i];
        } else if (strcmp(argv[i], "--peer") == 0) {
            r->peer = true;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            r->quiet = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "ibsec_pcap: unknown option '%s'\n", argv[i]);
            usage(NULL);
        } else if (npos < 2) {
            pos[npos++] = argv[i];
        } else {
            usage("too many file names");
        }
    }
    if (!r->keys)
        usage("--keys KEYFILE is required");
    if (npos != 2)
        usage("IN.pcap and OUT.pcap are required");
    r->in = pos[0];
    r->out = pos[1];
}

/* Bad input: one line naming the file, OUT removed if asked, exit status 1. */
static int bad_input(const struct run *r, bool remove_out, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad_input(const struct run *r, bool remove_out, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ibsec_pcap: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (remove_out)
        remove(r->out);
    return EXIT_BAD_INPUT;
}

/* true if both paths name one existing file */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void print_counts(const struct run *r, const ibsec_engine *e, uint64_t total)
{
    const char *opn = ibsec_op_name(r->op);
    uint64_t ok = e->count[r->op][IBSEC_R_OK];
    if (!r->quiet) {
        for (unsigned m = 0; m < IBSEC_MODE_COUNT; m++)
            if (r->mode_pkts[m])
                printf("  mode   %-22s %8llu packets %8llu delivered\n", ibsec_mode_name((enum ibsec_mode)m),
                       (unsigned long long)r->mode_pkts[m], (unsigned long long)r->mode_ok[m]);
        for (unsigned k = 0; k < IBSEC_R_COUNT; k++)
            if (e->count[r->op][k])
                printf("  reason %-22s %8llu\n", ibsec_reason_name((enum ibsec_reason)k),
                       (unsigned long long)e->count[r->op][k]);
    }
    printf("ibsec_pcap: %s %s -> %s: %llu packets, %llu delivered, %llu dropped\n", opn, r->in,
           r->out, (unsigned long long)total, (unsigned long long)ok,
           (unsigned long long)(total - ok));
}

/* Run every record of IN through the engine; 0 done, 1 bad input (reported). */
static int process(struct run *r, ibsec_engine *e, ibsec_pcap_reader *in, ibsec_pcap_writer *out,
                   enum ibsec_link link, uint64_t *total)
{
    /* any record the reader accepts (snaplen up to PKT_BUF) reaches the model,
     * which drops what is too long for a packet */
    static uint8_t pkt[PKT_BUF], res[IBSEC_MAX_PKT];
    size_t len, res_len;
    uint32_t sec, usec;
    int got;
    while ((got = ibsec_pcap_read(in, pkt, sizeof pkt, &len, &sec, &usec)) == 1) {
        ibsec_verdict v;
        enum ibsec_reason why;
        (*total)++;
        if (r->op == IBSEC_OP_SEAL)
            why = ibsec_seal(e, link, pkt, len, res, sizeof res, &res_len, &v);
        else
            why = ibsec_open(e, link, pkt, len, res, sizeof res, &res_len, &v);
        if ((unsigned)v.mode < IBSEC_MODE_COUNT) {
            r->mode_pkts[v.mode]++;
            r->mode_ok[v.mode] += (why == IBSEC_R_OK);
        }
        if (why == IBSEC_R_OK && ibsec_pcap_write(out, res, res_len, sec, usec) != 0)
            return bad_input(r, true, "%s: %s", r->out, out->err);
    }
    if (got < 0)   /* the reader's message names the record ("record N: ...") */
        return bad_input(r, true, "%s: %s", r->in, in->err);
    return 0;
}

int main(int argc, char **argv)
{
    struct run r;
    ibsec_engine e;
    ibsec_pcap_reader in;
    ibsec_pcap_writer out;
    char err[400];
    enum ibsec_link link;
    uint64_t total = 0;

    parse_args(argc, argv, &r);
    if (ibsec_keyfile_load_side(r.keys, &e, 1, r.peer ? IBSEC_SIDE_PEER : IBSEC_SIDE_AS_WRITTEN, NULL,
                                err, sizeof err) != 0) {
        fprintf(stderr, "ibsec_pcap: bad key file: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (ibsec_pcap_reader_open(&in, r.in) != 0) {
        ibsec_engine_free(&e);
        return bad_input(&r, false, "%s", in.err);  /* the reader's message names the file */
    }
    if (in.linktype == IBSEC_LINKTYPE_INFINIBAND) {
        link = IBSEC_LINK_IB;
    } else if (in.linktype == IBSEC_LINKTYPE_ETHERNET) {
        link = IBSEC_LINK_ROCE;
    } else {
        ibsec_pcap_reader_close(&in);
        ibsec_engine_free(&e);
        return bad_input(&r, false, "%s: unsupported link type %u (247 InfiniBand or 1 Ethernet/RoCEv2)",
                         r.in, (unsigned)in.linktype);
    }
    if (same_file(r.in, r.out)) {   /* opening OUT would truncate IN before it is read */
        ibsec_pcap_reader_close(&in);
        ibsec_engine_free(&e);
        return bad_input(&r, false, "%s: OUT is the same file as IN", r.out);
    }
    if (ibsec_pcap_writer_open(&out, r.out, in.linktype) != 0) {
        ibsec_pcap_reader_close(&in);
        ibsec_engine_free(&e);
        return bad_input(&r, false, "%s", out.err);  /* the writer's message names the file */
    }
    int rc = process(&r, &e, &in, &out, link, &total);
    ibsec_pcap_reader_close(&in);
    if (ibsec_pcap_writer_close(&out) != 0 && rc == 0)
        rc = bad_input(&r, true, "%s: %s", r.out, out.err);
    if (rc == 0) {
        print_counts(&r, &e, total);
        rc = e.count[r.op][IBSEC_R_OK] == total ? EXIT_ALL_DELIVERED : EXIT_SOME_DROPPED;
    }
    ibsec_engine_free(&e);
    return rc;
}
