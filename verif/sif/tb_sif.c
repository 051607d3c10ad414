/*
 * tb_sif.c — C harness of the sif_filter bench (rtl/switch/sif_filter.v) against the C model
 * cmodel/sif.c (docs/availability.md §1, §5).
 *
 * Traffic: native IBA packets from the model's generator (ib_pktgen: every opcode, mostly
 * short payloads, some of any length up to 4096 bytes, with and without GRH) whose P_Key
 * is drawn from a small pool (so that keys repeat and the tables hit), and damaged ones:
 * cut short at every header boundary, LRH.LNH raw / IP, LRH.LVer != 0, a bad GRH IPVer or
 * NxtHdr. Random idle cycles on the input and random back-pressure on the output, in
 * phases of different rates. SM writes (installs) at random cycles; epochs with different
 * valid tables (0..32 entries) and quiet times, some made to reach the fallbacks.
 *
 * Every cycle the model gets the same events in the block's order (the packet decision
 * that st_valid reports, then the SM write, then one tick), and the harness compares the
 * outcome, the install outcome and the whole port state (filtering, fallback, the
 * Invalid_P_Key_Table, the violation counter, the quiet timer) and the statistics (per-outcome
 * counters, lookups, flushes) with the model. Forwarded packets must leave byte for byte as
 * they came, in order; dropped ones must not leave. Now and then the block is reset, also
 * in the middle of a packet: the model starts afresh with it and the packets inside the
 * block are written off. At the end every outcome and every install outcome must have
 * occurred.
 *
 * --bench: no idle cycles and no back-pressure; prints the throughput (input beats per
 * cycle) and the latency from a forwarded packet's first beat in to its first beat out.
 *
 * Usage: Vtb [--seed S] [--packets N] [--bench]; prints "vtest-sif-L<n>: N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ib_pkt.h"
#include "ib_pktgen.h"
#include "rng.h"
#include "sif.h"
#include "tb_sif.h"
#include "tb_util.h"

#define POOL 14               /* P_Keys the traffic and the SM draw from */
#define OPC_RC_SEND_ONLY 0x04 /* IBA §9.2.1: RC SEND Only (any payload length) */
#define MAX_WORDS (4 * 12)    /* tdata words at LANES = 12 */

typedef struct {
    uint8_t b[IBSEC_MAX_PKT];
    size_t  n;
} pkt_t;

static tb_result R;
static tb_rng T;              /* timing, idle, back-pressure, SM writes */
static ibsec_rng G;           /* packet contents (the model's generator) */
static unsigned BB;           /* bytes per beat */
static uint16_t pool[POOL];

/* ---- traffic ----------------------------------------------------------------- */

static void make_pool(void)
{
    for (int i = 0; i < POOL; i++) {
        pool[i] = (uint16_t)tb_rand32(&T);
        if (i % 4 == 3)
            pool[i] = pool[i - 1] ^ 0x8000u; /* same partition, other membership */
    }
    pool[POOL - 1] &= 0x8000u;               /* partition 0: never matches */
}

static void build(pkt_t *p, int grh, int any_len)
{
    struct ibsec_pktgen_opts o;
    struct ibsec_pkt_desc d;
    static uint8_t pay[IBSEC_MAX_PAYLOAD];
    ibsec_pktgen_default_opts(&o, grh ? IBSEC_SHAPE_IB_GLOBAL : IBSEC_SHAPE_IB_LOCAL);
    if (!any_len) {
        o.opcode = OPC_RC_SEND_ONLY;
        o.payload_len = (int)tb_rand_range(&T, 0, 120);
    }
    if (ibsec_pktgen_desc(&G, &o, &d, pay) != IBSEC_PKT_OK ||
        ((d.bth.pkey = pool[tb_rand_range(&T, 0, POOL - 1)]),
         ibsec_pkt_build(&d, p->b, sizeof p->b, &p->n, NULL) != IBSEC_PKT_OK)) {
        fprintf(stderr, "tb_sif: packet generator failed\n");
        exit(2);
    }
}

