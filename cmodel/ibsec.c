/*
 * ibsec.c — names and wire encodings of the security layer: modes, the BTH
 * byte 8 SECMODE/STHSZ bits, STH sizes, drop reasons.
 *
 * docs/wire-format.md §2 (BTH byte 8), §4 (STH sizes), §3 (modes), §10 (reasons).  Everything
 * here is a pure function of its arguments.
 */
#include <string.h>

#include "ibsec.h"

/* ---- modes ----------------------------------------------------------------- */

static const char *const mode_names[IBSEC_MODE_COUNT] = {
    [IBSEC_MODE_NONE]     = "none",
    [IBSEC_MODE_ICRC_MAC] = "icrc-mac",
    [IBSEC_MODE_STH_HDR]  = "sth-hdr",
    [IBSEC_MODE_STH_PKT]  = "sth-pkt",
    [IBSEC_MODE_STH_AEAD] = "sth-aead",
};

const char *ibsec_mode_name(enum ibsec_mode m)
{
    return ((unsigned)m < IBSEC_MODE_COUNT) ? mode_names[m] : "?";
}

int ibsec_mode_from_name(const char *s, enum ibsec_mode *m)
{
    for (unsigned i = 0; i < IBSEC_MODE_COUNT; i++) {
        if (strcmp(s, mode_names[i]) == 0) {
            *m = (enum ibsec_mode)i;
            return 0;
        }
    }
    return -1;
}

bool ibsec_mode_has_sth(enum ibsec_mode m)
{
    return m == IBSEC_MODE_STH_HDR || m == IBSEC_MODE_STH_PKT || m == IBSEC_MODE_STH_AEAD;
}

/* ---- STH size codes (sRDMA Table 2, wire-format.md §2, §4) ---------------------- */

static const unsigned sth_bits[IBSEC_STH_CODE_MAX + 1] = { 0, 96, 128, 160, 192, 256, 384, 512 };

unsigned ibsec_sth_bits(unsigned code)
{
    return code <= IBSEC_STH_CODE_MAX ? sth_bits[code] : 0;
}

bool ibsec_sth_code_supported(unsigned code)
{
    return code == IBSEC_STH_CODE_NONE || code == IBSEC_STH_CODE_96 || code == IBSEC_STH_CODE_128;
}

size_t ibsec_sth_len(unsigned code)
{
    return ibsec_sth_bits(code) / 8u;
}

/* ---- BTH byte 8 bits 6:0 (wire-format.md §2) --------------------------------
 * SECMODE (bits 4:3) with STHSZ = 0: 0 none, 1 icrc-mac;
 *                    with STHSZ != 0: 1 sth-hdr, 2 sth-pkt, 3 sth-aead.
 * Bit 6 KP, the key phase (any secured mode); bit 5 PN, the STH's SecTAG (sth-*). */

uint8_t ibsec_secbits_pack(const struct ibsec_secbits *s)
{
    unsigned secmode, code = s->code;
    switch (s->mode) {
    case IBSEC_MODE_ICRC_MAC: secmode = 1; code = 0; break;
    case IBSEC_MODE_STH_HDR:  secmode = 1; break;
    case IBSEC_MODE_STH_PKT:  secmode = 2; break;
    case IBSEC_MODE_STH_AEAD: secmode = 3; break;
    default:                  return 0;
    }
    uint8_t b = (uint8_t)((secmode << IBSEC_SECMODE_SHIFT) | (code & IBSEC_STHSZ_MASK));
    if (s->kp & 1u)
        b |= IBSEC_SECBITS_KP;
    if (s->pn && code != 0)
        b |= IBSEC_SECBITS_PN;
    return b;
}

int ibsec_secbits_unpack(uint8_t b8, struct ibsec_secbits *s)
{
    unsigned secmode = (b8 & IBSEC_SECMODE_MASK) >> IBSEC_SECMODE_SHIFT;
    unsigned code = b8 & IBSEC_STHSZ_MASK;
    bool pn = (b8 & IBSEC_SECBITS_PN) != 0;
    unsigned kp = (b8 & IBSEC_SECBITS_KP) ? 1u : 0u;
    enum ibsec_mode m;
    if (code == 0) {
        if (secmode > 1 || pn)
            return -1;
        m = secmode ? IBSEC_MODE_ICRC_MAC : IBSEC_MODE_NONE;
        if (m == IBSEC_MODE_NONE && kp)
            return -1;
    } else {
        if (secmode == 0)
            return -1;
        m = (secmode == 1) ? IBSEC_MODE_STH_HDR
          : (secmode == 2) ? IBSEC_MODE_STH_PKT : IBSEC_MODE_STH_AEAD;
    }
    s->mode = m;
    s->code = code;
    s->pn = pn;
    s->kp = kp;
    return 0;
}

