/*
 * crc.c — ICRC (CRC-32) and VCRC (CRC-16) of IBA Vol. 1 §7.8 and RoCEv2
 * Annex A17.  See crc.h for the parameters and the masking rules.
 *
 * Representation: both CRCs are "reflected": the shift register's bit 0 is
 * the coefficient of the highest power of x, each input byte enters least
 * significant bit first, and the register shifts right.  With the polynomial
 * bit-reversed (0x04C11DB7 -> 0xEDB88320, 0x100B -> 0xD008) one step is
 *     reg = (reg >> 1) ^ (lsb(reg ^ bit) ? poly : 0).
 * The table-driven functions process a byte per step with a 256-entry table
 * built from the bitwise step, and are checked against it in test_crc.
 */
#include "crc.h"

#include <string.h>

/* ---- CRC-32 ----------------------------------------------------------------- */

/* One input byte through the CRC-32 register, bit by bit (the reference). */
static uint32_t crc32_byte_bitwise(uint32_t reg, uint8_t byte)
{
    reg ^= byte;
    for (int bit = 0; bit < 8; bit++)
        reg = (reg & 1u) ? (reg >> 1) ^ IBSEC_CRC32_POLY_REFLECTED : (reg >> 1);
    return reg;
}

uint32_t ibsec_crc32_update_bitwise(uint32_t reg, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        reg = crc32_byte_bitwise(reg, p[i]);
    return reg;
}

/* crc32_table[b] = the register after feeding byte b into a zero register. */
static uint32_t crc32_table[256];
static bool crc32_table_ready;

static void crc32_table_init(void)
{
    for (unsigned b = 0; b < 256; b++)
        crc32_table[b] = crc32_byte_bitwise(0, (uint8_t)b);
    crc32_table_ready = true;
}

uint32_t ibsec_crc32_update(uint32_t reg, const uint8_t *p, size_t n)
{
    if (!crc32_table_ready)
        crc32_table_init();
    for (size_t i = 0; i < n; i++)
        reg = (reg >> 8) ^ crc32_table[(reg ^ p[i]) & 0xFFu];
    return reg;
}

uint32_t ibsec_crc32(const uint8_t *p, size_t n)
{
    return ibsec_crc32_update(IBSEC_CRC32_INIT, p, n) ^ IBSEC_CRC32_XOROUT;
}

/* ---- CRC-16 (VCRC) ------------------------------------------------------------ */

static uint16_t crc16_byte_bitwise(uint16_t reg, uint8_t byte)
{
    reg ^= byte;
    for (int bit = 0; bit < 8; bit++)
        reg = (reg & 1u) ? (uint16_t)((reg >> 1) ^ IBSEC_CRC16_POLY_REFLECTED)
                         : (uint16_t)(reg >> 1);
    return reg;
}

uint16_t ibsec_crc16_update_bitwise(uint16_t reg, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        reg = crc16_byte_bitwise(reg, p[i]);
    return reg;
}

static uint16_t crc16_table[256];
static bool crc16_table_ready;

static void crc16_table_init(void)
{
    for (unsigned b = 0; b < 256; b++)
        crc16_table[b] = crc16_byte_bitwise(0, (uint8_t)b);
    crc16_table_ready = true;
}

uint16_t ibsec_crc16_update(uint16_t reg, const uint8_t *p, size_t n)
{
    if (!crc16_table_ready)
        crc16_table_init();
    for (size_t i = 0; i < n; i++)
        reg = (uint16_t)((reg >> 8) ^ crc16_table[(reg ^ p[i]) & 0xFFu]);
    return reg;
}

uint16_t ibsec_crc16(const uint8_t *p, size_t n)
{
    return (uint16_t)(ibsec_crc16_update(IBSEC_CRC16_INIT, p, n) ^ IBSEC_CRC16_XOROUT);
}

/* ---- variant-field masks -------------------------------------------------------
 * Each function sets to ones, in the masked copy `m`, the variant bits of one
 * header that starts at m[off].  Offsets inside the headers are those of the
 * layouts in ib_pkt.h. */

