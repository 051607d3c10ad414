/*
 * ib_cm.h — InfiniBand Communication Management messages (IBA Vol. 1 chapter 12)
 * as MADs on QP1: REQ, REP, RTU, REJ, DREQ and DREP, encoded and strictly parsed.
 *
 * Representation: a CM message is one 256-byte MAD (IBA §13.4.2): the 24-byte
 * common MAD header (§13.4.3) and 232 bytes of message (§12.6).  Offsets in the
 * comments below are byte offsets inside the 232-byte message, as the IBA tables
 * give them (REQ Table 99, REP Table 103, RTU Table 105, REJ Table 104, DREQ Table
 * 106, DREP Table 107); multi-byte fields are big-endian, and a field narrower than
 * its bytes sits in the high bits first (a 24-bit QPN in bytes 32..34 and the
 * 8-bit Responder Resources in byte 35).
 *
 * Every message ends with its PrivateData, whose size is fixed by the layout:
 * REQ 92, REP 196, RTU 224, REJ 148, DREQ 220, DREP 224 bytes.  The encoder takes
 * the bytes the consumer gives and zero-fills the rest; giving more than the
 * limit is the named error IB_CM_ERR_PDATA_TOO_LONG.  The parser accepts exactly
 * 256 bytes: a shorter buffer is IB_CM_ERR_TRUNCATED, a longer one
 * IB_CM_ERR_TOO_LONG, and a header that is not CM class 2 Send names what is wrong.
 */
#ifndef IBSEC_IB_CM_H
#define IBSEC_IB_CM_H

#include <stddef.h>
#include <stdint.h>

/* ---- MAD constants (IBA §13.4.3, §12.6, §12.11) ----------------------------------- */

#define IB_MAD_LEN             256u  /* every MAD on QP0/QP1 (IBA §13.4.2) */
#define IB_MAD_HDR_LEN         24u   /* common MAD header */
#define IB_CM_MSG_LEN          (IB_MAD_LEN - IB_MAD_HDR_LEN) /* 232 */
#define IB_MAD_BASE_VERSION    1u
#define IB_MGMT_CLASS_CM       0x07u /* Communication Management class */
#define IB_CM_CLASS_VERSION    2u
#define IB_MAD_METHOD_SEND     0x03u /* CM messages use Send (IBA §12.11.1) */
#define IB_QP1_QKEY            0x80010000u /* the well-known GSI Q_Key (IBA §3.5.3) */

/* CM attribute IDs (IBA Table 98). */
enum ib_cm_attr {
    IB_CM_ATTR_REQ  = 0x0010,
    IB_CM_ATTR_REJ  = 0x0012,
    IB_CM_ATTR_REP  = 0x0013,
    IB_CM_ATTR_RTU  = 0x0014,
    IB_CM_ATTR_DREQ = 0x0015,
    IB_CM_ATTR_DREP = 0x0016
};

/* PrivateData sizes (IBA §12.6.5-12.6.11) and where each starts in the message. */
#define IB_CM_REQ_PDATA_LEN   92u
#define IB_CM_REP_PDATA_LEN   196u
#define IB_CM_RTU_PDATA_LEN   224u
#define IB_CM_REJ_PDATA_LEN   148u
#define IB_CM_DREQ_PDATA_LEN  220u
#define IB_CM_DREP_PDATA_LEN  224u
#define IB_CM_REQ_PDATA_OFF   140u
#define IB_CM_REP_PDATA_OFF   36u
#define IB_CM_RTU_PDATA_OFF   8u
#define IB_CM_REJ_PDATA_OFF   84u
#define IB_CM_DREQ_PDATA_OFF  12u
#define IB_CM_DREP_PDATA_OFF  8u
#define IB_CM_REJ_ARI_LEN     72u
#define IB_CM_PDATA_MAX       224u

/* REJ Message REJected (IBA Table 104) and the reasons ibsec uses (Table 104 codes). */
enum ib_cm_rej_msg { IB_CM_REJ_MSG_REQ = 0, IB_CM_REJ_MSG_REP = 1, IB_CM_REJ_MSG_OTHER = 2 };
#define IB_CM_REJ_NO_RESOURCES     3u
#define IB_CM_REJ_TIMEOUT          4u
#define IB_CM_REJ_INVALID_COMM_ID  6u
#define IB_CM_REJ_STALE_CONN       10u
#define IB_CM_REJ_CONSUMER         28u  /* consumer-defined: ibsec puts its reason in PrivateData */

/* Transport Service Type in REQ byte 43 (IBA Table 99): 0 RC, 1 UC, 2 RD. */
enum ib_cm_tst { IB_CM_TST_RC = 0, IB_CM_TST_UC = 1, IB_CM_TST_RD = 2 };

/* ---- named errors ----------------------------------------------------------------- */

enum ib_cm_err {
    IB_CM_OK = 0,
    IB_CM_ERR_TRUNCATED,          /* fewer than 256 bytes */
    IB_CM_ERR_TOO_LONG,           /* more than 256 bytes */
    IB_CM_ERR_BAD_BASE_VERSION,   /* BaseVersion != 1 */
    IB_CM_ERR_BAD_CLASS,          /* MgmtClass != 0x07 */
    IB_CM_ERR_BAD_CLASS_VERSION,  /* ClassVersion != 2 */
    IB_CM_ERR_BAD_METHOD,         /* Method != Send */
    IB_CM_ERR_BAD_ATTR,           /* an attribute ibsec does not handle */
    IB_CM_ERR_PDATA_TOO_LONG,     /* encode: more PrivateData than the message holds */
    IB_CM_ERR_BAD_FIELD,          /* encode: a value wider than its field */
    IB_CM_ERR_COUNT
};

