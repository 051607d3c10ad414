/*
 * sif.c — stateful ingress filtering, the CA's Bad P_Key trap and the SM's
 * reaction (TPDS 2007 §5.3).  See sif.h for the state machine.
 *
 * Table search is written as a linear scan: the RTL compares all entries in
 * parallel (IBSEC_SIF_INVALID_MAX comparators), which gives the same answer.
 */
#include "sif.h"

#include <string.h>

const char *ibsec_sif_out_name(enum ibsec_sif_out o)
{
    static const char *const names[IBSEC_SIF_OUT_COUNT] = {
        "forward", "drop_invalid_pkey", "drop_not_valid_pkey", "drop_truncated",
        "drop_bad_lnh", "drop_bad_lver", "drop_bad_grh",
    };
    return ((unsigned)o < IBSEC_SIF_OUT_COUNT) ? names[o] : "?";
}

const char *ibsec_sif_install_name(enum ibsec_sif_install i)
{
    static const char *const names[IBSEC_SIF_INSTALL_COUNT] = {
        "installed", "already_present", "fallback_valid", "fallback_table_full", "in_fallback",
    };
    return ((unsigned)i < IBSEC_SIF_INSTALL_COUNT) ? names[i] : "?";
}

const char *ibsec_sm_out_name(enum ibsec_sm_out o)
{
    static const char *const names[IBSEC_SM_OUT_COUNT] = { "acted", "unknown_source" };
    return ((unsigned)o < IBSEC_SM_OUT_COUNT) ? names[o] : "?";
}

void ibsec_sif_port_init(struct ibsec_sif_port *p, uint32_t quiet_ticks)
{
    memset(p, 0, sizeof *p);
    p->quiet_ticks = quiet_ticks;
}

bool ibsec_sif_set_valid(struct ibsec_sif_port *p, const uint16_t *keys, unsigned n)
{
    if (n > IBSEC_SIF_VALID_MAX)
        return false;
    memcpy(p->valid, keys, n * sizeof keys[0]);
    p->n_valid = n;
    return true;
}

/* IBA §10.9: partitions equal and not 0, at least one full member. */
bool ibsec_pkey_match(uint16_t a, uint16_t b)
{
    if ((a & IBSEC_PKEY_PARTITION) == 0 || (a & IBSEC_PKEY_PARTITION) != (b & IBSEC_PKEY_PARTITION))
        return false;
    return ((a | b) & IBSEC_PKEY_FULL_MEMBER) != 0;
}

bool ibsec_pkey_in_table(const uint16_t *keys, unsigned n, uint16_t pkey)
{
    for (unsigned i = 0; i < n; i++)
        if (ibsec_pkey_match(keys[i], pkey))
            return true;
    return false;
}

/* The Invalid_P_Key_Table holds the exact 16-bit keys the traps reported. */
static bool invalid_table_has(const struct ibsec_sif_port *p, uint16_t pkey)
{
    for (unsigned i = 0; i < p->n_invalid; i++)
        if (p->invalid[i] == pkey)
            return true;
    return false;
}

/* Map a header-view error to the packet outcome of the same name. */
static enum ibsec_sif_out malformed_outcome(enum ibsec_sw_hdr_err e)
{
    switch (e) {
    case IBSEC_SW_HDR_BAD_LNH:  return IBSEC_SIF_DROP_BAD_LNH;
    case IBSEC_SW_HDR_BAD_LVER: return IBSEC_SIF_DROP_BAD_LVER;
    case IBSEC_SW_HDR_BAD_GRH:  return IBSEC_SIF_DROP_BAD_GRH;
    default:                    return IBSEC_SIF_DROP_TRUNCATED;
    }
}

/* TPDS §5.3: the filtering decision while filtering is enabled. */
static enum ibsec_sif_out filter_decision(struct ibsec_sif_port *p, uint16_t pkey)
{
    p->lookups++;
    if (p->use_valid_table)
        return ibsec_pkey_in_table(p->valid, p->n_valid, pkey) ? IBSEC_SIF_FORWARD
                                                                : IBSEC_SIF_DROP_NOT_VALID_PKEY;
    return invalid_table_has(p, pkey) ? IBSEC_SIF_DROP_INVALID_PKEY : IBSEC_SIF_FORWARD;
}

