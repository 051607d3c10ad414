/*
 * test_ddpm.c — GRH Marking Field, fat-tree port marking and DDPM (ddpm.c),
 * target ctest-ddpm.
 *
 * Independent expectations:
 *  - MF placement: the bytes a known MF must occupy are written out by hand
 *    from TPDS Fig. 4 (DGID bits 117..80 = GRH byte 25 bits 5:0, bytes 26-29);
 *    every other GRH byte must stay as built.
 *  - The paper's own worked examples: the distance vectors of Fig. 6a (4x4
 *    mesh, (1,1) to (2,3) adaptively with a loop) and Fig. 6b (3-cube), and
 *    the fat-tree address (00,01,10) of node 6 in Fig. 5.
 *  - Random adaptive walks (non-minimal, with loops and torus wrap links) at
 *    the Table 3 sizes: the test moves the packet itself and knows the true
 *    source; the receiver's answer must equal it.  One walk per topology
 *    crosses the whole network (corner to corner) so the extreme
 *    displacements are exercised.
 *  - Limits of Tables 2 and 3 (largest network that fits, one more refused),
 *    overflow and poison handling, unmarked cases, malformed headers.
 *  - Marking changes only the MF: the VCRC checks after every hop, and the
 *    ICRC computed with the MF bits forced to ones is unchanged.
 *  - The engine's mask_mf switch (docs/availability.md §2.4): the ICRC crc.c
 *    computes with it equals the ICRC of the packet with the MF bits forced to
 *    ones by hand; a marked packet passes the ICRC check with it and fails
 *    without it; a packet sealed in every mode with it opens after marking
 *    hops, and without it the marked packet fails as the wire format says
 *    (bad_icrc, or auth_failed in icrc-mac); the key-file directive.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crc.h"
#include "ddpm.h"
#include "ib_pkt.h"
#include "ibsec.h"
#include "keyfile.h"
#include "rng.h"

#define OPC_RC_SEND_ONLY 0x04u /* IBA §9.2.1: RC SEND Only */
#define GRH_OFF 8u             /* native: GRH follows the 8-byte LRH */

static size_t make_pkt(uint8_t *buf, size_t cap, uint16_t dgid_prefix, int grh)
{
    struct ibsec_pkt_desc d;
    memset(&d, 0, sizeof d);
    d.shape = grh ? IBSEC_SHAPE_IB_GLOBAL : IBSEC_SHAPE_IB_LOCAL;
    d.lrh.dlid = 0x0022;
    d.lrh.slid = 0x0011;
    d.grh.hoplmt = 64;
    d.grh.flow_label = 0x12345;
    for (int i = 0; i < 16; i++) {
        d.grh.sgid[i] = (uint8_t)(0xA0 + i);
        d.grh.dgid[i] = (uint8_t)(i >= 8 ? 0xC0 + i : 0);
    }
    d.grh.dgid[0] = (uint8_t)(dgid_prefix >> 8);
    d.grh.dgid[1] = (uint8_t)dgid_prefix;
    d.bth.opcode = OPC_RC_SEND_ONLY;
    d.bth.pkey = 0xFFFF;
    d.bth.destqp = 0x33;
    d.payload_len = 32;
    size_t len = 0;
    if (ibsec_pkt_build(&d, buf, cap, &len, NULL) != IBSEC_PKT_OK)
        return 0;
    return len;
}

/* ICRC with the 38 MF bits forced to ones (the masking docs/availability.md asks for). */
static uint32_t icrc_mf_masked(const uint8_t *buf, size_t len)
{
    uint8_t t[IBSEC_MAX_PKT];
    struct ibsec_pkt p;
    memcpy(t, buf, len);
    t[GRH_OFF + 25] |= 0x3F;
    memset(t + GRH_OFF + 26, 0xFF, 4);
    if (ibsec_pkt_parse(t, len, IBSEC_LINK_IB, 0, &p) != IBSEC_PKT_OK)
        return 0;
    return ibsec_icrc_compute(t, &p);
}

static int vcrc_ok(const uint8_t *buf, size_t len)
{
    struct ibsec_pkt p;
    return ibsec_pkt_parse(buf, len, IBSEC_LINK_IB, 0, &p) == IBSEC_PKT_OK && ibsec_vcrc_ok(buf, &p);
}

