/*
 * pcap.c — capture files through libpcap (see pcap.h).
 *
 * Reading opens the file with fopen (so the message for a missing file is the
 * system's, and "-" is a file name, not standard input) and hands it to
 * pcap_fopen_offline_with_tstamp_precision, which recognises classic pcap in
 * both byte orders and both time stamp resolutions, and pcapng; asking for
 * microsecond precision makes libpcap scale nanosecond stamps.  libpcap hands
 * out every record it can parse; what the model cannot use (a cut record, a
 * record larger than the caller's buffer) is refused here.
 *
 * Writing goes through a "dead" handle (link type, snaplen 65535, microsecond
 * precision) and pcap_dump.  pcap_dump cannot report a failed write, so the
 * writer checks the stream's error flag after each record and flushes at close.
 */
#define _DEFAULT_SOURCE  /* libpcap's header uses u_char and u_int from <sys/types.h> */

#include "pcap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

static void set_err(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, IBSEC_PCAP_ERRLEN, fmt, ap);
    va_end(ap);
}

/* ---- writer --------------------------------------------------------------------- */

int ibsec_pcap_writer_open(ibsec_pcap_writer *w, const char *path, uint32_t linktype)
{
    memset(w, 0, sizeof *w);
    w->linktype = linktype;
    w->p = pcap_open_dead_with_tstamp_precision((int)linktype, (int)IBSEC_PCAP_SNAPLEN,
                                                PCAP_TSTAMP_PRECISION_MICRO);
    if (w->p == NULL) {
        set_err(w->err, "%s: libpcap cannot make a handle for link type %u", path, linktype);
        return -1;
    }
    /* pcap_dump_open's message is "PATH: reason" */
    w->d = pcap_dump_open(w->p, path);
    if (w->d == NULL) {
        set_err(w->err, "%s", pcap_geterr(w->p));
        pcap_close(w->p);
        w->p = NULL;
        return -1;
    }
    return 0;
}

int ibsec_pcap_write(ibsec_pcap_writer *w, const uint8_t *pkt, size_t len,
                     uint32_t ts_sec, uint32_t ts_usec)
{
    if (w->d == NULL) {
        set_err(w->err, "pcap writer not open");
        return -1;
    }
    if (len > IBSEC_PCAP_SNAPLEN) {
        set_err(w->err, "record %llu: %zu bytes exceed snaplen %u",
                (unsigned long long)(w->count + 1), len, IBSEC_PCAP_SNAPLEN);
        return -1;
    }
    struct pcap_pkthdr h;
    memset(&h, 0, sizeof h);
    h.ts.tv_sec = (time_t)ts_sec;
    h.ts.tv_usec = (suseconds_t)ts_usec;
    h.caplen = (bpf_u_int32)len;
    h.len = (bpf_u_int32)len;
    errno = 0;
    pcap_dump((u_char *)w->d, &h, pkt);
    if (ferror(pcap_dump_file(w->d))) {
        set_err(w->err, "record %llu: write failed: %s", (unsigned long long)(w->count + 1),
                errno ? strerror(errno) : "stream error");
        return -1;
    }
    w->count++;
    return 0;
}

int ibsec_pcap_writer_close(ibsec_pcap_writer *w)
{
    int bad = 0;
    if (w->d != NULL) {
        errno = 0;
        bad = pcap_dump_flush(w->d) != 0 || ferror(pcap_dump_file(w->d));
        if (bad)
            set_err(w->err, "write error at close: %s", errno ? strerror(errno) : "stream error");
        pcap_dump_close(w->d);
        w->d = NULL;
    }
    if (w->p != NULL)
        pcap_close(w->p);
    w->p = NULL;
    return bad ? -1 : 0;
}

/* ---- reader --------------------------------------------------------------------- */

int ibsec_pcap_reader_open(ibsec_pcap_reader *r, const char *path)
{
    char ebuf[PCAP_ERRBUF_SIZE] = "";
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        set_err(r->err, "%s: %s", path, strerror(errno));
        return -1;
    }
    r->p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_MICRO, ebuf);
    if (r->p == NULL) {   /* libpcap leaves the stream to the caller when it refuses it */
        fclose(f);
        set_err(r->err, "%s: cannot read as pcap or pcapng: %s", path, ebuf);
        return -1;
    }
    r->linktype = (uint32_t)pcap_datalink(r->p);
    r->snaplen = (uint32_t)pcap_snapshot(r->p);
    r->swapped = pcap_is_swapped(r->p);
    return 0;
}

int ibsec_pcap_read(ibsec_pcap_reader *r, uint8_t *buf, size_t cap, size_t *len,
                    uint32_t *ts_sec, uint32_t *ts_usec)
{
    if (r->p == NULL) {
        set_err(r->err, "pcap reader not open");
        return -1;
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    int rc = pcap_next_ex(r->p, &h, &data);
    if (rc == PCAP_ERROR_BREAK)   /* a savefile's clean end */
        return 0;
    if (rc != 1) {
        set_err(r->err, "record %llu: %s", (unsigned long long)(r->count + 1), pcap_geterr(r->p));
        return -1;
    }
    if (h->caplen != h->len) {
        set_err(r->err, "record %llu: caplen %u != len %u (packet was cut)",
                (unsigned long long)(r->count + 1), (unsigned)h->caplen, (unsigned)h->len);
        return -1;
    }
    if (h->caplen > cap) {
        set_err(r->err, "record %llu: %u bytes do not fit the %zu-byte buffer",
                (unsigned long long)(r->count + 1), (unsigned)h->caplen, cap);
        return -1;
    }
    memcpy(buf, data, h->caplen);
    *len = h->caplen;
    if (ts_sec)
        *ts_sec = (uint32_t)h->ts.tv_sec;
    if (ts_usec)
        *ts_usec = (uint32_t)h->ts.tv_usec;
    r->count++;
    return 1;
}

void ibsec_pcap_reader_close(ibsec_pcap_reader *r)
{
    if (r->p != NULL)
        pcap_close(r->p);   /* closes the stream too */
    r->p = NULL;
}
