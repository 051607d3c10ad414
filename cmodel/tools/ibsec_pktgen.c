/*
 * ibsec_pktgen.c — write deterministic random plain packets (security mode none) of one
 * header shape to a pcap file, for checking the model's packets and CRCs with tools
 * that do not share its code (scripts/check_crc_independent.py: tshark, scapy, crcmod).
 *
 * Usage:
 *   ibsec_pktgen --seed N --count N --shape native|native-grh|rocev2-ipv4|rocev2-ipv6
 *                --out FILE.pcap [--manifest FILE.tsv]
 *
 * Native shapes are written with LINKTYPE_INFINIBAND (247): each record starts at the
 * LRH and ends with the ICRC and VCRC. RoCEv2 shapes use LINKTYPE_ETHERNET (1): each
 * record starts at the Ethernet header and ends with the ICRC (no FCS).
 *
 * Opcodes: packet i carries the (i mod n)-th valid opcode of the shape (n = the number
 * of opcodes in ib_opcode.c the shape allows; CNP only on RoCEv2), so any count >= n
 * covers every opcode. Every other field, and the payload length, comes from
 * ibsec_pktgen() with the generator seeded by --seed (ib_pktgen.h).
 *
 * The manifest, if asked for, has one tab-separated line per packet, after a header
 * line: index, shape, opcode (hex), opcode name, LNH (native) or "-", PadCnt, payload
 * length, frame length. It says what the model meant to build, so that a dissector's
 * reading of the pcap can be compared with it.
 *
 * Errors (unknown option, missing or malformed value, unwritable file) are reported on
 * stderr and exit with status 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "pcap.h"
#include "rng.h"

#define EXIT_USAGE 2
#define MAX_COUNT 10000000ul

struct shape_arg {
    const char *name;
    enum ibsec_shape shape;
};

static const struct shape_arg shape_args[] = {
    { "native", IBSEC_SHAPE_IB_LOCAL },
    { "native-grh", IBSEC_SHAPE_IB_GLOBAL },
    { "rocev2-ipv4", IBSEC_SHAPE_ROCE_V4 },
    { "rocev2-ipv6", IBSEC_SHAPE_ROCE_V6 },
};

struct options {
    unsigned long long seed;
    unsigned long count;
    enum ibsec_shape shape;
    const char *out;
    const char *manifest;
    int have_seed, have_count, have_shape;
};

static void usage(FILE *f)
{
    fputs("usage: ibsec_pktgen --seed N --count N "
          "--shape native|native-grh|rocev2-ipv4|rocev2-ipv6 --out FILE.pcap "
          "[--manifest FILE.tsv]\n", f);
}

static int parse_ull(const char *opt, const char *s, unsigned long long max,
                     unsigned long long *v)
{
    char *end;
    errno = 0;
    if (s[0] == '-' || s[0] == '\0') {
        fprintf(stderr, "ibsec_pktgen: %s: '%s' is not a non-negative integer\n", opt, s);
        return -1;
    }
    *v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0' || *v > max) {
        fprintf(stderr, "ibsec_pktgen: %s: '%s' is not an integer in 0..%llu\n", opt, s, max);
        return -1;
    }
    return 0;
}

static int parse_shape(const char *s, enum ibsec_shape *shape)
{
    for (size_t i = 0; i < sizeof shape_args / sizeof shape_args[0]; i++) {
        if (strcmp(s, shape_args[i].name) == 0) {
            *shape = shape_args[i].shape;
            return 0;
        }
    }
    fprintf(stderr, "ibsec_pktgen: --shape: unknown shape '%s' "
                    "(native, native-grh, rocev2-ipv4, rocev2-ipv6)\n", s);
    return -1;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ibsec_pktgen: %s: missing value or unknown option\n", a);
            return -1;
        }
        const char *v = argv[++i];
        unsigned long long n;
        if (strcmp(a, "--seed") == 0) {
            if (parse_ull(a, v, UINT64_MAX, &o->seed) != 0)
                return -1;
            o->have_seed = 1;
        } else if (strcmp(a, "--count") == 0) {
            if (parse_ull(a, v, MAX_COUNT, &n) != 0)
                return -1;
            o->count = (unsigned long)n;
            o->have_count = 1;
        } else if (strcmp(a, "--shape") == 0) {
            if (parse_shape(v, &o->shape) != 0)
                return -1;
            o->have_shape = 1;
        } else if (strcmp(a, "--out") == 0) {
            o->out = v;
        } else if (strcmp(a, "--manifest") == 0) {
            o->manifest = v;
        } else {
            fprintf(stderr, "ibsec_pktgen: unknown option '%s'\n", a);
            return -1;
        }
    }
    if (!o->have_seed || !o->have_count || !o->have_shape || o->out == NULL) {
        fprintf(stderr, "ibsec_pktgen: --seed, --count, --shape and --out are required\n");
        return -1;
    }
    return 0;
}

/* The k-th valid opcode for the shape (k < shape_opcode_count). */
static size_t shape_opcode_count(enum ibsec_shape shape)
{
    size_t n = 0;
    for (size_t i = 0; i < ibsec_opcode_count(); i++)
        n += ibsec_opcode_at(i)->tclass != IBSEC_TC_CNP ||
             ibsec_shape_link(shape) == IBSEC_LINK_ROCE;
    return n;
}

