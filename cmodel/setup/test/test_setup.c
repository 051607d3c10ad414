/*
 * test_setup.c — authenticated connection setup and key distribution (docs/setup.md).
 *
 *   1. CM MADs: encode/parse round trips of REQ, REP, RTU, REJ, DREQ, DREP; every field
 *      at its IBA offset (Tables 99, 103-107); the named parse and encode errors.
 *   2. HMAC: the library's tag of every message kind and the derived keys against
 *      HMAC-SHA-256 computed here through OpenSSL's EVP_MAC interface from the layout in
 *      secm.h; every byte outside the tag window flipped makes the tag fail.
 *   3. Key hierarchy (Lee & Kim §5.1.3-5.1.5): SM_SK, P_SK (one subnet and across
 *      subnets), pair keys; blobs for another CA, of another kind or altered are
 *      refused; RFC 3394 known answers; the §6.1 random number; Q_Key-bound keys.
 *   4. Driver on the C model: a connection programmed through the register map lands
 *      in the model's tables; teardown leaves no key byte; refused commands and full
 *      tables leave nothing programmed.
 *   5. Attacks: forged REQ, a CA posing as another, altered QPN and PSN, replayed REQ
 *      (inside and beyond the replay cache), replayed REP, REP never asked for, session
 *      key under the wrong pair key, truncated and over-long MADs, bad PrivateData
 *      length, replayed and re-addressed RTU, forged DREQ: each refused with its named reason, counted, and no engine changed; a REJ
 *      naming no setup is refused, an untagged or mis-tagged one naming a setup in
 *      progress is refused (bad_mac), one tagged over N_i ends it.
 *   5b. Deadlines (a lost RTU, a lost REQ), the tagged REJ that ends a programmed
 *      connection (and untagged or badly tagged ones that cannot), engine room: a REQ
 *      to a CA whose key slots are all in use is refused (no_resources) at once; the
 *      loop issues such requests again and they all end established.
 *   4b. Driver teardown against an engine that refuses or never finishes a clear: the
 *      slot stays quarantined, the error is reported, a retry frees it.
 *   5c. Teardown: crossing DREQs, a lost DREP (TimeWait deadline), a refused clear.
 *   5d. State per peer (pending cap), record reuse with generations, the QPN clash.
 *   5e. RNG and libcrypto failures (kd_fault_inject): each aborts with a named reason.
 *   6. End to end: 3 CAs and an SM, keys distributed, --conns N connections set up
 *      through the pipelined loop, both engines programmed, traffic sealed and opened
 *      on every connection, torn down, every engine empty at the end.
 *
 * Usage: test_setup [--conns N] [--long]
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "cm_wire.h"
#include "ib_cm.h"
#include "ibsec_drv.h"
#include "ibsec_regmodel.h"
#include "keydist.h"
#include "secm.h"
#include "setup.h"
#include "setup_check.h"

static check_ctx C;

/* ---- independent HMAC-SHA-256 (EVP_MAC, not the library's HMAC()) ------------------ */

static void ref_hmac(const uint8_t *key, size_t key_len, const uint8_t *msg, size_t n,
                     uint8_t out[32])
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    OSSL_PARAM params[2];
    size_t olen = 0;
    char digest[] = "SHA256";

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(ctx, key, key_len, params) != 1 || EVP_MAC_update(ctx, msg, n) != 1 ||
        EVP_MAC_final(ctx, out, &olen, 32) != 1 || olen != 32)
        memset(out, 0xEE, 32);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
}

/* ---- 1. CM MADs ------------------------------------------------------------------- */

static void fill_bytes(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed + 13 * i);
}

static void sample_req(struct ib_cm_msg *m)
{
    memset(m, 0, sizeof *m);
    ib_cm_hdr_init(&m->hdr, IB_CM_ATTR_REQ, 0x1122334455667788ull);
    struct ib_cm_req *r = &m->u.req;
    r->local_comm_id = 0xA1A2A3A4;
    r->service_id = 0xB1B2B3B4B5B6B7B8ull;
    r->local_ca_guid = 0xC1C2C3C4C5C6C7C8ull;
    r->local_qkey = 0xD1D2D3D4;
    r->local_qpn = 0xE1E2E3;
    r->responder_resources = 0xE4;
    r->local_eecn = 0xF1F2F3;
    r->initiator_depth = 0xF4;
    r->remote_eecn = 0x919293;
    r->remote_cm_timeout = 0x15;
    r->transport_type = 2;
    r->e2e_flow_ctrl = 1;
    r->starting_psn = 0x818283;
    r->local_cm_timeout = 0x0B;
    r->retry_count = 5;
    r->pkey = 0x7172;
    r->path_mtu = 5;
    r->rdc_exists = 1;
    r->rnr_retry_count = 6;
    r->max_cm_retries = 0xA;
    r->srq = 1;
    r->ext_transport = 3;
    r->primary.local_lid = 0x6162;
    r->primary.remote_lid = 0x6364;
    fill_bytes(r->primary.local_gid, 16, 0x10);
    fill_bytes(r->primary.remote_gid, 16, 0x20);
    r->primary.flow_label = 0xABCDE;
    r->primary.packet_rate = 0x2A;
    r->primary.traffic_class = 0x5A;
    r->primary.hop_limit = 0x5B;
    r->primary.sl = 0xC;
    r->primary.subnet_local = 1;
    r->primary.local_ack_timeout = 0x11;
    r->alternate.local_lid = 0x4142;
    r->alternate.remote_lid = 0x4344;
    r->alternate.hop_limit = 0x47;
    fill_bytes(m->pdata, IB_CM_REQ_PDATA_LEN, 0x30);
    m->pdata_len = IB_CM_REQ_PDATA_LEN;
}

/* Expect bytes at MAD offset 24 + msg_off. */
static void expect_at(const uint8_t *mad, size_t msg_off, const char *hex, const char *what)
{
    uint8_t want[32];
    long n = check_unhex(hex, want, sizeof want);
    char buf[96];
    snprintf(buf, sizeof buf, "offset %zu: %s", msg_off, what);
    check_bytes(&C, buf, want, mad + IB_MAD_HDR_LEN + msg_off, (size_t)n);
}

static void test_cm_req_layout(void)
{
    struct ib_cm_msg m, p;
    uint8_t mad[IB_MAD_LEN];

    sample_req(&m);
    check_int(&C, "REQ encodes", IB_CM_OK, ib_cm_encode(&m, mad));
    /* common MAD header (IBA Table 147) */
    check_int(&C, "MAD BaseVersion", 1, mad[0]);
    check_int(&C, "MAD MgmtClass CM", 0x07, mad[1]);
    check_int(&C, "MAD ClassVersion", 2, mad[2]);
    check_int(&C, "MAD Method Send", 0x03, mad[3]);
    check_int(&C, "MAD AttributeID REQ", 0x0010, (mad[16] << 8) | mad[17]);
    /* REQ, IBA Table 99 */
    expect_at(mad, 0, "a1a2a3a4", "Local Communication ID");
    expect_at(mad, 4, "00000000", "reserved");
    expect_at(mad, 8, "b1b2b3b4b5b6b7b8", "ServiceID");
    expect_at(mad, 16, "c1c2c3c4c5c6c7c8", "Local CA GUID");
    expect_at(mad, 28, "d1d2d3d4", "Local Q_Key");
    expect_at(mad, 32, "e1e2e3e4", "Local QPN | Responder Resources");
    expect_at(mad, 36, "f1f2f3f4", "Local EECN | Initiator Depth");
    /* byte 43: RemoteCMTimeout 10101 | TST 10 | E2E 1 = 0xad */
    expect_at(mad, 40, "919293ad", "Remote EECN | timeout, TST, E2E");
    /* byte 47: LocalCMTimeout 01011 | Retry 101 = 0x5d */
    expect_at(mad, 44, "8182835d", "Starting PSN | timeout, retry");
    /* byte 50: MTU 0101 | RDC 1 | RNR 110 = 0x5e; byte 51: MaxCMRetries 1010 | SRQ 1 | Ext 011 = 0xab */
    expect_at(mad, 48, "71725eab", "P_Key | MTU, RDC, RNR | retries, SRQ, ext");
    expect_at(mad, 52, "61626364", "Primary LIDs");
    expect_at(mad, 56, "101d2a3744515e6b7885929facb9c6d3", "Primary Local GID");
    expect_at(mad, 72, "202d3a4754616e7b8895a2afbcc9d6e3", "Primary Remote GID");
    /* FlowLabel abcde << 12 | rsv | rate 0x2a */
    expect_at(mad, 88, "abcde02a", "Primary Flow Label | Packet Rate");
    /* TC, HopLimit, SL 1100 SubnetLocal 1 rsv = 0xc8, AckTimeout 10001 rsv = 0x88 */
    expect_at(mad, 92, "5a5bc888", "Primary TC, HopLimit, SL, ACK timeout");
    expect_at(mad, 96, "41424344", "Alternate LIDs");
    expect_at(mad, 137, "47", "Alternate Hop Limit");
    expect_at(mad, 140, "303d4a57", "PrivateData start");
    check_int(&C, "REQ PrivateData last byte", (uint8_t)(0x30 + 13 * 91), mad[255]);
    check_int(&C, "REQ round trip parses", IB_CM_OK, ib_cm_parse(mad, sizeof mad, &p));
    check_true(&C, memcmp(&p.u.req, &m.u.req, sizeof m.u.req) == 0, "REQ fields round trip");
    check_true(&C, p.pdata_len == 92 && memcmp(p.pdata, m.pdata, 92) == 0, "REQ PrivateData round trip");
    check_true(&C, p.hdr.tid == m.hdr.tid && p.hdr.attr_id == IB_CM_ATTR_REQ, "REQ header round trip");
}

static void test_cm_other_layouts(void)
{
    struct ib_cm_msg m, p;
    uint8_t mad[IB_MAD_LEN];

    /* REP, IBA Table 103 */
    memset(&m, 0, sizeof m);
    ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REP, 7);
    m.u.rep.local_comm_id = 0x01020304;
    m.u.rep.remote_comm_id = 0x05060708;
    m.u.rep.local_qkey = 0x090a0b0c;
    m.u.rep.local_qpn = 0x0d0e0f;
    m.u.rep.local_eecn = 0x101112;
    m.u.rep.starting_psn = 0x131415;
    m.u.rep.responder_resources = 0x16;
    m.u.rep.initiator_depth = 0x17;
    m.u.rep.target_ack_delay = 0x1f;
    m.u.rep.failover_accepted = 2;
    m.u.rep.e2e_flow_ctrl = 1;
    m.u.rep.rnr_retry_count = 5;
    m.u.rep.srq = 1;
    m.u.rep.local_ca_guid = 0x18191a1b1c1d1e1full;
    fill_bytes(m.pdata, IB_CM_REP_PDATA_LEN, 0x40);
    m.pdata_len = IB_CM_REP_PDATA_LEN;
    check_int(&C, "REP encodes", IB_CM_OK, ib_cm_encode(&m, mad));
    expect_at(mad, 0, "0102030405060708090a0b0c", "REP comm IDs, Q_Key");
    expect_at(mad, 12, "0d0e0f00101112001314150016", "REP QPN, EECN, PSN, RespRes");
    /* byte 26: TgtAckDelay 11111 | Failover 10 | E2E 1 = 0xfd; 27: RNR 101 SRQ 1 = 0xb0 */
    expect_at(mad, 25, "17fdb0", "REP InitDepth, delay/failover/e2e, RNR/SRQ");
    expect_at(mad, 28, "18191a1b1c1d1e1f", "REP Local CA GUID");
    expect_at(mad, 36, "404d5a67", "REP PrivateData start");
    check_int(&C, "REP parses", IB_CM_OK, ib_cm_parse(mad, sizeof mad, &p));
    check_true(&C, memcmp(&p.u.rep, &m.u.rep, sizeof m.u.rep) == 0, "REP fields round trip");
    check_true(&C, p.pdata_len == 196 && memcmp(p.pdata, m.pdata, 196) == 0, "REP PrivateData round trip");

    /* RTU (Table 105), DREP (Table 107): IDs then PrivateData at 8 */
    static const uint16_t ids_attrs[2] = { IB_CM_ATTR_RTU, IB_CM_ATTR_DREP };
    for (int i = 0; i < 2; i++) {
        memset(&m, 0, sizeof m);
        ib_cm_hdr_init(&m.hdr, ids_attrs[i], 9);
        m.u.rtu.local_comm_id = 0x21222324;
        m.u.rtu.remote_comm_id = 0x25262728;
        fill_bytes(m.pdata, 224, 0x50);
        m.pdata_len = 224;
        check_int(&C, "RTU/DREP encodes", IB_CM_OK, ib_cm_encode(&m, mad));
        expect_at(mad, 0, "2122232425262728505d6a77", "RTU/DREP IDs and PrivateData");
        check_int(&C, "RTU/DREP parses", IB_CM_OK, ib_cm_parse(mad, sizeof mad, &p));
        check_true(&C, p.u.rtu.local_comm_id == 0x21222324 && p.u.rtu.remote_comm_id == 0x25262728 &&
                       p.pdata_len == 224 && memcmp(p.pdata, m.pdata, 224) == 0,
                   "RTU/DREP round trip");
    }

    /* REJ (Table 104) */
    memset(&m, 0, sizeof m);
    ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REJ, 10);
    m.u.rej.local_comm_id = 0x31323334;
    m.u.rej.remote_comm_id = 0x35363738;
    m.u.rej.msg_rejected = 1;
    m.u.rej.rej_info_len = 5;
    m.u.rej.reason = 28;
    fill_bytes(m.u.rej.ari, IB_CM_REJ_ARI_LEN, 0x60);
    fill_bytes(m.pdata, 148, 0x70);
    m.pdata_len = 148;
    check_int(&C, "REJ encodes", IB_CM_OK, ib_cm_encode(&m, mad));
    expect_at(mad, 0, "3132333435363738400a001c606d", "REJ IDs, MsgRej, InfoLen, Reason, ARI");
    expect_at(mad, 84, "707d8a97", "REJ PrivateData start");
    check_int(&C, "REJ parses", IB_CM_OK, ib_cm_parse(mad, sizeof mad, &p));
    check_true(&C, memcmp(&p.u.rej, &m.u.rej, sizeof m.u.rej) == 0, "REJ fields round trip");

    /* DREQ (Table 106) */
    memset(&m, 0, sizeof m);
    ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_DREQ, 11);
    m.u.dreq.local_comm_id = 0x41424344;
    m.u.dreq.remote_comm_id = 0x45464748;
    m.u.dreq.remote_qpn = 0x494a4b;
    fill_bytes(m.pdata, 220, 0x80);
    m.pdata_len = 220;
    check_int(&C, "DREQ encodes", IB_CM_OK, ib_cm_encode(&m, mad));
    expect_at(mad, 0, "4142434445464748494a4b00808d", "DREQ IDs, remote QPN, PrivateData");
    check_int(&C, "DREQ parses", IB_CM_OK, ib_cm_parse(mad, sizeof mad, &p));
    check_true(&C, memcmp(&p.u.dreq, &m.u.dreq, sizeof m.u.dreq) == 0, "DREQ fields round trip");
}

