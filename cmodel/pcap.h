/*
 * pcap.h — capture files in and out, through libpcap (Debian libpcap-dev).
 *
 * Reading: whatever libpcap reads as a savefile — classic pcap
 * (https://www.tcpdump.org/manpages/pcap-savefile.5.html) with microsecond or
 * nanosecond time stamps in either byte order, and pcapng (what Wireshark,
 * tshark, dumpcap and editcap save by default).  Time stamps are handed out in
 * microseconds: libpcap scales a nanosecond file's stamps down (it truncates),
 * so a capture saved with nanosecond stamps that are whole microseconds reads
 * exactly as the microsecond file it came from.
 *
 * Writing: classic pcap with microsecond time stamps (magic 0xa1b2c3d4 in the
 * host's byte order, version 2.4, thiszone 0, sigfigs 0, snaplen 65535, the
 * link type), every record with caplen == len — the format of the files the
 * model wrote before libpcap did the writing, byte for byte on a little-endian
 * host.
 *
 * The model handles whole packets only: a record cut short by the capture
 * (caplen != len; libpcap also cuts a record longer than the file's snaplen)
 * is an error, not a packet.  The library never prints or exits; errors go
 * to err, and reader errors found at a record number it from 1, as Wireshark
 * numbers frames ("record 3: ...").
 *
 * Link types used by ibsec (tcpdump.org link-layer header types; libpcap's
 * DLT_ values are the same numbers for these two):
 *   LINKTYPE_INFINIBAND (247): native IBA; a record starts at the LRH and
 *     includes the ICRC and VCRC.
 *   LINKTYPE_ETHERNET (1): RoCEv2; a record starts at the Ethernet header and
 *     has no FCS.
 * A pcapng file whose interfaces have different link types is refused by
 * libpcap when it reaches the interface of the second type.
 */
#ifndef IBSEC_PCAP_H
#define IBSEC_PCAP_H

#include <stddef.h>
#include <stdint.h>

#define IBSEC_LINKTYPE_ETHERNET   1u
#define IBSEC_LINKTYPE_INFINIBAND 247u
#define IBSEC_PCAP_SNAPLEN        65535u  /* the writer's snaplen: the longest record it takes */
#define IBSEC_PCAP_ERRLEN         320     /* room for a path and libpcap's message */

/* libpcap's handles (pcap_t, pcap_dumper_t); callers need not include its header. */
struct pcap;
struct pcap_dumper;

typedef struct ibsec_pcap_writer {
    struct pcap        *p;            /* a "dead" handle: link type, snaplen, precision */
    struct pcap_dumper *d;            /* the open file */
    uint32_t            linktype;
    uint64_t            count;        /* records written */
    char                err[IBSEC_PCAP_ERRLEN]; /* last error, "" if none */
} ibsec_pcap_writer;

typedef struct ibsec_pcap_reader {
    struct pcap *p;
    uint32_t     linktype;            /* of the file (pcapng: of its first interface) */
    uint32_t     snaplen;
    int          swapped;             /* the file (pcapng: its first section) is in the
                                         other byte order than this host's */
    uint64_t     count;               /* records read */
    char         err[IBSEC_PCAP_ERRLEN]; /* last error, "" if none */
} ibsec_pcap_reader;

/* Create `path` and write the global header.  0 on success, -1 on error
 * (w->err names the file and says why). */
int ibsec_pcap_writer_open(ibsec_pcap_writer *w, const char *path, uint32_t linktype);
/* Append one record (len <= IBSEC_PCAP_SNAPLEN).  0 / -1. */
int ibsec_pcap_write(ibsec_pcap_writer *w, const uint8_t *pkt, size_t len,
                     uint32_t ts_sec, uint32_t ts_usec);
/* Flush and close.  0 / -1 (a write error found at the flush is reported). */
int ibsec_pcap_writer_close(ibsec_pcap_writer *w);

/* Open `path` (pcap or pcapng): 0, or -1 with r->err naming the file and what
 * libpcap found wrong (a short header, an unknown magic, an archaic version). */
int ibsec_pcap_reader_open(ibsec_pcap_reader *r, const char *path);
/* Read the next record into buf[0..cap): returns 1 with *len (and the time
 * stamp if ts_sec/ts_usec are not NULL), 0 at a clean end of file, -1 on error:
 * a truncated record header or data, or a damaged pcapng block (libpcap's
 * message), caplen != len, caplen > cap. */
int ibsec_pcap_read(ibsec_pcap_reader *r, uint8_t *buf, size_t cap, size_t *len,
                    uint32_t *ts_sec, uint32_t *ts_usec);
void ibsec_pcap_reader_close(ibsec_pcap_reader *r);

#endif /* IBSEC_PCAP_H */