/* A P_Key drop counts in the Ingress P_Key Violation Counter and restarts the
 * quiet timer. */
static void count_violation(struct ibsec_sif_port *p)
{
    p->violations++;
    p->quiet_left = p->quiet_ticks;
}

enum ibsec_sif_out ibsec_sif_ingress(struct ibsec_sif_port *p, const uint8_t *buf, size_t len)
{
    struct ibsec_sw_hdr h;
    enum ibsec_sw_hdr_err e = ibsec_sw_hdr_read(buf, len, &h);
    enum ibsec_sif_out o = IBSEC_SIF_FORWARD;
    if (e != IBSEC_SW_HDR_OK)
        o = malformed_outcome(e);
    else if (p->filtering)
        o = filter_decision(p, h.pkey);
    if (o == IBSEC_SIF_DROP_INVALID_PKEY || o == IBSEC_SIF_DROP_NOT_VALID_PKEY)
        count_violation(p);
    p->out_count[o]++;
    return o;
}

/* TPDS §5.3: flush the table, reset the counter, disable filtering. */
static void flush_and_disable(struct ibsec_sif_port *p)
{
    p->filtering = false;
    p->use_valid_table = false;
    p->n_invalid = 0;
    p->violations = 0;
    p->quiet_left = 0;
    p->flushes++;
}

void ibsec_sif_tick(struct ibsec_sif_port *p, uint32_t ticks)
{
    if (!p->filtering)
        return;
    if (ticks >= p->quiet_left)
        flush_and_disable(p);
    else
        p->quiet_left -= ticks;
}

enum ibsec_sif_install ibsec_sif_install_invalid(struct ibsec_sif_port *p, uint16_t pkey)
{
    bool was_on = p->filtering;
    p->filtering = true;
    p->quiet_left = p->quiet_ticks;
    if (!was_on)
        p->violations = 0;
    if (p->use_valid_table)
        return IBSEC_SIF_IN_FALLBACK;
    if (invalid_table_has(p, pkey))
        return IBSEC_SIF_ALREADY_PRESENT;
    if (p->n_invalid + 1 > p->n_valid || p->n_invalid == IBSEC_SIF_INVALID_MAX) {
        bool full = (p->n_invalid + 1 <= p->n_valid);
        p->use_valid_table = true;
        p->n_invalid = 0;
        return full ? IBSEC_SIF_FALLBACK_TABLE_FULL : IBSEC_SIF_FALLBACK_VALID;
    }
    p->invalid[p->n_invalid++] = pkey;
    return IBSEC_SIF_INSTALLED;
}

/* ---- channel adapter ------------------------------------------------------- */

bool ibsec_ca_check_pkey(struct ibsec_ca_pkeys *ca, const struct ibsec_sw_hdr *h,
                         struct ibsec_sif_trap *trap)
{
    if (ibsec_pkey_in_table(ca->keys, ca->n, h->pkey))
        return true;
    ca->violations++;
    memset(trap, 0, sizeof *trap);
    trap->pkey = h->pkey;
    trap->slid = h->lrh.slid;
    trap->has_sgid = h->has_grh;
    if (h->has_grh)
        memcpy(trap->sgid, h->grh.sgid, sizeof trap->sgid);
    return false;
}

/* ---- subnet manager -------------------------------------------------------- */

bool ibsec_sm_attach(struct ibsec_sm *sm, uint16_t lid, struct ibsec_sif_port *port)
{
    if (lid == 0 || lid >= IBSEC_SM_MAX_LID)
        return false;
    sm->edge[lid] = port;
    return true;
}

enum ibsec_sm_out ibsec_sm_handle_trap(struct ibsec_sm *sm, const struct ibsec_sif_trap *t,
                                       enum ibsec_sif_install *inst)
{
    uint16_t lid = t->traced ? t->traced_lid : t->slid;
    sm->traps++;
    if (lid == 0 || lid >= IBSEC_SM_MAX_LID || sm->edge[lid] == NULL)
        return IBSEC_SM_UNKNOWN_SOURCE;
    *inst = ibsec_sif_install_invalid(sm->edge[lid], t->pkey);
    return IBSEC_SM_ACTED;
}