static void test_placement(check_ctx *c)
{
    uint8_t buf[256], orig[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    memcpy(orig, buf, n);
    ibsec_mf_put(buf + GRH_OFF, 0x2B12345678ull); /* 38 bits: 10 1011 | 0x12345678 */
    uint8_t want[40];
    memcpy(want, orig + GRH_OFF, 40);
    want[25] = (uint8_t)((orig[GRH_OFF + 25] & 0xC0) | 0x2B);
    want[26] = 0x12; want[27] = 0x34; want[28] = 0x56; want[29] = 0x78;
    check_bytes(c, "MF placement in the GRH", want, buf + GRH_OFF, 40);
    check_int(c, "MF read back", 0x2B12345678ll, (long long)ibsec_mf_get(buf + GRH_OFF));
    check_true(c, ibsec_mf_in_site(buf + GRH_OFF), "FE80 is link-local");
    buf[GRH_OFF + 25] = 0xC0 | 0x2B; /* FEC0::/10 site-local */
    check_true(c, ibsec_mf_in_site(buf + GRH_OFF), "FEC0 is site-local");
    buf[GRH_OFF + 24] = 0x20; /* 2000::/3 global */
    check_true(c, !ibsec_mf_in_site(buf + GRH_OFF), "global prefix leaves the site");
    check_true(c, strcmp(ibsec_topo_name(IBSEC_TOPO_TORUS), "torus") == 0, "topology name");
}

static void set_delta(struct ibsec_ddpm_hop *h, int from_node, unsigned dim, int32_t d)
{
    memset(h, 0, sizeof *h);
    h->from_node = from_node != 0;
    h->delta[dim] = d;
}

/* Fig. 6a: (1,1) -> (2,3) on a 4x4 mesh; V after each hop as printed in the paper. */
static void test_fig6a(check_ctx *c)
{
    static const uint32_t path[][2] = { {1,1}, {2,1}, {3,1}, {3,0}, {2,0}, {2,1}, {2,2}, {2,3} };
    static const int32_t v_paper[][2] = { {0,0}, {1,0}, {2,0}, {2,-1}, {1,-1}, {1,0}, {1,1}, {1,2} };
    struct ibsec_ddpm_cfg cfg;
    const uint32_t radix[2] = { 4, 4 };
    uint8_t buf[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    uint32_t icrc0 = icrc_mf_masked(buf, n);
    check_int(c, "cfg 4x4", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, radix, 0));
    for (size_t k = 1; k < sizeof path / sizeof path[0]; k++) {
        struct ibsec_ddpm_hop h;
        memset(&h, 0, sizeof h);
        h.from_node = (k == 1);
        h.delta[0] = (int32_t)path[k][0] - (int32_t)path[k - 1][0];
        h.delta[1] = (int32_t)path[k][1] - (int32_t)path[k - 1][1];
        check_int(c, "fig6a mark", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
        uint64_t mf = ibsec_mf_get(buf + GRH_OFF);
        int32_t v0 = (int32_t)(mf & 0x7FFFF), v1 = (int32_t)((mf >> 19) & 0x7FFFF);
        v0 = v0 >= (1 << 18) ? v0 - (1 << 19) : v0;
        v1 = v1 >= (1 << 18) ? v1 - (1 << 19) : v1;
        check_true(c, v0 == v_paper[k][0] && v1 == v_paper[k][1], "fig6a distance vector");
        check_true(c, vcrc_ok(buf, n), "fig6a VCRC after hop");
    }
    check_int(c, "fig6a ICRC outside the MF unchanged", (long long)icrc0, (long long)icrc_mf_masked(buf, n));
    uint32_t self[2] = { 2, 3 }, src[2] = { 9, 9 };
    check_int(c, "fig6a identify", IBSEC_DDPM_SOURCE_FOUND, ibsec_ddpm_identify(&cfg, buf, n, self, src));
    check_true(c, src[0] == 1 && src[1] == 1, "fig6a source (1,1)");
}

/* Fig. 6b: (1,1,0) -> (0,0,0) on a 3-cube; V sequence as printed. */
static void test_fig6b(check_ctx *c)
{
    static const uint32_t v_paper[][3] = { {0,0,0}, {1,0,0}, {1,0,1}, {0,0,1}, {0,1,1}, {0,1,0}, {1,1,0} };
    struct ibsec_ddpm_cfg cfg;
    uint8_t buf[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFEC0, 1);
    check_int(c, "cfg 3-cube", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_HYPERCUBE, 3, NULL, 0));
    for (size_t k = 1; k < 7; k++) {
        struct ibsec_ddpm_hop h;
        memset(&h, 0, sizeof h);
        h.from_node = (k == 1);
        for (unsigned d = 0; d < 3; d++)
            h.delta[d] = (int32_t)(v_paper[k][d] ^ v_paper[k - 1][d]);
        check_int(c, "fig6b mark", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
        uint64_t mf = ibsec_mf_get(buf + GRH_OFF);
        check_int(c, "fig6b vector", v_paper[k][0] | v_paper[k][1] << 1 | v_paper[k][2] << 2, (long long)mf);
    }
    uint32_t self[3] = { 0, 0, 0 }, src[3];
    check_int(c, "fig6b identify", IBSEC_DDPM_SOURCE_FOUND, ibsec_ddpm_identify(&cfg, buf, n, self, src));
    check_true(c, src[0] == 1 && src[1] == 1 && src[2] == 0, "fig6b source (1,1,0)");
}

/* Fig. 5: node 6 = (00,01,10) on a 3-level fat tree of 4-port down-sides. */
static void test_fattree(check_ctx *c, ibsec_rng *g)
{
    struct ibsec_ddpm_cfg cfg;
    const uint32_t k4 = 4;
    uint8_t buf[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    check_int(c, "cfg fat tree", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 3, &k4, 0));
    ibsec_mf_put(buf + GRH_OFF, 0x3FFFFFFFFFull); /* forged by the sender */
    /* node 6: digit0 = 2 (port 10), digit1 = 1, digit2 = 0; ancestors carry the digits above */
    check_int(c, "L0", IBSEC_DDPM_MARKED, ibsec_dpm_mark_fattree(&cfg, buf, n, 0, 2, 0x4 /* digit1=1 */));
    check_int(c, "L1", IBSEC_DDPM_MARKED, ibsec_dpm_mark_fattree(&cfg, buf, n, 1, 1, 0));
    check_int(c, "L2", IBSEC_DDPM_MARKED, ibsec_dpm_mark_fattree(&cfg, buf, n, 2, 0, 0));
    uint32_t src[4];
    check_int(c, "fat tree identify", IBSEC_DDPM_SOURCE_FOUND, ibsec_ddpm_identify(&cfg, buf, n, NULL, src));
    check_true(c, src[0] == 2 && src[1] == 1 && src[2] == 0, "node 6 = (00,01,10)");
    check_int(c, "MF = 0b000110, forged bits cleared", 6, (long long)ibsec_mf_get(buf + GRH_OFF));
    check_int(c, "bad level", IBSEC_DDPM_BAD_HOP, ibsec_dpm_mark_fattree(&cfg, buf, n, 3, 0, 0));
    check_int(c, "bad port", IBSEC_DDPM_BAD_HOP, ibsec_dpm_mark_fattree(&cfg, buf, n, 0, 4, 0));

    /* random sources on a 4-level 8-port tree, turning at a random level */
    const uint32_t k8 = 8;
    ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 4, &k8, 0);
    for (int t = 0; t < 2000; t++) {
        uint32_t d[4], turn = ibsec_rng_below(g, 4);
        ibsec_mf_put(buf + GRH_OFF, ibsec_rng_next(g));
        for (int l = 0; l < 4; l++)
            d[l] = ibsec_rng_below(g, 8);
        int ok = 1;
        for (uint32_t l = 0; l <= turn; l++) {
            uint64_t anc = 0;   /* the level-l switch's subtree digits above l */
            for (uint32_t a = l + 1; a < 4; a++)
                anc |= (uint64_t)d[a] << (3 * a);
            ok &= ibsec_dpm_mark_fattree(&cfg, buf, n, l, d[l], anc) == IBSEC_DDPM_MARKED;
        }
        ok &= ibsec_ddpm_identify(&cfg, buf, n, NULL, src) == IBSEC_DDPM_SOURCE_FOUND;
        ok &= src[0] == d[0] && src[1] == d[1] && src[2] == d[2] && src[3] == d[3];
        ok &= vcrc_ok(buf, n);
        check_true(c, ok, "fat tree random source identified");
    }
}

/* Limits of Tables 2 and 3. */
static void test_limits(check_ctx *c)
{
    struct ibsec_ddpm_cfg cfg;
    uint32_t r[3];
    r[0] = r[1] = 1u << 18;
    check_int(c, "2^18 x 2^18 mesh", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 0));
    check_int(c, "2D field 19 bits", 19, cfg.w);
    r[1]++;
    check_int(c, "2^18+1 too large", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_TORUS, 2, r, 0));
    r[0] = r[1] = r[2] = 1u << 11;
    check_int(c, "2^11 cube torus", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_TORUS, 3, r, 0));
    r[2]++;
    check_int(c, "2^11+1 too large", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 3, r, 0));
    check_int(c, "38-cube", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_HYPERCUBE, 38, NULL, 0));
    check_int(c, "39-cube", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_HYPERCUBE, 39, NULL, 0));
    r[0] = 4;
    check_int(c, "fat tree k=4, 19 levels", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 19, r, 0));
    check_int(c, "fat tree k=4, 20 levels", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 20, r, 0));
    r[0] = 8;
    check_int(c, "fat tree k=8, 12 levels", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 12, r, 0));
    check_int(c, "fat tree k=8, 13 levels", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_FATTREE, 13, r, 0));
    check_int(c, "mf_bits 39", IBSEC_DDPM_CFG_BAD_ARG, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 39));
    check_int(c, "0 dims", IBSEC_DDPM_CFG_BAD_ARG, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 0, r, 0));
    r[0] = 1; r[1] = 4;
    check_int(c, "radix 1", IBSEC_DDPM_CFG_BAD_ARG, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 0));
}

