/*
 * test_pcap.c — the capture-file writer and reader of pcap.c, through libpcap (target
 * ctest-pcap).
 *
 * 1. The writer's global header is byte for byte the one pcap-savefile(5) defines for a
 *    little-endian microsecond file (magic d4 c3 b2 a1, version 2.4, thiszone 0, sigfigs
 *    0, snaplen 65535, link type), and each record header holds ts_sec, ts_usec, caplen =
 *    len (on a big-endian host libpcap writes the same fields in that host's order; the
 *    byte check is then skipped and counted as a failure, so the test cannot pass
 *    unexamined). ctest-crc-indep reads the same files with tshark and with its own
 *    Python reader.
 * 2. Round trip: generated packets of every shape written and read back unchanged, with
 *    their time stamps and link type, then a clean end of file.
 * 3. Files written here by hand are read the same way: a big-endian microsecond pcap, a
 *    nanosecond pcap in each byte order (stamps scaled down to microseconds, truncated),
 *    and a pcapng file (section header, interface description, enhanced packet blocks
 *    at the default microsecond and at a nanosecond resolution).
 * 4. Malformed files are refused with an error string: empty, short global header, an
 *    unknown magic, a pcapng magic in front of a pcap body, version 1.x, truncated record
 *    header, truncated data, caplen != len, caplen > snaplen (libpcap cuts the record,
 *    the reader refuses the cut), record larger than the caller's buffer, a pcapng
 *    packet block cut short, a pcapng packet before any interface. A snaplen of 0 is
 *    accepted (libpcap reads it as its maximum).
 * Temporary files are created with mkstemp under $TMPDIR (default /tmp) and removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "pcap.h"
#include "rng.h"

static char tmp_path[512];

static int make_tmp(void)
{
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, sizeof tmp_path, "%s/ibsec_pcap_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(tmp_path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int write_file(const uint8_t *b, size_t n)
{
    FILE *f = fopen(tmp_path, "wb");
    if (f == NULL)
        return -1;
    size_t w = fwrite(b, 1, n, f);
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

static long read_file(uint8_t *b, size_t cap)
{
    FILE *f = fopen(tmp_path, "rb");
    if (f == NULL)
        return -1;
    size_t n = fread(b, 1, cap, f);
    fclose(f);
    return (long)n;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

#define MAX_RECORDS 64

static void test_roundtrip(check_ctx *c, ibsec_rng *r)
{
    static uint8_t pkts[MAX_RECORDS][IBSEC_MAX_PKT], back[IBSEC_MAX_PKT];
    static uint8_t file[MAX_RECORDS * (IBSEC_MAX_PKT + 16) + 24];
    size_t lens[MAX_RECORDS];
    for (int s = 0; s < IBSEC_SHAPE_COUNT; s++) {
        uint32_t lt = ibsec_shape_link((enum ibsec_shape)s) == IBSEC_LINK_IB
                          ? IBSEC_LINKTYPE_INFINIBAND : IBSEC_LINKTYPE_ETHERNET;
        ibsec_pcap_writer w;
        if (!check_int(c, "writer open", 0, ibsec_pcap_writer_open(&w, tmp_path, lt)))
            return;
        int n = 0;
        for (; n < MAX_RECORDS; n++) {
            struct ibsec_pktgen_opts o;
            ibsec_pktgen_default_opts(&o, (enum ibsec_shape)s);
            if (!check_int(c, "generate", IBSEC_PKT_OK,
                           ibsec_pktgen(r, &o, pkts[n], IBSEC_MAX_PKT, &lens[n], NULL)))
                break;
            check_int(c, "write record", 0,
                      ibsec_pcap_write(&w, pkts[n], lens[n], 1000u + (uint32_t)n, 7u * (uint32_t)n));
        }
        check_int(c, "records counted", n, (long long)w.count);
        check_int(c, "writer close", 0, ibsec_pcap_writer_close(&w));

        /* The bytes of the file: global header, then record headers. */
        long fl = read_file(file, sizeof file);
        static const uint8_t hdr_prefix[20] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0,
                                                0, 0, 0, 0, 0xff, 0xff, 0, 0 };
        uint8_t lt_le[4] = { (uint8_t)lt, (uint8_t)(lt >> 8), 0, 0 };
        if (check_true(c, fl >= 24 + 16, "file holds a global and a record header") &&
            check_true(c, host_is_little_endian(), "host is little-endian (the byte checks assume it)")) {
            check_bytes(c, "global header (magic, 2.4, zone, sigfigs, snaplen)", hdr_prefix, file, 20);
            check_bytes(c, "global header link type", lt_le, file + 20, 4);
            uint8_t rec0[16] = { 0xe8, 0x03, 0, 0, 0, 0, 0, 0 };
            for (int k = 0; k < 2; k++)
                for (int i = 0; i < 4; i++)
                    rec0[8 + 4 * k + i] = (uint8_t)(lens[0] >> (8 * i));
            check_bytes(c, "first record header (ts 1000.0, caplen = len)", rec0, file + 24, 16);
        }
        size_t want_size = 24;
        for (int i = 0; i < n; i++)
            want_size += 16 + lens[i];
        check_int(c, "file size", (long long)want_size, fl);

        ibsec_pcap_reader rd;
        if (!check_int(c, "reader open", 0, ibsec_pcap_reader_open(&rd, tmp_path)))
            return;
        check_int(c, "reader link type", lt, rd.linktype);
        check_int(c, "reader snaplen", 65535, rd.snaplen);
        for (int i = 0; i < n; i++) {
            size_t len = 0;
            uint32_t ts = 0, tu = 0;
            if (!check_int(c, "read record", 1, ibsec_pcap_read(&rd, back, sizeof back, &len, &ts, &tu)))
                break;
            check_int(c, "record length", (long long)lens[i], (long long)len);
            check_bytes(c, "record bytes", pkts[i], back, lens[i]);
            check_int(c, "ts_sec", 1000 + i, ts);
            check_int(c, "ts_usec", 7 * i, tu);
        }
        size_t len;
        check_int(c, "clean end of file", 0, ibsec_pcap_read(&rd, back, sizeof back, &len, NULL, NULL));
        ibsec_pcap_reader_close(&rd);
    }
}