/* "ok", "truncated", "too_long", ... ("?" for an invalid value). */
const char *ib_cm_err_name(enum ib_cm_err e);
/* "REQ", "REP", ... ("?" otherwise). */
const char *ib_cm_attr_name(uint16_t attr);

/* ---- decoded messages ------------------------------------------------------------- */

/* Common MAD header (IBA §13.4.3, Table 147). */
struct ib_mad_hdr {
    uint8_t  base_version, mgmt_class, class_version, method;
    uint16_t status, class_specific;
    uint64_t tid;
    uint16_t attr_id, resv;
    uint32_t attr_mod;
};

/* One path of a REQ (primary: message bytes 52..95, alternate: 96..139). */
struct ib_cm_path {
    uint16_t local_lid, remote_lid;
    uint8_t  local_gid[16], remote_gid[16];
    uint32_t flow_label;        /* 20 bits */
    uint8_t  packet_rate;       /* 6 bits */
    uint8_t  traffic_class, hop_limit;
    uint8_t  sl;                /* 4 bits */
    uint8_t  subnet_local;      /* 1 bit */
    uint8_t  local_ack_timeout; /* 5 bits */
};

/* REQ (IBA Table 99). */
struct ib_cm_req {
    uint32_t local_comm_id;
    uint64_t service_id;
    uint64_t local_ca_guid;
    uint32_t local_qkey;
    uint32_t local_qpn;           /* 24 bits */
    uint8_t  responder_resources;
    uint32_t local_eecn;          /* 24 bits */
    uint8_t  initiator_depth;
    uint32_t remote_eecn;         /* 24 bits */
    uint8_t  remote_cm_timeout;   /* 5 bits */
    uint8_t  transport_type;      /* 2 bits: enum ib_cm_tst */
    uint8_t  e2e_flow_ctrl;       /* 1 bit */
    uint32_t starting_psn;        /* 24 bits */
    uint8_t  local_cm_timeout;    /* 5 bits */
    uint8_t  retry_count;         /* 3 bits */
    uint16_t pkey;
    uint8_t  path_mtu;            /* 4 bits */
    uint8_t  rdc_exists;          /* 1 bit */
    uint8_t  rnr_retry_count;     /* 3 bits */
    uint8_t  max_cm_retries;      /* 4 bits */
    uint8_t  srq;                 /* 1 bit */
    uint8_t  ext_transport;       /* 3 bits */
    struct ib_cm_path primary, alternate;
};

/* REP (IBA Table 103). */
struct ib_cm_rep {
    uint32_t local_comm_id, remote_comm_id;
    uint32_t local_qkey;
    uint32_t local_qpn;           /* 24 bits */
    uint32_t local_eecn;          /* 24 bits */
    uint32_t starting_psn;        /* 24 bits */
    uint8_t  responder_resources, initiator_depth;
    uint8_t  target_ack_delay;    /* 5 bits */
    uint8_t  failover_accepted;   /* 2 bits */
    uint8_t  e2e_flow_ctrl;       /* 1 bit */
    uint8_t  rnr_retry_count;     /* 3 bits */
    uint8_t  srq;                 /* 1 bit */
    uint64_t local_ca_guid;
};

/* RTU (Table 105), DREP (Table 107): the two communication IDs only. */
struct ib_cm_ids {
    uint32_t local_comm_id, remote_comm_id;
};

/* REJ (IBA Table 104). */
struct ib_cm_rej {
    uint32_t local_comm_id, remote_comm_id;
    uint8_t  msg_rejected;        /* 2 bits: enum ib_cm_rej_msg */
    uint8_t  rej_info_len;        /* 7 bits: bytes of ARI used */
    uint16_t reason;
    uint8_t  ari[IB_CM_REJ_ARI_LEN];
};

/* DREQ (IBA Table 106). */
struct ib_cm_dreq {
    uint32_t local_comm_id, remote_comm_id;
    uint32_t remote_qpn;          /* 24 bits: the remote QPN/EECN */
};

/* A CM message: the MAD header, the message selected by hdr.attr_id, and its
 * PrivateData (pdata_len bytes are the consumer's; the rest of the field is zero
 * on encode; on parse pdata_len is always the field size). */
struct ib_cm_msg {
    struct ib_mad_hdr hdr;
    union {
        struct ib_cm_req  req;
        struct ib_cm_rep  rep;
        struct ib_cm_ids  rtu;
        struct ib_cm_rej  rej;
        struct ib_cm_dreq dreq;
        struct ib_cm_ids  drep;
    } u;
    uint8_t pdata[IB_CM_PDATA_MAX];
    size_t  pdata_len;
};

/* ---- operations ------------------------------------------------------------------- */

/* A MAD header for a CM Send of attribute attr with transaction ID tid. */
void ib_cm_hdr_init(struct ib_mad_hdr *h, uint16_t attr, uint64_t tid);

/* PrivateData size and offset (in the 232-byte message) of an attribute; 0 for
 * an attribute not handled. */
size_t ib_cm_pdata_cap(uint16_t attr);
size_t ib_cm_pdata_off(uint16_t attr);

/* Encode *m into mad[0..256).  IB_CM_OK, or IB_CM_ERR_BAD_ATTR,
 * IB_CM_ERR_PDATA_TOO_LONG, IB_CM_ERR_BAD_FIELD (mad is then undefined). */
enum ib_cm_err ib_cm_encode(const struct ib_cm_msg *m, uint8_t mad[IB_MAD_LEN]);

/* Parse buf[0..len) strictly (see the header comment).  IB_CM_OK and *m, or the
 * first error found: length, then base version, class, class version, method,
 * attribute. */
enum ib_cm_err ib_cm_parse(const uint8_t *buf, size_t len, struct ib_cm_msg *m);

#endif /* IBSEC_IB_CM_H */
