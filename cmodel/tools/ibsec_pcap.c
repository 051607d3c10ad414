/*
 * ibsec_pcap — seal or open every packet of a pcap file with the C model.
 *
 *   ibsec_pcap seal|open --keys KEYFILE [--peer] [--quiet] IN OUT.pcap
 *   ibsec_pcap --help
 *
 * IN is a pcap (microsecond or nanosecond time stamps) or a pcapng file, read
 * through libpcap (cmodel/pcap.h); OUT is always a microsecond pcap.
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
 * When open drops most packets for reasons that point at the setup rather than
 * at the packets (authentication and replay failures: the wrong endpoint of
 * the key file; mode mismatches: a plain capture), a hint on stderr says so.
 *
 * Exit status:
 *   0  every packet delivered (also for --help)
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

#define USAGE_LINE "usage: ibsec_pcap seal|open --keys KEYFILE [--peer] [--quiet] IN.pcap OUT.pcap\n"

static void usage(const char *why)
{
    if (why)
        fprintf(stderr, "ibsec_pcap: %s\n", why);
    fprintf(stderr, USAGE_LINE "       ibsec_pcap --help   explains the options\n");
    exit(EXIT_USAGE);
}

static void help(void)
{
    printf(USAGE_LINE
           "\n"
           "Seals or opens every packet of a capture with the C model of the ibsec engine.\n"
           "\n"
           "  seal            encrypt and tag each plain packet, as the transmitting endpoint\n"
           "  open            check and decrypt each sealed packet, as the receiving endpoint\n"
           "  --keys KEYFILE  the key file (docs/keyfile.md): keys, contexts and EPSNs of one\n"
           "                  endpoint, the one its 'side' line names\n"
           "  --peer          act as the other endpoint of KEYFILE (directions inverted, next\n"
           "                  EPSNs swapped). A file written by ibsec_vecgen describes the\n"
           "                  sealing endpoint: seal without --peer, open its sealed capture\n"
           "                  with --peer\n"
           "  --quiet         print only the summary line, not the per-mode and per-reason counts\n"
           "  --help, -h      this text\n"
           "\n"
           "IN.pcap   a pcap (microsecond or nanosecond time stamps) or pcapng capture with\n"
           "          link type 247 (InfiniBand: native IBA, each record from the LRH to the\n"
           "          VCRC) or 1 (Ethernet: RoCEv2, no FCS); every record must be whole\n"
           "OUT.pcap  every delivered packet, same link type and time stamps, as a\n"
           "          microsecond pcap; a dropped packet is counted under its reason, not\n"
           "          written\n"
           "\n"
           "Exit status: 0 every packet delivered; 3 some dropped (OUT holds the others);\n"
           "1 bad input (a file missing or malformed, OUT unwritable or the same as IN;\n"
           "OUT is removed); 2 usage error.\n");
    exit(EXIT_ALL_DELIVERED);
}

static void parse_args(int argc, char **argv, struct run *r)
{
    const char *pos[2] = { NULL, NULL };
    int npos = 0;
    memset(r, 0, sizeof *r);
    if (argc < 2)
        usage(NULL);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            help();
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

/* After open: when most packets were dropped for a reason that points at the setup
 * rather than at the packets, say on stderr what is likely wrong. */
static void hint(const struct run *r, const ibsec_engine *e, uint64_t total)
{
    const uint64_t *n = e->count[IBSEC_OP_OPEN];
    uint64_t wrong_side = n[IBSEC_R_AUTH_FAILED] + n[IBSEC_R_PSN_TOO_OLD] + n[IBSEC_R_REPLAY];
    if (r->op != IBSEC_OP_OPEN || total == 0)
        return;
    if (2 * wrong_side > total)
        fprintf(stderr,
                "ibsec_pcap: hint: %llu of %llu packets failed authentication or the replay check:\n"
                "  the engine is probably the wrong endpoint. %s describes one side, and a\n"
                "  capture is opened by the peer of the side that sealed it: try again %s --peer.\n",
                (unsigned long long)wrong_side, (unsigned long long)total, r->keys,
                r->peer ? "without" : "with");
    else if (2 * n[IBSEC_R_MODE_MISMATCH] > total)
        fprintf(stderr,
                "ibsec_pcap: hint: %llu of %llu packets carry another security mode than their\n"
                "  context (mode_mismatch): is this a plain capture? open takes a sealed one.\n",
                (unsigned long long)n[IBSEC_R_MODE_MISMATCH], (unsigned long long)total);
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
        hint(&r, &e, total);
        rc = e.count[r.op][IBSEC_R_OK] == total ? EXIT_ALL_DELIVERED : EXIT_SOME_DROPPED;
    }
    ibsec_engine_free(&e);
    return rc;
}
