/*
 * ib_cm.c — encode and strictly parse IB CM MADs (IBA Vol. 1 §12.6, §13.4).
 *
 * Each message has one encode and one decode function that walk its IBA table
 * in order; the bit packing of the shared bytes is written out field by field so
 * that each line can be checked against the table it names.
 */
#include "ib_cm.h"

#include <string.h>

/* ---- big-endian access ------------------------------------------------------------ */

static void put16(uint8_t *b, uint16_t v) { b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; }
static void put24(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 16); b[1] = (uint8_t)(v >> 8); b[2] = (uint8_t)v;
}
static void put32(uint8_t *b, uint32_t v) { put16(b, (uint16_t)(v >> 16)); put16(b + 2, (uint16_t)v); }
static void put64(uint8_t *b, uint64_t v) { put32(b, (uint32_t)(v >> 32)); put32(b + 4, (uint32_t)v); }
static uint16_t get16(const uint8_t *b) { return (uint16_t)((b[0] << 8) | b[1]); }
static uint32_t get24(const uint8_t *b) { return ((uint32_t)b[0] << 16) | ((uint32_t)b[1] << 8) | b[2]; }
static uint32_t get32(const uint8_t *b) { return ((uint32_t)get16(b) << 16) | get16(b + 2); }
static uint64_t get64(const uint8_t *b) { return ((uint64_t)get32(b) << 32) | get32(b + 4); }

/* true when v fits in `bits` bits */
static int fits(uint64_t v, unsigned bits) { return bits >= 64 || (v >> bits) == 0; }

/* ---- names ------------------------------------------------------------------------ */

const char *ib_cm_err_name(enum ib_cm_err e)
{
    static const char *const names[IB_CM_ERR_COUNT] = {
        "ok", "truncated", "too_long", "bad_base_version", "bad_class",
        "bad_class_version", "bad_method", "bad_attr", "pdata_too_long", "bad_field",
    };
    return (unsigned)e < IB_CM_ERR_COUNT ? names[e] : "?";
}

const char *ib_cm_attr_name(uint16_t attr)
{
    switch (attr) {
    case IB_CM_ATTR_REQ:  return "REQ";
    case IB_CM_ATTR_REJ:  return "REJ";
    case IB_CM_ATTR_REP:  return "REP";
    case IB_CM_ATTR_RTU:  return "RTU";
    case IB_CM_ATTR_DREQ: return "DREQ";
    case IB_CM_ATTR_DREP: return "DREP";
    default:              return "?";
    }
}

size_t ib_cm_pdata_cap(uint16_t attr)
{
    switch (attr) {
    case IB_CM_ATTR_REQ:  return IB_CM_REQ_PDATA_LEN;
    case IB_CM_ATTR_REJ:  return IB_CM_REJ_PDATA_LEN;
    case IB_CM_ATTR_REP:  return IB_CM_REP_PDATA_LEN;
    case IB_CM_ATTR_RTU:  return IB_CM_RTU_PDATA_LEN;
    case IB_CM_ATTR_DREQ: return IB_CM_DREQ_PDATA_LEN;
    case IB_CM_ATTR_DREP: return IB_CM_DREP_PDATA_LEN;
    default:              return 0;
    }
}

size_t ib_cm_pdata_off(uint16_t attr)
{
    switch (attr) {
    case IB_CM_ATTR_REQ:  return IB_CM_REQ_PDATA_OFF;
    case IB_CM_ATTR_REJ:  return IB_CM_REJ_PDATA_OFF;
    case IB_CM_ATTR_REP:  return IB_CM_REP_PDATA_OFF;
    case IB_CM_ATTR_RTU:  return IB_CM_RTU_PDATA_OFF;
    case IB_CM_ATTR_DREQ: return IB_CM_DREQ_PDATA_OFF;
    case IB_CM_ATTR_DREP: return IB_CM_DREP_PDATA_OFF;
    default:              return 0;
    }
}

/* ---- common MAD header (IBA §13.4.3) ---------------------------------------------- */

void ib_cm_hdr_init(struct ib_mad_hdr *h, uint16_t attr, uint64_t tid)
{
    memset(h, 0, sizeof *h);
    h->base_version = IB_MAD_BASE_VERSION;
    h->mgmt_class = IB_MGMT_CLASS_CM;
    h->class_version = IB_CM_CLASS_VERSION;
    h->method = IB_MAD_METHOD_SEND;
    h->tid = tid;
    h->attr_id = attr;
}