size_t ibsec_secbits_sth_len(const struct ibsec_secbits *s)
{
    if (!ibsec_mode_has_sth(s->mode))
        return 0;
    return ibsec_sth_len(s->code) + (s->pn ? IBSEC_SECTAG_LEN : 0u);
}

uint8_t ibsec_secbits_encode(enum ibsec_mode m, unsigned sth_code)
{
    struct ibsec_secbits s = { .mode = m, .code = sth_code, .pn = false, .kp = 0 };
    return ibsec_secbits_pack(&s);
}

int ibsec_secbits_decode(uint8_t b8, enum ibsec_mode *m, unsigned *sth_code)
{
    struct ibsec_secbits s;
    if (ibsec_secbits_unpack(b8, &s) != 0)
        return -1;
    *m = s.mode;
    *sth_code = s.code;
    return 0;
}

/* ---- reasons (wire-format.md §10) ------------------------------------------- */

static const char *const reason_names[IBSEC_R_COUNT] = {
    [IBSEC_R_OK]                   = "ok",
    [IBSEC_R_TRUNCATED]            = "truncated",
    [IBSEC_R_BAD_LNH]              = "bad_lnh",
    [IBSEC_R_BAD_LVER]             = "bad_lver",
    [IBSEC_R_BAD_PKTLEN]           = "bad_pktlen",
    [IBSEC_R_BAD_IPVER]            = "bad_ipver",
    [IBSEC_R_BAD_NXTHDR]           = "bad_nxthdr",
    [IBSEC_R_BAD_GRH_PAYLEN]       = "bad_grh_paylen",
    [IBSEC_R_BAD_ETHERTYPE]        = "bad_ethertype",
    [IBSEC_R_BAD_IPV4_IHL]         = "bad_ipv4_ihl",
    [IBSEC_R_BAD_IPV4_CSUM]        = "bad_ipv4_csum",
    [IBSEC_R_IP_FRAGMENT]          = "ip_fragment",
    [IBSEC_R_BAD_IP_LEN]           = "bad_ip_len",
    [IBSEC_R_NOT_UDP]              = "not_udp",
    [IBSEC_R_BAD_UDP_PORT]         = "bad_udp_port",
    [IBSEC_R_BAD_UDP_LEN]          = "bad_udp_len",
    [IBSEC_R_BAD_TVER]             = "bad_tver",
    [IBSEC_R_BAD_OPCODE]           = "bad_opcode",
    [IBSEC_R_BAD_PADCNT]           = "bad_padcnt",
    [IBSEC_R_BAD_PAYLOAD_LEN]      = "bad_payload_len",
    [IBSEC_R_TOO_LONG]             = "too_long",
    [IBSEC_R_BAD_VCRC]             = "bad_vcrc",
    [IBSEC_R_BAD_SECMODE]          = "bad_secmode",
    [IBSEC_R_NO_CONTEXT]           = "no_context",
    [IBSEC_R_MODE_MISMATCH]        = "mode_mismatch",
    [IBSEC_R_STH_SIZE_UNSUPPORTED] = "sth_size_unsupported",
    [IBSEC_R_STH_SIZE_MISMATCH]    = "sth_size_mismatch",
    [IBSEC_R_NO_KEY]               = "no_key",
    [IBSEC_R_BAD_ICRC]             = "bad_icrc",
    [IBSEC_R_EPSN_EXHAUSTED]       = "epsn_exhausted",
    [IBSEC_R_PSN_TOO_OLD]          = "psn_too_old",
    [IBSEC_R_REPLAY]               = "replay",
    [IBSEC_R_AUTH_FAILED]          = "auth_failed",
    [IBSEC_R_NONCE_REUSE]          = "nonce_reuse",
    [IBSEC_R_UNKNOWN_SENDER]       = "unknown_sender",
    [IBSEC_R_PN_TOO_OLD]           = "pn_too_old",
    [IBSEC_R_PN_EXHAUSTED]         = "pn_exhausted",
    [IBSEC_R_MGMT_DROPPED]         = "mgmt_dropped",
    [IBSEC_R_NOSPACE]              = "nospace",
};

const char *ibsec_reason_name(enum ibsec_reason r)
{
    return ((unsigned)r < IBSEC_R_COUNT && reason_names[r]) ? reason_names[r] : "?";
}

