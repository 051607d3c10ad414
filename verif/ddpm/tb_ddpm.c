/*
 * tb_ddpm.c — C harness of the ddpm_marker bench (rtl/switch/ddpm_marker.v) against the C model
 * cmodel/ddpm.c (docs/availability.md §2, §5).
 *
 * Epochs: each draws a network configuration with ibsec_ddpm_configure — a mesh or torus
 * of 1..4 dimensions (radices from 2 to the largest the field width allows, Table 3), a
 * hypercube of 1..38 dimensions, or a fat tree (k = 2..32 down-ports, level and subtree
 * digits of the switch), sometimes with fewer than 38 MF bits — and sends packets through
 * it; the configuration changes only while the block is empty (it is quasi-static).
 * Packets: native IBA from the model's generator (ib_pktgen; mostly short, some up to the
 * 4096-byte MTU, a few over 8192 bytes), with an in-site DGID (FE80::/10 or FEC0::/10) and
 * an MF that is a valid mark for the network, a mark at the edge of its range (overflow),
 * garbage (bad_mark), or the poison code; and damaged ones: no GRH, an off-site DGID, a
 * PktLen that disagrees with the length (longer or shorter), cut short, LRH.LNH raw / IP,
 * LRH.LVer != 0, a bad GRH. Hops: from a CA port or not, one link in a random dimension,
 * sometimes not one link (bad_hop); fat tree: a random down-port, sometimes out of range.
 * Random idle cycles on the input and back-pressure on the output, in phases.
 *
 * The expected output and outcome of every packet come from ibsec_ddpm_mark /
 * ibsec_dpm_mark_fattree on a copy of its bytes. The harness compares every outcome
 * (in input order), every output byte of every packet, and the outcome counters every
 * cycle, and requires every outcome the marking block can give to have occurred. Now and
 * then the block is reset, also in the middle of a packet; the packets inside it are
 * written off and the counters start from zero.
 *
 * --bench: one network, no idle cycles and no back-pressure; prints the throughput (input
 * beats per cycle) and the latency from a marked packet's last beat in to its first beat
 * out.
 *
 * Usage: Vtb [--seed S] [--packets N] [--bench]; prints "vtest-ddpm-L<n>: N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddpm.h"
#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "rng.h"
#include "tb_ddpm.h"
#include "tb_util.h"

#define OPC_RC_SEND_ONLY 0x04 /* IBA §9.2.1: RC SEND Only (any payload length) */
#define MAX_WORDS (4 * 12)    /* tdata words at LANES = 12 */
#define PKT_CAP 9400          /* room for the over-long packets (> 8192 bytes) */
#define GRH_OFF 8u            /* native: the GRH follows the 8-byte LRH */
#define EPOCH_PKTS 150        /* packets per configuration epoch */
#define RESET_ONE_IN 6000     /* chance of a reset per cycle: 1 in this */

typedef struct {
    uint8_t  in[PKT_CAP], out[PKT_CAP];
    size_t   n;
    uint32_t user[4];         /* the hop, as s_axis_tuser carries it */
    enum ibsec_ddpm_out outcome;
} pkt_t;

static tb_result R;
static tb_rng T;
static ibsec_rng G;
static unsigned BB;

/* ---- configuration -------------------------------------------------------------- */

struct epoch {
    struct ibsec_ddpm_cfg cfg;
    struct ddpm_dut_cfg dut;
};

