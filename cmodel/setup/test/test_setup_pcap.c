/*
 * test_setup_pcap.c — the CM MADs of a setup run as InfiniBand packets in a pcap, read
 * back by the model and decoded by Wireshark's InfiniBand dissector (tshark), which is
 * not our code: every field tshark prints must be what the CA meant to send.
 *
 * The run: 3 CAs, --conns N connections (default 8) set up (REQ, REP, RTU) and torn down
 * (DREQ, DREP), one forged REQ (dropped unanswered) and one REQ with a good tag but a
 * bad block, answered with a tagged REJ.  Each MAD goes out as LRH + BTH
 * (UD SEND only, DestQP 1) + DETH + MAD + ICRC + VCRC (cm_wire.h) in a LINKTYPE_INFINIBAND
 * file.
 *
 * Checks:
 *   - the model reads every record back as a 290-byte packet with a good ICRC and VCRC;
 *   - tshark shows the same number of frames, every one as InfiniBand CM with the
 *     attribute we sent, BTH DestQP 1, DETH Q_Key 0x80010000, and our ICRC and VCRC;
 *   - REQ: Local Communication ID, Local QPN, Starting PSN and P_Key equal what the
 *     initiator's connection record holds, and PrivateData equals the bytes sent;
 *     REP: Local QPN, Starting PSN (the responder's record) and PrivateData; RTU, DREQ
 *     (and its Remote QPN), DREP: PrivateData; REJ: Reason 28 and PrivateData;
 *   - `tshark -V` prints no "Malformed".
 * Wireshark 4.0 has no pcap mapping for link type 247, so tshark gets a copy whose link
 * type is DLT_USER0 (147) mapped to the "infiniband" dissector; the bytes are the same.
 *
 * Usage: test_setup_pcap --out FILE.pcap [--conns N]   (make test: N = 64)
 */
#include <stdlib.h>
#include <string.h>

#include "cm_wire.h"
#include "crc.h"
#include "ib_pkt.h"
#include "setup.h"
#include "setup_check.h"

#define MAX_FRAMES 4096
#define USER_DLT "uat:user_dlts:\"User 0 (DLT=147)\",\"infiniband\",\"0\",\"\",\"0\",\"\""

static check_ctx C;

struct frame {
    uint8_t  pkt[CM_WIRE_PKT_LEN];
    size_t   len;
    struct ib_cm_msg m;
    uint16_t slid;
};

static struct frame F[MAX_FRAMES];
static unsigned NF;

static void hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
    out[2 * n] = 0;
}

/* Split a tab-separated line in place into at most max fields (empty fields kept). */
static unsigned split_tabs(char *line, char **f, unsigned max)
{
    unsigned n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = 0;
    while (n < max) {
        f[n++] = p;
        p = strchr(p, '\t');
        if (p == NULL)
            break;
        *p++ = 0;
    }
    return n;
}

static unsigned long long num(const char *s)
{
    return strtoull(s, NULL, 0);
}

/* Both sides' connection records as they were when established: the library reuses a
 * closed record for a later connection, so the records are copied here for the checks. */
typedef struct { unsigned ca; setup_conn c; } conn_copy;
static conn_copy Copies[2 * (MAX_FRAMES / 5 + 1)];
static unsigned NCopies;

static void keep(setup_sim *s, unsigned ini, setup_conn *ci, unsigned rsp, setup_conn *cr, void *arg)
{
    (void)s;
    (void)arg;
    if (NCopies + 2 > sizeof Copies / sizeof Copies[0])
        return;
    Copies[NCopies].ca = ini;
    Copies[NCopies++].c = *ci;
    Copies[NCopies].ca = rsp;
    Copies[NCopies++].c = *cr;
    memset(Copies[NCopies - 1].c.sk, 0, sizeof Copies[0].c.sk);
    memset(Copies[NCopies - 2].c.sk, 0, sizeof Copies[0].c.sk);
}