/* Overflow, poison, bad marks, unmarked packets, malformed headers. */
static void test_bad(check_ctx *c)
{
    struct ibsec_ddpm_cfg cfg;
    struct ibsec_ddpm_hop h;
    uint32_t r[2] = { 8, 8 }, self[2] = { 0, 0 }, src[2];
    uint8_t buf[256], orig[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    /* 8 MF bits for a 2D mesh (the rest kept for e.g. a time stamp): 4-bit fields, |V| <= 7 */
    check_int(c, "8x8 in 8 bits", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 8));
    r[0] = 9;
    check_int(c, "9x8 in 8 bits", IBSEC_DDPM_CFG_TOO_LARGE, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 8));
    r[0] = 8;
    ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 8);
    ibsec_mf_put(buf + GRH_OFF, 0x3FFFFFFF00ull | 0x07); /* V0 = 7, bits above 8 = another use */
    memcpy(orig, buf, n);
    set_delta(&h, 0, 0, +1);
    check_int(c, "overflow", IBSEC_DDPM_OVERFLOW, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "poison written", 0x3FFFFFFF08ll, (long long)ibsec_mf_get(buf + GRH_OFF));
    check_true(c, vcrc_ok(buf, n), "VCRC after overflow");
    check_int(c, "poison kept", IBSEC_DDPM_POISONED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "receiver: poisoned", IBSEC_DDPM_POISONED, ibsec_ddpm_identify(&cfg, buf, n, self, src));
    set_delta(&h, 1, 0, +1);
    check_int(c, "edge port restarts the MF", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "restarted MF", 0x3FFFFFFF01ll, (long long)ibsec_mf_get(buf + GRH_OFF));
    ibsec_mf_put(buf + GRH_OFF, 0x07); /* V = (7, 0) */
    set_delta(&h, 0, 1, -1);          /* V = (7, -1): source (-7, 1) seen from (0, 0) */
    check_int(c, "V=(7,-1) marks", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "receiver out of network", IBSEC_DDPM_OUT_OF_NETWORK, ibsec_ddpm_identify(&cfg, buf, n, self, src));

    r[0] = r[1] = 4;
    ibsec_ddpm_configure(&cfg, IBSEC_TOPO_TORUS, 2, r, 0);
    ibsec_mf_put(buf + GRH_OFF, 5); /* V0 = 5 >= radix 4 */
    set_delta(&h, 0, 1, 1);
    check_int(c, "torus bad mark", IBSEC_DDPM_BAD_MARK, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "torus poisoned", IBSEC_DDPM_POISONED, ibsec_ddpm_identify(&cfg, buf, n, self, src));
    ibsec_ddpm_configure(&cfg, IBSEC_TOPO_HYPERCUBE, 6, NULL, 0);
    ibsec_mf_put(buf + GRH_OFF, 1ull << 20);
    check_int(c, "cube bad mark", IBSEC_DDPM_BAD_MARK, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "cube poisoned", IBSEC_DDPM_POISONED, ibsec_ddpm_identify(&cfg, buf, n, self, src));

    /* bad hops */
    ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, r, 0);
    memset(&h, 0, sizeof h);
    h.delta[0] = 1; h.delta[1] = 1;
    check_int(c, "two dims at once", IBSEC_DDPM_BAD_HOP, ibsec_ddpm_mark(&cfg, buf, n, &h));
    set_delta(&h, 0, 0, 2);
    check_int(c, "two steps", IBSEC_DDPM_BAD_HOP, ibsec_ddpm_mark(&cfg, buf, n, &h));

    /* packets that are not marked, and bad input */
    set_delta(&h, 1, 0, 1);
    n = make_pkt(buf, sizeof buf, 0x2001, 1);
    memcpy(orig, buf, n);
    check_int(c, "off site", IBSEC_DDPM_OFF_SITE, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_bytes(c, "off-site packet unchanged", orig, buf, n);
    n = make_pkt(buf, sizeof buf, 0xFE80, 0);
    check_int(c, "no GRH", IBSEC_DDPM_NO_GRH, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "receiver no GRH", IBSEC_DDPM_NO_GRH, ibsec_ddpm_identify(&cfg, buf, n, self, src));
    n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    check_int(c, "bad pktlen", IBSEC_DDPM_BAD_PKTLEN, ibsec_ddpm_mark(&cfg, buf, n - 4, &h));
    check_int(c, "truncated", IBSEC_DDPM_TRUNCATED, ibsec_ddpm_mark(&cfg, buf, 30, &h));
    buf[GRH_OFF] = 0x40;
    check_int(c, "bad grh", IBSEC_DDPM_BAD_GRH, ibsec_ddpm_mark(&cfg, buf, n, &h));
    buf[1] &= 0xFC;
    check_int(c, "bad lnh", IBSEC_DDPM_BAD_LNH, ibsec_ddpm_mark(&cfg, buf, n, &h));
    buf[0] |= 1;
    buf[1] |= 3;
    check_int(c, "bad lver", IBSEC_DDPM_BAD_LVER, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_true(c, strcmp(ibsec_ddpm_out_name(IBSEC_DDPM_OVERFLOW), "overflow") == 0, "outcome name");
}

/* One adaptive walk on a mesh/torus/cube from a random source; `far` first
 * drives the packet to the opposite corner. */
static int walk(const struct ibsec_ddpm_cfg *cfg, ibsec_rng *g, uint8_t *buf, size_t n,
                unsigned hops, int far)
{
    uint32_t src[IBSEC_DDPM_MAX_DIMS], x[IBSEC_DDPM_MAX_DIMS], got[IBSEC_DDPM_MAX_DIMS];
    struct ibsec_ddpm_hop h;
    int ok = 1, first = 1;
    ibsec_mf_put(buf + GRH_OFF, ibsec_rng_next(g)); /* whatever the sender wrote */
    for (unsigned i = 0; i < cfg->ndims; i++)
        src[i] = x[i] = far ? 0 : ibsec_rng_below(g, cfg->radix[i]);
    for (unsigned i = 0; far && i < cfg->ndims; i++) {
        while (x[i] + 1 < cfg->radix[i]) {
            set_delta(&h, first, i, 1);
            first = 0;
            ok &= ibsec_ddpm_mark(cfg, buf, n, &h) == IBSEC_DDPM_MARKED;
            x[i]++;
        }
    }
    for (unsigned k = 0; k < hops; k++) {
        unsigned i = ibsec_rng_below(g, cfg->ndims);
        int32_t d;
        if (cfg->topo == IBSEC_TOPO_HYPERCUBE) {
            d = 1;
            x[i] ^= 1;
        } else {
            d = ibsec_rng_below(g, 2) ? 1 : -1;
            if (cfg->topo == IBSEC_TOPO_MESH && ((d < 0 && x[i] == 0) || (d > 0 && x[i] + 1 == cfg->radix[i])))
                d = -d;
            x[i] = (uint32_t)(((int64_t)x[i] + d + cfg->radix[i]) % cfg->radix[i]);
        }
        set_delta(&h, first, i, d);
        first = 0;
        ok &= ibsec_ddpm_mark(cfg, buf, n, &h) == IBSEC_DDPM_MARKED;
    }
    set_delta(&h, first, 0, 0); /* delivery port: displacement zero */
    ok &= ibsec_ddpm_mark(cfg, buf, n, &h) == IBSEC_DDPM_MARKED;
    ok &= ibsec_ddpm_identify(cfg, buf, n, x, got) == IBSEC_DDPM_SOURCE_FOUND;
    for (unsigned i = 0; i < cfg->ndims; i++)
        ok &= got[i] == src[i];
    return ok && vcrc_ok(buf, n);
}

static void test_walks(check_ctx *c, ibsec_rng *g)
{
    static const struct { enum ibsec_topo t; unsigned nd; uint32_t r; } nets[] = {
        { IBSEC_TOPO_MESH, 2, 1u << 18 }, { IBSEC_TOPO_TORUS, 2, 1u << 18 },
        { IBSEC_TOPO_MESH, 3, 1u << 11 }, { IBSEC_TOPO_TORUS, 3, 1u << 11 },
        { IBSEC_TOPO_HYPERCUBE, 38, 2 },  { IBSEC_TOPO_MESH, 2, 4 }, { IBSEC_TOPO_TORUS, 2, 3 },
    };
    uint8_t buf[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFEC0, 1);
    uint32_t icrc0 = icrc_mf_masked(buf, n);
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        struct ibsec_ddpm_cfg cfg;
        uint32_t r[3] = { nets[k].r, nets[k].r, nets[k].r };
        char what[96];
        check_int(c, "walk cfg", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, nets[k].t, nets[k].nd, r, 0));
        snprintf(what, sizeof what, "%s %u-dim radix %u: corner-to-corner walk", ibsec_topo_name(nets[k].t),
                 nets[k].nd, nets[k].r);
        check_true(c, walk(&cfg, g, buf, n, 50, 1), what);
        snprintf(what, sizeof what, "%s %u-dim radix %u: random adaptive walk", ibsec_topo_name(nets[k].t),
                 nets[k].nd, nets[k].r);
        for (int t = 0; t < 300; t++)
            check_true(c, walk(&cfg, g, buf, n, ibsec_rng_below(g, 200), 0), what);
    }
    check_int(c, "ICRC outside the MF unchanged by all walks", (long long)icrc0, (long long)icrc_mf_masked(buf, n));
}

