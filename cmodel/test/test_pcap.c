/*
 * test_pcap.c — the classic pcap writer and reader of pcap.c (target ctest-pcap).
 *
 * 1. The writer's global header is byte for byte the one pcap-savefile(5) defines for a
 *    little-endian microsecond file (magic d4 c3 b2 a1, version 2.4, thiszone 0, sigfigs
 *    0, snaplen 65535, link type), and each record header holds ts_sec, ts_usec, caplen =
 *    len. (ctest-crc-indep reads the same files with tshark and with its own Python
 *    reader.)
 * 2. Round trip: generated packets of every shape written and read back unchanged, with
 *    their time stamps and link type, then a clean end of file.
 * 3. A big-endian file written here by hand is read the same way.
 * 4. Malformed files are refused with an error string: empty, short global header, bad
 *    magic (including the nanosecond magic), version 1.x, snaplen 0, truncated record
 *    header, truncated data, caplen != len, caplen > snaplen, record larger than the
 *    caller's buffer.
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
        if (check_true(c, fl >= 24 + 16, "file holds a global and a record header")) {
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
    check_int(c, "big-endian: flag", 1, rd.big_endian);
    check_int(c, "big-endian: link type", 1, rd.linktype);
    check_int(c, "big-endian: snaplen", 1500, rd.snaplen);
    check_int(c, "big-endian: read", 1, ibsec_pcap_read(&rd, back, sizeof back, &len, &ts, &tu));
    check_int(c, "big-endian: length", 5, (long long)len);
    check_bytes(c, "big-endian: bytes", f + 40, back, 5);
    check_int(c, "big-endian: ts", 42, ts);
    check_int(c, "big-endian: usec", 9, tu);
    ibsec_pcap_reader_close(&rd);
}

/* Writes the file, opens it and reads records until an error; the file must be refused
 * at open (want_open_fail) or at a read, with an error string. */
static void expect_refused(check_ctx *c, const char *what, const uint8_t *f, size_t n,
                           int want_open_fail, size_t cap)
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
    /* every file here holds one record: the error names it as record 1 */
    snprintf(msg, sizeof msg, "%s: error names record 1", what);
    check_true(c, strncmp(rd.err, "record 1:", 9) == 0, msg);
    ibsec_pcap_reader_close(&rd);
}

static void test_malformed(check_ctx *c)
{
    uint8_t good[64], f[64];
    size_t n = big_endian_file(good);
    expect_refused(c, "empty file", good, 0, 1, 64);
    expect_refused(c, "10-byte global header", good, 10, 1, 64);
    memcpy(f, good, n); put_be32(f, 0xa1b23c4du);
    expect_refused(c, "nanosecond magic", f, n, 1, 64);
    memcpy(f, good, n); put_be32(f, 0x0a0d0d0au);
    expect_refused(c, "pcapng magic", f, n, 1, 64);
    memcpy(f, good, n); f[5] = 1;
    expect_refused(c, "version 1.4", f, n, 1, 64);
    memcpy(f, good, n); put_be32(f + 16, 0);
    expect_refused(c, "snaplen 0", f, n, 1, 64);
    expect_refused(c, "truncated record header", good, 24 + 9, 0, 64);
    expect_refused(c, "truncated record data", good, n - 2, 0, 64);
    memcpy(f, good, n); put_be32(f + 36, 6);
    expect_refused(c, "caplen != len", f, n, 0, 64);
    memcpy(f, good, n); put_be32(f + 16, 4);
    expect_refused(c, "caplen > snaplen", f, n, 0, 64);
    expect_refused(c, "record larger than the buffer", good, n, 0, 4);

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
    test_malformed(&c);
    remove(tmp_path);
    return check_summary(&c);
}