static void put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
}

/* A hand-made big-endian file: header, one 5-byte record. */
static size_t big_endian_file(uint8_t *f)
{
    memset(f, 0, 24 + 16 + 5);
    put_be32(f, 0xa1b2c3d4u);
    f[4] = 0; f[5] = 2; f[6] = 0; f[7] = 4;
    put_be32(f + 16, 1500);
    put_be32(f + 20, IBSEC_LINKTYPE_ETHERNET);
    put_be32(f + 24, 42);
    put_be32(f + 28, 9);
    put_be32(f + 32, 5);
    put_be32(f + 36, 5);
    memcpy(f + 40, "\x01\x02\x03\x04\x05", 5);
    return 45;
}

static void test_big_endian(check_ctx *c)
{
    uint8_t f[64], back[16];
    size_t n = big_endian_file(f), len = 0;
    uint32_t ts = 0, tu = 0;
    ibsec_pcap_reader rd;
    if (!check_int(c, "big-endian: write temp file", 0, write_file(f, n)))
        return;
    if (!check_int(c, "big-endian: open", 0, ibsec_pcap_reader_open(&rd, tmp_path)))
        return;
    check_int(c, "big-endian: swapped exactly on a little-endian host", host_is_little_endian(), rd.swapped);
    check_int(c, "big-endian: link type", 1, rd.linktype);
    check_int(c, "big-endian: snaplen", 1500, rd.snaplen);
    check_int(c, "big-endian: read", 1, ibsec_pcap_read(&rd, back, sizeof back, &len, &ts, &tu));
    check_int(c, "big-endian: length", 5, (long long)len);
    check_bytes(c, "big-endian: bytes", f + 40, back, 5);
    check_int(c, "big-endian: ts", 42, ts);
    check_int(c, "big-endian: usec", 9, tu);
    ibsec_pcap_reader_close(&rd);
}

static void put_le32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); b[2] = (uint8_t)(v >> 16); b[3] = (uint8_t)(v >> 24);
}