/* A one-dimensional mesh and torus have a single 38-bit field: wider than 32 bits. */
static void test_wide_field(check_ctx *c)
{
    struct ibsec_ddpm_cfg cfg;
    struct ibsec_ddpm_hop h;
    const uint32_t radix[1] = { 5 };
    const uint64_t minus4 = 0x3FFFFFFFFCull; /* -4 in 38-bit two's complement */
    uint8_t buf[256];
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    check_int(c, "1-dim mesh cfg", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 1, radix, 0));
    check_int(c, "1-dim mesh: w = 38", 38, cfg.w);
    ibsec_mf_put(buf + GRH_OFF, minus4);
    set_delta(&h, 0, 0, 1);
    check_int(c, "1-dim mesh: -4 + 1 marked", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "1-dim mesh: -3 in 38 bits", 0x3FFFFFFFFDll, (long long)ibsec_mf_get(buf + GRH_OFF));
    ibsec_mf_put(buf + GRH_OFF, 0x20ull); /* 32: outside +-4 */
    check_int(c, "1-dim mesh: 32 is a bad mark", IBSEC_DDPM_BAD_MARK, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "1-dim mesh: poison code 2^37", 0x2000000000ll, (long long)ibsec_mf_get(buf + GRH_OFF));
    check_int(c, "1-dim mesh: poisoned", IBSEC_DDPM_POISONED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "1-dim torus cfg", IBSEC_DDPM_CFG_OK, ibsec_ddpm_configure(&cfg, IBSEC_TOPO_TORUS, 1, radix, 0));
    ibsec_mf_put(buf + GRH_OFF, 0x100000004ull); /* 2^32 + 4: not a residue mod 5 */
    check_int(c, "1-dim torus: 2^32 + 4 is a bad mark", IBSEC_DDPM_BAD_MARK, ibsec_ddpm_mark(&cfg, buf, n, &h));
    ibsec_mf_put(buf + GRH_OFF, 4);
    check_int(c, "1-dim torus: 4 + 1 marked", IBSEC_DDPM_MARKED, ibsec_ddpm_mark(&cfg, buf, n, &h));
    check_int(c, "1-dim torus: wraps to 0", 0, (long long)ibsec_mf_get(buf + GRH_OFF));
    check_true(c, vcrc_ok(buf, n), "1-dim: VCRC after the hops");
}