static void mad_hdr_encode(const struct ib_mad_hdr *h, uint8_t *b)
{
    b[0] = h->base_version;
    b[1] = h->mgmt_class;
    b[2] = h->class_version;
    b[3] = h->method;                 /* R (bit 7) | Method (6:0) */
    put16(b + 4, h->status);
    put16(b + 6, h->class_specific);
    put64(b + 8, h->tid);
    put16(b + 16, h->attr_id);
    put16(b + 18, h->resv);
    put32(b + 20, h->attr_mod);
}

static void mad_hdr_decode(const uint8_t *b, struct ib_mad_hdr *h)
{
    h->base_version = b[0];
    h->mgmt_class = b[1];
    h->class_version = b[2];
    h->method = b[3];
    h->status = get16(b + 4);
    h->class_specific = get16(b + 6);
    h->tid = get64(b + 8);
    h->attr_id = get16(b + 16);
    h->resv = get16(b + 18);
    h->attr_mod = get32(b + 20);
}

/* ---- REQ (IBA Table 99) ----------------------------------------------------------- */

static int path_fits(const struct ib_cm_path *p)
{
    return fits(p->flow_label, 20) && fits(p->packet_rate, 6) && fits(p->sl, 4) &&
           fits(p->subnet_local, 1) && fits(p->local_ack_timeout, 5);
}

/* One path: 44 bytes, primary at message byte 52, alternate at 96. */
static void path_encode(const struct ib_cm_path *p, uint8_t *b)
{
    put16(b + 0, p->local_lid);
    put16(b + 2, p->remote_lid);
    memcpy(b + 4, p->local_gid, 16);
    memcpy(b + 20, p->remote_gid, 16);
    /* bytes 36..39: Flow Label (20) | reserved (6) | Packet Rate (6) */
    put32(b + 36, (p->flow_label << 12) | p->packet_rate);
    b[40] = p->traffic_class;
    b[41] = p->hop_limit;
    b[42] = (uint8_t)((p->sl << 4) | (p->subnet_local << 3));   /* SL(4) SubnetLocal(1) rsv(3) */
    b[43] = (uint8_t)(p->local_ack_timeout << 3);               /* LocalAckTimeout(5) rsv(3) */
}

static void path_decode(const uint8_t *b, struct ib_cm_path *p)
{
    p->local_lid = get16(b + 0);
    p->remote_lid = get16(b + 2);
    memcpy(p->local_gid, b + 4, 16);
    memcpy(p->remote_gid, b + 20, 16);
    p->flow_label = get32(b + 36) >> 12;
    p->packet_rate = b[39] & 0x3F;
    p->traffic_class = b[40];
    p->hop_limit = b[41];
    p->sl = b[42] >> 4;
    p->subnet_local = (b[42] >> 3) & 1;
    p->local_ack_timeout = b[43] >> 3;
}

static int req_fits(const struct ib_cm_req *r)
{
    return fits(r->local_qpn, 24) && fits(r->local_eecn, 24) && fits(r->remote_eecn, 24) &&
           fits(r->remote_cm_timeout, 5) && fits(r->transport_type, 2) &&
           fits(r->e2e_flow_ctrl, 1) && fits(r->starting_psn, 24) &&
           fits(r->local_cm_timeout, 5) && fits(r->retry_count, 3) && fits(r->path_mtu, 4) &&
           fits(r->rdc_exists, 1) && fits(r->rnr_retry_count, 3) && fits(r->max_cm_retries, 4) &&
           fits(r->srq, 1) && fits(r->ext_transport, 3) && path_fits(&r->primary) &&
           path_fits(&r->alternate);
}

static void req_encode(const struct ib_cm_req *r, uint8_t *b)
{
    put32(b + 0, r->local_comm_id);
    /* bytes 4..7 reserved */
    put64(b + 8, r->service_id);
    put64(b + 16, r->local_ca_guid);
    /* bytes 24..27 reserved */
    put32(b + 28, r->local_qkey);
    put24(b + 32, r->local_qpn);
    b[35] = r->responder_resources;
    put24(b + 36, r->local_eecn);
    b[39] = r->initiator_depth;
    put24(b + 40, r->remote_eecn);
    b[43] = (uint8_t)((r->remote_cm_timeout << 3) | (r->transport_type << 1) | r->e2e_flow_ctrl);
    put24(b + 44, r->starting_psn);
    b[47] = (uint8_t)((r->local_cm_timeout << 3) | r->retry_count);
    put16(b + 48, r->pkey);
    b[50] = (uint8_t)((r->path_mtu << 4) | (r->rdc_exists << 3) | r->rnr_retry_count);
    b[51] = (uint8_t)((r->max_cm_retries << 4) | (r->srq << 3) | r->ext_transport);
    path_encode(&r->primary, b + 52);
    path_encode(&r->alternate, b + 96);
}