static void test_cm_errors(void)
{
    struct ib_cm_msg m, p;
    uint8_t mad[IB_MAD_LEN + 1];

    sample_req(&m);
    ib_cm_encode(&m, mad);
    mad[IB_MAD_LEN] = 0;
    check_int(&C, "255-byte MAD: truncated", IB_CM_ERR_TRUNCATED, ib_cm_parse(mad, 255, &p));
    check_int(&C, "0-byte MAD: truncated", IB_CM_ERR_TRUNCATED, ib_cm_parse(mad, 0, &p));
    check_int(&C, "257-byte MAD: too_long", IB_CM_ERR_TOO_LONG, ib_cm_parse(mad, 257, &p));
    static const struct { size_t off; uint8_t v; enum ib_cm_err e; } bad[] = {
        { 0, 2, IB_CM_ERR_BAD_BASE_VERSION }, { 1, 0x81, IB_CM_ERR_BAD_CLASS },
        { 2, 1, IB_CM_ERR_BAD_CLASS_VERSION }, { 3, 0x81, IB_CM_ERR_BAD_METHOD },
        { 17, 0x11, IB_CM_ERR_BAD_ATTR },   /* MRA: not handled */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t save = mad[bad[i].off];
        mad[bad[i].off] = bad[i].v;
        check_int(&C, ib_cm_err_name(bad[i].e), bad[i].e, ib_cm_parse(mad, IB_MAD_LEN, &p));
        mad[bad[i].off] = save;
    }
    check_true(&C, strcmp(ib_cm_err_name(IB_CM_ERR_TOO_LONG), "too_long") == 0, "error names");
    m.pdata_len = IB_CM_REQ_PDATA_LEN + 1;
    check_int(&C, "93 bytes of REQ PrivateData refused", IB_CM_ERR_PDATA_TOO_LONG,
              ib_cm_encode(&m, mad));
    m.pdata_len = IB_CM_REQ_PDATA_LEN;
    m.u.req.local_qpn = 0x1000000;
    check_int(&C, "25-bit QPN refused", IB_CM_ERR_BAD_FIELD, ib_cm_encode(&m, mad));
    m.hdr.attr_id = 0x0011;
    check_int(&C, "unknown attribute refused on encode", IB_CM_ERR_BAD_ATTR, ib_cm_encode(&m, mad));
}

/* ---- 2. HMAC against an independent computation ----------------------------------- */

static void test_hmac(void)
{
    uint8_t key[32], mad[IB_MAD_LEN], tag[32], want[32], msg[16 + 8 + 32 + IB_MAD_LEN];
    uint8_t chal[32], out[32];
    size_t n = 0;
    struct ib_cm_msg m;
    const uint64_t guid = 0x0002c90300000002ull;

    fill_bytes(key, sizeof key, 0x5c);
    fill_bytes(chal, sizeof chal, 0x77);
    sample_req(&m);
    ib_cm_encode(&m, mad);
    /* REQ: "ibsec-cm REQ v1" NUL-padded to 16 || GUID || MAD with bytes 24+140+60.. zero */
    secm_tag_compute(key, SECM_L_REQ, guid, NULL, 0, mad, tag);
    memset(msg, 0, 16);
    memcpy(msg, "ibsec-cm REQ v1", 15);
    n = 16;
    for (int i = 7; i >= 0; i--)
        msg[n++] = (uint8_t)(guid >> (8 * i));
    memcpy(msg + n, mad, IB_MAD_LEN);
    memset(msg + n + IB_MAD_HDR_LEN + IB_CM_REQ_PDATA_OFF + SECM_OFF_KEYX_TAG, 0, 32);
    n += IB_MAD_LEN;
    ref_hmac(key, 32, msg, n, want);
    check_bytes(&C, "REQ tag = HMAC-SHA-256 (EVP_MAC)", want, tag, 32);
    /* RTU: label, GUID, N_i || N_r, MAD with the tag at 24+8+4 zero */
    m.hdr.attr_id = IB_CM_ATTR_RTU;
    m.pdata_len = 36;
    ib_cm_encode(&m, mad);
    mad[IB_MAD_HDR_LEN + 8 + 4] = 0xFF; /* a stale tag byte must not matter */
    secm_tag_compute(key, SECM_L_RTU, guid, chal, 32, mad, tag);
    memset(msg, 0, 16);
    memcpy(msg, "ibsec-cm RTU v1", 15);
    n = 16;
    for (int i = 7; i >= 0; i--)
        msg[n++] = (uint8_t)(guid >> (8 * i));
    memcpy(msg + n, chal, 32);
    n += 32;
    memcpy(msg + n, mad, IB_MAD_LEN);
    memset(msg + n + IB_MAD_HDR_LEN + 8 + 4, 0, 32);
    n += IB_MAD_LEN;
    ref_hmac(key, 32, msg, n, want);
    check_bytes(&C, "RTU tag = HMAC-SHA-256 (EVP_MAC)", want, tag, 32);
    /* tag placement and verification */
    secm_tag_put(key, SECM_L_RTU, guid, chal, 32, mad);
    check_bytes(&C, "tag written at its offset", want, mad + IB_MAD_HDR_LEN + 8 + 4, 32);
    check_true(&C, secm_tag_ok(key, SECM_L_RTU, guid, chal, 32, mad), "tag verifies");
    check_true(&C, !secm_tag_ok(key, SECM_L_RTU, guid + 1, chal, 32, mad), "tag bound to the receiver GUID");
    check_true(&C, !secm_tag_ok(key, SECM_L_DREP, guid, chal, 32, mad), "tag bound to the message kind");
    chal[5] ^= 1;
    check_true(&C, !secm_tag_ok(key, SECM_L_RTU, guid, chal, 32, mad), "tag bound to the challenge");
    chal[5] ^= 1;
    for (size_t i = 0; i < IB_MAD_LEN; i += 17) {
        mad[i] ^= 0x10;
        check_true(&C, !secm_tag_ok(key, SECM_L_RTU, guid, chal, 32, mad), "any MAD byte changed: tag fails");
        mad[i] ^= 0x10;
    }
    /* every message kind: the tag against HMAC-SHA-256 computed here from the layout in
     * secm.h (label bytes spelled out, the DREQ and DREP labels filling all 16), and every
     * MAD byte outside the tag window flipped makes it fail */
    {
        static const struct { enum secm_label l; uint16_t attr; size_t pdata_len, chal_len;
                              const char *label; } kinds[] = {
            { SECM_L_REQ,  IB_CM_ATTR_REQ,  SECM_KEYX_LEN,     0,  "ibsec-cm REQ v1\0" },
            { SECM_L_REP,  IB_CM_ATTR_REP,  SECM_KEYX_LEN,     16, "ibsec-cm REP v1\0" },
            { SECM_L_RTU,  IB_CM_ATTR_RTU,  SECM_SHORT_LEN,    32, "ibsec-cm RTU v1\0" },
            { SECM_L_DREQ, IB_CM_ATTR_DREQ, SECM_SHORT_LEN,    32, "ibsec-cm DREQ v1" },
            { SECM_L_DREP, IB_CM_ATTR_DREP, SECM_SHORT_LEN,    32, "ibsec-cm DREP v1" },
            { SECM_L_REJ,  IB_CM_ATTR_REJ,  SECM_REJ_AUTH_LEN, 16, "ibsec-cm REJ v1\0" },
            { SECM_L_REJ,  IB_CM_ATTR_REJ,  SECM_REJ_AUTH_LEN, 32, "ibsec-cm REJ v1\0" },
        };
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            struct ib_cm_msg km;
            uint8_t kmad[IB_MAD_LEN];
            size_t toff = secm_tag_off(kinds[k].attr);
            unsigned bad = 0;
            char what[96];

            memset(&km, 0, sizeof km);
            if (kinds[k].attr == IB_CM_ATTR_REQ)
                sample_req(&km);
            ib_cm_hdr_init(&km.hdr, kinds[k].attr, 0x0102030405060708ull + k);
            fill_bytes(km.pdata, kinds[k].pdata_len, (uint8_t)(0x41 + k));
            km.pdata_len = kinds[k].pdata_len;
            if (kinds[k].attr == IB_CM_ATTR_REP) {
                km.u.rep.local_comm_id = 0x11;
                km.u.rep.local_qpn = 0x222;
                km.u.rep.local_ca_guid = 0x0002c90300000009ull;
            }
            check_int(&C, "sample message encodes", IB_CM_OK, ib_cm_encode(&km, kmad));
            memset(msg, 0, sizeof msg);
            memcpy(msg, kinds[k].label, 16);
            n = 16;
            for (int i = 7; i >= 0; i--)
                msg[n++] = (uint8_t)(guid >> (8 * i));
            memcpy(msg + n, chal, kinds[k].chal_len);
            n += kinds[k].chal_len;
            memcpy(msg + n, kmad, IB_MAD_LEN);
            memset(msg + n + toff, 0, 32);
            n += IB_MAD_LEN;
            ref_hmac(key, 32, msg, n, want);
            check_int(&C, "secm_tag_put", 0, secm_tag_put(key, kinds[k].l, guid, chal, kinds[k].chal_len, kmad));
            snprintf(what, sizeof what, "%s tag (challenge %zu bytes) = HMAC-SHA-256 (EVP_MAC)",
                     ib_cm_attr_name(kinds[k].attr), kinds[k].chal_len);
            check_bytes(&C, what, want, kmad + toff, 32);
            for (size_t i = 0; i < IB_MAD_LEN; i++) {
                if (i >= toff && i < toff + 32)
                    continue;
                kmad[i] ^= 0x01;
                bad += secm_tag_ok(key, kinds[k].l, guid, chal, kinds[k].chal_len, kmad);
                kmad[i] ^= 0x80;
                bad += secm_tag_ok(key, kinds[k].l, guid, chal, kinds[k].chal_len, kmad);
                kmad[i] ^= 0x81;
            }
            snprintf(what, sizeof what, "%s: every byte outside the tag flipped fails (%zu bytes)",
                     ib_cm_attr_name(kinds[k].attr), (size_t)(IB_MAD_LEN - 32));
            check_int(&C, what, 0, bad);
            check_true(&C, secm_tag_ok(key, kinds[k].l, guid, chal, kinds[k].chal_len, kmad),
                       "and the untouched MAD still verifies");
        }
    }
    /* derived keys: PRF = HMAC-SHA-256(key, label) */
    kd_pair_auth_key(key, out);
    ref_hmac(key, 32, (const uint8_t *)"ibsec cm auth", 13, want);
    check_bytes(&C, "auth key = HMAC(pair, \"ibsec cm auth\")", want, out, 32);
    kd_pair_wrap_key(key, out);
    ref_hmac(key, 32, (const uint8_t *)"ibsec cm wrap", 13, want);
    check_bytes(&C, "wrap key = HMAC(pair, \"ibsec cm wrap\")", want, out, 32);
    /* RFC 4231 test case 2 through the reference, so the reference itself is checked */
    ref_hmac((const uint8_t *)"Jefe", 4, (const uint8_t *)"what do ya want for nothing?", 28, out);
    check_unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", want, 32);
    check_bytes(&C, "reference HMAC: RFC 4231 case 2", want, out, 32);
}