/* ---- mask_mf: marking and the ICRC / MAC ------------------------------------- */

/* A few marking hops on a 4 x 4 mesh from node (1,1): right, down, right. */
static int mark_hops(uint8_t *buf, size_t n)
{
    static const int32_t steps[][2] = { {1,0}, {0,1}, {1,0}, {0,0} };
    struct ibsec_ddpm_cfg cfg;
    const uint32_t radix[2] = { 4, 4 };
    int ok = ibsec_ddpm_configure(&cfg, IBSEC_TOPO_MESH, 2, radix, 0) == IBSEC_DDPM_CFG_OK;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        struct ibsec_ddpm_hop h;
        memset(&h, 0, sizeof h);
        h.from_node = (k == 0);
        h.delta[0] = steps[k][0];
        h.delta[1] = steps[k][1];
        ok &= ibsec_ddpm_mark(&cfg, buf, n, &h) == IBSEC_DDPM_MARKED;
    }
    return ok && ibsec_mf_get(buf + GRH_OFF) != 0;
}

static void test_mask_icrc(check_ctx *c)
{
    uint8_t buf[256];
    struct ibsec_pkt p;
    size_t n = make_pkt(buf, sizeof buf, 0xFE80, 1);
    check_int(c, "mask_mf: parse", IBSEC_PKT_OK, ibsec_pkt_parse(buf, n, IBSEC_LINK_IB, 0, &p));
    check_true(c, !p.mask_mf, "mask_mf: false from the parser");
    p.mask_mf = true;
    ibsec_pkt_put_crcs(buf, &p);
    check_int(c, "mask_mf: ICRC = ICRC with the MF bits forced to ones",
              (long long)icrc_mf_masked(buf, n), (long long)ibsec_icrc_get(buf, &p));
    check_true(c, mark_hops(buf, n), "mask_mf: marking hops");
    check_int(c, "mask_mf on: marked packet passes the ICRC", IBSEC_PKT_OK, ibsec_pkt_check_crcs(buf, &p));
    p.mask_mf = false;
    check_int(c, "mask_mf off: marked packet fails the ICRC", IBSEC_PKT_ERR_BAD_ICRC,
              ibsec_pkt_check_crcs(buf, &p));
    /* without a GRH the switch changes nothing */
    n = make_pkt(buf, sizeof buf, 0xFE80, 0);
    ibsec_pkt_parse(buf, n, IBSEC_LINK_IB, 0, &p);
    uint32_t plain_icrc = ibsec_icrc_compute(buf, &p);
    p.mask_mf = true;
    check_int(c, "mask_mf: no effect without a GRH", (long long)plain_icrc,
              (long long)ibsec_icrc_compute(buf, &p));
}