/* IBA §7.8.1: LRH.VL, byte 0 bits 7:4 (packet without GRH). */
static void mask_lrh_vl(uint8_t *m, size_t off)
{
    m[off + 0] |= 0xF0u;
}

/* IBA §7.8.1: with a GRH the whole LRH is variant (routers rebuild it). */
static void mask_lrh_all(uint8_t *m, size_t off)
{
    memset(m + off, 0xFF, IBSEC_LRH_LEN);
}

/* IBA §7.8.1 GRH (and the same fields of an IPv6 header, Annex A17):
 * TClass = byte 0 bits 3:0 + byte 1 bits 7:4, FlowLabel = byte 1 bits 3:0 +
 * bytes 2-3, HopLmt = byte 7.  IPVer (byte 0 bits 7:4) stays. */
static void mask_grh_or_ipv6(uint8_t *m, size_t off)
{
    m[off + 0] |= 0x0Fu;
    m[off + 1] = 0xFFu;
    m[off + 2] = 0xFFu;
    m[off + 3] = 0xFFu;
    m[off + 7] = 0xFFu;
}

/* docs/availability.md §2.4 (Lee & Kim TPDS §5.4, Fig. 4): the 38-bit DDPM
 * Marking Field, DGID bits 117:80 = GRH byte 25 bits 5:0 and bytes 26..29,
 * which switches rewrite.  The DGID prefix (byte 24, byte 25 bits 7:6) stays. */
#define GRH_MF_FIRST_BYTE 25u    /* GRH byte holding MF bits 37:32 */
#define GRH_MF_FIRST_MASK 0x3Fu  /* ... in its bits 5:0 */
#define GRH_MF_FULL_BYTES 4u     /* GRH bytes 26..29: MF bits 31:0 */
static void mask_grh_mf(uint8_t *m, size_t off)
{
    m[off + GRH_MF_FIRST_BYTE] |= GRH_MF_FIRST_MASK;
    memset(m + off + GRH_MF_FIRST_BYTE + 1, 0xFF, GRH_MF_FULL_BYTES);
}

/* Annex A17: IPv4 Type of Service (byte 1: DSCP + ECN), Time to Live (byte 8)
 * and Header Checksum (bytes 10-11). */
static void mask_ipv4(uint8_t *m, size_t off)
{
    m[off + 1] = 0xFFu;
    m[off + 8] = 0xFFu;
    m[off + 10] = 0xFFu;
    m[off + 11] = 0xFFu;
}

/* Annex A17: UDP Checksum (bytes 6-7). */
static void mask_udp(uint8_t *m, size_t off)
{
    m[off + 6] = 0xFFu;
    m[off + 7] = 0xFFu;
}

/* IBA §7.8.1: BTH byte 4 (FECN, BECN, Resv6a; Resv8a in older releases). */
static void mask_bth(uint8_t *m, size_t off)
{
    m[off + IBSEC_BTH_BYTE_VARIANT] = 0xFFu;
}

size_t ibsec_icrc_masked_bytes(const uint8_t *buf, const struct ibsec_pkt *p, size_t end_off,
                               uint8_t *out, size_t cap)
{
    if (end_off < p->bth_off + IBSEC_BTH_LEN || end_off > p->icrc_off)
        return 0;
    /* RoCEv2 puts 8 bytes of ones where the LRH would be (Annex A17). */
    size_t prefix = (p->link == IBSEC_LINK_ROCE) ? IBSEC_ROCE_LRH_STANDIN : 0;
    size_t n = prefix + (end_off - p->icrc_cov_off);
    if (n > cap)
        return 0;
    memset(out, 0xFF, prefix);
    memcpy(out + prefix, buf + p->icrc_cov_off, end_off - p->icrc_cov_off);

    /* position in out of the header at buffer offset off (>= icrc_cov_off) */
#define AT(off) (prefix + ((off) - p->icrc_cov_off))
    if (p->link == IBSEC_LINK_IB) {
        if (p->has_grh) {
            mask_lrh_all(out, AT(p->lrh_off));
            mask_grh_or_ipv6(out, AT(p->grh_off));
            if (p->mask_mf)
                mask_grh_mf(out, AT(p->grh_off));
        } else {
            mask_lrh_vl(out, AT(p->lrh_off));
        }
    } else {
        if (p->shape == IBSEC_SHAPE_ROCE_V4)
            mask_ipv4(out, AT(p->ip_off));
        else
            mask_grh_or_ipv6(out, AT(p->ip_off));
        mask_udp(out, AT(p->udp_off));
    }
    mask_bth(out, AT(p->bth_off));
#undef AT
    return n;
}