/* ---- 3. key hierarchy ------------------------------------------------------------- */

static void test_keydist(void)
{
    kd_sm sm, sm2;
    kd_ca a, b;
    kd_blob blob, blob2;
    uint8_t ka[32], kb[32], p_sk[32], got[32], pair[32];

    memset(&sm, 0, sizeof sm);
    memset(&sm2, 0, sizeof sm2);
    kd_random(sm.sm_sk, 32);
    kd_random(sm.ssm_sk, 32);
    memcpy(sm2.ssm_sk, sm.ssm_sk, 32);
    kd_random(sm2.sm_sk, 32);
    kd_random(ka, 32);
    kd_random(kb, 32);
    kd_ca_init(&a, 0xA, ka);
    kd_ca_init(&b, 0xB, kb);
    kd_sm_add_ca(&sm, 0xA, ka);
    kd_sm_add_ca(&sm, 0xB, kb);
    kd_random(p_sk, 32);

    check_int(&C, "P_SK before SM_SK: no_sm_sk", KD_ERR_NO_SM_SK,
              (kd_sm_issue_p_sk(&sm, 0x1234, p_sk, &blob), kd_ca_accept_p_sk(&a, &blob)));
    check_int(&C, "SM_SK for A issued", KD_OK, kd_sm_issue_sm_sk(&sm, 0xA, &blob));
    check_int(&C, "SM_SK for A given to B: wrong_target", KD_ERR_WRONG_TARGET, kd_ca_accept_sm_sk(&b, &blob));
    blob2 = blob;
    blob2.to_guid = 0xB;
    check_int(&C, "SM_SK blob re-addressed to B: auth", KD_ERR_AUTH, kd_ca_accept_sm_sk(&b, &blob2));
    blob2 = blob;
    blob2.sealed[20] ^= 1;
    check_int(&C, "SM_SK blob altered: auth", KD_ERR_AUTH, kd_ca_accept_sm_sk(&a, &blob2));
    check_true(&C, !a.have_sm_sk, "an altered SM_SK is not kept");
    check_int(&C, "SM_SK accepted by A", KD_OK, kd_ca_accept_sm_sk(&a, &blob));
    check_bytes(&C, "A holds SM_SK", sm.sm_sk, a.sm_sk, 32);
    blob.kind = KD_KIND_P_SK;
    check_int(&C, "SM_SK blob relabelled P_SK: auth", KD_ERR_AUTH, kd_ca_accept_p_sk(&a, &blob));
    {
        /* a forged blob leaves the SM_SK held; an older version is refused; the version
         * is under the tag */
        kd_blob v0, forged, v1, bumped;
        uint8_t sm_sk0[32];
        memcpy(sm_sk0, sm.sm_sk, 32);
        kd_sm_issue_sm_sk(&sm, 0xA, &v0);
        forged = v0;
        forged.sealed[KD_GCM_IV_LEN + 3] ^= 0x40;
        check_int(&C, "forged SM_SK blob: auth", KD_ERR_AUTH, kd_ca_accept_sm_sk(&a, &forged));
        kd_random(forged.sealed, KD_BLOB_LEN);
        forged.version = 7;
        check_int(&C, "random SM_SK blob of a higher version: auth", KD_ERR_AUTH, kd_ca_accept_sm_sk(&a, &forged));
        check_true(&C, a.have_sm_sk && memcmp(a.sm_sk, sm_sk0, 32) == 0,
                   "forged SM_SK blobs leave the valid SM_SK in place");
        check_int(&C, "the same SM_SK version again: stale", KD_ERR_STALE, kd_ca_accept_sm_sk(&a, &v0));
        kd_random(sm.sm_sk, 32);               /* the SM changes SM_SK: version 1 */
        sm.sm_sk_version++;
        check_int(&C, "SM_SK version 1 issued", KD_OK, kd_sm_issue_sm_sk(&sm, 0xA, &v1));
        check_int(&C, "SM_SK version 1 accepted", KD_OK, kd_ca_accept_sm_sk(&a, &v1));
        check_true(&C, a.sm_sk_version == 1 && memcmp(a.sm_sk, sm.sm_sk, 32) == 0, "A holds SM_SK version 1");
        check_int(&C, "old SM_SK blob (version 0) replayed: stale", KD_ERR_STALE, kd_ca_accept_sm_sk(&a, &v0));
        bumped = v0;
        bumped.version = 2;
        check_int(&C, "old blob relabelled version 2: auth", KD_ERR_AUTH, kd_ca_accept_sm_sk(&a, &bumped));
        check_true(&C, a.sm_sk_version == 1 && memcmp(a.sm_sk, sm.sm_sk, 32) == 0,
                   "A still holds SM_SK version 1");
    }
    kd_sm_issue_sm_sk(&sm, 0xB, &blob);
    kd_ca_accept_sm_sk(&b, &blob);

    check_int(&C, "P_SK issued", KD_OK, kd_sm_issue_p_sk(&sm, 0x1234, p_sk, &blob));
    check_int(&C, "P_SK accepted by A", KD_OK, kd_ca_accept_p_sk(&a, &blob));
    check_true(&C, kd_ca_p_sk(&a, 0x1234) != NULL && memcmp(kd_ca_p_sk(&a, 0x1234), p_sk, 32) == 0,
               "A holds P_SK of 0x1234");
    check_true(&C, kd_ca_p_sk(&a, 0x9234) != NULL, "P_SK found whatever the membership bit");
    blob2 = blob;
    blob2.pkey = 0x1235;
    check_int(&C, "P_SK blob for another P_Key: auth", KD_ERR_AUTH, kd_ca_accept_p_sk(&b, &blob2));
    check_int(&C, "SM_SK blob given as pair key: wrong_kind", KD_ERR_WRONG_KIND, kd_ca_accept_pair(&a, &blob));

    /* across subnets: E_{SSM_SK}(P_SK) to SM2, which issues it under its own SM_SK */
    check_int(&C, "P_SK exported under SSM_SK", KD_OK, kd_sm_export_p_sk(&sm, 0x1234, p_sk, &blob));
    check_int(&C, "P_SK imported by the other SM", KD_OK, kd_sm_import_p_sk(&sm2, &blob, got));
    check_bytes(&C, "SM2 holds the same P_SK", p_sk, got, 32);
    kd_sm_issue_p_sk(&sm2, 0x1234, got, &blob);
    check_int(&C, "SM2's P_SK blob under the other SM_SK: auth", KD_ERR_AUTH, kd_ca_accept_p_sk(&a, &blob));

    /* pair keys */
    kd_random(pair, 32);
    check_int(&C, "pair key for A issued", KD_OK, kd_sm_issue_pair(&sm, 0xA, 0xB, pair, &blob));
    check_int(&C, "pair key for A given to B: wrong_target", KD_ERR_WRONG_TARGET, kd_ca_accept_pair(&b, &blob));
    check_int(&C, "pair key accepted by A", KD_OK, kd_ca_accept_pair(&a, &blob));
    kd_sm_issue_pair(&sm, 0xB, 0xA, pair, &blob);
    check_int(&C, "pair key accepted by B", KD_OK, kd_ca_accept_pair(&b, &blob));
    check_true(&C, kd_ca_pair_key(&a, 0xB) && kd_ca_pair_key(&b, 0xA) &&
                   memcmp(kd_ca_pair_key(&a, 0xB), kd_ca_pair_key(&b, 0xA), 32) == 0,
               "CA_SK_AB = CA_SK_BA");
    check_true(&C, kd_ca_pair_key(&a, 0xC) == NULL, "no pair key with an unknown CA");

    /* RFC 3394 §4.3 and §4.6 (256-bit KEK) */
    uint8_t kek[32], key[32], w[40], want[40];
    check_unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", kek, 32);
    check_unhex("00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f", key, 32);
    check_int(&C, "RFC 3394 4.3 wrap", KD_OK, kd_key_wrap(kek, key, 16, w));
    check_unhex("64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7", want, 24);
    check_bytes(&C, "RFC 3394 4.3 ciphertext", want, w, 24);
    check_int(&C, "RFC 3394 4.6 wrap", KD_OK, kd_key_wrap(kek, key, 32, w));
    check_unhex("28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21", want, 40);
    check_bytes(&C, "RFC 3394 4.6 ciphertext", want, w, 40);
    check_int(&C, "RFC 3394 unwrap", KD_OK, kd_key_unwrap(kek, w, 32, got));
    check_bytes(&C, "RFC 3394 unwrap gives the key", key, got, 32);
    kek[0] ^= 1;
    check_int(&C, "unwrap under another KEK: auth", KD_ERR_AUTH, kd_key_unwrap(kek, w, 32, got));
    check_int(&C, "24-byte key: bad_len", KD_ERR_BAD_LEN, kd_key_wrap(kek, key, 24, w));

    /* §6.1 random number, Q_Key- and P_Key-bound keys */
    uint8_t ni[16], nr[16], r1[16], r2[16], k1[32], k2[32];
    kd_random(ni, 16);
    kd_random(nr, 16);
    kd_agreed_random(kek, ni, nr, r1);
    kd_agreed_random(kek, ni, nr, r2);
    check_bytes(&C, "both ends agree on R", r1, r2, 16);
    nr[0] ^= 1;
    kd_agreed_random(kek, ni, nr, r2);
    check_true(&C, memcmp(r1, r2, 16) != 0, "another N_r gives another R");
    kd_qkey_key(key, 16, 0x11112222, 0x333, k1, 16);
    kd_qkey_key(key, 16, 0x11112223, 0x333, k2, 16);
    check_true(&C, memcmp(k1, k2, 16) != 0, "datagram key bound to the Q_Key");
    kd_pkey_conn_key(p_sk, 0x1234, r1, k1, 32);
    kd_pkey_conn_key(p_sk, 0x1234, r2, k2, 32);
    check_true(&C, memcmp(k1, k2, 32) != 0, "partition connection key bound to R");
    kd_pkey_conn_key(p_sk, 0x9234, r1, k2, 32);
    check_true(&C, memcmp(k1, k2, 32) == 0, "partition key ignores the membership bit");
}

/* ---- 4. driver on the C model ----------------------------------------------------- */

static unsigned valid_ctx(const ibsec_engine *e)
{
    unsigned n = 0;
    for (unsigned i = 0; i < e->n_ctx; i++)
        n += e->ctx[i].valid;
    return n;
}

static bool key_entry_zero(const ibsec_key_entry *k)
{
    static const ibsec_key_entry z;
    return memcmp(k, &z, sizeof z) == 0;
}