static void new_epoch(struct epoch *e, unsigned num)
{
    enum ibsec_topo topo = (enum ibsec_topo)(num % IBSEC_TOPO_COUNT);
    for (;;) {
        uint32_t radix[IBSEC_DDPM_MAX_DIMS];
        unsigned mf_bits = tb_chance(&T, 25) ? tb_rand_range(&T, 8, 37) : 0;
        unsigned nd;
        if (topo == IBSEC_TOPO_HYPERCUBE)
            nd = tb_rand_range(&T, 1, 38);
        else if (topo == IBSEC_TOPO_FATTREE)
            nd = tb_rand_range(&T, 1, 8);
        else
            nd = tb_rand_range(&T, 1, 4);
        unsigned w = (mf_bits ? mf_bits : 38) / nd;
        for (unsigned i = 0; i < IBSEC_DDPM_MAX_DIMS; i++) {
            uint64_t maxr = w >= 2 ? 1ull << (w - 1) : 2;
            if (maxr > 0xFFFFFFFFull)
                maxr = 0xFFFFFFFFull;
            radix[i] = tb_chance(&T, 40) ? (uint32_t)maxr : tb_rand_range(&T, 2, maxr < 9 ? (uint32_t)maxr : 9);
        }
        if (topo == IBSEC_TOPO_FATTREE)
            radix[0] = tb_rand_range(&T, 2, 32);
        if (ibsec_ddpm_configure(&e->cfg, topo, nd, radix, mf_bits) != IBSEC_DDPM_CFG_OK)
            continue;
        break;
    }
    memset(&e->dut, 0, sizeof e->dut);
    e->dut.topo = (unsigned)e->cfg.topo;
    e->dut.ndims = e->cfg.ndims;
    e->dut.w = e->cfg.w;
    e->dut.mf_bits = e->cfg.mf_bits;
    for (unsigned i = 0; i < 19; i++)
        e->dut.radix[i] = (i < e->cfg.ndims || i == 0) ? e->cfg.radix[i] : 0;
    e->dut.ft_level = tb_chance(&T, 5) ? e->cfg.ndims : tb_rand_range(&T, 0, e->cfg.ndims - 1);
    e->dut.ft_ancestor = tb_rand64(&T) & ((1ull << 38) - 1);
}

/* ---- packets -------------------------------------------------------------------- */

static uint64_t low_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* An MF for the network: a valid mark, one at the edge of its range, garbage or poison. */
static uint64_t draw_mf(const struct ibsec_ddpm_cfg *c)
{
    unsigned k = tb_rand_range(&T, 0, 99);
    uint64_t mf = 0;
    if (k < 8 || c->topo == IBSEC_TOPO_FATTREE)
        return tb_rand64(&T) & low_mask(38);
    if (c->topo == IBSEC_TOPO_HYPERCUBE) {
        mf = tb_rand64(&T) & low_mask(c->ndims);
        if (k < 15 && c->ndims < 38)
            mf |= 1ull << tb_rand_range(&T, c->ndims, 37);
        return mf | (tb_rand64(&T) & ~low_mask(c->mf_bits) & low_mask(38));
    }
    for (unsigned i = 0; i < c->ndims; i++) {
        int64_t span = (int64_t)c->radix[i] - 1, v;
        unsigned kk = tb_rand_range(&T, 0, 9);
        if (c->topo == IBSEC_TOPO_TORUS)
            v = kk == 0 ? (int64_t)c->radix[i] + tb_rand_range(&T, 0, 3) : kk < 3 ? span
                                                                       : tb_rand_range(&T, 0, (uint32_t)span);
        else
            v = kk == 0 ? span + 1 + tb_rand_range(&T, 0, 3) : kk < 3 ? span : kk < 5 ? -span
                : (int64_t)(tb_rand64(&T) % (uint64_t)(2 * span + 1)) - span;
        mf |= ((uint64_t)v & low_mask(c->w)) << (i * c->w);
    }
    if (k < 13)
        mf = (mf & ~low_mask(c->w)) | (1ull << (c->w - 1)); /* poison code in field 0 */
    return (mf & low_mask(c->mf_bits)) | (tb_rand64(&T) & ~low_mask(c->mf_bits) & low_mask(38));
}