/* A sender A and its peer B with one context on QP 0x33 in `mode`. */
static int engines_init(ibsec_engine *a, ibsec_engine *b, enum ibsec_mode mode, bool mask_mf)
{
    static const uint8_t key[16] = { 0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                     0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c };
    static const uint8_t salt[4] = { 0xca, 0xfe, 0xba, 0xbe };
    ibsec_ctx_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.sel = IBSEC_SEL_QP;
    cfg.match = 0x33;
    cfg.mode = mode;
    cfg.sth_code = ibsec_mode_has_sth(mode) ? IBSEC_STH_CODE_128 : IBSEC_STH_CODE_NONE;
    cfg.alert_threshold = 8;
    ibsec_engine *es[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        if (ibsec_engine_init(es[i], 1, 1, 1) != 0 || ibsec_key_set(es[i], 0, key, 16, salt) != 0 ||
            ibsec_ctx_set(es[i], 0, &cfg, NULL) != 0)
            return 0;
        es[i]->mask_mf = mask_mf;
    }
    ibsec_engine_make_peer(b);
    return 1;
}

/* Seal at A, mark (or not), open at B: the open reason. */
static enum ibsec_reason seal_mark_open(enum ibsec_mode mode, bool mask_mf, bool mark,
                                        uint64_t *mf_out)
{
    static uint8_t plain[IBSEC_MAX_PKT], wire[IBSEC_MAX_PKT], out[IBSEC_MAX_PKT];
    ibsec_engine a, b;
    size_t n = make_pkt(plain, sizeof plain, 0xFEC0, 1), wn = 0, on = 0;
    enum ibsec_reason r = IBSEC_R_COUNT;
    if (n && engines_init(&a, &b, mode, mask_mf) &&
        ibsec_seal(&a, IBSEC_LINK_IB, plain, n, wire, sizeof wire, &wn, NULL) == IBSEC_R_OK &&
        (!mark || mark_hops(wire, wn))) {
        r = ibsec_open(&b, IBSEC_LINK_IB, wire, wn, out, sizeof out, &on, NULL);
        *mf_out = (r == IBSEC_R_OK) ? ibsec_mf_get(out + GRH_OFF) : 0;
        if (r == IBSEC_R_OK && ibsec_mf_get(wire + GRH_OFF) != *mf_out)
            r = IBSEC_R_COUNT; /* the mark must reach the receiver's host */
    }
    ibsec_engine_free(&a);
    ibsec_engine_free(&b);
    return r;
}

