/*
 * pcap.c — classic pcap writer and reader (see pcap.h).
 *
 * All integers of the file are written byte by byte in little-endian order,
 * so the output does not depend on the host; the reader decodes either order
 * according to the magic number it finds.
 */
#include "pcap.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#define GLOBAL_HDR_LEN 24u  /* magic, major, minor, thiszone, sigfigs, snaplen, linktype */
#define RECORD_HDR_LEN 16u  /* ts_sec, ts_usec, incl_len, orig_len */
#define READER_MAX_SNAPLEN 262144u /* libpcap's MAXIMUM_SNAPLEN */

static void set_err(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, IBSEC_PCAP_ERRLEN, fmt, ap);
    va_end(ap);
}

static void put_le16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); }
static void put_le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *b, int big_endian)
{
    if (big_endian)
        return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static uint16_t get_u16(const uint8_t *b, int big_endian)
{
    return big_endian ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

/* ---- writer --------------------------------------------------------------------- */

int ibsec_pcap_writer_open(ibsec_pcap_writer *w, const char *path, uint32_t linktype)
{
    memset(w, 0, sizeof *w);
    w->linktype = linktype;
    w->f = fopen(path, "wb");
    if (w->f == NULL) {
        set_err(w->err, "%s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t h[GLOBAL_HDR_LEN];
    put_le32(h + 0, IBSEC_PCAP_MAGIC);
    put_le16(h + 4, IBSEC_PCAP_VERSION_MAJOR);
    put_le16(h + 6, IBSEC_PCAP_VERSION_MINOR);
    put_le32(h + 8, 0);   /* thiszone: UTC */
    put_le32(h + 12, 0);  /* sigfigs */
    put_le32(h + 16, IBSEC_PCAP_SNAPLEN);
    put_le32(h + 20, linktype);
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h) {
        set_err(w->err, "%s: cannot write header: %s", path, strerror(errno));
        fclose(w->f);
        w->f = NULL;
        return -1;
    }
    return 0;
}

int ibsec_pcap_write(ibsec_pcap_writer *w, const uint8_t *pkt, size_t len,
                     uint32_t ts_sec, uint32_t ts_usec)
{
    if (w->f == NULL) {
        set_err(w->err, "pcap writer not open");
        return -1;
    }
    if (len > IBSEC_PCAP_SNAPLEN) {
        set_err(w->err, "record %llu: %zu bytes exceed snaplen %u",
                (unsigned long long)(w->count + 1), len, IBSEC_PCAP_SNAPLEN);
        return -1;
    }
    uint8_t h[RECORD_HDR_LEN];
    put_le32(h + 0, ts_sec);
    put_le32(h + 4, ts_usec);
    put_le32(h + 8, (uint32_t)len);   /* incl_len */
    put_le32(h + 12, (uint32_t)len);  /* orig_len */
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h || fwrite(pkt, 1, len, w->f) != len) {
        set_err(w->err, "record %llu: write failed: %s", (unsigned long long)(w->count + 1),
                strerror(errno));
        return -1;
    }
    w->count++;
    return 0;
}

int ibsec_pcap_writer_close(ibsec_pcap_writer *w)
{
    if (w->f == NULL)
        return 0;
    int bad = ferror(w->f);
    if (fclose(w->f) != 0)
        bad = 1;
    w->f = NULL;
    if (bad) {
        set_err(w->err, "write error at close: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- reader --------------------------------------------------------------------- */

int ibsec_pcap_reader_open(ibsec_pcap_reader *r, const char *path)
{
    memset(r, 0, sizeof *r);
    r->f = fopen(path, "rb");
    if (r->f == NULL) {
        set_err(r->err, "%s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t h[GLOBAL_HDR_LEN];
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got != sizeof h) {
        set_err(r->err, "%s: truncated global header (%zu of %u bytes)", path, got,
                GLOBAL_HDR_LEN);
        goto fail;
    }
    if (get_u32(h, 0) == IBSEC_PCAP_MAGIC) {
        r->big_endian = 0;
    } else if (get_u32(h, 1) == IBSEC_PCAP_MAGIC) {
        r->big_endian = 1;
    } else {
        set_err(r->err, "%s: bad magic 0x%02x%02x%02x%02x (not a classic microsecond pcap)",
                path, h[0], h[1], h[2], h[3]);
        goto fail;
    }
    uint16_t major = get_u16(h + 4, r->big_endian);
    if (major != IBSEC_PCAP_VERSION_MAJOR) {
        set_err(r->err, "%s: unsupported pcap version %u.%u", path, major,
                get_u16(h + 6, r->big_endian));
        goto fail;
    }
    r->snaplen = get_u32(h + 16, r->big_endian);
    r->linktype = get_u32(h + 20, r->big_endian);
    if (r->snaplen == 0 || r->snaplen > READER_MAX_SNAPLEN) {
        set_err(r->err, "%s: bad snaplen %u", path, r->snaplen);
        goto fail;
    }
    return 0;
fail:
    fclose(r->f);
    r->f = NULL;
    return -1;
}

int ibsec_pcap_read(ibsec_pcap_reader *r, uint8_t *buf, size_t cap, size_t *len,
                    uint32_t *ts_sec, uint32_t *ts_usec)
{
    if (r->f == NULL) {
        set_err(r->err, "pcap reader not open");
        return -1;
    }
    uint8_t h[RECORD_HDR_LEN];
    size_t got = fread(h, 1, sizeof h, r->f);
    if (got == 0 && feof(r->f))
        return 0;
    if (got != sizeof h) {
        set_err(r->err, "record %llu: truncated record header (%zu of %u bytes)",
                (unsigned long long)(r->count + 1), got, RECORD_HDR_LEN);
        return -1;
    }
    uint32_t caplen = get_u32(h + 8, r->big_endian);
    uint32_t origlen = get_u32(h + 12, r->big_endian);
    if (caplen != origlen) {
        set_err(r->err, "record %llu: caplen %u != len %u (packet was cut)",
                (unsigned long long)(r->count + 1), caplen, origlen);
        return -1;
    }
    if (caplen > r->snaplen) {
        set_err(r->err, "record %llu: caplen %u exceeds snaplen %u",
                (unsigned long long)(r->count + 1), caplen, r->snaplen);
        return -1;
    }
    if (caplen > cap) {
        set_err(r->err, "record %llu: %u bytes do not fit the %zu-byte buffer",
                (unsigned long long)(r->count + 1), caplen, cap);
        return -1;
    }
    got = fread(buf, 1, caplen, r->f);
    if (got != caplen) {
        set_err(r->err, "record %llu: truncated data (%zu of %u bytes)",
                (unsigned long long)(r->count + 1), got, caplen);
        return -1;
    }
    *len = caplen;
    if (ts_sec)
        *ts_sec = get_u32(h, r->big_endian);
    if (ts_usec)
        *ts_usec = get_u32(h + 4, r->big_endian);
    r->count++;
    return 1;
}

void ibsec_pcap_reader_close(ibsec_pcap_reader *r)
{
    if (r->f != NULL)
        fclose(r->f);
    r->f = NULL;
}