/* One input packet: mostly good, some damaged in each way the header view names. */
static void gen_packet(pkt_t *p)
{
    unsigned k = tb_rand_range(&T, 0, 99);
    int grh = tb_chance(&T, 50);
    build(p, grh || (k >= 90 && k < 96), k >= 96);
    if (k >= 70 && k < 78) {                 /* cut short: before 8, 20 or 60 bytes */
        size_t need = tb_chance(&T, 30) ? 8 : (grh ? 60 : 20);
        p->n = tb_rand_range(&T, 1, (uint32_t)need - 1);
    } else if (k >= 78 && k < 84) {          /* LNH raw or IP non-IBA */
        p->b[1] = (uint8_t)((p->b[1] & 0xFC) | tb_rand_range(&T, 0, 1));
    } else if (k >= 84 && k < 90) {          /* LVer != 0 */
        p->b[0] = (uint8_t)((p->b[0] & 0xF0) | tb_rand_range(&T, 1, 15));
    } else if (k >= 90 && k < 96) {          /* GRH IPVer or NxtHdr */
        if (tb_chance(&T, 50))
            p->b[8] = (uint8_t)((p->b[8] & 0x0F) | (tb_rand_range(&T, 0, 15) == 6 ? 0x40 : 0x70));
        else
            p->b[14] ^= (uint8_t)tb_rand_range(&T, 1, 255);
    }
}

/* ---- configuration epochs ---------------------------------------------------- */

struct epoch {
    uint16_t valid[32];
    unsigned n_valid;
    uint32_t quiet;
    unsigned inst_pct;    /* chance of an SM write per cycle, in 1/10 % */
    int      fresh_keys;  /* SM writes random keys (fills the table) instead of pool keys */
    unsigned inst_pool;   /* otherwise it writes one of the first inst_pool pool keys */
};

/* Epoch kinds in turn: a valid table of 0..2 entries (fallback_valid at once), a large
 * one with a long quiet time and a burst of fresh keys (fills the Invalid_P_Key_Table:
 * fallback_table_full), an ordinary one, and one whose SM writes repeat two keys. */
static void new_epoch(struct epoch *e)
{
    static unsigned epochs;
    unsigned kind = epochs++ % 4;
    memset(e, 0, sizeof *e);
    e->n_valid = kind == 0 ? tb_rand_range(&T, 1, 2) : kind == 1 ? tb_rand_range(&T, 17, 32)
                                                                 : tb_rand_range(&T, 2, 12);
    for (unsigned i = 0; i < 32; i++)
        e->valid[i] = tb_chance(&T, 70) ? pool[tb_rand_range(&T, 0, POOL - 1)] : (uint16_t)tb_rand32(&T);
    e->quiet = kind == 1 ? 350 : tb_chance(&T, 10) ? 1 : tb_rand_range(&T, 2, 350);
    e->inst_pct = kind == 1 ? 150 : tb_rand_range(&T, 2, 30);
    e->fresh_keys = kind == 1;
    e->inst_pool = kind == 3 ? 2 : POOL; /* kind 3 repeats two keys: already_present */
}

static void model_set_cfg(struct ibsec_sif_port *m, const struct epoch *e)
{
    if (!ibsec_sif_set_valid(m, e->valid, e->n_valid)) {
        fprintf(stderr, "tb_sif: model refused the valid table\n");
        exit(2);
    }
    m->quiet_ticks = e->quiet;
}

/* The last part of every epoch has no SM writes and only keys of the valid table, so
 * that no violation restarts the quiet timer and the port flushes: the next epoch then
 * starts from a clean port. */
#define EPOCH        900   /* cycles per configuration epoch */
#define RESET_ONE_IN 6000  /* chance of a reset per cycle: 1 in this */
#define EPOCH_SM_END 500   /* SM writes only before this cycle of an epoch */