/* Run the setup and write the pcap; returns 0 on success. */
static int write_run(const char *path, setup_sim *s, unsigned n)
{
    ibsec_pcap_writer w;
    setup_request *rq = calloc(n, sizeof *rq);
    static const uint8_t modes[4][2] = { { IBSEC_MODE_ICRC_MAC, 0 }, { IBSEC_MODE_STH_HDR, 2 },
                                         { IBSEC_MODE_STH_PKT, 1 }, { IBSEC_MODE_STH_AEAD, 2 } };

    if (rq == NULL || setup_sim_init(s, 3, 2000) != 0 || setup_distribute_keys(s, 0x1234) != 0)
        return -1;
    if (ibsec_pcap_writer_open(&w, path, IBSEC_LINKTYPE_INFINIBAND) != 0) {
        fprintf(stderr, "%s\n", w.err);
        return -1;
    }
    s->pcap = &w;
    s->auto_teardown = true;
    s->on_established = keep;
    for (unsigned i = 0; i < n; i++) {
        rq[i].ini = i % 3;
        rq[i].rsp = (i + 1) % 3;
        rq[i].mode = modes[i % 4][0];
        rq[i].sth_code = modes[i % 4][1];
        rq[i].aes256 = i & 1;
        rq[i].pkey = (uint16_t)(0x1234 + i % 64);
    }
    setup_run(s, rq, n, 4);
    free(rq);
    check_int(&C, "connections established", n, s->established);
    check_int(&C, "connections torn down", n, s->torn_down);
    /* a forged REQ (tag under a random key) from CA 2 posing as CA 0: dropped unanswered */
    {
        struct ib_cm_msg m;
        uint8_t mad[IB_MAD_LEN], bogus[32];
        struct secm_keyx kx;
        memset(&m, 0, sizeof m);
        memset(&kx, 0, sizeof kx);
        ib_cm_hdr_init(&m.hdr, IB_CM_ATTR_REQ, 0xBAD);
        m.u.req.local_comm_id = 0xBAD;
        m.u.req.service_id = SETUP_SERVICE_ID;
        m.u.req.local_ca_guid = s->ca[0].keys.guid;
        m.u.req.local_qpn = 0xBADBAD;
        m.u.req.starting_psn = 0x123456;
        m.u.req.pkey = 0x1234;
        kx.mode = IBSEC_MODE_STH_AEAD;
        kx.sth_code = 2;
        kd_random(kx.nonce, sizeof kx.nonce);
        secm_keyx_put(&kx, m.pdata);
        m.pdata_len = SECM_KEYX_LEN;
        ib_cm_encode(&m, mad);
        kd_random(bogus, sizeof bogus);
        secm_tag_put(bogus, SECM_L_REQ, s->ca[1].keys.guid, NULL, 0, mad);
        cm_wire_pcap(&w, mad, s->ca[2].lid, s->ca[1].lid, 0, s->now_ns / 1000 + 1);
        check_int(&C, "forged REQ refused", SECM_R_BAD_MAC, setup_deliver(s, 1, mad, IB_MAD_LEN));
        check_true(&C, s->q_len == 0, "forged REQ: no answer");
        /* a REQ with a good tag from CA 0 but a mode the block does not allow: a tagged
         * REJ naming bad_pdata */
        uint8_t auth[32];
        kx.mode = IBSEC_MODE_NONE;
        kd_random(kx.nonce, sizeof kx.nonce);
        secm_keyx_put(&kx, m.pdata);
        ib_cm_encode(&m, mad);
        kd_pair_auth_key(kd_ca_pair_key(&s->ca[0].keys, s->ca[1].keys.guid), auth);
        secm_tag_put(auth, SECM_L_REQ, s->ca[1].keys.guid, NULL, 0, mad);
        cm_wire_pcap(&w, mad, s->ca[0].lid, s->ca[1].lid, 0, s->now_ns / 1000 + 2);
        check_int(&C, "REQ with mode none refused", SECM_R_BAD_PDATA, setup_deliver(s, 1, mad, IB_MAD_LEN));
        setup_run(s, NULL, 0, 1); /* flush the REJ onto the wire */
    }
    s->pcap = NULL;
    return ibsec_pcap_writer_close(&w);
}