static uint8_t shape_opcode_at(enum ibsec_shape shape, size_t k)
{
    for (size_t i = 0; i < ibsec_opcode_count(); i++) {
        const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
        if (op->tclass == IBSEC_TC_CNP && ibsec_shape_link(shape) != IBSEC_LINK_ROCE)
            continue;
        if (k-- == 0)
            return op->opcode;
    }
    return 0; /* not reached for k < shape_opcode_count(shape) */
}

static void write_manifest_line(FILE *f, unsigned long i, const struct ibsec_pkt *p,
                                size_t len)
{
    char lnh[4] = "-";
    if (p->link == IBSEC_LINK_IB)
        snprintf(lnh, sizeof lnh, "%u", p->lrh.lnh);
    fprintf(f, "%lu\t%s\t0x%02x\t%s\t%s\t%u\t%zu\t%zu\n", i, ibsec_shape_name(p->shape),
            p->bth.opcode, p->op->name, lnh, p->padcnt, p->payload_len, len);
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_args(argc, argv, &o) != 0) {
        usage(stderr);
        return EXIT_USAGE;
    }
    uint32_t linktype = ibsec_shape_link(o.shape) == IBSEC_LINK_IB ? IBSEC_LINKTYPE_INFINIBAND
                                                                   : IBSEC_LINKTYPE_ETHERNET;
    ibsec_pcap_writer w;
    if (ibsec_pcap_writer_open(&w, o.out, linktype) != 0) {
        fprintf(stderr, "ibsec_pktgen: %s\n", w.err);
        return EXIT_USAGE;
    }
    FILE *mf = NULL;
    if (o.manifest != NULL) {
        mf = fopen(o.manifest, "w");
        if (mf == NULL) {
            fprintf(stderr, "ibsec_pktgen: %s: %s\n", o.manifest, strerror(errno));
            ibsec_pcap_writer_close(&w);
            return EXIT_USAGE;
        }
        fputs("index\tshape\topcode\tname\tlnh\tpadcnt\tpayload_len\tframe_len\n", mf);
    }

    ibsec_rng rng;
    ibsec_rng_seed(&rng, o.seed);
    size_t n_ops = shape_opcode_count(o.shape);
    static uint8_t buf[IBSEC_MAX_PKT];
    int status = 0;
    for (unsigned long i = 0; i < o.count && status == 0; i++) {
        struct ibsec_pktgen_opts go;
        ibsec_pktgen_default_opts(&go, o.shape);
        go.opcode = shape_opcode_at(o.shape, i % n_ops);
        struct ibsec_pkt p;
        size_t len;
        enum ibsec_pkt_err e = ibsec_pktgen(&rng, &go, buf, sizeof buf, &len, &p);
        if (e != IBSEC_PKT_OK) {
            fprintf(stderr, "ibsec_pktgen: packet %lu (opcode 0x%02x): %s\n", i,
                    (unsigned)go.opcode, ibsec_pkt_err_name(e));
            status = 1;
            break;
        }
        /* Timestamps: one packet per microsecond, so records sort in generation order. */
        if (ibsec_pcap_write(&w, buf, len, (uint32_t)(i / 1000000u), (uint32_t)(i % 1000000u)) != 0) {
            fprintf(stderr, "ibsec_pktgen: %s: %s\n", o.out, w.err);
            status = 1;
        }
        if (mf != NULL)
            write_manifest_line(mf, i, &p, len);
    }
    if (ibsec_pcap_writer_close(&w) != 0) {
        fprintf(stderr, "ibsec_pktgen: %s: %s\n", o.out, w.err);
        status = 1;
    }
    if (mf != NULL && fclose(mf) != 0) {
        fprintf(stderr, "ibsec_pktgen: %s: write error\n", o.manifest);
        status = 1;
    }
    return status;
}