static void req_decode(const uint8_t *b, struct ib_cm_req *r)
{
    r->local_comm_id = get32(b + 0);
    r->service_id = get64(b + 8);
    r->local_ca_guid = get64(b + 16);
    r->local_qkey = get32(b + 28);
    r->local_qpn = get24(b + 32);
    r->responder_resources = b[35];
    r->local_eecn = get24(b + 36);
    r->initiator_depth = b[39];
    r->remote_eecn = get24(b + 40);
    r->remote_cm_timeout = b[43] >> 3;
    r->transport_type = (b[43] >> 1) & 3;
    r->e2e_flow_ctrl = b[43] & 1;
    r->starting_psn = get24(b + 44);
    r->local_cm_timeout = b[47] >> 3;
    r->retry_count = b[47] & 7;
    r->pkey = get16(b + 48);
    r->path_mtu = b[50] >> 4;
    r->rdc_exists = (b[50] >> 3) & 1;
    r->rnr_retry_count = b[50] & 7;
    r->max_cm_retries = b[51] >> 4;
    r->srq = (b[51] >> 3) & 1;
    r->ext_transport = b[51] & 7;
    path_decode(b + 52, &r->primary);
    path_decode(b + 96, &r->alternate);
}

/* ---- REP (IBA Table 103) ---------------------------------------------------------- */

static int rep_fits(const struct ib_cm_rep *r)
{
    return fits(r->local_qpn, 24) && fits(r->local_eecn, 24) && fits(r->starting_psn, 24) &&
           fits(r->target_ack_delay, 5) && fits(r->failover_accepted, 2) &&
           fits(r->e2e_flow_ctrl, 1) && fits(r->rnr_retry_count, 3) && fits(r->srq, 1);
}

static void rep_encode(const struct ib_cm_rep *r, uint8_t *b)
{
    put32(b + 0, r->local_comm_id);
    put32(b + 4, r->remote_comm_id);
    put32(b + 8, r->local_qkey);
    put24(b + 12, r->local_qpn);       /* byte 15 reserved */
    put24(b + 16, r->local_eecn);      /* byte 19 reserved */
    put24(b + 20, r->starting_psn);    /* byte 23 reserved */
    b[24] = r->responder_resources;
    b[25] = r->initiator_depth;
    b[26] = (uint8_t)((r->target_ack_delay << 3) | (r->failover_accepted << 1) | r->e2e_flow_ctrl);
    b[27] = (uint8_t)((r->rnr_retry_count << 5) | (r->srq << 4));
    put64(b + 28, r->local_ca_guid);
}

static void rep_decode(const uint8_t *b, struct ib_cm_rep *r)
{
    r->local_comm_id = get32(b + 0);
    r->remote_comm_id = get32(b + 4);
    r->local_qkey = get32(b + 8);
    r->local_qpn = get24(b + 12);
    r->local_eecn = get24(b + 16);
    r->starting_psn = get24(b + 20);
    r->responder_resources = b[24];
    r->initiator_depth = b[25];
    r->target_ack_delay = b[26] >> 3;
    r->failover_accepted = (b[26] >> 1) & 3;
    r->e2e_flow_ctrl = b[26] & 1;
    r->rnr_retry_count = b[27] >> 5;
    r->srq = (b[27] >> 4) & 1;
    r->local_ca_guid = get64(b + 28);
}

/* ---- RTU, DREP (Tables 105, 107), REJ (Table 104), DREQ (Table 106) --------------- */

static void ids_encode(const struct ib_cm_ids *r, uint8_t *b)
{
    put32(b + 0, r->local_comm_id);
    put32(b + 4, r->remote_comm_id);
}

static void ids_decode(const uint8_t *b, struct ib_cm_ids *r)
{
    r->local_comm_id = get32(b + 0);
    r->remote_comm_id = get32(b + 4);
}

static void rej_encode(const struct ib_cm_rej *r, uint8_t *b)
{
    put32(b + 0, r->local_comm_id);
    put32(b + 4, r->remote_comm_id);
    b[8] = (uint8_t)(r->msg_rejected << 6);   /* MsgRejected(2) rsv(6) */
    b[9] = (uint8_t)(r->rej_info_len << 1);   /* RejectInfoLength(7) rsv(1) */
    put16(b + 10, r->reason);
    memcpy(b + 12, r->ari, IB_CM_REJ_ARI_LEN);
}

static void rej_decode(const uint8_t *b, struct ib_cm_rej *r)
{
    r->local_comm_id = get32(b + 0);
    r->remote_comm_id = get32(b + 4);
    r->msg_rejected = b[8] >> 6;
    r->rej_info_len = b[9] >> 1;
    r->reason = get16(b + 10);
    memcpy(r->ari, b + 12, IB_CM_REJ_ARI_LEN);
}