/* ---- ICRC / VCRC of a packet ------------------------------------------------------ */

uint32_t ibsec_icrc_compute(const uint8_t *buf, const struct ibsec_pkt *p)
{
    /* The masked part ends with the BTH; everything after it is invariant. */
    uint8_t hdr[IBSEC_MASKED_HDR_MAX];
    size_t bth_end = p->bth_off + IBSEC_BTH_LEN;
    size_t n = ibsec_icrc_masked_bytes(buf, p, bth_end, hdr, sizeof hdr);
    uint32_t reg = ibsec_crc32_update(IBSEC_CRC32_INIT, hdr, n);
    reg = ibsec_crc32_update(reg, buf + bth_end, p->icrc_off - bth_end);
    return reg ^ IBSEC_CRC32_XOROUT;
}

/* IBA §7.8.1: the ICRC is sent least-significant byte first. */
uint32_t ibsec_icrc_get(const uint8_t *buf, const struct ibsec_pkt *p)
{
    const uint8_t *b = buf + p->icrc_off;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

void ibsec_icrc_put(uint8_t *buf, const struct ibsec_pkt *p, uint32_t icrc)
{
    uint8_t *b = buf + p->icrc_off;
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(icrc >> (8 * i));
}

/* IBA §7.8.2: VCRC over LRH .. ICRC, nothing masked. */
uint16_t ibsec_vcrc_compute(const uint8_t *buf, const struct ibsec_pkt *p)
{
    if (!p->has_vcrc)
        return 0;
    return ibsec_crc16(buf + p->lrh_off, p->vcrc_off - p->lrh_off);
}

/* IBA §7.8.2: the VCRC is sent least-significant byte first. */
uint16_t ibsec_vcrc_get(const uint8_t *buf, const struct ibsec_pkt *p)
{
    if (!p->has_vcrc)
        return 0;
    const uint8_t *b = buf + p->vcrc_off;
    return (uint16_t)(b[0] | b[1] << 8);
}

void ibsec_vcrc_put(uint8_t *buf, const struct ibsec_pkt *p, uint16_t vcrc)
{
    if (!p->has_vcrc)
        return;
    buf[p->vcrc_off] = (uint8_t)vcrc;
    buf[p->vcrc_off + 1] = (uint8_t)(vcrc >> 8);
}

void ibsec_pkt_put_crcs(uint8_t *buf, const struct ibsec_pkt *p)
{
    ibsec_icrc_put(buf, p, ibsec_icrc_compute(buf, p));
    ibsec_pkt_put_vcrc(buf, p);
}

void ibsec_pkt_put_vcrc(uint8_t *buf, const struct ibsec_pkt *p)
{
    ibsec_vcrc_put(buf, p, ibsec_vcrc_compute(buf, p));
}

bool ibsec_vcrc_ok(const uint8_t *buf, const struct ibsec_pkt *p)
{
    return !p->has_vcrc || ibsec_vcrc_get(buf, p) == ibsec_vcrc_compute(buf, p);
}

enum ibsec_pkt_err ibsec_pkt_check_crcs(const uint8_t *buf, const struct ibsec_pkt *p)
{
    if (!ibsec_vcrc_ok(buf, p))
        return IBSEC_PKT_ERR_BAD_VCRC;
    if (ibsec_icrc_get(buf, p) != ibsec_icrc_compute(buf, p))
        return IBSEC_PKT_ERR_BAD_ICRC;
    return IBSEC_PKT_OK;
}