static void give_valid_key(pkt_t *p, const struct epoch *e)
{
    size_t off = (p->n > 1 && (p->b[1] & 3u) == 3u) ? 50 : 10; /* BTH P_Key, GRH or not */
    if (p->n < off + 2 || e->n_valid == 0)
        return;
    uint16_t k = (uint16_t)(e->valid[tb_rand_range(&T, 0, e->n_valid - 1)] | 0x8000u);
    p->b[off] = (uint8_t)(k >> 8);
    p->b[off + 1] = (uint8_t)k;
}

/* ---- comparison --------------------------------------------------------------- */

static void check_state(const struct ibsec_sif_port *m, const struct sif_dut_state *s, long cyc)
{
    char what[96];
    int ok = 1;
    ok &= s->filtering == (int)m->filtering && s->use_valid_table == (int)m->use_valid_table &&
          s->n_invalid == m->n_invalid && s->violations == m->violations &&
          s->quiet_left == m->quiet_left && s->lookups == (uint32_t)m->lookups &&
          s->flushes == (uint32_t)m->flushes;
    for (unsigned i = 0; i < m->n_invalid && i < 16; i++)
        ok &= s->invalid[i] == m->invalid[i];
    for (int o = 0; o < IBSEC_SIF_OUT_COUNT; o++)
        ok &= s->out_count[o] == (uint32_t)m->out_count[o];
    if (ok) {
        tb_pass(&R);
        return;
    }
    snprintf(what, sizeof what, "cycle %ld: port state", cyc);
    tb_fail(&R, "%s: rtl filt %d fb %d ninv %u viol %u quiet %u lookups %u flushes %u; "
                "model filt %d fb %d ninv %u viol %u quiet %u lookups %llu flushes %llu",
            what, s->filtering, s->use_valid_table, s->n_invalid, s->violations, s->quiet_left,
            s->lookups, s->flushes, m->filtering, m->use_valid_table, m->n_invalid, m->violations,
            m->quiet_left, (unsigned long long)m->lookups, (unsigned long long)m->flushes);
}

/* ---- the run ------------------------------------------------------------------ */

static int usage(void)
{
    fprintf(stderr, "usage: Vtb [--seed S] [--packets N] [--bench]\n");
    return 2;
}

