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
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "crc.h"
#include "ddpm.h"
#include "ib_pkt.h"
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
    struct ibsec_pkt p;
    ibsec_pkt_parse(buf, n, IBSEC_LINK_IB, 0, &p);
    printf("note: unmasked ICRC of a marked packet with today's crc.c: %s "
           "(the MF is not yet a masked field, docs/availability.md §2.4)\n",
           ibsec_pkt_err_name(ibsec_pkt_check_crcs(buf, &p)));
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
    return check_summary(&c);
}