static void test_mask_sealed(check_ctx *c)
{
    static const enum ibsec_reason unmasked[IBSEC_MODE_COUNT] = {
        IBSEC_R_BAD_ICRC, IBSEC_R_AUTH_FAILED, IBSEC_R_BAD_ICRC, IBSEC_R_BAD_ICRC, IBSEC_R_BAD_ICRC,
    };
    for (int m = 0; m < IBSEC_MODE_COUNT; m++) {
        enum ibsec_mode mode = (enum ibsec_mode)m;
        char what[120];
        uint64_t mf = 0;
        snprintf(what, sizeof what, "%s, mask_mf on: opens after marking hops", ibsec_mode_name(mode));
        check_int(c, what, IBSEC_R_OK, seal_mark_open(mode, true, true, &mf));
        check_true(c, mf != 0, "mask_mf on: the receiver sees the mark");
        snprintf(what, sizeof what, "%s, mask_mf off: opens unmarked", ibsec_mode_name(mode));
        check_int(c, what, IBSEC_R_OK, seal_mark_open(mode, false, false, &mf));
        snprintf(what, sizeof what, "%s, mask_mf off: marked packet refused", ibsec_mode_name(mode));
        check_int(c, what, unmasked[m], seal_mark_open(mode, false, true, &mf));
    }
}