/* The hop of one packet, for the model and as tuser bits. */
static void draw_hop(const struct epoch *e, pkt_t *p, struct ibsec_ddpm_hop *h, uint32_t *in_port)
{
    const struct ibsec_ddpm_cfg *c = &e->cfg;
    memset(h, 0, sizeof *h);
    memset(p->user, 0, sizeof p->user);
    h->from_node = tb_chance(&T, 20);
    unsigned dim = tb_rand_range(&T, 0, c->ndims - 1);
    int32_t d = c->topo == IBSEC_TOPO_HYPERCUBE ? (tb_chance(&T, 90) ? 1 : 0)
                                                 : (tb_chance(&T, 10) ? 0 : tb_chance(&T, 50) ? 1 : -1);
    h->delta[dim] = d;
    if (tb_chance(&T, 4)) {                  /* not one link */
        unsigned k = tb_rand_range(&T, 0, 2);
        if (k == 0 && c->ndims > 1)
            h->delta[(dim + 1) % c->ndims] = c->topo == IBSEC_TOPO_HYPERCUBE ? 1 : -1;
        else
            h->delta[dim] = c->topo == IBSEC_TOPO_HYPERCUBE ? -1 : -2;
    }
    *in_port = tb_chance(&T, 5) ? c->radix[0] + tb_rand_range(&T, 0, 3) : tb_rand_range(&T, 0, c->radix[0] - 1);
    if (c->topo == IBSEC_TOPO_FATTREE && tb_chance(&T, 2))
        *in_port = tb_rand32(&T);
    /* tuser: [0] from_node, [76:1] delta (2 bits per dimension), [108:77] in_port */
    uint8_t bits[109];
    memset(bits, 0, sizeof bits);
    bits[0] = h->from_node;
    for (unsigned i = 0; i < IBSEC_DDPM_MAX_DIMS; i++) {
        unsigned code = (unsigned)h->delta[i] & 3u;
        bits[1 + 2 * i] = code & 1u;
        bits[2 + 2 * i] = (code >> 1) & 1u;
    }
    for (unsigned i = 0; i < 32; i++)
        bits[77 + i] = (*in_port >> i) & 1u;
    for (unsigned i = 0; i < 109; i++)
        p->user[i / 32] |= (uint32_t)bits[i] << (i % 32);
}

static void build(pkt_t *p, int grh, int any_len)
{
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    static uint8_t pay[IBSEC_MAX_PAYLOAD];
    ibsec_pktgen_default_opts(&o, grh ? IBSEC_SHAPE_IB_GLOBAL : IBSEC_SHAPE_IB_LOCAL);
    if (!any_len) {
        o.opcode = OPC_RC_SEND_ONLY;
        o.payload_len = (int)tb_rand_range(&T, 0, 100);
    }
    uint16_t prefix = tb_chance(&T, 50) ? 0xFE80 : 0xFEC0;
    if (ibsec_pktgen_desc(&G, &o, &d, pay) != IBSEC_PKT_OK ||
        ((d.grh.dgid[0] = (uint8_t)(prefix >> 8)), (d.grh.dgid[1] = (uint8_t)prefix),
         ibsec_pkt_build(&d, p->in, IBSEC_MAX_PKT, &p->n, NULL) != IBSEC_PKT_OK)) {
        fprintf(stderr, "tb_ddpm: packet generator failed\n");
        exit(2);
    }
}

/* Set LRH.PktLen (IBA §7.7.8: bytes 4-5, low 11 bits) to the packet's length. */
static void fix_pktlen(pkt_t *p)
{
    unsigned words = (unsigned)((p->n - 2) / 4) & 0x7FFu;
    p->in[4] = (uint8_t)((p->in[4] & 0xF8u) | (words >> 8));
    p->in[5] = (uint8_t)words;
}