int tb_sif_main(int argc, char **argv)
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
    snprintf(name, sizeof name, "vtest-sif-L%u", lanes);
    tb_result_init(&R, name);
    tb_rng_seed(&T, seed);
    ibsec_rng_seed(&G, seed ^ 0x51F);
    BB = 16 * lanes;
    make_pool();

    pkt_t *pk = calloc((size_t)npkts, sizeof *pk);
    long *fwd = calloc((size_t)npkts, sizeof *fwd);
    long *t_in = calloc((size_t)npkts, sizeof *t_in);
    if (!pk || !fwd || !t_in) {
        fprintf(stderr, "tb_sif: out of memory\n");
        return 2;
    }
    for (long i = 0; i < npkts; i++)
        gen_packet(&pk[i]);

    struct ibsec_sif_port m;
    struct epoch ep;
    new_epoch(&ep);
    ibsec_sif_port_init(&m, ep.quiet);
    model_set_cfg(&m, &ep);
    dut_set_cfg(ep.valid, ep.n_valid, ep.quiet);
    dut_set_in(0, (uint32_t[MAX_WORDS]){ 0 }, (uint32_t[6]){ 0 }, 0);
    dut_set_inst(0, 0);
    dut_set_out_ready(0);
    dut_set_rst(1);
    for (int i = 0; i < 3; i++)
        dut_tick();
    dut_set_rst(0);

    long in_pkt = 0, in_beat = 0, decided = 0, n_fwd = 0, out_idx = 0, out_bytes = 0;
    int holding = 0;
    unsigned in_rate = 100, out_rate = 100;
    unsigned long seen_out[IBSEC_SIF_OUT_COUNT] = { 0 }, seen_inst[IBSEC_SIF_INSTALL_COUNT] = { 0 };
    uint32_t data[MAX_WORDS], keep[6], odata[MAX_WORDS], okeep[6];
    uint8_t obeat[16 * 12];
    static uint8_t got[IBSEC_MAX_PKT];
    long resets = 0, abandoned = 0, lost = 0;
    unsigned long long total_flushes = 0;
    long cyc = 0, idle_after_end = 0, in_beats = 0, last_out = 0, last_in_cyc = 0, lat_min = 1L << 30, lat_max = 0;

    while (idle_after_end < 200) {
        cyc++;
        if (cyc % 300 == 0 && !bench) {
            static const unsigned rates[] = { 100, 100, 70, 30, 5 };
            in_rate = rates[tb_rand_range(&T, 0, 4)];
            out_rate = rates[tb_rand_range(&T, 0, 4)];
        }
        if (cyc % EPOCH == 0) {
            new_epoch(&ep);
            model_set_cfg(&m, &ep);
            dut_set_cfg(ep.valid, ep.n_valid, ep.quiet);
        }
        /* now and then a reset, also in the middle of packets: everything inside the
         * block is lost, the port starts afresh (ibsec_sif_port_init) */
        if (!bench && in_pkt < npkts && tb_rand_range(&T, 0, RESET_ONE_IN - 1) == 0) {
            dut_set_in(0, data, keep, 0);
            dut_set_inst(0, 0);
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
            decided = in_pkt;
            lost += n_fwd - out_idx;
            out_idx = n_fwd;
            out_bytes = 0;
            total_flushes += m.flushes;
            ibsec_sif_port_init(&m, ep.quiet);
            model_set_cfg(&m, &ep);
            continue;
        }
        /* input beat: once offered, held until taken */
        long epoch_pos = cyc % EPOCH;
        if (!holding && in_pkt < npkts && tb_chance(&T, in_rate)) {
            pkt_t *p = &pk[in_pkt];
            if (in_beat == 0 && epoch_pos >= EPOCH_SM_END)
                give_valid_key(p, &ep);
            int last = tb_axis_frame_beat(&T, p->b, p->n, (size_t)in_beat, BB, data, keep);
            dut_set_in(1, data, keep, last);
            holding = 1;
        }
        if (!holding)
            dut_set_in(0, data, keep, 0);
        /* SM write */
        uint16_t inst_key = 0;
        int inst = epoch_pos < EPOCH_SM_END && tb_rand_range(&T, 0, 999) < ep.inst_pct;
        if (inst)
            inst_key = ep.fresh_keys ? (uint16_t)tb_rand32(&T) : pool[tb_rand_range(&T, 0, ep.inst_pool - 1)];
        dut_set_inst(inst, inst_key);
        int oready = tb_chance(&T, out_rate);
        dut_set_out_ready(oready);

        int in_taken = holding && dut_in_ready();
        if (in_taken) {
            in_beats++;
            last_in_cyc = cyc;
            if (in_beat == 0)
                t_in[in_pkt] = cyc;
        }
        int last_in = 0;
        if (in_taken) {
            const pkt_t *p = &pk[in_pkt];
            last_in = (size_t)(in_beat + 1) * BB >= p->n;
        }
        int olast = 0;
        if (dut_out(odata, okeep, &olast) && oready) {
            tb_unpack_axis(obeat, BB, odata);
            if (out_bytes == 0 && out_idx < n_fwd) {
                long lat = cyc - t_in[fwd[out_idx]];
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
                if (out_idx >= n_fwd) {
                    tb_fail(&R, "cycle %ld: a packet left that the model dropped", cyc);
                } else {
                    const pkt_t *e = &pk[fwd[out_idx]];
                    char what[64];
                    snprintf(what, sizeof what, "forwarded packet %ld (input %ld)", out_idx, fwd[out_idx]);
                    if (tb_check_u64(&R, what, e->n, (uint64_t)out_bytes))
                        tb_check_bytes(&R, what, e->b, got, e->n);
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

        /* the model, in the block's order: decision, SM write, tick */
        struct sif_dut_state s;
        dut_state(&s);
        if (s.st_valid) {
            if (decided >= in_pkt + (in_beat > 0)) {
                tb_fail(&R, "cycle %ld: a decision for a packet not yet sent", cyc);
            } else {
                enum ibsec_sif_out o = ibsec_sif_ingress(&m, pk[decided].b, pk[decided].n);
                char what[64];
                snprintf(what, sizeof what, "packet %ld outcome", decided);
                tb_check_u64(&R, what, (uint64_t)o, s.st_outcome);
                seen_out[o]++;
                if (o == IBSEC_SIF_FORWARD)
                    fwd[n_fwd++] = decided;
                decided++;
            }
        }
        if (inst) {
            enum ibsec_sif_install io = ibsec_sif_install_invalid(&m, inst_key);
            char what[64];
            snprintf(what, sizeof what, "cycle %ld: install outcome", cyc);
            if (!s.inst_done)
                tb_fail(&R, "cycle %ld: install not reported", cyc);
            tb_check_u64(&R, what, (uint64_t)io, s.inst_outcome);
            seen_inst[io]++;
        } else if (s.inst_done) {
            tb_fail(&R, "cycle %ld: install reported without a write", cyc);
        }
        ibsec_sif_tick(&m, 1);
        check_state(&m, &s, cyc);

        if (in_pkt >= npkts && decided >= npkts && out_idx >= n_fwd) {
            out_rate = 100;
            idle_after_end++;
        }
        if (cyc > 400L * npkts + 100000) {
            tb_fail(&R, "timeout: %ld of %ld packets sent, %ld decided, %ld of %ld forwarded out",
                    in_pkt, npkts, decided, out_idx, n_fwd);
            break;
        }
    }
    tb_check_u64(&R, "every packet decided", (uint64_t)npkts, (uint64_t)decided);
    tb_check_u64(&R, "every forwarded packet left", (uint64_t)n_fwd, (uint64_t)out_idx);
    printf("%s: %ld packets in %ld cycles; outcomes:", name, npkts, cyc);
    for (int o = 0; o < IBSEC_SIF_OUT_COUNT; o++) {
        printf(" %s %lu", ibsec_sif_out_name((enum ibsec_sif_out)o), seen_out[o]);
        if (seen_out[o] == 0)
            tb_fail(&R, "outcome %s never occurred", ibsec_sif_out_name((enum ibsec_sif_out)o));
    }
    printf("; installs:");
    for (int o = 0; o < IBSEC_SIF_INSTALL_COUNT; o++) {
        printf(" %s %lu", ibsec_sif_install_name((enum ibsec_sif_install)o), seen_inst[o]);
        if (seen_inst[o] == 0)
            tb_fail(&R, "install outcome %s never occurred",
                    ibsec_sif_install_name((enum ibsec_sif_install)o));
    }
    printf("; resets %ld (packets cut off %ld, forwarded packets lost in the block %ld)\n",
           resets, abandoned, lost);
    if (bench)
        printf("%s: bench: %ld input beats in %ld cycles = %.3f beats per cycle (%ld cycles to the last beat out); first beat in to "
               "first beat out of a forwarded packet: %ld..%ld cycles\n", name, in_beats, last_in_cyc,
               (double)in_beats / (double)last_in_cyc, last_out, lat_min, lat_max);
    if (total_flushes + m.flushes == 0)
        tb_fail(&R, "no flush happened");
    free(pk);
    free(fwd);
    free(t_in);
    dut_finish();
    return tb_summary(&R);
}