static void test_driver(void)
{
    ibsec_engine se, oe;
    ibsec_regmodel sr, orm;
    ibsec_drv_engine sd, od;
    ibsec_drv_bus sb, ob;
    ibsec_drv_conn_cfg cfg;
    ibsec_drv_conn conn, conns[5];

    ibsec_engine_init(&se, 4, 4, 1);
    ibsec_engine_init(&oe, 4, 4, 1);
    ibsec_regmodel_init(&sr, &se, false);
    ibsec_regmodel_init(&orm, &oe, true);
    sb = ibsec_regmodel_bus(&sr);
    ob = ibsec_regmodel_bus(&orm);
    check_int(&C, "attach seal", DRV_OK, ibsec_drv_attach(&sd, &sb, false));
    check_int(&C, "attach open", DRV_OK, ibsec_drv_attach(&od, &ob, true));
    check_int(&C, "open engine refused as seal: wrong_role", DRV_ERR_WRONG_ROLE, ibsec_drv_attach(&sd, &ob, false));
    ibsec_drv_attach(&sd, &sb, false);
    check_int(&C, "CAPS key slots", 4, sd.key_slots);
    check_int(&C, "CAPS contexts", 4, sd.ctx_slots);

    memset(&cfg, 0, sizeof cfg);
    cfg.mode = IBSEC_MODE_STH_AEAD;
    cfg.sth_code = 2;
    fill_bytes(cfg.key, 32, 0x90);
    cfg.key_len = 32;
    memcpy(cfg.salt, "\xa0\xa1\xa2\xa3", 4);
    cfg.dir = 1;
    cfg.local_qpn = 0x123456;
    cfg.remote_qpn = 0x654321;
    cfg.tx_epsn = 0xABCDEF;
    cfg.rx_epsn = 0x777777;
    cfg.alert_threshold = 8;
    check_int(&C, "program a connection", DRV_OK, ibsec_drv_conn_program(&sd, &od, &cfg, &conn));
    const ibsec_key_entry *k = &se.keys[conn.seal_key];
    check_true(&C, k->valid && k->key_len == 32 && memcmp(k->key, cfg.key, 32) == 0 &&
                   memcmp(k->salt, cfg.salt, 4) == 0, "seal key slot holds key and salt");
    k = &oe.keys[conn.open_key];
    check_true(&C, k->valid && k->key_len == 32 && memcmp(k->key, cfg.key, 32) == 0,
               "open key slot holds the key");
    const ibsec_ctx *sc = &se.ctx[conn.seal_ctx], *oc = &oe.ctx[conn.open_ctx];
    check_true(&C, sc->valid && sc->cfg.sel == IBSEC_SEL_QP && sc->cfg.match == 0x654321 &&
                   sc->cfg.mode == IBSEC_MODE_STH_AEAD && sc->cfg.sth_code == 2 && sc->cfg.dir == 1 &&
                   sc->cfg.key == conn.seal_key && sc->tx_next == 0xABCDEF &&
                   sc->cfg.alert_threshold == 8,
               "seal context: peer QPN, mode, dir, key, tx_next");
    check_true(&C, oc->valid && oc->cfg.match == 0x123456 && oc->rx_next == 0x777777 && oc->cfg.dir == 1,
               "open context: local QPN, rx_next, dir");
    uint32_t stage = 0;
    for (unsigned i = 0; i < 8; i++)
        stage |= ibsec_regmodel_read(&sr, IBSEC_REG_KEY_DATA(i)) | ibsec_regmodel_read(&orm, IBSEC_REG_KEY_DATA(i));
    stage |= ibsec_regmodel_read(&sr, IBSEC_REG_KEY_SALT);
    check_int(&C, "key staging registers zeroed after install", 0, stage);
    check_int(&C, "KEY_VALID after program", 1u << conn.seal_key, ibsec_regmodel_read(&sr, IBSEC_REG_KEY_VALID));
    check_int(&C, "KEY_AES256 after program", 1u << conn.seal_key, ibsec_regmodel_read(&sr, IBSEC_REG_KEY_AES256));

    check_int(&C, "teardown", DRV_OK, ibsec_drv_conn_teardown(&sd, &od, &conn));
    check_true(&C, key_entry_zero(&se.keys[0]) && key_entry_zero(&oe.keys[0]), "teardown zeroizes the key slots");
    check_int(&C, "no context after teardown (seal)", 0, valid_ctx(&se));
    check_int(&C, "no context after teardown (open)", 0, valid_ctx(&oe));
    check_int(&C, "KEY_VALID after teardown", 0, ibsec_regmodel_read(&sr, IBSEC_REG_KEY_VALID));
    check_int(&C, "teardown twice: bad_arg", DRV_ERR_BAD_ARG, ibsec_drv_conn_teardown(&sd, &od, &conn));

    /* refused command (§3.4 code 6: sth mode with STH code 0): nothing stays */
    cfg.sth_code = 0;
    check_int(&C, "sth-aead with STH code 0: refused", DRV_ERR_REFUSED, ibsec_drv_conn_program(&sd, &od, &cfg, &conn));
    check_int(&C, "ERR_CODE 6", 6, sd.last_err_code);
    check_true(&C, ibsec_regmodel_read(&sr, IBSEC_REG_KEY_VALID) == 0 && ibsec_regmodel_read(&orm, IBSEC_REG_KEY_VALID) == 0 &&
                   valid_ctx(&se) == 0 && valid_ctx(&oe) == 0,
               "refused program leaves nothing");
    cfg.sth_code = 2;
    /* full tables */
    unsigned ok = 0;
    for (unsigned i = 0; i < 4; i++) {
        cfg.local_qpn = 0x100 + i;
        cfg.remote_qpn = 0x200 + i;
        ok += ibsec_drv_conn_program(&sd, &od, &cfg, &conns[i]) == DRV_OK;
    }
    check_int(&C, "four connections fit four slots", 4, ok);
    cfg.local_qpn = 0x104;
    cfg.remote_qpn = 0x204;
    check_int(&C, "fifth connection: no_key_slot", DRV_ERR_NO_KEY_SLOT, ibsec_drv_conn_program(&sd, &od, &cfg, &conns[4]));
    check_int(&C, "KEY_VALID unchanged by the refusal", 0xF, ibsec_regmodel_read(&sr, IBSEC_REG_KEY_VALID));
    ibsec_drv_conn_teardown(&sd, &od, &conns[1]);
    cfg.remote_qpn = 0x200; /* selector of conns[0] */
    check_int(&C, "duplicate selector: refused", DRV_ERR_REFUSED, ibsec_drv_conn_program(&sd, &od, &cfg, &conns[4]));
    check_int(&C, "ERR_CODE 10", 10, sd.last_err_code);
    check_int(&C, "three contexts after the refusal", 3, valid_ctx(&se));
    ibsec_engine_free(&se);
    ibsec_engine_free(&oe);
}

/* ---- 4b. driver teardown when the engine refuses or hangs ---------------------------- */

/* A bus in front of the register model that can make one kind of clear command fail:
 * the command is not passed on and STATUS answers ERR (refused) or BUSY for ever. */
typedef struct {
    ibsec_drv_bus inner;
    uint32_t fail_reg;      /* IBSEC_REG_KEY_CMD or IBSEC_REG_CTX_CMD; 0: none */
    bool     hang;          /* BUSY for ever instead of ERR */
    bool     failing;       /* the last command was swallowed */
} fault_bus;

static void fb_write(void *ctx, uint32_t addr, uint32_t data)
{
    fault_bus *f = ctx;
    if (addr == IBSEC_REG_KEY_CMD || addr == IBSEC_REG_CTX_CMD) {
        f->failing = addr == f->fail_reg && (data >> 16) == 2u;   /* a CLEAR */
        if (f->failing)
            return;
    }
    f->inner.write(f->inner.ctx, addr, data);
}

static uint32_t fb_read(void *ctx, uint32_t addr)
{
    fault_bus *f = ctx;
    if (addr == IBSEC_REG_STATUS && f->failing)
        return f->hang ? IBSEC_STATUS_BUSY_MASK : (IBSEC_STATUS_ERR_MASK | (5u << 8));
    return f->inner.read(f->inner.ctx, addr);
}

static void test_driver_quarantine(void)
{
    ibsec_engine se, oe;
    ibsec_regmodel sr, orm;
    ibsec_drv_engine sd, od;
    ibsec_drv_bus sb, ob;
    fault_bus fs;
    ibsec_drv_conn_cfg cfg;
    ibsec_drv_conn conn, more[4];
    unsigned ok = 0;

    ibsec_engine_init(&se, 4, 4, 1);
    ibsec_engine_init(&oe, 4, 4, 1);
    ibsec_regmodel_init(&sr, &se, false);
    ibsec_regmodel_init(&orm, &oe, true);
    memset(&fs, 0, sizeof fs);
    fs.inner = ibsec_regmodel_bus(&sr);
    sb = (ibsec_drv_bus){ .ctx = &fs, .write = fb_write, .read = fb_read };
    ob = ibsec_regmodel_bus(&orm);
    ibsec_drv_attach(&sd, &sb, false);
    ibsec_drv_attach(&od, &ob, true);
    memset(&cfg, 0, sizeof cfg);
    cfg.mode = IBSEC_MODE_STH_AEAD;
    cfg.sth_code = 2;
    fill_bytes(cfg.key, 32, 0x33);
    cfg.key_len = 16;
    cfg.local_qpn = 0x10;
    cfg.remote_qpn = 0x20;
    check_int(&C, "quarantine: program", DRV_OK, ibsec_drv_conn_program(&sd, &od, &cfg, &conn));
    unsigned sctx = conn.seal_ctx, skey = conn.seal_key;
    /* the seal engine refuses the context clear */
    fs.fail_reg = IBSEC_REG_CTX_CMD;
    check_int(&C, "refused context clear: reported", DRV_ERR_REFUSED, ibsec_drv_conn_teardown(&sd, &od, &conn));
    check_true(&C, !conn.live && sd.ctx_used[sctx] && sd.ctx_quarantine[sctx] && sd.n_quarantined == 1,
               "refused context clear: that context stays allocated, quarantined");
    check_true(&C, !(sd.key_used & (1u << skey)) && od.n_quarantined == 0 && od.key_used == 0,
               "refused context clear: the rest is freed");
    check_int(&C, "one connection fewer fits", 3, ibsec_drv_free_conns(&sd, &od));
    fs.fail_reg = 0;
    for (unsigned i = 0; i < 4; i++) {
        cfg.local_qpn = 0x30 + i;
        cfg.remote_qpn = 0x40 + i;
        ok += ibsec_drv_conn_program(&sd, &od, &cfg, &more[i]) == DRV_OK &&
              more[i].seal_ctx != sctx;
    }
    check_int(&C, "the quarantined context is never handed out", 3, ok);
    check_int(&C, "quarantine retried once the engine answers", DRV_OK, ibsec_drv_retry_quarantine(&sd));
    check_true(&C, !sd.ctx_used[sctx] && !sd.ctx_quarantine[sctx] && sd.n_quarantined == 0,
               "retry: the context is freed");
    for (unsigned i = 0; i < 3; i++)
        ibsec_drv_conn_teardown(&sd, &od, &more[i]);
    /* the seal engine never finishes a key clear */
    cfg.local_qpn = 0x50;
    cfg.remote_qpn = 0x60;
    check_int(&C, "quarantine: program again", DRV_OK, ibsec_drv_conn_program(&sd, &od, &cfg, &conn));
    skey = conn.seal_key;
    fs.fail_reg = IBSEC_REG_KEY_CMD;
    fs.hang = true;
    check_int(&C, "key clear never finishes: reported", DRV_ERR_BUSY_TIMEOUT, ibsec_drv_conn_teardown(&sd, &od, &conn));
    check_true(&C, (sd.key_used & (1u << skey)) && (sd.key_quarantine & (1u << skey)) && sd.n_quarantined == 1,
               "key clear never finishes: that key slot stays allocated, quarantined");
    check_int(&C, "retry while it still hangs: still quarantined", DRV_ERR_BUSY_TIMEOUT, ibsec_drv_retry_quarantine(&sd));
    fs.fail_reg = 0;
    fs.failing = false;
    check_int(&C, "retry after: cleared", DRV_OK, ibsec_drv_retry_quarantine(&sd));
    check_true(&C, sd.key_used == 0 && sd.key_quarantine == 0 && key_entry_zero(&se.keys[skey]),
               "retry: key slot freed and zeroized");
    ibsec_engine_free(&se);
    ibsec_engine_free(&oe);
}

/* ---- 5. attacks ------------------------------------------------------------------- */

/* What the engines of every CA hold: key bitmaps and context counts. */
typedef struct { uint32_t keys[SETUP_MAX_CA][2]; unsigned ctx[SETUP_MAX_CA][2]; } engines_view;

static void view(setup_sim *s, engines_view *v)
{
    memset(v, 0, sizeof *v);
    for (unsigned i = 0; i < s->n_ca; i++) {
        v->keys[i][0] = ibsec_regmodel_read(&s->ca[i].seal_rm, IBSEC_REG_KEY_VALID);
        v->keys[i][1] = ibsec_regmodel_read(&s->ca[i].open_rm, IBSEC_REG_KEY_VALID);
        v->ctx[i][0] = valid_ctx(&s->ca[i].seal_e);
        v->ctx[i][1] = valid_ctx(&s->ca[i].open_e);
    }
}

/* Pop the next message, which must go to `to` with attribute attr. */
static bool pop(setup_sim *s, unsigned to, uint16_t attr, uint8_t mad[IB_MAD_LEN])
{
    setup_msg m;
    if (!setup_next_msg(s, &m) || m.to != to || ((m.mad[16] << 8) | m.mad[17]) != attr) {
        check_failf(&C, "expected a %s to CA %u", ib_cm_attr_name(attr), to);
        return false;
    }
    memcpy(mad, m.mad, IB_MAD_LEN);
    return true;
}

/* Deliver an attack: refused with `want`, counted, engines unchanged; if rej_to >= 0
 * a REJ naming the reason goes back to that CA. */
static void attack(setup_sim *s, const char *name, unsigned to, const uint8_t *mad, size_t len,
                   enum secm_reason want, int rej_to)
{
    engines_view before, after;
    uint64_t n0 = s->ca[to].count[want];
    char what[128];