static void gen_packet(pkt_t *p, const struct epoch *e)
{
    unsigned k = tb_rand_range(&T, 0, 199);
    struct ibsec_ddpm_hop h;
    uint32_t in_port;
    int grh = k >= 16;
    build(p, grh, k >= 190);
    if (grh)
        ibsec_mf_put(p->in + GRH_OFF, draw_mf(&e->cfg));
    if (k >= 16 && k < 28) {                         /* off site */
        p->in[GRH_OFF + 24] = (uint8_t)tb_rand_range(&T, 0, 0xFD);
    } else if (k >= 28 && k < 40) {                  /* PktLen disagrees */
        unsigned how = tb_rand_range(&T, 0, 2);
        if (how == 0) {
            size_t more = tb_rand_range(&T, 1, 40);
            for (size_t i = 0; i < more; i++)
                p->in[p->n + i] = (uint8_t)tb_rand32(&T);
            p->n += more;
        } else if (how == 1 && p->n > 66) {
            p->n -= tb_rand_range(&T, 1, 6);
        } else {
            p->in[5] ^= (uint8_t)tb_rand_range(&T, 1, 255);
        }
    } else if (k == 40) {                            /* over 8192 bytes, streams through */
        size_t n = tb_rand_range(&T, 8193, PKT_CAP);
        for (size_t i = p->n; i < n; i++)
            p->in[i] = (uint8_t)tb_rand32(&T);
        p->n = n;
        if (tb_chance(&T, 50)) {                     /* as a packet without GRH */
            p->in[1] = (uint8_t)((p->in[1] & 0xFC) | 2);
        }
    } else if (k >= 41 && k < 52) {                  /* cut short */
        size_t need = tb_chance(&T, 30) ? 8 : 60;
        p->n = tb_rand_range(&T, 1, (uint32_t)need - 1);
    } else if (k >= 52 && k < 58) {
        p->in[1] = (uint8_t)((p->in[1] & 0xFC) | tb_rand_range(&T, 0, 1));
    } else if (k >= 58 && k < 64) {
        p->in[0] = (uint8_t)((p->in[0] & 0xF0) | tb_rand_range(&T, 1, 15));
    } else if (k >= 64 && k < 70) {
        if (tb_chance(&T, 50))
            p->in[GRH_OFF] = (uint8_t)((p->in[GRH_OFF] & 0x0F) | 0x40);
        else
            p->in[GRH_OFF + 6] ^= (uint8_t)tb_rand_range(&T, 1, 255);
    } else if (k >= 190 && tb_chance(&T, 30)) {      /* long, marked, PktLen made to agree */
        fix_pktlen(p);
    }
    draw_hop(e, p, &h, &in_port);
    memcpy(p->out, p->in, p->n);
    if (e->cfg.topo == IBSEC_TOPO_FATTREE)
        p->outcome = ibsec_dpm_mark_fattree(&e->cfg, p->out, p->n, e->dut.ft_level, in_port,
                                            e->dut.ft_ancestor);
    else
        p->outcome = ibsec_ddpm_mark(&e->cfg, p->out, p->n, &h);
}

/* After a mismatch: the packet's network, hop and MF. */
static void describe(const pkt_t *p, const struct epoch *e)
{
    printf("  %s ndims %u w %u mf_bits %u radix", ibsec_topo_name(e->cfg.topo), e->cfg.ndims,
           e->cfg.w, e->cfg.mf_bits);
    for (unsigned i = 0; i < e->cfg.ndims && i < 19; i++)
        printf(" %u", e->cfg.radix[i]);
    printf("; tuser %08x %08x %08x %08x; MF in 0x%010llx\n", p->user[3], p->user[2], p->user[1],
           p->user[0], (unsigned long long)(p->n >= 38 ? ibsec_mf_get(p->in + GRH_OFF) : 0));
}