static void put_u32(uint8_t *b, uint32_t v, int big) { if (big) put_be32(b, v); else put_le32(b, v); }

/* A nanosecond pcap (magic a1b23c4d) in either byte order: two 5-byte records stamped
 * 42 s + 9000 ns and 43 s + 1999 ns. */
static size_t nanosecond_file(uint8_t *f, int big)
{
    memset(f, 0, 24 + 2 * (16 + 5));
    put_u32(f, 0xa1b23c4du, big);
    f[big ? 5 : 4] = 2;
    f[big ? 7 : 6] = 4;
    put_u32(f + 16, 1500, big);
    put_u32(f + 20, IBSEC_LINKTYPE_INFINIBAND, big);
    static const uint32_t ts[2][2] = { { 42, 9000 }, { 43, 1999 } };
    uint8_t *r = f + 24;
    for (int i = 0; i < 2; i++, r += 16 + 5) {
        put_u32(r, ts[i][0], big);
        put_u32(r + 4, ts[i][1], big);
        put_u32(r + 8, 5, big);
        put_u32(r + 12, 5, big);
        for (int k = 0; k < 5; k++)
            r[16 + k] = (uint8_t)(0x10 * (i + 1) + k);
    }
    return (size_t)(r - f);
}

static void test_nanosecond(check_ctx *c)
{
    for (int big = 0; big < 2; big++) {
        uint8_t f[128], back[16];
        size_t n = nanosecond_file(f, big), len = 0;
        uint32_t ts = 0, tu = 0;
        char what[80];
        ibsec_pcap_reader rd;
        const char *order = big ? "ns big-endian" : "ns little-endian";
        snprintf(what, sizeof what, "%s: write temp file", order);
        if (!check_int(c, what, 0, write_file(f, n)))
            return;
        snprintf(what, sizeof what, "%s: open", order);
        if (!check_int(c, what, 0, ibsec_pcap_reader_open(&rd, tmp_path)))
            continue;
        snprintf(what, sizeof what, "%s: link type", order);
        check_int(c, what, IBSEC_LINKTYPE_INFINIBAND, rd.linktype);
        static const uint32_t want_us[2][2] = { { 42, 9 }, { 43, 1 } };
        for (int i = 0; i < 2; i++) {
            snprintf(what, sizeof what, "%s: read record %d", order, i + 1);
            if (!check_int(c, what, 1, ibsec_pcap_read(&rd, back, sizeof back, &len, &ts, &tu)))
                break;
            snprintf(what, sizeof what, "%s: record %d bytes", order, i + 1);
            check_bytes(c, what, f + 24 + (size_t)i * 21 + 16, back, 5);
            snprintf(what, sizeof what, "%s: record %d seconds", order, i + 1);
            check_int(c, what, want_us[i][0], ts);
            snprintf(what, sizeof what, "%s: record %d microseconds", order, i + 1);
            check_int(c, what, want_us[i][1], tu);
        }
        snprintf(what, sizeof what, "%s: clean end of file", order);
        check_int(c, what, 0, ibsec_pcap_read(&rd, back, sizeof back, &len, NULL, NULL));
        ibsec_pcap_reader_close(&rd);
    }
}

/* pcapng blocks (little-endian): type, total length, body, total length again. */
static size_t png_block(uint8_t *b, uint32_t type, const uint8_t *body, size_t body_len)
{
    size_t total = 12 + body_len;
    put_le32(b, type);
    put_le32(b + 4, (uint32_t)total);
    memcpy(b + 8, body, body_len);
    put_le32(b + 8 + body_len, (uint32_t)total);
    return total;
}

/* An enhanced packet block on interface `ifc`: stamp `ticks` in the interface's units. */
static size_t png_epb(uint8_t *b, uint32_t ifc, uint64_t ticks, const uint8_t *pkt, uint32_t len)
{
    uint8_t body[20 + 64];
    uint32_t padded = (len + 3u) & ~3u;
    memset(body, 0, sizeof body);
    put_le32(body, ifc);
    put_le32(body + 4, (uint32_t)(ticks >> 32));
    put_le32(body + 8, (uint32_t)ticks);
    put_le32(body + 12, len);
    put_le32(body + 16, len);
    memcpy(body + 20, pkt, len);
    return png_block(b, 6, body, 20 + padded);
}