/* Load a key file given as text; returns 0 or -1 with err set. */
static int load_text(const char *text, ibsec_engine *e, char *err, size_t errlen)
{
    FILE *f = tmpfile();
    if (!f) {
        snprintf(err, errlen, "tmpfile failed");
        return -1;
    }
    fputs(text, f);
    rewind(f);
    int rc = ibsec_keyfile_read(f, "mf.keys", e, 1, IBSEC_SIDE_AS_WRITTEN, NULL, err, errlen);
    fclose(f);
    return rc;
}

static void test_mask_keyfile(check_ctx *c)
{
#define KF_HDR "ibsec-keys 1\nside a\ntables 1 1\n"
    ibsec_engine e;
    char err[256];
    check_true(c, load_text(KF_HDR "mask_mf on\n", &e, err, sizeof err) == 0 && e.mask_mf,
               "key file: mask_mf on");
    FILE *f = tmpfile();
    char line[64] = "";
    int found = 0;
    if (f && ibsec_keyfile_write(f, &e, 'a', NULL, err, sizeof err) == 0) {
        rewind(f);
        while (fgets(line, sizeof line, f))
            found += strcmp(line, "mask_mf on\n") == 0;
    }
    if (f)
        fclose(f);
    check_int(c, "key file: the writer keeps mask_mf on", 1, found);
    ibsec_engine_free(&e);
    check_true(c, load_text(KF_HDR, &e, err, sizeof err) == 0 && !e.mask_mf, "key file: mask_mf off by default");
    ibsec_engine_free(&e);
    check_true(c, load_text(KF_HDR "mask_mf off\n", &e, err, sizeof err) == 0 && !e.mask_mf, "key file: mask_mf off");
    ibsec_engine_free(&e);
    static const struct { const char *text, *msg; } bad[] = {
        { KF_HDR "mask_mf yes\n", "mf.keys:4: expected 'mask_mf on' or 'mask_mf off'" },
        { KF_HDR "mask_mf on\nmask_mf on\n", "mf.keys:5: second 'mask_mf' line" },
        { "ibsec-keys 1\nside a\nmask_mf on\n", "mf.keys:3: 'mask_mf' before the 'tables' line" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        int rc = load_text(bad[i].text, &e, err, sizeof err);
        check_true(c, rc != 0 && strstr(err, bad[i].msg) != NULL, bad[i].msg);
    }
#undef KF_HDR
}

int main(void)
{
    check_ctx c;
    ibsec_rng g;
    check_init(&c, "ctest-ddpm");
    ibsec_rng_seed(&g, 6);
    test_placement(&c);
    test_fig6a(&c);
    test_fig6b(&c);
    test_fattree(&c, &g);
    test_limits(&c);
    test_bad(&c);
    test_walks(&c, &g);
    test_wide_field(&c);
    test_mask_icrc(&c);
    test_mask_sealed(&c);
    test_mask_keyfile(&c);
    return check_summary(&c);
}