/* ---- the run ------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr, "usage: Vtb [--seed S] [--packets N] [--bench]\n");
    return 2;
}

int tb_ddpm_main(int argc, char **argv)
{
    uint64_t seed = 1;
    long npkts = 2000;
    int bench = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            bench = 1;
            continue;
        }
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--packets") == 0 && i + 1 < argc)
            npkts = strtol(argv[++i], NULL, 0);
        else
            return usage();
    }
    if (npkts < 1)
        return usage();
    unsigned lanes = dut_lanes();
    char name[32];
    snprintf(name, sizeof name, "vtest-ddpm-L%u", lanes);
    tb_result_init(&R, name);
    tb_rng_seed(&T, seed);
    ibsec_rng_seed(&G, seed ^ 0xDD9);
    BB = 16 * lanes;

    pkt_t *pk = calloc((size_t)npkts, sizeof *pk);
    if (!pk) {
        fprintf(stderr, "tb_ddpm: out of memory\n");
        return 2;
    }
    long n_epochs = (npkts + EPOCH_PKTS - 1) / EPOCH_PKTS;
    struct epoch *ep = calloc((size_t)n_epochs, sizeof *ep);
    if (!ep) {
        fprintf(stderr, "tb_ddpm: out of memory\n");
        return 2;
    }
    for (long e = 0; e < n_epochs; e++)
        new_epoch(&ep[e], (unsigned)e);
    if (bench) /* one network: no pauses for configuration changes */
        for (long e = 1; e < n_epochs; e++)
            ep[e] = ep[0];
    for (long i = 0; i < npkts; i++)
        gen_packet(&pk[i], &ep[i / EPOCH_PKTS]);
    long *t_last = calloc((size_t)npkts, sizeof *t_last);
    if (!t_last) {
        fprintf(stderr, "tb_ddpm: out of memory\n");
        return 2;
    }

    uint32_t data[MAX_WORDS], keep[6], odata[MAX_WORDS], okeep[6], zero_user[4] = { 0 };
    uint8_t obeat[16 * 12];
    static uint8_t got[PKT_CAP + 16 * 12];
    uint32_t count[14], tally[14] = { 0 };
    unsigned long seen[IBSEC_DDPM_OUT_COUNT] = { 0 };

    dut_set_cfg(&ep[0].dut);
    memset(data, 0, sizeof data);
    memset(keep, 0, sizeof keep);
    dut_set_in(0, data, keep, 0, zero_user);
    dut_set_out_ready(0);
    dut_set_rst(1);
    for (int i = 0; i < 3; i++)
        dut_tick();
    dut_set_rst(0);

    long in_pkt = 0, in_beat = 0, decided = 0, out_idx = 0, out_bytes = 0, cyc = 0;
    long resets = 0, abandoned = 0, lost = 0;
    long cur_epoch = 0, idle_after_end = 0, in_beats = 0, last_out = 0, last_in_cyc = 0, lat_min = 1L << 30, lat_max = 0;
    int holding = 0;
    unsigned in_rate = 100, out_rate = 100;
    while (idle_after_end < 50) {
        cyc++;
        if (cyc % 300 == 0 && !bench) {
            static const unsigned rates[] = { 100, 100, 70, 30, 5 };
            in_rate = rates[tb_rand_range(&T, 0, 4)];
            out_rate = rates[tb_rand_range(&T, 0, 4)];
        }
        /* now and then a reset, also in the middle of packets: everything inside the
         * block is lost */
        if (!bench && in_pkt < npkts && tb_rand_range(&T, 0, RESET_ONE_IN - 1) == 0) {
            dut_set_in(0, data, keep, 0, zero_user);
            dut_set_rst(1);
            dut_tick();
            dut_tick();
            dut_set_rst(0);
            resets++;
            if (in_beat > 0) {          /* the packet partly sent is abandoned */
                in_pkt++;
                abandoned++;
            }
            holding = 0;
            in_beat = 0;
            lost += in_pkt - out_idx;
            decided = in_pkt;
            out_idx = in_pkt;
            out_bytes = 0;
            memset(tally, 0, sizeof tally);
            continue;
        }
        /* a new epoch's configuration once the block is empty */
        long want_epoch = in_pkt / EPOCH_PKTS;
        int blocked = 0;
        if (in_pkt < npkts && want_epoch != cur_epoch && in_beat == 0 && !holding && !bench) {
            if (decided == in_pkt && out_idx == in_pkt) {
                cur_epoch = want_epoch;
                dut_set_cfg(&ep[cur_epoch].dut);
            } else {
                blocked = 1;
            }
        }
        if (!holding && !blocked && in_pkt < npkts && tb_chance(&T, in_rate)) {
            const pkt_t *p = &pk[in_pkt];
            int last = tb_axis_frame_beat(&T, p->in, p->n, (size_t)in_beat, BB, data, keep);
            /* tuser matters on the first beat only: noise on the others */
            uint32_t user[4];
            for (int j = 0; j < 4; j++)
                user[j] = in_beat == 0 ? p->user[j] : tb_rand32(&T);
            dut_set_in(1, data, keep, last, user);
            holding = 1;
        }
        if (!holding)
            dut_set_in(0, data, keep, 0, zero_user);
        int oready = tb_chance(&T, out_rate);
        dut_set_out_ready(oready);

        int in_taken = holding && dut_in_ready();
        int last_in = in_taken && (size_t)(in_beat + 1) * BB >= pk[in_pkt].n;
        in_beats += in_taken;
        if (in_taken)
            last_in_cyc = cyc;
        if (last_in)
            t_last[in_pkt] = cyc;
        int olast = 0;
        if (dut_out(odata, okeep, &olast) && oready) {
            tb_unpack_axis(obeat, BB, odata);
            if (out_bytes == 0 && out_idx < npkts && pk[out_idx].outcome == IBSEC_DDPM_MARKED) {
                long lat = cyc - t_last[out_idx];
                lat_min = lat < lat_min ? lat : lat_min;
                lat_max = lat > lat_max ? lat : lat_max;
            }
            last_out = cyc;
            unsigned nk = tb_axis_keep_bytes(okeep, BB);
            if (!olast && nk != BB)
                tb_fail(&R, "cycle %ld: output beat not last but tkeep not all ones", cyc);
            if (out_bytes + nk <= (long)sizeof got)
                memcpy(got + out_bytes, obeat, nk);
            out_bytes += nk;
            if (olast) {
                if (out_idx >= in_pkt + 1) {
                    tb_fail(&R, "cycle %ld: a packet left that was not sent", cyc);
                } else {
                    const pkt_t *e = &pk[out_idx];
                    char what[96];
                    snprintf(what, sizeof what, "packet %ld (%s) output", out_idx,
                             ibsec_ddpm_out_name(e->outcome));
                    if (tb_check_u64(&R, what, e->n, (uint64_t)out_bytes))
                        tb_check_bytes(&R, what, e->out, got, e->n);
                }
                out_idx++;
                out_bytes = 0;
            }
        }
        dut_tick();
        if (in_taken) {
            holding = 0;
            if (last_in) {
                in_pkt++;
                in_beat = 0;
            } else {
                in_beat++;
            }
        }
        unsigned st;
        if (dut_status(&st, count)) {
            if (decided >= npkts) {
                tb_fail(&R, "cycle %ld: more decisions than packets", cyc);
            } else {
                char what[64];
                snprintf(what, sizeof what, "packet %ld outcome", decided);
                if (!tb_check_u64(&R, what, (uint64_t)pk[decided].outcome, st) && R.failed <= 3)
                    describe(&pk[decided], &ep[decided / EPOCH_PKTS]);
                seen[pk[decided].outcome]++;
                tally[pk[decided].outcome]++;
                decided++;
            }
        }
        if (memcmp(count, tally, sizeof tally) == 0)
            tb_pass(&R);
        else
            tb_fail(&R, "cycle %ld: outcome counters differ from the outcomes reported", cyc);
        if (in_pkt >= npkts && decided >= npkts && out_idx >= npkts) {
            out_rate = 100;
            idle_after_end++;
        }
        if (cyc > 2000L * npkts + 100000) {
            tb_fail(&R, "timeout: %ld of %ld packets sent, %ld decided, %ld out", in_pkt, npkts,
                    decided, out_idx);
            break;
        }
    }
    tb_check_u64(&R, "every packet decided", (uint64_t)npkts, (uint64_t)decided);
    tb_check_u64(&R, "every packet left", (uint64_t)npkts, (uint64_t)out_idx);
    printf("%s: %ld packets, %ld epochs, %ld cycles; outcomes:", name, npkts, n_epochs, cyc);
    for (int o = 0; o < IBSEC_DDPM_OUT_COUNT; o++) {
        if (o == IBSEC_DDPM_SOURCE_FOUND || o == IBSEC_DDPM_OUT_OF_NETWORK)
            continue; /* receiver-side outcomes */
        printf(" %s %lu", ibsec_ddpm_out_name((enum ibsec_ddpm_out)o), seen[o]);
        if (seen[o] == 0)
            tb_fail(&R, "outcome %s never occurred", ibsec_ddpm_out_name((enum ibsec_ddpm_out)o));
    }
    printf("; resets %ld (packets cut off %ld, packets lost in the block %ld)\n", resets,
           abandoned, lost);
    if (bench)
        printf("%s: bench: %ld input beats in %ld cycles = %.3f beats per cycle (%ld cycles to the last beat out); last beat in to "
               "first beat out of a marked packet: %ld..%ld cycles\n", name, in_beats, last_in_cyc,
               (double)in_beats / (double)last_in_cyc, last_out, lat_min, lat_max);
    free(t_last);
    free(pk);
    free(ep);
    dut_finish();
    return tb_summary(&R);
}