int ibsec_reason_from_name(const char *s, enum ibsec_reason *r)
{
    for (unsigned i = 0; i < IBSEC_R_COUNT; i++) {
        if (reason_names[i] && strcmp(s, reason_names[i]) == 0) {
            *r = (enum ibsec_reason)i;
            return 0;
        }
    }
    return -1;
}

enum ibsec_reason ibsec_reason_from_pkt_err(enum ibsec_pkt_err e)
{
    switch (e) {
    case IBSEC_PKT_OK:                  return IBSEC_R_OK;
    case IBSEC_PKT_ERR_TRUNCATED:       return IBSEC_R_TRUNCATED;
    case IBSEC_PKT_ERR_BAD_LNH:         return IBSEC_R_BAD_LNH;
    case IBSEC_PKT_ERR_BAD_LVER:        return IBSEC_R_BAD_LVER;
    case IBSEC_PKT_ERR_BAD_PKTLEN:      return IBSEC_R_BAD_PKTLEN;
    case IBSEC_PKT_ERR_BAD_IPVER:       return IBSEC_R_BAD_IPVER;
    case IBSEC_PKT_ERR_BAD_NXTHDR:      return IBSEC_R_BAD_NXTHDR;
    case IBSEC_PKT_ERR_BAD_GRH_PAYLEN:  return IBSEC_R_BAD_GRH_PAYLEN;
    case IBSEC_PKT_ERR_BAD_ETHERTYPE:   return IBSEC_R_BAD_ETHERTYPE;
    case IBSEC_PKT_ERR_BAD_IPV4_IHL:    return IBSEC_R_BAD_IPV4_IHL;
    case IBSEC_PKT_ERR_BAD_IPV4_CSUM:   return IBSEC_R_BAD_IPV4_CSUM;
    case IBSEC_PKT_ERR_IP_FRAGMENT:     return IBSEC_R_IP_FRAGMENT;
    case IBSEC_PKT_ERR_BAD_IP_LEN:      return IBSEC_R_BAD_IP_LEN;
    case IBSEC_PKT_ERR_NOT_UDP:         return IBSEC_R_NOT_UDP;
    case IBSEC_PKT_ERR_BAD_UDP_PORT:    return IBSEC_R_BAD_UDP_PORT;
    case IBSEC_PKT_ERR_BAD_UDP_LEN:     return IBSEC_R_BAD_UDP_LEN;
    case IBSEC_PKT_ERR_BAD_TVER:        return IBSEC_R_BAD_TVER;
    case IBSEC_PKT_ERR_BAD_OPCODE:      return IBSEC_R_BAD_OPCODE;
    case IBSEC_PKT_ERR_BAD_PADCNT:      return IBSEC_R_BAD_PADCNT;
    case IBSEC_PKT_ERR_BAD_PAYLOAD_LEN: return IBSEC_R_BAD_PAYLOAD_LEN;
    case IBSEC_PKT_ERR_TOO_LONG:        return IBSEC_R_TOO_LONG;
    case IBSEC_PKT_ERR_BAD_ICRC:        return IBSEC_R_BAD_ICRC;
    case IBSEC_PKT_ERR_BAD_VCRC:        return IBSEC_R_BAD_VCRC;
    case IBSEC_PKT_ERR_NOSPACE:         return IBSEC_R_NOSPACE;
    case IBSEC_PKT_ERR_BAD_ARG:
    case IBSEC_PKT_ERR_COUNT:
    default:                            return IBSEC_R_TRUNCATED;
    }
}

const char *ibsec_op_name(enum ibsec_op op)
{
    return op == IBSEC_OP_SEAL ? "seal" : op == IBSEC_OP_OPEN ? "open" : "?";
}

/* ---- reserved DestQPs (wire-format.md §9.1) ------------------------------------- */

int ibsec_mgmt_class_of(uint32_t destqp)
{
    if (destqp == 0)
        return IBSEC_MGMT_QP0;
    if (destqp == 1)
        return IBSEC_MGMT_QP1;
    if (destqp == IBSEC_QPN_PERMISSIVE)
        return IBSEC_MGMT_MCAST;
    return -1;
}

static const char *const mgmt_names[] = { "context", "bypass", "drop" };

const char *ibsec_mgmt_policy_name(enum ibsec_mgmt_policy p)
{
    return (unsigned)p < 3u ? mgmt_names[p] : "?";
}

int ibsec_mgmt_policy_from_name(const char *s, enum ibsec_mgmt_policy *p)
{
    for (unsigned i = 0; i < 3u; i++)
        if (strcmp(s, mgmt_names[i]) == 0) {
            *p = (enum ibsec_mgmt_policy)i;
            return 0;
        }
    return -1;
}