/* Read the pcap back with the model: packets, CRCs, MADs. */
static void read_back(const char *path)
{
    ibsec_pcap_reader r;
    uint8_t buf[2048];
    size_t len;
    uint32_t sec, usec;

    if (!check_true(&C, ibsec_pcap_reader_open(&r, path) == 0, "pcap opens"))
        return;
    check_int(&C, "link type 247", IBSEC_LINKTYPE_INFINIBAND, r.linktype);
    while (NF < MAX_FRAMES && ibsec_pcap_read(&r, buf, sizeof buf, &len, &sec, &usec) == 1) {
        struct frame *f = &F[NF++];
        struct ibsec_pkt p;
        check_int(&C, "packet length 290", CM_WIRE_PKT_LEN, len);
        if (len != CM_WIRE_PKT_LEN)
            continue;
        memcpy(f->pkt, buf, len);
        f->len = len;
        check_true(&C, ibsec_pkt_parse(buf, len, IBSEC_LINK_IB, 0, &p) == IBSEC_PKT_OK &&
                       ibsec_pkt_check_crcs(buf, &p) == IBSEC_PKT_OK,
                   "model parses the packet, ICRC and VCRC good");
        f->slid = ibsec_get_be16(buf + 6);
        check_int(&C, "MAD parses", IB_CM_OK, ib_cm_parse(buf + 28, IB_MAD_LEN, &f->m));
    }
    ibsec_pcap_reader_close(&r);
}

/* A copy of the pcap with link type DLT_USER0 for tshark. */
static int user_dlt_copy(const char *in, const char *out)
{
    FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");
    uint8_t b[4096];
    size_t n, total = 0;
    int rc = (fi && fo) ? 0 : -1;

    while (rc == 0 && (n = fread(b, 1, sizeof b, fi)) > 0) {
        if (total == 0 && n >= 24) {
            b[20] = 147; b[21] = 0; b[22] = 0; b[23] = 0;   /* little-endian header */
        }
        total += n;
        if (fwrite(b, 1, n, fo) != n)
            rc = -1;
    }
    if (fi) fclose(fi);
    if (fo && fclose(fo) != 0) rc = -1;
    return rc;
}

/* The connection record of CA ca with local communication ID id. */
static const setup_conn *rec(setup_sim *s, unsigned ca, uint32_t id)
{
    (void)s;
    for (unsigned i = 0; i < NCopies; i++)
        if (Copies[i].ca == ca && Copies[i].c.local_comm_id == id)
            return &Copies[i].c;
    return NULL;
}

enum { F_NUM, F_ATTR, F_DESTQP, F_QKEY, F_ICRC, F_VCRC, F_REQ_ID, F_REQ_QPN, F_REQ_PSN,
       F_REQ_PKEY, F_REQ_PD, F_REP_ID, F_REP_QPN, F_REP_PSN, F_REP_PD, F_RTU_PD, F_REJ_REASON,
       F_REJ_PD, F_DREQ_QPN, F_DREQ_PD, F_DREP_PD, F_COUNT };

