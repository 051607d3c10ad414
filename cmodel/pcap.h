/*
 * pcap.h — classic libpcap capture files (the format of
 * https://www.tcpdump.org/manpages/pcap-savefile.5.html, "pcap-savefile"):
 * a 24-byte global header (magic 0xa1b2c3d4, version 2.4, thiszone 0,
 * sigfigs 0, snaplen, linktype) and per packet a 16-byte record header
 * (ts_sec, ts_usec, caplen, len) followed by caplen bytes.
 *
 * The writer writes little-endian files (magic bytes d4 c3 b2 a1), snaplen
 * 65535, and always caplen == len.  The reader accepts the microsecond magic in
 * either byte order and rejects everything else with an error string in
 * r->err (the library never prints or exits).  Error strings number records
 * from 1, as Wireshark numbers frames.
 *
 * Link types used by ibsec (tcpdump.org link-layer header types):
 *   LINKTYPE_INFINIBAND (247): native IBA; a record starts at the LRH and
 *     includes the ICRC and VCRC.
 *   LINKTYPE_ETHERNET (1): RoCEv2; a record starts at the Ethernet header and
 *     has no FCS.
 */
#ifndef IBSEC_PCAP_H
#define IBSEC_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define IBSEC_LINKTYPE_ETHERNET   1u
#define IBSEC_LINKTYPE_INFINIBAND 247u
#define IBSEC_PCAP_MAGIC          0xa1b2c3d4u
#define IBSEC_PCAP_VERSION_MAJOR  2u
#define IBSEC_PCAP_VERSION_MINOR  4u
#define IBSEC_PCAP_SNAPLEN        65535u
#define IBSEC_PCAP_ERRLEN         160

typedef struct ibsec_pcap_writer {
    FILE    *f;
    uint32_t linktype;
    uint64_t count;                  /* records written */
    char     err[IBSEC_PCAP_ERRLEN]; /* last error, "" if none */
} ibsec_pcap_writer;

typedef struct ibsec_pcap_reader {
    FILE    *f;
    uint32_t linktype;
    uint32_t snaplen;
    int      big_endian;             /* file written big-endian */
    uint64_t count;                  /* records read */
    char     err[IBSEC_PCAP_ERRLEN]; /* last error, "" if none */
} ibsec_pcap_reader;

/* Create `path` and write the global header.  0 on success, -1 on error
 * (w->err says why). */
int ibsec_pcap_writer_open(ibsec_pcap_writer *w, const char *path, uint32_t linktype);
/* Append one record (len <= IBSEC_PCAP_SNAPLEN).  0 / -1. */
int ibsec_pcap_write(ibsec_pcap_writer *w, const uint8_t *pkt, size_t len,
                     uint32_t ts_sec, uint32_t ts_usec);
/* Flush and close.  0 / -1 (a write error found at close is reported). */
int ibsec_pcap_writer_close(ibsec_pcap_writer *w);

/* Open `path` and read the global header: rejects a short header, a bad magic,
 * a version other than 2.x, a snaplen of 0 or above 262144.  0 / -1. */
int ibsec_pcap_reader_open(ibsec_pcap_reader *r, const char *path);
/* Read the next record into buf[0..cap): returns 1 with *len (and the time
 * stamp if ts_sec/ts_usec are not NULL), 0 at a clean end of file, -1 on error:
 * truncated record header or data, caplen != len, caplen > snaplen, caplen >
 * cap. */
int ibsec_pcap_read(ibsec_pcap_reader *r, uint8_t *buf, size_t cap, size_t *len,
                    uint32_t *ts_sec, uint32_t *ts_usec);
void ibsec_pcap_reader_close(ibsec_pcap_reader *r);

#endif /* IBSEC_PCAP_H */
