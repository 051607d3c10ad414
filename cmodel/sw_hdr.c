/*
 * sw_hdr.c — switch-side header view of a native IBA packet (see sw_hdr.h).
 */
#include "sw_hdr.h"

#define SW_HDR_BTH_PKEY_OFF 2u /* IBA §9.2: BTH bytes 2-3 hold the P_Key */

const char *ibsec_sw_hdr_err_name(enum ibsec_sw_hdr_err e)
{
    static const char *const names[IBSEC_SW_HDR_ERR_COUNT] = {
        "ok", "truncated", "bad_lnh", "bad_lver", "bad_grh",
    };
    return ((unsigned)e < IBSEC_SW_HDR_ERR_COUNT) ? names[e] : "?";
}

/* IBA §8.3.1/§8.3.6: a GRH that announces an IBA transport header. */
static bool grh_is_iba(const struct ibsec_grh *g)
{
    return g->ipver == IBSEC_GRH_IPVER && g->nxthdr == IBSEC_GRH_NXTHDR_IBA;
}

enum ibsec_sw_hdr_err ibsec_sw_hdr_read(const uint8_t *buf, size_t len, struct ibsec_sw_hdr *h)
{
    if (len < IBSEC_LRH_LEN)
        return IBSEC_SW_HDR_TRUNCATED;
    ibsec_lrh_decode(buf, &h->lrh);
    if (h->lrh.lnh == IBSEC_LRH_LNH_RAW || h->lrh.lnh == IBSEC_LRH_LNH_IP)
        return IBSEC_SW_HDR_BAD_LNH;
    if (h->lrh.lver != IBSEC_LRH_LVER)
        return IBSEC_SW_HDR_BAD_LVER;
    h->has_grh = (h->lrh.lnh == IBSEC_LRH_LNH_IBA_GLOBAL);
    h->grh_off = h->has_grh ? IBSEC_LRH_LEN : 0;
    h->bth_off = IBSEC_LRH_LEN + (h->has_grh ? IBSEC_GRH_LEN : 0);
    if (len < h->bth_off + IBSEC_BTH_LEN)
        return IBSEC_SW_HDR_TRUNCATED;
    if (h->has_grh) {
        ibsec_grh_decode(buf + h->grh_off, &h->grh);
        if (!grh_is_iba(&h->grh))
            return IBSEC_SW_HDR_BAD_GRH;
    }
    h->pkey = ibsec_get_be16(buf + h->bth_off + SW_HDR_BTH_PKEY_OFF);
    return IBSEC_SW_HDR_OK;
}