static void dreq_encode(const struct ib_cm_dreq *r, uint8_t *b)
{
    put32(b + 0, r->local_comm_id);
    put32(b + 4, r->remote_comm_id);
    put24(b + 8, r->remote_qpn);              /* byte 11 reserved */
}

static void dreq_decode(const uint8_t *b, struct ib_cm_dreq *r)
{
    r->local_comm_id = get32(b + 0);
    r->remote_comm_id = get32(b + 4);
    r->remote_qpn = get24(b + 8);
}

/* ---- whole MADs ------------------------------------------------------------------- */

enum ib_cm_err ib_cm_encode(const struct ib_cm_msg *m, uint8_t mad[IB_MAD_LEN])
{
    uint16_t attr = m->hdr.attr_id;
    size_t cap = ib_cm_pdata_cap(attr);
    uint8_t *msg = mad + IB_MAD_HDR_LEN;

    if (cap == 0)
        return IB_CM_ERR_BAD_ATTR;
    if (m->pdata_len > cap)
        return IB_CM_ERR_PDATA_TOO_LONG;
    memset(mad, 0, IB_MAD_LEN);
    mad_hdr_encode(&m->hdr, mad);
    switch (attr) {
    case IB_CM_ATTR_REQ:
        if (!req_fits(&m->u.req))
            return IB_CM_ERR_BAD_FIELD;
        req_encode(&m->u.req, msg);
        break;
    case IB_CM_ATTR_REP:
        if (!rep_fits(&m->u.rep))
            return IB_CM_ERR_BAD_FIELD;
        rep_encode(&m->u.rep, msg);
        break;
    case IB_CM_ATTR_RTU:
        ids_encode(&m->u.rtu, msg);
        break;
    case IB_CM_ATTR_DREP:
        ids_encode(&m->u.drep, msg);
        break;
    case IB_CM_ATTR_REJ:
        if (!fits(m->u.rej.msg_rejected, 2) || m->u.rej.rej_info_len > IB_CM_REJ_ARI_LEN)
            return IB_CM_ERR_BAD_FIELD;
        rej_encode(&m->u.rej, msg);
        break;
    default: /* IB_CM_ATTR_DREQ */
        if (!fits(m->u.dreq.remote_qpn, 24))
            return IB_CM_ERR_BAD_FIELD;
        dreq_encode(&m->u.dreq, msg);
        break;
    }
    memcpy(msg + ib_cm_pdata_off(attr), m->pdata, m->pdata_len);
    return IB_CM_OK;
}

enum ib_cm_err ib_cm_parse(const uint8_t *buf, size_t len, struct ib_cm_msg *m)
{
    const uint8_t *msg = buf + IB_MAD_HDR_LEN;
    size_t cap;

    if (len < IB_MAD_LEN)
        return IB_CM_ERR_TRUNCATED;
    if (len > IB_MAD_LEN)
        return IB_CM_ERR_TOO_LONG;
    memset(m, 0, sizeof *m);
    mad_hdr_decode(buf, &m->hdr);
    if (m->hdr.base_version != IB_MAD_BASE_VERSION)
        return IB_CM_ERR_BAD_BASE_VERSION;
    if (m->hdr.mgmt_class != IB_MGMT_CLASS_CM)
        return IB_CM_ERR_BAD_CLASS;
    if (m->hdr.class_version != IB_CM_CLASS_VERSION)
        return IB_CM_ERR_BAD_CLASS_VERSION;
    if (m->hdr.method != IB_MAD_METHOD_SEND)
        return IB_CM_ERR_BAD_METHOD;
    cap = ib_cm_pdata_cap(m->hdr.attr_id);
    if (cap == 0)
        return IB_CM_ERR_BAD_ATTR;
    switch (m->hdr.attr_id) {
    case IB_CM_ATTR_REQ:  req_decode(msg, &m->u.req); break;
    case IB_CM_ATTR_REP:  rep_decode(msg, &m->u.rep); break;
    case IB_CM_ATTR_RTU:  ids_decode(msg, &m->u.rtu); break;
    case IB_CM_ATTR_DREP: ids_decode(msg, &m->u.drep); break;
    case IB_CM_ATTR_REJ:  rej_decode(msg, &m->u.rej); break;
    default:              dreq_decode(msg, &m->u.dreq); break;
    }
    memcpy(m->pdata, msg + ib_cm_pdata_off(m->hdr.attr_id), cap);
    m->pdata_len = cap;
    return IB_CM_OK;
}