/* A section header, interface 0 at the default resolution (microseconds), interface 1
 * with the if_tsresol option 9 (nanoseconds), then one 5-byte packet on each:
 * 42.000009 s and 43.000001999 s. With `no_idb` the interfaces are left out. */
static size_t pcapng_file(uint8_t *f, int no_idb)
{
    static const uint8_t shb[16] = { 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0,
                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    static const uint8_t idb_us[8] = { 247, 0, 0, 0, 0xff, 0xff, 0, 0 };
    static const uint8_t idb_ns[20] = { 247, 0, 0, 0, 0xff, 0xff, 0, 0,
                                        9, 0, 1, 0, 9, 0, 0, 0,   /* if_tsresol = 9, padded */
                                        0, 0, 0, 0 };             /* opt_endofopt */
    static const uint8_t p1[5] = { 0x11, 0x12, 0x13, 0x14, 0x15 };
    static const uint8_t p2[5] = { 0x21, 0x22, 0x23, 0x24, 0x25 };
    size_t n = png_block(f, 0x0a0d0d0au, shb, sizeof shb);
    if (!no_idb) {
        n += png_block(f + n, 1, idb_us, sizeof idb_us);
        n += png_block(f + n, 1, idb_ns, sizeof idb_ns);
    }
    n += png_epb(f + n, 0, 42000009ull, p1, 5);
    n += png_epb(f + n, 1, 43000001999ull, p2, 5);
    return n;
}

static void test_pcapng(check_ctx *c)
{
    uint8_t f[256], back[16];
    size_t n = pcapng_file(f, 0), len = 0;
    uint32_t ts = 0, tu = 0;
    ibsec_pcap_reader rd;
    if (!check_int(c, "pcapng: write temp file", 0, write_file(f, n)))
        return;
    if (!check_int(c, "pcapng: open", 0, ibsec_pcap_reader_open(&rd, tmp_path)))
        return;
    check_int(c, "pcapng: link type", IBSEC_LINKTYPE_INFINIBAND, rd.linktype);
    static const uint32_t want[2][2] = { { 42, 9 }, { 43, 1 } };
    for (int i = 0; i < 2; i++) {
        if (!check_int(c, "pcapng: read", 1, ibsec_pcap_read(&rd, back, sizeof back, &len, &ts, &tu)))
            break;
        check_int(c, "pcapng: length", 5, (long long)len);
        check_int(c, "pcapng: first byte", 0x11 + 0x10 * i, back[0]);
        check_int(c, "pcapng: seconds", want[i][0], ts);
        check_int(c, "pcapng: microseconds", want[i][1], tu);
    }
    check_int(c, "pcapng: clean end of file", 0, ibsec_pcap_read(&rd, back, sizeof back, &len, NULL, NULL));
    ibsec_pcap_reader_close(&rd);
}

/* Writes the file, opens it and reads records until an error; the file must be refused
 * at open (want_open_fail) or at a read, with an error string. */
static void expect_refused_at(check_ctx *c, const char *what, const uint8_t *f, size_t n,
                              int want_open_fail, size_t cap, int record)
{
    uint8_t back[64];
    char msg[160];
    ibsec_pcap_reader rd;
    if (!check_int(c, "malformed: write temp file", 0, write_file(f, n)))
        return;
    int o = ibsec_pcap_reader_open(&rd, tmp_path);
    snprintf(msg, sizeof msg, "%s: refused at open", what);
    if (want_open_fail) {
        check_int(c, msg, -1, o);
        snprintf(msg, sizeof msg, "%s: error string set", what);
        check_true(c, rd.err[0] != '\0', msg);
        if (o == 0)
            ibsec_pcap_reader_close(&rd);
        return;
    }
    snprintf(msg, sizeof msg, "%s: header accepted", what);
    if (!check_int(c, msg, 0, o))
        return;
    int rr;
    size_t len;
    while ((rr = ibsec_pcap_read(&rd, back, cap, &len, NULL, NULL)) == 1)
        ;
    snprintf(msg, sizeof msg, "%s: refused at read", what);
    check_int(c, msg, -1, rr);
    snprintf(msg, sizeof msg, "%s: error string set", what);
    check_true(c, rd.err[0] != '\0', msg);
    char want[32];
    snprintf(want, sizeof want, "record %d:", record);
    snprintf(msg, sizeof msg, "%s: error names %s", what, want);
    check_true(c, strncmp(rd.err, want, strlen(want)) == 0, msg);
    ibsec_pcap_reader_close(&rd);
}

/* The same for files whose first record is the bad one. */
static void expect_refused(check_ctx *c, const char *what, const uint8_t *f, size_t n,
                           int want_open_fail, size_t cap)
{
    expect_refused_at(c, what, f, n, want_open_fail, cap, 1);
}

static void test_malformed(check_ctx *c)
{
    uint8_t good[64], f[64];
    size_t n = big_endian_file(good);
    expect_refused(c, "empty file", good, 0, 1, 64);
    expect_refused(c, "10-byte global header", good, 10, 1, 64);
    memcpy(f, good, n); put_be32(f, 0xa1b2c3d5u);
    expect_refused(c, "unknown magic", f, n, 1, 64);
    memcpy(f, good, n); put_be32(f, 0x0a0d0d0au);
    expect_refused(c, "pcapng magic", f, n, 1, 64);
    memcpy(f, good, n); f[5] = 1;
    expect_refused(c, "version 1.4", f, n, 1, 64);
    expect_refused(c, "truncated record header", good, 24 + 9, 0, 64);
    expect_refused(c, "truncated record data", good, n - 2, 0, 64);
    memcpy(f, good, n); put_be32(f + 36, 6);
    expect_refused(c, "caplen != len", f, n, 0, 64);
    memcpy(f, good, n); put_be32(f + 16, 4);
    expect_refused(c, "caplen > snaplen", f, n, 0, 64);
    expect_refused(c, "record larger than the buffer", good, n, 0, 4);
    static uint8_t png[256];
    size_t pn = pcapng_file(png, 0);
    expect_refused_at(c, "pcapng: second packet block cut short", png, pn - 6, 0, 64, 2);
    pn = pcapng_file(png, 1);
    expect_refused(c, "pcapng: packet before any interface", png, pn, 1, 64);

    /* libpcap reads a snaplen of 0 as its maximum: the file is accepted and read */
    memcpy(f, good, n); put_be32(f + 16, 0);
    uint8_t back[8];
    size_t len = 0;
    ibsec_pcap_reader rs;
    if (check_int(c, "snaplen 0: write temp file", 0, write_file(f, n)) &&
        check_int(c, "snaplen 0: accepted", 0, ibsec_pcap_reader_open(&rs, tmp_path))) {
        check_int(c, "snaplen 0: record read", 1, ibsec_pcap_read(&rs, back, sizeof back, &len, NULL, NULL));
        check_int(c, "snaplen 0: record length", 5, (long long)len);
        ibsec_pcap_reader_close(&rs);
    }

    ibsec_pcap_reader rd;
    check_int(c, "missing file refused", -1, ibsec_pcap_reader_open(&rd, "/nonexistent/ibsec.pcap"));
    ibsec_pcap_writer w;
    check_int(c, "unwritable path refused", -1,
              ibsec_pcap_writer_open(&w, "/nonexistent/ibsec.pcap", IBSEC_LINKTYPE_ETHERNET));
}

int main(void)
{
    check_ctx c;
    ibsec_rng r;
    check_init(&c, "pcap");
    ibsec_rng_seed(&r, 0x9CA9u);
    if (!check_int(&c, "temporary file", 0, make_tmp()))
        return check_summary(&c);
    test_roundtrip(&c, &r);
    test_big_endian(&c);
    test_nanosecond(&c);
    test_pcapng(&c);
    test_malformed(&c);
    remove(tmp_path);
    return check_summary(&c);
}