    view(s, &before);
    enum secm_reason got = setup_deliver(s, to, mad, len);
    view(s, &after);
    snprintf(what, sizeof what, "%s: refused as %s (got %s)", name, secm_reason_name(want), secm_reason_name(got));
    check_true(&C, got == want, what);
    snprintf(what, sizeof what, "%s: counted", name);
    check_true(&C, s->ca[to].count[want] == n0 + 1, what);
    snprintf(what, sizeof what, "%s: nothing programmed", name);
    check_true(&C, memcmp(&before, &after, sizeof before) == 0, what);
    if (rej_to >= 0) {
        uint8_t rej[IB_MAD_LEN];
        struct ib_cm_msg m;
        snprintf(what, sizeof what, "%s: REJ names the reason", name);
        check_true(&C, pop(s, (unsigned)rej_to, IB_CM_ATTR_REJ, rej) &&
                       ib_cm_parse(rej, IB_MAD_LEN, &m) == IB_CM_OK &&
                       m.u.rej.reason == (want == SECM_R_NO_RESOURCES ? IB_CM_REJ_NO_RESOURCES
                                                                      : IB_CM_REJ_CONSUMER) &&
                       secm_rej_get(m.pdata, m.pdata_len) == want &&
                       secm_rej_has_tag(m.pdata, m.pdata_len) &&
                       strcmp((const char *)m.pdata + SECM_OFF_REJ_NAME, secm_reason_name(want)) == 0,
                   what);
    } else {
        snprintf(what, sizeof what, "%s: no answer", name);
        check_true(&C, s->q_len == 0, what);
    }
}

/* Re-tag a REQ in place with the pair key of (a, b) after changing it. */
static void retag_req(setup_sim *s, unsigned from, unsigned to, uint8_t *mad)
{
    uint8_t auth[32];
    kd_pair_auth_key(kd_ca_pair_key(&s->ca[from].keys, s->ca[to].keys.guid), auth);
    secm_tag_put(auth, SECM_L_REQ, s->ca[to].keys.guid, NULL, 0, mad);
}

/* Tag a MAD with the pair key of CA from with CA to, as from would for to. */
static void tag_with_pair(setup_sim *s, unsigned from, unsigned to, enum secm_label l,
                          const uint8_t *chal, size_t chal_len, uint8_t *mad)
{
    uint8_t auth[32];
    kd_pair_auth_key(kd_ca_pair_key(&s->ca[from].keys, s->ca[to].keys.guid), auth);
    secm_tag_put(auth, l, s->ca[to].keys.guid, chal, chal_len, mad);
}