static void compare_tshark(const char *pcap, setup_sim *s)
{
    char cmd[2048], line[8192], want[600];
    char *f[F_COUNT + 1];
    unsigned rows = 0;
    FILE *p;

    snprintf(cmd, sizeof cmd,
             "tshark -r '%s' -o '" USER_DLT "' -T fields -E separator=/t "
             "-e frame.number -e infiniband.mad.attributeid -e infiniband.bth.destqp "
             "-e infiniband.deth.q_key -e infiniband.invariant.crc -e infiniband.variant.crc "
             "-e infiniband.cm.req -e infiniband.cm.req.localqpn -e infiniband.cm.req.startpsn "
             "-e infiniband.cm.req.pkey -e infiniband.cm.req.private "
             "-e infiniband.cm.rep -e infiniband.cm.rep.localqpn -e infiniband.cm.rep.startpsn "
             "-e infiniband.cm.rep.private -e infiniband.cm.rtu.private "
             "-e infiniband.cm.rej.reason -e infiniband.cm.rej.private "
             "-e infiniband.cm.req.remoteqpneecn -e infiniband.cm.dreq.private "
             "-e infiniband.cm.drsp.private 2>/dev/null", pcap);
    p = popen(cmd, "r");
    if (!check_true(&C, p != NULL, "tshark runs"))
        return;
    while (fgets(line, sizeof line, p) != NULL) {
        unsigned n = split_tabs(line, f, F_COUNT);
        unsigned i = (unsigned)num(f[0]) - 1;
        char what[96];
        if (n != F_COUNT || i >= NF) {
            check_failf(&C, "tshark row %u: %u fields", rows, n);
            continue;
        }
        rows++;
        const struct frame *fr = &F[i];
        const struct ib_cm_msg *m = &fr->m;
        unsigned ca = fr->slid - 1u;
        snprintf(what, sizeof what, "frame %u (%s)", i + 1, ib_cm_attr_name(m->hdr.attr_id));
        check_int(&C, what, m->hdr.attr_id, num(f[F_ATTR]));
        check_int(&C, "BTH DestQP 1", 1, num(f[F_DESTQP]));
        check_int(&C, "DETH Q_Key", IB_QP1_QKEY, num(f[F_QKEY]));
        /* tshark shows the CRC bytes as a big-endian number of the bytes on the wire */
        check_int(&C, "ICRC as tshark shows it", ibsec_get_be32(fr->pkt + 28 + IB_MAD_LEN), num(f[F_ICRC]));
        check_int(&C, "VCRC as tshark shows it", ibsec_get_be16(fr->pkt + 32 + IB_MAD_LEN), num(f[F_VCRC]));
        switch (m->hdr.attr_id) {
        case IB_CM_ATTR_REQ: {
            const setup_conn *c = rec(s, ca, m->u.req.local_comm_id);
            check_int(&C, "REQ Local Communication ID", m->u.req.local_comm_id, num(f[F_REQ_ID]));
            check_int(&C, "REQ Local QPN", m->u.req.local_qpn, num(f[F_REQ_QPN]));
            check_int(&C, "REQ Starting PSN", m->u.req.starting_psn, num(f[F_REQ_PSN]));
            check_int(&C, "REQ P_Key", m->u.req.pkey, num(f[F_REQ_PKEY]));
            if (m->u.req.local_comm_id != 0xBAD) {
                check_true(&C, c != NULL && c->initiator && c->local_qpn == num(f[F_REQ_QPN]) &&
                               c->local_psn == num(f[F_REQ_PSN]) && c->pkey == num(f[F_REQ_PKEY]),
                           "REQ fields are the initiator's QPN, PSN, P_Key");
            }
            hex(m->pdata, IB_CM_REQ_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_REQ_PD]) == 0, "REQ PrivateData");
            break;
        }
        case IB_CM_ATTR_REP: {
            const setup_conn *c = rec(s, ca, m->u.rep.local_comm_id);
            check_int(&C, "REP Local Communication ID", m->u.rep.local_comm_id, num(f[F_REP_ID]));
            check_true(&C, c != NULL && !c->initiator && c->local_qpn == num(f[F_REP_QPN]) &&
                           c->local_psn == num(f[F_REP_PSN]),
                       "REP Local QPN and Starting PSN are the responder's");
            hex(m->pdata, IB_CM_REP_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_REP_PD]) == 0, "REP PrivateData");
            break;
        }
        case IB_CM_ATTR_RTU:
            hex(m->pdata, IB_CM_RTU_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_RTU_PD]) == 0, "RTU PrivateData");
            break;
        case IB_CM_ATTR_REJ:
            check_int(&C, "REJ Reason (consumer)", IB_CM_REJ_CONSUMER, num(f[F_REJ_REASON]));
            hex(m->pdata, IB_CM_REJ_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_REJ_PD]) == 0, "REJ PrivateData");
            check_true(&C, strcmp((const char *)m->pdata + SECM_OFF_REJ_NAME, "bad_pdata") == 0,
                       "REJ names bad_pdata");
            check_true(&C, secm_rej_has_tag(m->pdata, m->pdata_len), "REJ carries a tag");
            break;
        case IB_CM_ATTR_DREQ:
            check_int(&C, "DREQ Remote QPN", m->u.dreq.remote_qpn, num(f[F_DREQ_QPN]));
            hex(m->pdata, IB_CM_DREQ_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_DREQ_PD]) == 0, "DREQ PrivateData");
            break;
        default:
            hex(m->pdata, IB_CM_DREP_PDATA_LEN, want);
            check_true(&C, strcmp(want, f[F_DREP_PD]) == 0, "DREP PrivateData");
            break;
        }
    }
    check_int(&C, "tshark exits 0", 0, pclose(p));
    check_int(&C, "tshark shows every frame", NF, rows);
}