static void test_attacks(void)
{
    setup_sim s;
    setup_request rq = { .ini = 0, .rsp = 1, .mode = IBSEC_MODE_STH_AEAD, .sth_code = 2,
                         .aes256 = false, .pkey = 0x1234 };
    uint8_t req_a[IB_MAD_LEN], rep_a[IB_MAD_LEN], rtu_a[IB_MAD_LEN], mad[IB_MAD_LEN + 8];
    engines_view v0, v1;
    const size_t pd = IB_MAD_HDR_LEN + IB_CM_REQ_PDATA_OFF;

    check_int(&C, "sim init", 0, setup_sim_init(&s, 3, 1000));
    check_int(&C, "keys distributed", 0, setup_distribute_keys(&s, 0x1234));

    /* a legitimate setup, step by step */
    check_true(&C, setup_connect(&s, &rq, 0) >= 0, "connect 0 -> 1");
    pop(&s, 1, IB_CM_ATTR_REQ, req_a);
    check_int(&C, "REQ accepted", SECM_OK, setup_deliver(&s, 1, req_a, IB_MAD_LEN));
    view(&s, &v0);
    check_true(&C, v0.keys[1][0] == 0 && v0.ctx[1][0] == 0, "responder programs nothing before the RTU");
    pop(&s, 0, IB_CM_ATTR_REP, rep_a);
    check_int(&C, "REP accepted", SECM_OK, setup_deliver(&s, 0, rep_a, IB_MAD_LEN));
    pop(&s, 1, IB_CM_ATTR_RTU, rtu_a);
    check_int(&C, "RTU accepted", SECM_OK, setup_deliver(&s, 1, rtu_a, IB_MAD_LEN));
    view(&s, &v1);
    check_true(&C, v1.keys[0][0] == 1 && v1.keys[0][1] == 1 && v1.keys[1][0] == 1 && v1.keys[1][1] == 1 &&
                   v1.ctx[0][0] == 1 && v1.ctx[1][1] == 1,
               "both sides programmed after REQ, REP, RTU");
    setup_conn *ci = setup_conn_at(&s, 0, 0), *cr = setup_conn_at(&s, 1, 0);
    check_true(&C, ci && cr && ci->state == SETUP_ST_ESTABLISHED && cr->state == SETUP_ST_ESTABLISHED,
               "both sides established");
    check_true(&C, ci && cr && memcmp(ci->r, cr->r, 16) == 0, "both sides hold the same R");
    {
        static const uint8_t zero[32];
        const ibsec_key_entry *k0 = &s.ca[0].seal_e.keys[ci->drv.seal_key],
                              *k1 = &s.ca[1].open_e.keys[cr->drv.open_key];
        check_true(&C, k0->key_len == 16 && k1->key_len == 16 && memcmp(k0->key, k1->key, 16) == 0 &&
                       memcmp(k0->key, zero, 16) != 0,
                   "CA 0's seal engine and CA 1's open engine hold the same session key");
        check_true(&C, memcmp(ci->sk, zero, sizeof ci->sk) == 0 && memcmp(cr->sk, zero, sizeof cr->sk) == 0,
                   "neither connection record keeps the session key once programmed");
    }
    setup_traffic_stats st = { 0 };
    setup_traffic(&s, 0, ci, 1, cr, 4, 1, &st);
    check_true(&C, st.opened == 8 && st.mismatched == 0 && st.refused == 0, "traffic on the step-by-step connection");

    /* forged REQ: right format, tag under a key that is not the pair's */
    memcpy(mad, req_a, IB_MAD_LEN);
    mad[pd + SECM_OFF_NONCE] ^= 0x55;
    {
        uint8_t bogus[32];
        kd_random(bogus, 32);
        secm_tag_put(bogus, SECM_L_REQ, s.ca[1].keys.guid, NULL, 0, mad);
    }
    attack(&s, "forged REQ", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    /* an insider: CA 2 (which holds CA_SK_21) sends a REQ that names CA 0 as its sender,
     * tagged with the key it shares with CA 1 */
    {
        uint8_t auth21[32];
        memcpy(mad, req_a, IB_MAD_LEN);
        mad[pd + SECM_OFF_NONCE] ^= 0x33;
        kd_pair_auth_key(kd_ca_pair_key(&s.ca[2].keys, s.ca[1].keys.guid), auth21);
        secm_tag_put(auth21, SECM_L_REQ, s.ca[1].keys.guid, NULL, 0, mad);
        attack(&s, "CA 2 posing as CA 0", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    }
    /* a REQ of 0 -> 2 delivered to 1 (tag for another responder) */
    {
        setup_request r2 = rq;
        r2.rsp = 2;
        setup_connect(&s, &r2, 0);
        pop(&s, 2, IB_CM_ATTR_REQ, mad);
        attack(&s, "REQ meant for another CA", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    }
    /* altered QPN, altered PSN (a fresh legitimate REQ each time) */
    setup_connect(&s, &rq, 0);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    mad[IB_MAD_HDR_LEN + 34] ^= 0x01;
    attack(&s, "REQ with altered QPN", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    setup_connect(&s, &rq, 0);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    mad[IB_MAD_HDR_LEN + 46] ^= 0x80;
    attack(&s, "REQ with altered starting PSN", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    /* replayed old REQ */
    attack(&s, "replayed REQ", 1, req_a, IB_MAD_LEN, SECM_R_REPLAY, 0);
    /* replayed REP: the connection is established, no request waits for it */
    attack(&s, "replayed REP", 0, rep_a, IB_MAD_LEN, SECM_R_UNSOLICITED, -1);
    /* old REP answering a new request: comm ID rewritten to the new request's */
    {
        int idx = setup_connect(&s, &rq, 0);
        pop(&s, 1, IB_CM_ATTR_REQ, mad); /* the new REQ is lost on the way */
        memcpy(mad, rep_a, IB_MAD_LEN);
        uint32_t id = setup_conn_at(&s, 0, (uint32_t)idx)->local_comm_id;
        mad[IB_MAD_HDR_LEN + 4] = (uint8_t)(id >> 24);
        mad[IB_MAD_HDR_LEN + 5] = (uint8_t)(id >> 16);
        mad[IB_MAD_HDR_LEN + 6] = (uint8_t)(id >> 8);
        mad[IB_MAD_HDR_LEN + 7] = (uint8_t)id;
        attack(&s, "old REP for a new request", 0, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
    }
    /* REP for a request never sent */
    memcpy(mad, rep_a, IB_MAD_LEN);
    mad[IB_MAD_HDR_LEN + 4] = 0x00;
    mad[IB_MAD_HDR_LEN + 5] = 0x0F;
    attack(&s, "REP for a request never sent", 0, mad, IB_MAD_LEN, SECM_R_UNSOLICITED, -1);
    /* session key wrapped under the wrong pair key (0,2) while the tag is right (0,1) */
    setup_connect(&s, &rq, 0);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    {
        uint8_t wrap02[32], sk[16];
        kd_pair_wrap_key(kd_ca_pair_key(&s.ca[0].keys, s.ca[2].keys.guid), wrap02);
        kd_random(sk, 16);
        kd_key_wrap(wrap02, sk, 16, mad + pd + SECM_OFF_WRAPPED);
        retag_req(&s, 0, 1, mad);
    }
    attack(&s, "session key under the wrong pair key", 1, mad, IB_MAD_LEN, SECM_R_KEY_UNWRAP, 0);
    /* truncated and over-long MADs */
    setup_connect(&s, &rq, 0);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    attack(&s, "truncated MAD (255 bytes)", 1, mad, IB_MAD_LEN - 1, SECM_R_MAD_TRUNCATED, -1);
    attack(&s, "truncated MAD (24 bytes)", 1, mad, IB_MAD_HDR_LEN, SECM_R_MAD_TRUNCATED, -1);
    memset(mad + IB_MAD_LEN, 0, 8);
    attack(&s, "over-long MAD (264 bytes)", 1, mad, IB_MAD_LEN + 8, SECM_R_MAD_TOO_LONG, -1);
    /* bad PrivateData length: the length byte, and bytes after the block (tags made valid) */
    {
        uint8_t m2[IB_MAD_LEN];
        memcpy(m2, mad, IB_MAD_LEN);
        m2[pd + SECM_OFF_LEN] = SECM_KEYX_LEN - 4;
        retag_req(&s, 0, 1, m2);
        attack(&s, "REQ PrivateData length 88", 1, m2, IB_MAD_LEN, SECM_R_BAD_PDATA_LEN, 0);
        m2[pd + SECM_OFF_FMT] = 0x02;
        m2[pd + SECM_OFF_LEN] = SECM_KEYX_LEN;
        retag_req(&s, 0, 1, m2);
        attack(&s, "REQ PrivateData format 2", 1, m2, IB_MAD_LEN, SECM_R_BAD_FMT, 0);
    }
    {
        /* an RTU whose block claims 92 bytes */
        uint8_t m3[IB_MAD_LEN];
        memcpy(m3, rtu_a, IB_MAD_LEN);
        m3[IB_MAD_HDR_LEN + IB_CM_RTU_PDATA_OFF + SECM_OFF_LEN] = 92;
        attack(&s, "RTU PrivateData length 92", 1, m3, IB_MAD_LEN, SECM_R_BAD_PDATA_LEN, -1);
        memcpy(m3, rtu_a, IB_MAD_LEN);
        m3[IB_MAD_HDR_LEN + IB_CM_RTU_PDATA_OFF + 100] = 1;
        attack(&s, "RTU with bytes after its block", 1, m3, IB_MAD_LEN, SECM_R_BAD_PDATA_LEN, -1);
    }
    /* replay beyond the nonce cache: the TransactionID (the pair's REQ counter, under the
     * tag) is not above the last one accepted from CA 0, so it is refused all the same */
    s.ca[1].replay_fill = 0;
    view(&s, &v0);
    attack(&s, "REQ older than the replay cache", 1, req_a, IB_MAD_LEN, SECM_R_REPLAY, 0);
    attack(&s, "old RTU after an old REQ", 1, rtu_a, IB_MAD_LEN, SECM_R_UNKNOWN_CONN, -1);
    {
        /* the old RTU with its comm IDs pointed at a setup waiting for its RTU: tag fails */
        setup_connect(&s, &rq, 0);
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        check_int(&C, "a fresh REQ after the replays: accepted", SECM_OK, setup_deliver(&s, 1, mad, IB_MAD_LEN));
        pop(&s, 0, IB_CM_ATTR_REP, mad);
        view(&s, &v0);
        setup_conn *nc = setup_conn_at(&s, 1, s.ca[1].last_new);
        uint8_t m4[IB_MAD_LEN];
        memcpy(m4, rtu_a, IB_MAD_LEN);
        uint32_t id = nc->local_comm_id;
        m4[IB_MAD_HDR_LEN + 4] = (uint8_t)(id >> 24);
        m4[IB_MAD_HDR_LEN + 5] = (uint8_t)(id >> 16);
        m4[IB_MAD_HDR_LEN + 6] = (uint8_t)(id >> 8);
        m4[IB_MAD_HDR_LEN + 7] = (uint8_t)id;
        m4[IB_MAD_HDR_LEN + 0] = (uint8_t)(nc->remote_comm_id >> 24);
        m4[IB_MAD_HDR_LEN + 1] = (uint8_t)(nc->remote_comm_id >> 16);
        m4[IB_MAD_HDR_LEN + 2] = (uint8_t)(nc->remote_comm_id >> 8);
        m4[IB_MAD_HDR_LEN + 3] = (uint8_t)nc->remote_comm_id;
        attack(&s, "old RTU re-addressed to a setup in progress", 1, m4, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
        check_true(&C, nc->state == SETUP_ST_REP_SENT && !nc->drv.live, "that setup not programmed");
    }
    view(&s, &v1);
    check_true(&C, memcmp(&v0, &v1, sizeof v0) == 0, "engines unchanged by the old REQ and RTU");
    /* forged DREQ for the live connection: refused, connection stays */
    {
        struct ib_cm_msg m;
        uint8_t bogus[32];
        memset(&m, 0, sizeof m);
        ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_DREQ, 1);
        m.u.dreq.local_comm_id = ci->local_comm_id;
        m.u.dreq.remote_comm_id = cr->local_comm_id;
        m.u.dreq.remote_qpn = cr->local_qpn;
        secm_short_put(m.pdata);
        m.pdata_len = SECM_SHORT_LEN;
        ib_cm_encode(&m, mad);
        kd_random(bogus, 32);
        uint8_t chal[32];
        memcpy(chal, ci->n_i, 16);
        memcpy(chal + 16, ci->n_r, 16);
        secm_tag_put(bogus, SECM_L_DREQ, s.ca[1].keys.guid, chal, 32, mad);
        attack(&s, "forged DREQ", 1, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
        check_true(&C, cr->state == SETUP_ST_ESTABLISHED && cr->drv.live, "connection survives a forged DREQ");
    }
    /* REJ: one naming no setup is unsolicited; an untagged one, or one tagged over the
     * wrong challenge, naming a setup in progress is dropped (bad_mac) and the setup goes
     * on; one tagged over N_i under the pair key ends it, with nothing programmed */
    {
        struct ib_cm_msg m;
        int idx = setup_connect(&s, &rq, 0);
        setup_conn *pc = setup_conn_at(&s, 0, (uint32_t)idx);
        unsigned inflight = s.in_flight, failed = s.failed;
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        memset(&m, 0, sizeof m);
        ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REJ, 5);
        m.u.rej.remote_comm_id = pc->local_comm_id ^ 0x00100000u;
        m.u.rej.reason = IB_CM_REJ_CONSUMER;
        secm_rej_put(SECM_R_NO_RESOURCES, m.pdata);
        m.pdata_len = SECM_SHORT_LEN;
        ib_cm_encode(&m, mad);
        attack(&s, "REJ naming no setup", 0, mad, IB_MAD_LEN, SECM_R_UNSOLICITED, -1);
        m.u.rej.remote_comm_id = pc->local_comm_id;
        ib_cm_encode(&m, mad);
        attack(&s, "untagged REJ of a setup in progress", 0, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
        check_true(&C, pc->state == SETUP_ST_REQ_SENT && s.in_flight == inflight,
                   "the setup goes on after an untagged REJ");
        secm_rej_put_auth(SECM_R_NO_RESOURCES, m.pdata);
        m.pdata_len = SECM_REJ_AUTH_LEN;
        ib_cm_encode(&m, mad);
        {
            uint8_t chal[32];
            memcpy(chal, pc->n_i, 16);
            memset(chal + 16, 0, 16);
            tag_with_pair(&s, 1, 0, SECM_L_REJ, chal, 32, mad);
            attack(&s, "REJ of a setup in progress tagged over N_i || 0", 0, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
            tag_with_pair(&s, 2, 0, SECM_L_REJ, chal, 16, mad);
            attack(&s, "REJ of a setup in progress tagged by another CA", 0, mad, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
            tag_with_pair(&s, 1, 0, SECM_L_REJ, chal, 16, mad);
        }
        attack(&s, "tagged REJ of a setup in progress", 0, mad, IB_MAD_LEN, SECM_R_REJECTED, -1);
        check_true(&C, pc->state == SETUP_ST_CLOSED && pc->end_reason == SECM_R_NO_RESOURCES &&
                       s.in_flight == inflight - 1 && s.failed == failed + 1,
                   "the REJ ended the setup with the reason it named");
    }
    /* the genuine teardown */
    check_int(&C, "DREQ sent", 0, setup_disconnect(&s, 0, ci));
    pop(&s, 1, IB_CM_ATTR_DREQ, mad);
    check_int(&C, "DREQ accepted", SECM_OK, setup_deliver(&s, 1, mad, IB_MAD_LEN));
    pop(&s, 0, IB_CM_ATTR_DREP, mad);
    check_int(&C, "DREP accepted", SECM_OK, setup_deliver(&s, 0, mad, IB_MAD_LEN));
    check_true(&C, ci->state == SETUP_ST_CLOSED && cr->state == SETUP_ST_CLOSED, "both sides closed");
    view(&s, &v1);
    check_true(&C, v1.keys[0][0] == 0 && v1.keys[1][1] == 0 && v1.ctx[0][0] == 0 && v1.ctx[1][1] == 0,
               "teardown cleared both sides");
    check_true(&C, key_entry_zero(&s.ca[0].seal_e.keys[0]) && key_entry_zero(&s.ca[1].open_e.keys[0]),
               "teardown zeroized the key slots");
    setup_traffic_stats st2 = { 0 };
    check_int(&C, "packet on the closed connection: no_context", IBSEC_R_NO_CONTEXT,
              setup_send_one(&s, 0, ci, ci->local_psn + 100, 64, &st2));
    setup_sim_free(&s);
}

/* ---- 5b. deadlines, tagged REJ, engine room ---------------------------------------- */

static void test_deadlines_and_room(void)
{
    setup_sim s;
    setup_request rq = { .ini = 0, .rsp = 1, .mode = IBSEC_MODE_STH_AEAD, .sth_code = 2,
                         .aes256 = true, .pkey = 0x1234 };
    uint8_t mad[IB_MAD_LEN];
    engines_view v0, v1;
    struct ib_cm_msg m;

    check_int(&C, "deadline sim init", 0, setup_sim_init(&s, 3, 1000));
    setup_distribute_keys(&s, 0x1234);
    view(&s, &v0);

    /* the RTU is lost: the responder's deadline passes, it sends a tagged REJ (Timeout),
     * and the initiator, which had programmed its engines, tears the connection down */
    int idx = setup_connect(&s, &rq, 0);
    setup_conn *ci = setup_conn_at(&s, 0, (uint32_t)idx);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    setup_deliver(&s, 1, mad, IB_MAD_LEN);
    setup_conn *cr = setup_conn_at(&s, 1, s.ca[1].last_new);
    pop(&s, 0, IB_CM_ATTR_REP, mad);
    setup_deliver(&s, 0, mad, IB_MAD_LEN);
    pop(&s, 1, IB_CM_ATTR_RTU, mad);           /* lost */
    check_true(&C, ci->state == SETUP_ST_ESTABLISHED && ci->drv.live, "initiator programmed after the REP");
    check_int(&C, "responder holds one reservation", 1, s.ca[1].reserved);
    check_int(&C, "nothing expires before the deadline", 0, setup_expire(&s, s.now_ns + 1000));
    check_int(&C, "the RTU deadline expires", 1, setup_expire(&s, s.now_ns + 2 * SETUP_TIMEOUT_NS));
    check_true(&C, cr->state == SETUP_ST_CLOSED && cr->end_reason == SECM_R_TIMEOUT && !cr->drv.live,
               "responder closed the setup: timeout, nothing programmed");
    check_int(&C, "responder's reservation released", 0, s.ca[1].reserved);
    check_int(&C, "timeout counted", 1, s.ca[1].count[SECM_R_TIMEOUT]);
    check_true(&C, pop(&s, 0, IB_CM_ATTR_REJ, mad) && ib_cm_parse(mad, IB_MAD_LEN, &m) == IB_CM_OK &&
                   m.u.rej.reason == IB_CM_REJ_TIMEOUT && secm_rej_has_tag(m.pdata, m.pdata_len),
               "REJ with Reason 4 (Timeout) and a tag");
    {
        /* the same REJ untagged (a forger without the pair key) does not end the connection */
        struct ib_cm_msg f = m;
        uint8_t fm[IB_MAD_LEN];
        memset(f.pdata, 0, sizeof f.pdata);
        secm_rej_put(SECM_R_TIMEOUT, f.pdata);
        f.pdata_len = SECM_SHORT_LEN;
        ib_cm_encode(&f, fm);
        attack(&s, "untagged REJ for a programmed connection", 0, fm, IB_MAD_LEN, SECM_R_BAD_MAC, -1);
        memcpy(fm, mad, IB_MAD_LEN);
        fm[IB_MAD_HDR_LEN + IB_CM_REJ_PDATA_OFF + SECM_OFF_REJ_TAG] ^= 1;
        attack(&s, "REJ with a bad tag for a programmed connection", 0, fm, IB_MAD_LEN,
               SECM_R_BAD_MAC, -1);
        check_true(&C, ci->state == SETUP_ST_ESTABLISHED && ci->drv.live, "connection survives both");
    }
    check_int(&C, "tagged REJ ends the programmed connection", SECM_R_REJECTED,
              setup_deliver(&s, 0, mad, IB_MAD_LEN));
    check_true(&C, ci->state == SETUP_ST_CLOSED && ci->end_reason == SECM_R_TIMEOUT && !ci->drv.live,
               "initiator tore it down, reason timeout");
    view(&s, &v1);
    check_true(&C, memcmp(&v0, &v1, sizeof v0) == 0, "every engine as before the setup");

    /* a REP that never comes: the initiator's deadline */
    idx = setup_connect(&s, &rq, 0);
    ci = setup_conn_at(&s, 0, (uint32_t)idx);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);           /* lost */
    unsigned inflight = s.in_flight;
    check_int(&C, "the REP deadline expires", 1, setup_expire(&s, s.now_ns + 2 * SETUP_TIMEOUT_NS));
    check_true(&C, ci->state == SETUP_ST_CLOSED && ci->end_reason == SECM_R_TIMEOUT &&
                   s.in_flight == inflight - 1 && s.ca[0].reserved == 0,
               "initiator closed the request, window and reservation released");
    check_true(&C, pop(&s, 1, IB_CM_ATTR_REJ, mad), "and told the responder (REJ)");

    /* engine room: CA 1 has SETUP_KEY_SLOTS key slots per engine; fill them with live
     * connections from CA 0 and CA 2, then one more REQ is refused at once */
    {
        setup_request *fill = calloc(SETUP_KEY_SLOTS, sizeof *fill);
        for (unsigned i = 0; i < SETUP_KEY_SLOTS; i++) {
            fill[i] = rq;
            fill[i].ini = i % 2 ? 2 : 0;
        }
        setup_run(&s, fill, SETUP_KEY_SLOTS, 8);
        free(fill);
    }
    check_int(&C, "CA 1's key slots all in use", 0xFFFFFFFFu,
              ibsec_regmodel_read(&s.ca[1].seal_rm, IBSEC_REG_KEY_VALID));
    view(&s, &v0);
    idx = setup_connect(&s, &rq, 0);
    ci = setup_conn_at(&s, 0, (uint32_t)idx);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    check_int(&C, "REQ to a CA with no engine room: no_resources", SECM_R_NO_RESOURCES,
              setup_deliver(&s, 1, mad, IB_MAD_LEN));
    check_true(&C, ci->state == SETUP_ST_REQ_SENT, "initiator still waiting before the REJ");
    {
        /* the REJ about a verified REQ is tagged over N_i: HMAC computed here */
        uint8_t msg[16 + 8 + 16 + IB_MAD_LEN], want[32], auth[32];
        size_t n = 0, toff = IB_MAD_HDR_LEN + IB_CM_REJ_PDATA_OFF + SECM_OFF_REJ_TAG;
        check_true(&C, pop(&s, 0, IB_CM_ATTR_REJ, mad) && ib_cm_parse(mad, IB_MAD_LEN, &m) == IB_CM_OK &&
                       m.u.rej.reason == IB_CM_REJ_NO_RESOURCES && secm_rej_has_tag(m.pdata, m.pdata_len) &&
                       secm_rej_get(m.pdata, m.pdata_len) == SECM_R_NO_RESOURCES,
                   "REJ Reason 3, tagged, naming no_resources");
        kd_pair_auth_key(kd_ca_pair_key(&s.ca[0].keys, s.ca[1].keys.guid), auth);
        memset(msg, 0, 16);
        memcpy(msg, "ibsec-cm REJ v1", 15);
        n = 16;
        for (int i = 7; i >= 0; i--)
            msg[n++] = (uint8_t)(s.ca[0].keys.guid >> (8 * i));
        memcpy(msg + n, ci->n_i, 16);
        n += 16;
        memcpy(msg + n, mad, IB_MAD_LEN);
        memset(msg + n + toff, 0, 32);
        n += IB_MAD_LEN;
        ref_hmac(auth, 32, msg, n, want);
        check_bytes(&C, "REJ about a REQ: tag = HMAC over label, GUID, N_i, MAD", want, mad + toff, 32);
        check_int(&C, "initiator takes the REJ", SECM_R_REJECTED, setup_deliver(&s, 0, mad, IB_MAD_LEN));
    }
    check_true(&C, ci->state == SETUP_ST_CLOSED && ci->end_reason == SECM_R_NO_RESOURCES &&
                   s.ca[0].reserved == 0,
               "initiator closed the request: no_resources");
    view(&s, &v1);
    check_true(&C, memcmp(&v0, &v1, sizeof v0) == 0, "no engine changed by the refused setup");
    setup_sim_free(&s);
}

/* The loop and a responder with room for one connection at a time: requests it refuses
 * for room (REJ no_resources) are issued again, and all end established. */
static void test_retry_for_room(void)
{
    setup_sim s;
    setup_request fill[SETUP_KEY_SLOTS - 1], rq[8];
    unsigned est0;

    check_int(&C, "retry sim init", 0, setup_sim_init(&s, 3, 1000));
    setup_distribute_keys(&s, 0x1234);
    for (unsigned i = 0; i < SETUP_KEY_SLOTS - 1; i++)
        fill[i] = (setup_request){ .ini = 2, .rsp = 1, .mode = IBSEC_MODE_ICRC_MAC, .pkey = 0x1234 };
    setup_run(&s, fill, SETUP_KEY_SLOTS - 1, 8);      /* live: CA 1 keeps one slot free */
    check_int(&C, "CA 1 has room for one more", 1, ibsec_drv_free_conns(&s.ca[1].seal, &s.ca[1].open));
    est0 = s.established;
    for (unsigned i = 0; i < 8; i++)
        rq[i] = (setup_request){ .ini = 0, .rsp = 1, .mode = IBSEC_MODE_STH_AEAD, .sth_code = 2,
                                 .pkey = 0x1234 };
    s.auto_teardown = true;
    setup_run(&s, rq, 8, 4);
    check_int(&C, "all 8 established through one free slot", 8, s.established - est0);
    check_int(&C, "none failed", 0, s.failed);
    check_true(&C, s.retried > 0, "some were refused for room and issued again");
    check_true(&C, s.ca[1].count[SECM_R_NO_RESOURCES] == s.retried, "each refusal counted at CA 1");
    check_int(&C, "CA 1 back to one free slot", 1, ibsec_drv_free_conns(&s.ca[1].seal, &s.ca[1].open));
    setup_sim_free(&s);
}

/* ---- 5c. teardown: crossing DREQs, a lost DREP -------------------------------------- */

/* Set up rq step by step (REQ, REP, RTU all delivered); the two sides' connections. */
static bool establish(setup_sim *s, const setup_request *rq, setup_conn **ci, setup_conn **cr)
{
    uint8_t mad[IB_MAD_LEN];
    int idx = setup_connect(s, rq, 0);

    *ci = *cr = NULL;
    if (idx < 0 || !pop(s, rq->rsp, IB_CM_ATTR_REQ, mad) ||
        setup_deliver(s, rq->rsp, mad, IB_MAD_LEN) != SECM_OK ||
        !pop(s, rq->ini, IB_CM_ATTR_REP, mad) ||
        setup_deliver(s, rq->ini, mad, IB_MAD_LEN) != SECM_OK ||
        !pop(s, rq->rsp, IB_CM_ATTR_RTU, mad) ||
        setup_deliver(s, rq->rsp, mad, IB_MAD_LEN) != SECM_OK)
        return false;
    *ci = setup_conn_at(s, rq->ini, (uint32_t)idx);
    *cr = setup_find(s, rq->rsp, (*ci)->remote_comm_id);
    return *ci != NULL && *cr != NULL && (*cr)->state == SETUP_ST_ESTABLISHED;
}

/* Every key slot of both engines of CA ca zero, no context, no live driver handle. */
static bool ca_engines_empty(setup_sim *s, unsigned ca)
{
    for (unsigned k = 0; k < SETUP_KEY_SLOTS; k++)
        if (!key_entry_zero(&s->ca[ca].seal_e.keys[k]) || !key_entry_zero(&s->ca[ca].open_e.keys[k]))
            return false;
    return valid_ctx(&s->ca[ca].seal_e) == 0 && valid_ctx(&s->ca[ca].open_e) == 0;
}

static void test_teardown(void)
{
    setup_sim s;
    setup_request rq = { .ini = 0, .rsp = 1, .mode = IBSEC_MODE_STH_AEAD, .sth_code = 2,
                         .aes256 = false, .pkey = 0x1234 };
    uint8_t dreq0[IB_MAD_LEN], dreq1[IB_MAD_LEN], mad[IB_MAD_LEN];
    setup_conn *ci, *cr;

    check_int(&C, "teardown: sim init", 0, setup_sim_init(&s, 2, 1000));
    check_int(&C, "teardown: keys", 0, setup_distribute_keys(&s, 0x1234));
    /* both sides send a DREQ at once: each answers the other's and tears down */
    check_true(&C, establish(&s, &rq, &ci, &cr), "crossing DREQs: established");
    check_int(&C, "crossing DREQs: CA 0 sends DREQ", 0, setup_disconnect(&s, 0, ci));
    check_int(&C, "crossing DREQs: CA 1 sends DREQ", 0, setup_disconnect(&s, 1, cr));
    pop(&s, 1, IB_CM_ATTR_DREQ, dreq0);
    pop(&s, 0, IB_CM_ATTR_DREQ, dreq1);
    check_int(&C, "crossing DREQs: CA 1 accepts CA 0's DREQ", SECM_OK, setup_deliver(&s, 1, dreq0, IB_MAD_LEN));
    check_int(&C, "crossing DREQs: CA 0 accepts CA 1's DREQ", SECM_OK, setup_deliver(&s, 0, dreq1, IB_MAD_LEN));
    check_true(&C, ci->state == SETUP_ST_CLOSED && cr->state == SETUP_ST_CLOSED && !ci->drv.live && !cr->drv.live,
               "crossing DREQs: both sides torn down");
    check_true(&C, ca_engines_empty(&s, 0) && ca_engines_empty(&s, 1),
               "crossing DREQs: every key slot zeroized in both CAs' engines");
    check_int(&C, "crossing DREQs: counted once", 1, s.torn_down);
    /* the DREPs that follow find nothing to end */
    pop(&s, 0, IB_CM_ATTR_DREP, mad);
    check_int(&C, "crossing DREQs: late DREP refused", SECM_R_UNKNOWN_CONN, setup_deliver(&s, 0, mad, IB_MAD_LEN));
    pop(&s, 1, IB_CM_ATTR_DREP, mad);
    check_int(&C, "crossing DREQs: late DREP refused (2)", SECM_R_UNKNOWN_CONN, setup_deliver(&s, 1, mad, IB_MAD_LEN));
    setup_expire(&s, s.now_ns + s.timeout_ns);
    /* a DREQ whose DREP never comes: torn down at the deadline (TimeWait) */
    check_true(&C, establish(&s, &rq, &ci, &cr), "lost DREP: established");
    check_int(&C, "lost DREP: DREQ sent", 0, setup_disconnect(&s, 0, ci));
    pop(&s, 1, IB_CM_ATTR_DREQ, mad);   /* lost */
    uint64_t dl = s.tq[s.tq_head + s.tq_len - 1].deadline;
    check_true(&C, s.tq_len > 0 && s.tq[s.tq_head + s.tq_len - 1].state == SETUP_ST_DREQ_SENT,
               "lost DREP: a deadline armed for the DREQ");
    check_int(&C, "lost DREP: nothing before the deadline", 0, setup_expire(&s, dl - 1));
    check_true(&C, ci->state == SETUP_ST_DREQ_SENT, "lost DREP: still waiting before the deadline");
    check_int(&C, "lost DREP: the deadline ends it", 1, setup_expire(&s, dl));
    check_true(&C, ci->state == SETUP_ST_CLOSED && !ci->drv.live && ca_engines_empty(&s, 0) &&
                   ci->end_reason == SECM_R_TIMEOUT,
               "lost DREP: initiator torn down, its key slots zeroized");
    check_true(&C, s.q_len == 0, "lost DREP: nothing sent at the deadline");
    /* CA 1's seal engine refuses the context clear at teardown: reported up */
    {
        fault_bus fs;
        memset(&fs, 0, sizeof fs);
        fs.inner = s.ca[1].seal.bus;
        check_true(&C, establish(&s, &rq, &ci, &cr), "refused clear: established");
        s.ca[1].seal.bus = (ibsec_drv_bus){ .ctx = &fs, .write = fb_write, .read = fb_read };
        fs.fail_reg = IBSEC_REG_CTX_CMD;
        unsigned qctx = cr->drv.seal_ctx;
        check_int(&C, "refused clear: DREQ sent", 0, setup_disconnect(&s, 0, ci));
        pop(&s, 1, IB_CM_ATTR_DREQ, mad);
        check_int(&C, "refused clear: the DREQ's handling reports driver", SECM_R_DRIVER,
                  setup_deliver(&s, 1, mad, IB_MAD_LEN));
        check_true(&C, cr->state == SETUP_ST_CLOSED && s.ca[1].drv_quarantine_events == 1 &&
                       s.ca[1].count[SECM_R_DRIVER] >= 1 && s.ca[1].seal.ctx_quarantine[qctx],
                   "refused clear: closed, counted, the context quarantined");
        check_true(&C, pop(&s, 0, IB_CM_ATTR_DREP, mad) && setup_deliver(&s, 0, mad, IB_MAD_LEN) == SECM_OK,
                   "refused clear: the DREP still goes out and ends the peer's side");
        fs.fail_reg = 0;
        check_int(&C, "refused clear: retried later", DRV_OK, ibsec_drv_retry_quarantine(&s.ca[1].seal));
        s.ca[1].seal.bus = fs.inner;
    }
    setup_sim_free(&s);
}

/* ---- 5d. state a peer can make a responder hold ------------------------------------ */

static void test_replay_state(void)
{
    setup_sim s;
    setup_request rq = { .ini = 0, .rsp = 1, .mode = IBSEC_MODE_ICRC_MAC, .pkey = 0x1234 };
    setup_request r2 = { .ini = 2, .rsp = 1, .mode = IBSEC_MODE_ICRC_MAC, .pkey = 0x1234 };
    uint8_t mad[IB_MAD_LEN];
    unsigned ok = 0;

    check_int(&C, "state: sim init", 0, setup_sim_init(&s, 3, 1000));
    check_int(&C, "state: keys", 0, setup_distribute_keys(&s, 0x1234));
    /* one peer holds at most SETUP_PEER_PENDING setups at a responder */
    for (unsigned i = 0; i < SETUP_PEER_PENDING; i++) {
        setup_connect(&s, &rq, i);
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        ok += setup_deliver(&s, 1, mad, IB_MAD_LEN) == SECM_OK;
        pop(&s, 0, IB_CM_ATTR_REP, mad);                 /* REPs lost */
    }
    check_int(&C, "state: SETUP_PEER_PENDING REQs from CA 0 accepted", SETUP_PEER_PENDING, ok);
    check_int(&C, "state: CA 1 holds them for CA 0", SETUP_PEER_PENDING, s.ca[1].pending_from[0]);
    setup_connect(&s, &rq, 99);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    attack(&s, "one REQ more from the same peer", 1, mad, IB_MAD_LEN, SECM_R_NO_RESOURCES, 0);
    setup_connect(&s, &r2, 100);
    pop(&s, 1, IB_CM_ATTR_REQ, mad);
    check_int(&C, "state: another peer still gets in", SECM_OK, setup_deliver(&s, 1, mad, IB_MAD_LEN));
    pop(&s, 2, IB_CM_ATTR_REP, mad);
    setup_expire(&s, s.now_ns + 2 * SETUP_TIMEOUT_NS);
    while (s.q_len > 0)
        setup_next_msg(&s, &(setup_msg){ 0 });
    check_true(&C, s.ca[1].pending_from[0] == 0 && s.ca[1].pending_from[2] == 0 && s.ca[1].reserved == 0,
               "state: the deadlines release every pending setup");
    /* records are reused: a run of many setups keeps the number of records bounded, a
     * reused record gets a new comm ID (generation), and the old ID finds nothing */
    setup_conn *r0 = setup_conn_at(&s, 1, 0);
    uint32_t old_id = r0->local_comm_id;
    unsigned n_before = s.ca[1].n_conn;
    {
        setup_request *many = calloc(400, sizeof *many);
        for (unsigned i = 0; i < 400; i++)
            many[i] = rq;
        s.auto_teardown = true;
        setup_run(&s, many, 400, 4);
        free(many);
    }
    check_true(&C, s.established >= 400, "state: 400 more setups established");
    check_true(&C, s.ca[1].n_conn < n_before + 64, "state: CA 1's records reused (bounded)");
    check_true(&C, setup_conn_at(&s, 1, 0) == r0, "state: a record never moves");
    check_true(&C, r0->local_comm_id != old_id &&
                   (r0->local_comm_id & SETUP_COMM_INDEX_MASK) == (old_id & SETUP_COMM_INDEX_MASK),
               "state: the reused record has a new generation in its comm ID");
    check_true(&C, setup_find(&s, 1, old_id) == NULL, "state: the old comm ID names nothing");
    /* QPNs are each CA's own: two peers of CA 0 that use the same QPN clash in CA 0's
     * seal engine, whose contexts are selected by the peer's QPN alone (docs §10) */
    {
        setup_sim q;
        setup_conn *a, *b;
        setup_request r01 = rq, r02 = rq;
        r02.rsp = 2;
        setup_sim_init(&q, 3, 1000);
        setup_distribute_keys(&q, 0x1234);
        q.ca[2].next_qpn = q.ca[1].next_qpn;            /* CA 2 will pick CA 1's QPN */
        check_true(&C, establish(&q, &r01, &a, &b), "QPN clash: 0 -> 1 established");
        int idx = setup_connect(&q, &r02, 0);
        pop(&q, 2, IB_CM_ATTR_REQ, mad);
        check_int(&C, "QPN clash: CA 2 accepts the REQ", SECM_OK, setup_deliver(&q, 2, mad, IB_MAD_LEN));
        pop(&q, 0, IB_CM_ATTR_REP, mad);
        check_int(&C, "QPN clash: CA 0 cannot program a second seal context for the same peer QPN",
                  SECM_R_DRIVER, setup_deliver(&q, 0, mad, IB_MAD_LEN));
        check_true(&C, setup_conn_at(&q, 0, (uint32_t)idx)->state == SETUP_ST_CLOSED && a->state == SETUP_ST_ESTABLISHED,
                   "QPN clash: the second setup fails, the first connection stays");
        setup_sim_free(&q);
    }
    setup_sim_free(&s);
}

/* ---- 5e. failures of the RNG and of libcrypto --------------------------------------- */

static void test_crypto_failures(void)
{
    setup_sim s;
    setup_request rq = { .ini = 0, .rsp = 1, .mode = IBSEC_MODE_STH_AEAD, .sth_code = 2,
                         .pkey = 0x1234 };
    uint8_t key[32], mad[IB_MAD_LEN], tag[32], out[32], r16[16];
    static const uint8_t zero[32];
    struct ib_cm_msg m;

    /* the primitives: a failed HMAC gives -1 and a zero output, never a tag that verifies */
    fill_bytes(key, 32, 3);
    sample_req(&m);
    m.pdata_len = SECM_KEYX_LEN;
    ib_cm_encode(&m, mad);
    memset(mad + secm_tag_off(IB_CM_ATTR_REQ), 0, 32);
    kd_fault_inject(0, 1);
    check_int(&C, "HMAC fails: secm_tag_compute -1", -1, secm_tag_compute(key, SECM_L_REQ, 1, NULL, 0, mad, tag));
    check_bytes(&C, "HMAC fails: tag zeroed", zero, tag, 32);
    kd_fault_inject(0, 1);
    check_int(&C, "HMAC fails: a zero tag is not accepted", SECM_R_CRYPTO,
              secm_tag_check(key, SECM_L_REQ, 1, NULL, 0, mad));
    kd_fault_inject(0, 1);
    check_int(&C, "HMAC fails: secm_tag_put -1", -1, secm_tag_put(key, SECM_L_REQ, 1, NULL, 0, mad));
    kd_fault_inject(0, 1);
    memset(out, 0xAA, 32);
    check_true(&C, kd_pair_auth_key(key, out) == -1 && memcmp(out, zero, 32) == 0, "HMAC fails: auth key -1, zeroed");
    kd_fault_inject(0, 1);
    memset(r16, 0xAA, 16);
    check_true(&C, kd_agreed_random(key, key, key + 16, r16) == -1 && memcmp(r16, zero, 16) == 0,
               "HMAC fails: R -1, zeroed");
    kd_fault_inject(1, 0);
    check_int(&C, "RNG fails: kd_random -1", -1, kd_random(out, 16));
    kd_fault_inject(0, 0);

    check_int(&C, "failures: sim init", 0, setup_sim_init(&s, 3, 1000));
    check_int(&C, "failures: keys", 0, setup_distribute_keys(&s, 0x1234));
    /* initiator: the RNG fails at the first, second, third and fourth draw of a REQ */
    for (unsigned nth = 1; nth <= 4; nth++) {
        char what[96];
        uint64_t n0 = s.ca[0].count[SECM_R_CRYPTO];
        kd_fault_inject(nth, 0);
        int rc = setup_connect(&s, &rq, 0);
        kd_fault_inject(0, 0);
        snprintf(what, sizeof what, "REQ, RNG draw %u fails: no REQ, nothing held, crypto_failed counted", nth);
        check_true(&C, rc < 0 && s.q_len == 0 && s.in_flight == 0 && s.ca[0].reserved == 0 &&
                       s.ca[0].count[SECM_R_CRYPTO] == n0 + 1, what);
    }
    /* an HMAC failure while tagging the REQ */
    kd_fault_inject(0, 3);
    check_true(&C, setup_connect(&s, &rq, 0) < 0 && s.q_len == 0 && s.ca[0].reserved == 0,
               "REQ tag fails: no REQ, nothing held");
    kd_fault_inject(0, 0);
    /* responder: the RNG fails making the REP (comm ID, PSN or N_r): tagged REJ
     * crypto_failed, nothing held */
    for (unsigned nth = 1; nth <= 2; nth++) {
        char what[96];
        setup_connect(&s, &rq, 0);
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        kd_fault_inject(nth, 0);
        enum secm_reason got = setup_deliver(&s, 1, mad, IB_MAD_LEN);
        kd_fault_inject(0, 0);
        snprintf(what, sizeof what, "REP, RNG draw %u fails: crypto_failed, nothing held", nth);
        check_true(&C, got == SECM_R_CRYPTO && s.ca[1].reserved == 0 && s.ca[1].pending_from[0] == 0, what);
        check_true(&C, pop(&s, 0, IB_CM_ATTR_REJ, mad) && ib_cm_parse(mad, IB_MAD_LEN, &m) == IB_CM_OK &&
                       secm_rej_get(m.pdata, m.pdata_len) == SECM_R_CRYPTO && secm_rej_has_tag(m.pdata, m.pdata_len),
                   "the REJ names crypto_failed");
        check_int(&C, "the initiator takes it", SECM_R_REJECTED, setup_deliver(&s, 0, mad, IB_MAD_LEN));
    }
    /* responder: HMAC fails deriving the pair keys, or checking the tag: dropped */
    for (unsigned nth = 1; nth <= 3; nth += 2) {
        char what[96];
        setup_connect(&s, &rq, 0);
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        kd_fault_inject(0, nth);
        enum secm_reason got = setup_deliver(&s, 1, mad, IB_MAD_LEN);
        kd_fault_inject(0, 0);
        snprintf(what, sizeof what, "REQ check, HMAC %u fails: crypto_failed, no answer, nothing held", nth);
        check_true(&C, got == SECM_R_CRYPTO && s.q_len == 0 && s.ca[1].reserved == 0, what);
    }
    /* initiator: HMAC fails deriving R after a good REP: aborted, engines untouched */
    {
        engines_view v0, v1;
        int idx = setup_connect(&s, &rq, 0);
        pop(&s, 1, IB_CM_ATTR_REQ, mad);
        setup_deliver(&s, 1, mad, IB_MAD_LEN);
        pop(&s, 0, IB_CM_ATTR_REP, mad);
        view(&s, &v0);
        kd_fault_inject(0, 3);          /* pair auth key, tag check, then R */
        enum secm_reason got = setup_deliver(&s, 0, mad, IB_MAD_LEN);
        kd_fault_inject(0, 0);
        view(&s, &v1);
        setup_conn *c = setup_conn_at(&s, 0, (uint32_t)idx);
        check_true(&C, got == SECM_R_CRYPTO && c->state == SETUP_ST_CLOSED && c->end_reason == SECM_R_CRYPTO &&
                       memcmp(&v0, &v1, sizeof v0) == 0,
                   "REP, R fails: setup aborted with crypto_failed, nothing programmed");
    }
    setup_sim_free(&s);
}

/* ---- 6. end to end ---------------------------------------------------------------- */

typedef struct { setup_traffic_stats st; unsigned hooked, both_programmed; } e2e_state;

static void on_est(setup_sim *s, unsigned ini, setup_conn *ci, unsigned rsp, setup_conn *cr, void *arg)
{
    e2e_state *e = arg;
    e->hooked++;
    e->both_programmed += ci->drv.live && cr->drv.live &&
                          s->ca[ini].seal_e.ctx[ci->drv.seal_ctx].valid &&
                          s->ca[rsp].open_e.ctx[cr->drv.open_ctx].valid;
    setup_traffic(s, ini, ci, rsp, cr, 4, ci->app_tag, &e->st);
}

static void test_end_to_end(unsigned n)
{
    static const struct { uint8_t mode, sth; } modes[4] = {
        { IBSEC_MODE_ICRC_MAC, 0 }, { IBSEC_MODE_STH_HDR, 2 }, { IBSEC_MODE_STH_PKT, 1 },
        { IBSEC_MODE_STH_AEAD, 2 },
    };
    setup_sim s;
    e2e_state e;
    setup_request *rq = calloc(n, sizeof *rq);
    char what[96];

    memset(&e, 0, sizeof e);
    check_int(&C, "e2e sim init", 0, setup_sim_init(&s, 3, 1000));
    check_int(&C, "e2e keys distributed", 0, setup_distribute_keys(&s, 0x1234));
    for (unsigned i = 0; i < n; i++) {
        rq[i].ini = i % 3;
        rq[i].rsp = (i + 1 + (i / 3) % 2) % 3;
        rq[i].mode = modes[i % 4].mode;
        rq[i].sth_code = modes[i % 4].sth;
        rq[i].aes256 = (i / 4) % 2;
        rq[i].pkey = 0x1234;
    }
    s.on_established = on_est;
    s.hook_arg = &e;
    s.auto_teardown = true;
    setup_run(&s, rq, n, 8);
    snprintf(what, sizeof what, "%u connections established", n);
    check_int(&C, what, n, s.established);
    check_int(&C, "no setup failed", 0, s.failed);
    check_int(&C, "every connection programmed on both sides", n, e.both_programmed);
    check_int(&C, "every connection torn down", n, s.torn_down);
    check_int(&C, "packets sealed", 8ull * n, e.st.sealed);
    check_int(&C, "packets opened", 8ull * n, e.st.opened);
    check_int(&C, "opened packets equal the plain ones", 0, e.st.mismatched);
    check_int(&C, "packets refused", 0, e.st.refused);
    unsigned left = 0, refused = 0;
    for (unsigned i = 0; i < s.n_ca; i++) {
        left += valid_ctx(&s.ca[i].seal_e) + valid_ctx(&s.ca[i].open_e);
        left += ibsec_regmodel_read(&s.ca[i].seal_rm, IBSEC_REG_KEY_VALID) != 0;
        left += ibsec_regmodel_read(&s.ca[i].open_rm, IBSEC_REG_KEY_VALID) != 0;
        for (unsigned k = 0; k < SETUP_KEY_SLOTS; k++)
            left += !key_entry_zero(&s.ca[i].seal_e.keys[k]) + !key_entry_zero(&s.ca[i].open_e.keys[k]);
        for (unsigned r = 1; r < SECM_R_COUNT; r++)
            refused += (unsigned)s.ca[i].count[r];
    }
    check_int(&C, "engines empty and zeroized at the end", 0, left);
    check_int(&C, "no message refused in a clean run", 0, refused);
    printf("setup: %u connections over 3 CAs, window 8: %u established (%u issued again after a "
           "REJ for room), %llu packets sealed and opened, simulated setup time %.1f us\n", n,
           s.established, s.retried, (unsigned long long)e.st.opened,
           (double)s.t_last_established / 1000.0);
    setup_sim_free(&s);
    free(rq);
}

int main(int argc, char **argv)
{
    unsigned n = 64;
    bool lng = false;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc)
            n = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--long") == 0)
            lng = true;
        else {
            fprintf(stderr, "usage: test_setup [--conns N] [--long]\n");
            return 2;
        }
    }
    check_init(&C, "setup");
    if (!lng) {
        test_cm_req_layout();
        test_cm_other_layouts();
        test_cm_errors();
        test_hmac();
        test_keydist();
        test_driver();
        test_driver_quarantine();
        test_attacks();
        test_deadlines_and_room();
        test_retry_for_room();
        test_teardown();
        test_replay_state();
        test_crypto_failures();
    }
    test_end_to_end(n);
    return setup_check_summary(&C);
}