static void count_attrs_and_malformed(const char *pcap)
{
    char cmd[1536], line[4096];
    unsigned malformed = 0, cm = 0;
    FILE *p;

    snprintf(cmd, sizeof cmd, "tshark -r '%s' -o '" USER_DLT "' -V 2>&1", pcap);
    p = popen(cmd, "r");
    if (!check_true(&C, p != NULL, "tshark -V runs"))
        return;
    while (fgets(line, sizeof line, p) != NULL) {
        if (strstr(line, "Malformed") != NULL)
            malformed++;
        if (strstr(line, "MAD Header - Common Management Datagram") != NULL)
            cm++;
    }
    check_int(&C, "tshark -V exits 0", 0, pclose(p));
    check_int(&C, "no Malformed in tshark -V", 0, malformed);
    check_int(&C, "every frame decoded as a MAD", NF, cm);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    unsigned n = 8;
    char copy[512];
    setup_sim s;
    unsigned kinds[0x20] = { 0 };

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc)
            n = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            out = NULL;
            break;
        }
    }
    if (out == NULL) {
        fprintf(stderr, "usage: test_setup_pcap --out FILE.pcap [--conns N]\n");
        return 2;
    }
    check_init(&C, "setup-pcap");
    if (n == 0 || 5 * n + 3 > MAX_FRAMES) {
        fprintf(stderr, "test_setup_pcap: --conns 1 .. %u\n", (MAX_FRAMES - 3) / 5);
        return 2;
    }
    check_int(&C, "run written", 0, write_run(out, &s, n));
    read_back(out);
    for (unsigned i = 0; i < NF; i++)
        kinds[F[i].m.hdr.attr_id & 0x1F]++;
    /* n x (REQ, REP, RTU, DREQ, DREP) + the forged REQ, the REQ with a bad block and its REJ */
    check_int(&C, "frames", 5 * n + 3, NF);
    check_int(&C, "REQs", n + 2, kinds[IB_CM_ATTR_REQ]);
    check_int(&C, "REPs", n, kinds[IB_CM_ATTR_REP]);
    check_int(&C, "RTUs", n, kinds[IB_CM_ATTR_RTU]);
    check_int(&C, "DREQs", n, kinds[IB_CM_ATTR_DREQ]);
    check_int(&C, "REJs", 1, kinds[IB_CM_ATTR_REJ]);
    check_int(&C, "DREPs", n, kinds[IB_CM_ATTR_DREP]);
    snprintf(copy, sizeof copy, "%s.dlt147.pcap", out);
    if (check_int(&C, "DLT_USER0 copy", 0, user_dlt_copy(out, copy))) {
        compare_tshark(copy, &s);
        count_attrs_and_malformed(copy);
    }
    printf("setup-pcap: %u frames in %s\n", NF, out);
    setup_sim_free(&s);
    return setup_check_summary(&C);
}
