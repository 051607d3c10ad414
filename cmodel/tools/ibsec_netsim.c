/*
 * ibsec_netsim.c — a small packet-level network simulation of the switch-side
 * availability schemes (TPDS 2007 §5.3-5.4, §7.3): invalid-P_Key floods
 * against no filtering, DT, IF and SIF, and source identification of spoofed
 * packets by DDPM under adaptive routing.
 *
 * Usage:
 *   ibsec_netsim flood  [--k K] [--time US] [--seed N]   Fig. 8 / Table 1 table
 *   ibsec_netsim matrix [--k K] [--time US] [--seed N]   mesh, torus, hypercube, fat tree x
 *                                                        adaptive, deterministic routing, load 50 %
 *   ibsec_netsim trace  [--trials N] [--seed N]          Tables 2-3 source identification
 *   ibsec_netsim check                                   reduced sizes, asserts the claims,
 *                                                        prints "ctest-netsim: N passed, N failed"
 * Bad options or values: message on stderr, exit status 2.
 *
 * Model (flood).  A K x K mesh of switches, one CA per switch (5-port
 * switches, as in the conference paper's testbed); `matrix` runs the same on
 * a K x K torus, a hypercube and a 4-ary fat tree of as many nodes, with
 * adaptive and with deterministic routing.  Time is in ns.  Packets
 * are 256-byte units that take TX_NS on a link (8 Gb/s, 4X SDR data rate);
 * a switch adds ROUTE_NS, a P_Key table lookup LOOKUP_NS (1 MB SRAM, TPDS
 * §7.3), a link PROP_NS.  Output links are reserved first come first served
 * (virtual cut-through with unbounded buffers, no credits).  Routing is
 * minimal adaptive: among the productive output ports the one that frees
 * first.  Legitimate traffic: every CA sends to uniform random destinations,
 * Bernoulli per TX_NS slot, at a load given as a fraction of the mesh's
 * bisection bound for uniform traffic (4/K packets per slot per node).  One
 * attacker floods a victim at the full link rate with an invalid P_Key from
 * 1/4 to 1/2 of the run.  Every packet is a real IBA packet (ib_pkt.h) that
 * each switch marks with DDPM (ddpm.h); the ingress ports of SIF are
 * ibsec_sif_port (sif.h), the CAs check keys and send traps with the source
 * DDPM identified; the SM acts SM_DELAY_NS after a trap.
 *   none: no filtering, the victim CA drops the flood.
 *   DT:   every switch port looks every packet up in the valid P_Key table.
 *   IF:   only switch ports facing CAs look every packet up.
 *   SIF:  only ports the SM enabled look up, until QUIET_NS without violation.
 *
 * Model (trace).  One spoofed packet (LRH.SLID of another node) per trial
 * from a random source to a random destination at the Table 3 sizes, routed
 * adaptively: a random productive port, or with probability 1/5 a random
 * non-productive one (misrouting, loops allowed); and on fat trees at the
 * Table 2 sizes with a random up-port at every level.  The receiver
 * identifies the source from the MF alone.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ddpm.h"
#include "ib_pkt.h"
#include "rng.h"
#include "sif.h"

#define EXIT_USAGE 2

#define TX_NS       256u    /* 256-byte packet at 8 Gb/s (4X SDR data rate) */
#define ROUTE_NS    100u    /* switch routing delay */
#define LOOKUP_NS   5u      /* P_Key table lookup, 1 MB SRAM (TPDS §7.3) */
#define PROP_NS     5u      /* link propagation */
#define SM_DELAY_NS 10000u  /* trap to the SM, SM decision, SM write to the switch */
#define QUIET_NS    20000u  /* SIF quiet time before flush-and-disable */
#define PKEY_LEGIT  0x8001u /* the partition every CA belongs to */
#define PKEY_ATTACK 0x8666u /* the attacker's invalid key */
#define OPC_UD_SEND_ONLY 0x64u /* IBA §9.2.1: UD SEND Only */
#define MAX_DIMS    10u    /* up to a 10-cube in the flood experiment */

enum scheme { SCH_NONE, SCH_DT, SCH_IF, SCH_SIF, SCH_COUNT };
static const char *const scheme_name[SCH_COUNT] = { "none", "DT", "IF", "SIF" };

/* ---- a k-ary n-dimensional mesh/torus or a hypercube ------------------------ */

struct topo {
    enum ibsec_topo kind;
    unsigned nd;       /* dimensions */
    uint32_t k;        /* nodes per dimension (2 for a hypercube) */
    uint32_t n;        /* switches = CAs */
    unsigned nports;   /* network ports per switch: 2 per dim, 1 per dim for a cube */
};

static void coords_of(const struct topo *t, uint32_t id, uint32_t *c)
{
    for (unsigned i = 0; i < t->nd; i++) {
        c[i] = id % t->k;
        id /= t->k;
    }
}

static uint32_t id_of(const struct topo *t, const uint32_t *c)
{
    uint32_t id = 0;
    for (unsigned i = t->nd; i-- > 0;)
        id = id * t->k + c[i];
    return id;
}

/* Port p: dimension p/2, direction + (p even) or - (p odd); cube: flip dim p. */
static int32_t port_delta(const struct topo *t, unsigned p, unsigned *dim)
{
    if (t->kind == IBSEC_TOPO_HYPERCUBE) {
        *dim = p;
        return 1;
    }
    *dim = p / 2;
    return (p & 1u) ? -1 : 1;
}

/* Neighbour coordinate through port p; false if the port leads off a mesh. */
static bool step(const struct topo *t, const uint32_t *c, unsigned p, uint32_t *next)
{
    unsigned d;
    int32_t delta = port_delta(t, p, &d);
    memcpy(next, c, t->nd * sizeof c[0]);
    if (t->kind == IBSEC_TOPO_HYPERCUBE) {
        next[d] ^= 1u;
        return true;
    }
    int64_t v = (int64_t)c[d] + delta;
    if (t->kind == IBSEC_TOPO_MESH && (v < 0 || v >= (int64_t)t->k))
        return false;
    next[d] = (uint32_t)((v + t->k) % t->k);
    return true;
}

/* Is port p productive (a minimal route) from c towards dst? */
static bool productive(const struct topo *t, const uint32_t *c, const uint32_t *dst, unsigned p)
{
    unsigned d;
    int32_t delta = port_delta(t, p, &d);
    if (c[d] == dst[d])
        return false;
    if (t->kind == IBSEC_TOPO_HYPERCUBE)
        return true;
    if (t->kind == IBSEC_TOPO_MESH)
        return (dst[d] > c[d]) == (delta > 0);
    uint32_t fwd = (dst[d] + t->k - c[d]) % t->k; /* torus: hops going + */
    return delta > 0 ? 2 * fwd <= t->k : 2 * fwd >= t->k;
}

/* ---- packets ------------------------------------------------------------------ */

struct pkt {
    uint8_t  buf[128];
    size_t   len;
    uint32_t src, dst;   /* true source, destination */
    uint64_t gen;        /* generation time */
    bool     attack;
};

static size_t build_pkt(uint8_t *buf, size_t cap, uint16_t slid, uint16_t dlid, uint16_t pkey)
{
    struct ibsec_pkt_desc d;
    memset(&d, 0, sizeof d);
    d.shape = IBSEC_SHAPE_IB_GLOBAL;
    d.lrh.slid = slid;
    d.lrh.dlid = dlid;
    d.grh.hoplmt = 255;
    d.grh.sgid[0] = 0xFE; d.grh.sgid[1] = 0x80;
    d.grh.sgid[14] = (uint8_t)(slid >> 8); d.grh.sgid[15] = (uint8_t)slid;
    d.grh.dgid[0] = 0xFE; d.grh.dgid[1] = 0x80;
    d.grh.dgid[14] = (uint8_t)(dlid >> 8); d.grh.dgid[15] = (uint8_t)dlid;
    d.bth.opcode = OPC_UD_SEND_ONLY;
    d.bth.pkey = pkey;
    d.bth.destqp = 1;
    d.eths.deth_qkey = 0x11111111u;
    d.eths.deth_srcqp = 1;
    d.payload_len = 16;
    size_t len = 0;
    return ibsec_pkt_build(&d, buf, cap, &len, NULL) == IBSEC_PKT_OK ? len : 0;
}

/* ---- event queue (binary heap on time, then sequence) ---------------------- */

enum ev_type { EV_GEN, EV_ATTACK, EV_SWITCH, EV_SWITCH_FROM_CA, EV_FT_SWITCH, EV_CA, EV_SM };

struct event {
    uint64_t t, seq;
    uint32_t type, a, b;
};

struct heap {
    struct event *e;
    size_t n, cap;
    uint64_t seq;
};

static bool ev_before(const struct event *x, const struct event *y)
{
    return x->t != y->t ? x->t < y->t : x->seq < y->seq;
}

static void heap_push(struct heap *h, uint64_t t, uint32_t type, uint32_t a, uint32_t b)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->e = realloc(h->e, h->cap * sizeof h->e[0]);
        if (!h->e) {
            fprintf(stderr, "ibsec_netsim: out of memory\n");
            exit(1);
        }
    }
    struct event ev = { t, h->seq++, type, a, b };
    size_t i = h->n++;
    while (i > 0 && ev_before(&ev, &h->e[(i - 1) / 2])) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = ev;
}

static struct event heap_pop(struct heap *h)
{
    struct event top = h->e[0], last = h->e[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && ev_before(&h->e[c + 1], &h->e[c]))
            c++;
        if (!ev_before(&h->e[c], &last))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n > 0)
        h->e[i] = last;
    return top;
}

/* ---- the flood experiment -------------------------------------------------- */

struct flood_cfg {
    uint32_t k;          /* mesh/torus side (2 dimensions); hypercube: dimensions */
    uint64_t gen_ns;     /* legit generation time */
    double   load;       /* fraction of the bisection bound */
    enum scheme sch;
    bool     attack, spoof, ddpm_trace;
    uint64_t seed;
    unsigned atk_keys;   /* invalid keys the attacker rotates through (>= 1) */
    enum ibsec_topo kind;/* mesh, torus, hypercube or fat tree */
    unsigned levels;     /* fat tree: levels of a k-ary n-tree (k = down-ports) */
    bool     deterministic; /* dimension-order routing instead of minimal adaptive */
};

struct flood_res {
    double   lat_mean, lat_sd, lat_attack_mean; /* legit latency, ns (all / generated in the attack window) */
    uint64_t legit_gen, legit_done, atk_sent, atk_at_victim, atk_link_hops;
    uint64_t lookups, traps, installs, wrong_port_installs, flushes;
    uint64_t first_install_ns;      /* time of the SM's first Invalid_P_Key_Table write */
    uint64_t atk_after_install;     /* attack packets sent after that write that reached the victim */
    uint64_t fallbacks;             /* SM writes that put a port into the valid-table fallback */
    uint64_t first_fallback_ns;
    uint64_t atk_after_fallback;    /* attack packets sent after the first fallback that reached the victim */
    bool     filtering_at_end;
};

struct sim {
    const struct flood_cfg *cfg;
    struct topo t;
    struct ibsec_ddpm_cfg dcfg;
    ibsec_rng g;
    struct heap h;
    struct pkt *pk;
    size_t npk, cappk;
    uint32_t *freelist;
    size_t nfree;
    uint64_t *link_free;            /* [switch][port]; port nports = to the CA */
    uint64_t *inj_free;             /* CA -> switch link */
    struct ibsec_sif_port *edge;    /* switch port facing each CA */
    uint64_t *edge_time;            /* last time the port's timer was advanced */
    struct ibsec_ca_pkeys *ca;
    struct ibsec_sm *sm;
    struct ibsec_sif_trap *traps;
    size_t ntraps, captraps;
    uint16_t valid[1];
    uint32_t attacker, victim, spoofed;
    double   p_inject;
    double   lat_sum, lat_sq, lat_atk_sum;
    uint64_t lat_atk_n;
    struct flood_res r;
};

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "ibsec_netsim: out of memory\n");
        exit(1);
    }
    return p;
}

static uint32_t pkt_alloc(struct sim *s)
{
    if (s->nfree)
        return s->freelist[--s->nfree];
    if (s->npk == s->cappk) {
        s->cappk = s->cappk ? 2 * s->cappk : 4096;
        s->pk = realloc(s->pk, s->cappk * sizeof s->pk[0]);
        s->freelist = realloc(s->freelist, s->cappk * sizeof s->freelist[0]);
        if (!s->pk || !s->freelist) {
            fprintf(stderr, "ibsec_netsim: out of memory\n");
            exit(1);
        }
    }
    return (uint32_t)s->npk++;
}

static void pkt_free(struct sim *s, uint32_t i)
{
    s->freelist[s->nfree++] = i;
}

static double uniform01(ibsec_rng *g)
{
    return (double)(ibsec_rng_next(g) >> 11) / 9007199254740992.0; /* 2^53 */
}

/* Next Bernoulli slot with probability p after time t. */
static uint64_t next_slot(ibsec_rng *g, uint64_t t, double p)
{
    do
        t += TX_NS;
    while (uniform01(g) >= p);
    return t;
}

/* ---- fat tree (k-ary n-tree) ----------------------------------------------------
 * Nodes: n base-k digits d_0..d_{n-1} (d_0 = the level-0 switch's down-port).
 * Switch (level l, label a): a has digits a_1..a_{n-1}; a_1..a_l name one of the
 * k^l replicas, a_{l+1}..a_{n-1} are the subtree's address digits d_{l+1}..
 * Down-port j of (l, a) leads to (l-1, a with a_l := j) (at level 0: to node
 * (j, a)); up-port u of (l, a) leads to (l+1, a with a_{l+1} := u), arriving
 * there on down-port a_{l+1}.  Ports 0..k-1 are down, k..2k-1 up.  An event
 * carries the switch id (level * k^(n-1) + label) and the arrival port. */

#define FT_PORT_BITS 7u /* arrival port < 2k <= 64 */

static uint32_t ft_code(uint32_t sw, uint32_t port)
{
    return sw << FT_PORT_BITS | port;
}

static uint32_t upow(uint32_t b, unsigned e)
{
    uint32_t r = 1;
    while (e--)
        r *= b;
    return r;
}

/* Digit i (1..n-1) of a label / of a node id (0..n-1). */
static uint32_t label_digit(uint32_t k, uint32_t label, unsigned i)
{
    return label / upow(k, i - 1) % k;
}

static uint32_t label_with(uint32_t k, uint32_t label, unsigned i, uint32_t v)
{
    uint32_t w = upow(k, i - 1);
    return label - label_digit(k, label, i) * w + v * w;
}

static uint32_t node_digit(uint32_t k, uint32_t node, unsigned i)
{
    return node / upow(k, i) % k;
}

/* Put a new packet on the CA -> switch link. */
static void inject(struct sim *s, uint64_t now, uint32_t node, uint32_t dst, bool attack)
{
    uint32_t i = pkt_alloc(s);
    struct pkt *p = &s->pk[i];
    uint32_t slid = (attack && s->cfg->spoof ? s->spoofed : node) + 1;
    p->len = build_pkt(p->buf, sizeof p->buf, (uint16_t)slid, (uint16_t)(dst + 1),
                       attack ? (uint16_t)(PKEY_ATTACK + s->r.atk_sent % s->cfg->atk_keys) : PKEY_LEGIT);
    p->src = node;
    p->dst = dst;
    p->gen = now;
    p->attack = attack;
    uint64_t dep = now > s->inj_free[node] ? now : s->inj_free[node];
    s->inj_free[node] = dep + TX_NS;
    if (s->cfg->kind == IBSEC_TOPO_FATTREE) /* level-0 switch node/k, down-port = digit 0 */
        heap_push(&s->h, dep + TX_NS + PROP_NS, EV_FT_SWITCH, i, ft_code(node / s->t.k, node % s->t.k));
    else
        heap_push(&s->h, dep + TX_NS + PROP_NS, EV_SWITCH_FROM_CA, i, node);
}

/* Ingress filtering of the configured scheme at a switch port (`edge`: the CA
 * the port faces, when from_ca); returns the added delay or -1 to drop. */
static int64_t filter(struct sim *s, uint64_t now, const struct pkt *p, uint32_t edge, bool from_ca)
{
    struct ibsec_sw_hdr h;
    ibsec_sw_hdr_read(p->buf, p->len, &h);
    switch (s->cfg->sch) {
    case SCH_DT:
    case SCH_IF:
        if (s->cfg->sch == SCH_IF && !from_ca)
            return 0;
        s->r.lookups++;
        return ibsec_pkey_in_table(s->valid, 1, h.pkey) ? (int64_t)LOOKUP_NS : -1;
    case SCH_SIF: {
        if (!from_ca)
            return 0;
        struct ibsec_sif_port *e = &s->edge[edge];
        ibsec_sif_tick(e, (uint32_t)(now - s->edge_time[edge]));
        s->edge_time[edge] = now;
        uint64_t before = e->lookups;
        enum ibsec_sif_out o = ibsec_sif_ingress(e, p->buf, p->len);
        s->r.lookups += e->lookups - before;
        if (o != IBSEC_SIF_FORWARD)
            return -1;
        return e->lookups != before ? (int64_t)LOOKUP_NS : 0;
    }
    default:
        return 0;
    }
}

/* Choose the output port.  Adaptive: the productive port that frees first. */
/* Deterministic: the first productive port in dimension order. */
static unsigned route(struct sim *s, uint32_t sw, const uint32_t *c, const uint32_t *dst)
{
    unsigned best = s->t.nports;
    for (unsigned p = 0; p < s->t.nports; p++) {
        if (!productive(&s->t, c, dst, p))
            continue;
        if (s->cfg->deterministic)
            return p;
        if (best == s->t.nports ||
            s->link_free[sw * (s->t.nports + 1) + p] < s->link_free[sw * (s->t.nports + 1) + best])
            best = p;
    }
    return best;
}

static void at_switch(struct sim *s, uint64_t now, uint32_t i, uint32_t sw, bool from_ca)
{
    struct pkt *p = &s->pk[i];
    int64_t cost = filter(s, now, p, sw, from_ca); /* direct networks: CA i hangs on switch i */
    if (cost < 0) {
        pkt_free(s, i);
        return;
    }
    uint32_t c[MAX_DIMS], d[MAX_DIMS], nxt[MAX_DIMS];
    coords_of(&s->t, sw, c);
    coords_of(&s->t, p->dst, d);
    unsigned out = route(s, sw, c, d);
    struct ibsec_ddpm_hop hop;
    memset(&hop, 0, sizeof hop);
    hop.from_node = from_ca;
    if (out < s->t.nports) {
        unsigned dim;
        int32_t delta = port_delta(&s->t, out, &dim);
        hop.delta[dim] = delta;
    }
    ibsec_ddpm_mark(&s->dcfg, p->buf, p->len, &hop);
    uint64_t *lf = &s->link_free[sw * (s->t.nports + 1) + out];
    uint64_t ready = now + ROUTE_NS + (uint64_t)cost;
    uint64_t dep = ready > *lf ? ready : *lf;
    *lf = dep + TX_NS;
    if (p->attack)
        s->r.atk_link_hops++;
    if (out == s->t.nports) {
        heap_push(&s->h, dep + TX_NS + PROP_NS, EV_CA, i, sw);
        return;
    }
    step(&s->t, c, out, nxt);
    heap_push(&s->h, dep + TX_NS + PROP_NS, EV_SWITCH, i, id_of(&s->t, nxt));
}

/* A fat-tree switch: filter, mark when the packet came up (TPDS §5.4.2), route
 * up (adaptive: the up-port that frees first; deterministic: up-port = the
 * destination's digit l) until the destination is below, then down. */
static void at_switch_ft(struct sim *s, uint64_t now, uint32_t i, uint32_t code)
{
    struct pkt *p = &s->pk[i];
    const uint32_t k = s->t.k, per_level = upow(k, s->t.nd - 1);
    uint32_t sw = code >> FT_PORT_BITS, in = code & ((1u << FT_PORT_BITS) - 1);
    unsigned l = sw / per_level;
    uint32_t label = sw % per_level;
    bool from_ca = (l == 0 && in < k);
    int64_t cost = filter(s, now, p, label * k + in, from_ca);
    if (cost < 0) {
        pkt_free(s, i);
        return;
    }
    if (in < k) {
        uint64_t anc = 0;   /* the subtree's digits, in their MF slots */
        for (unsigned d = l + 1; d < s->t.nd; d++)
            anc |= (uint64_t)label_digit(k, label, d) << (d * s->dcfg.w);
        ibsec_dpm_mark_fattree(&s->dcfg, p->buf, p->len, l, in, anc);
    }
    bool below = true;      /* is the destination in this switch's subtree? */
    for (unsigned d = l + 1; d < s->t.nd; d++)
        below &= node_digit(k, p->dst, d) == label_digit(k, label, d);
    unsigned out;
    if (below) {
        out = node_digit(k, p->dst, l);
    } else if (s->cfg->deterministic) {
        out = k + node_digit(k, p->dst, l);
    } else {
        out = k;
        for (unsigned u = 1; u < k; u++)
            if (s->link_free[sw * 2 * k + k + u] < s->link_free[sw * 2 * k + out])
                out = k + u;
    }
    uint64_t *lf = &s->link_free[sw * 2 * k + out];
    uint64_t ready = now + ROUTE_NS + (uint64_t)cost;
    uint64_t dep = ready > *lf ? ready : *lf;
    *lf = dep + TX_NS;
    if (p->attack)
        s->r.atk_link_hops++;
    uint64_t at = dep + TX_NS + PROP_NS;
    if (below && l == 0)
        heap_push(&s->h, at, EV_CA, i, label * k + out);
    else if (below)
        heap_push(&s->h, at, EV_FT_SWITCH, i,
                  ft_code((l - 1) * per_level + label_with(k, label, l, out), k));
    else
        heap_push(&s->h, at, EV_FT_SWITCH, i,
                  ft_code((l + 1) * per_level + label_with(k, label, l + 1, out - k),
                          label_digit(k, label, l + 1)));
}

/* The CA: key check, trap with the DDPM-identified source, latency statistics. */
static void at_ca(struct sim *s, uint64_t now, uint32_t i, uint32_t node)
{
    struct pkt *p = &s->pk[i];
    struct ibsec_sw_hdr h;
    struct ibsec_sif_trap trap;
    ibsec_sw_hdr_read(p->buf, p->len, &h);
    if (!ibsec_ca_check_pkey(&s->ca[node], &h, &trap)) {
        s->r.atk_at_victim++;
        if (s->r.installs > 0 && p->gen > s->r.first_install_ns)
            s->r.atk_after_install++;
        if (s->r.fallbacks > 0 && p->gen > s->r.first_fallback_ns)
            s->r.atk_after_fallback++;
        uint32_t self[MAX_DIMS], src[MAX_DIMS];
        coords_of(&s->t, node, self);
        if (s->cfg->ddpm_trace &&
            ibsec_ddpm_identify(&s->dcfg, p->buf, p->len, self, src) == IBSEC_DDPM_SOURCE_FOUND) {
            trap.traced = true;
            trap.traced_lid = (uint16_t)(id_of(&s->t, src) + 1); /* fat tree: digits base k too */
        }
        s->r.traps++;
        if (s->cfg->sch == SCH_SIF) {
            if (s->ntraps == s->captraps) {
                s->captraps = s->captraps ? 2 * s->captraps : 256;
                s->traps = realloc(s->traps, s->captraps * sizeof s->traps[0]);
                if (!s->traps) {
                    fprintf(stderr, "ibsec_netsim: out of memory\n");
                    exit(1);
                }
            }
            s->traps[s->ntraps] = trap;
            heap_push(&s->h, now + SM_DELAY_NS, EV_SM, (uint32_t)s->ntraps++, 0);
        }
    } else if (!p->attack) {
        double lat = (double)(now - p->gen);
        s->r.legit_done++;
        s->lat_sum += lat;
        s->lat_sq += lat * lat;
        if (p->gen >= s->cfg->gen_ns / 4 && p->gen < s->cfg->gen_ns / 2) {
            s->lat_atk_sum += lat;
            s->lat_atk_n++;
        }
    }
    pkt_free(s, i);
}

static void at_sm(struct sim *s, uint64_t now, uint32_t ti)
{
    enum ibsec_sif_install inst;
    const struct ibsec_sif_trap *t = &s->traps[ti];
    uint32_t lid = t->traced ? t->traced_lid : t->slid;
    if (lid >= 1 && lid <= s->t.n) {
        ibsec_sif_tick(&s->edge[lid - 1], (uint32_t)(now - s->edge_time[lid - 1]));
        s->edge_time[lid - 1] = now;
    }
    if (ibsec_sm_handle_trap(s->sm, t, &inst) != IBSEC_SM_ACTED)
        return;
    if (inst == IBSEC_SIF_FALLBACK_VALID || inst == IBSEC_SIF_FALLBACK_TABLE_FULL) {
        if (s->r.fallbacks++ == 0)
            s->r.first_fallback_ns = now;
    } else if (inst != IBSEC_SIF_INSTALLED) {
        return;
    }
    if (s->r.installs++ == 0)
        s->r.first_install_ns = now;
    if (lid != s->attacker + 1)
        s->r.wrong_port_installs++;
}

static double sqrt_pos(double x)
{
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 60; i++)
        r = 0.5 * (r + x / r);
    return x > 0 ? r : 0;
}

static void sim_setup(struct sim *s, const struct flood_cfg *cfg)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    uint32_t radix[MAX_DIMS];
    size_t nlinks;
    if (cfg->kind == IBSEC_TOPO_HYPERCUBE)
        s->t = (struct topo){ cfg->kind, cfg->k, 2, 1u << cfg->k, cfg->k };
    else if (cfg->kind == IBSEC_TOPO_FATTREE)
        s->t = (struct topo){ cfg->kind, cfg->levels, cfg->k, upow(cfg->k, cfg->levels), 2 * cfg->k };
    else
        s->t = (struct topo){ cfg->kind, 2, cfg->k, cfg->k * cfg->k, 4 };
    for (unsigned d = 0; d < s->t.nd; d++)
        radix[d] = s->t.k;
    ibsec_ddpm_configure(&s->dcfg, cfg->kind, s->t.nd, radix, 0);
    ibsec_rng_seed(&s->g, cfg->seed);
    if (cfg->kind == IBSEC_TOPO_FATTREE) /* levels x k^(n-1) switches of 2k ports */
        nlinks = (size_t)s->t.nd * upow(s->t.k, s->t.nd - 1) * s->t.nports;
    else
        nlinks = (size_t)s->t.n * (s->t.nports + 1);
    s->link_free = xcalloc(nlinks, sizeof s->link_free[0]);
    s->inj_free = xcalloc(s->t.n, sizeof s->inj_free[0]);
    s->edge = xcalloc(s->t.n, sizeof s->edge[0]);
    s->edge_time = xcalloc(s->t.n, sizeof s->edge_time[0]);
    s->ca = xcalloc(s->t.n, sizeof s->ca[0]);
    s->sm = xcalloc(1, sizeof *s->sm);
    s->valid[0] = PKEY_LEGIT;
    for (uint32_t i = 0; i < s->t.n; i++) {
        ibsec_sif_port_init(&s->edge[i], QUIET_NS);
        ibsec_sif_set_valid(&s->edge[i], s->valid, 1);
        s->ca[i].keys[0] = PKEY_LEGIT;
        s->ca[i].n = 1;
        if (!ibsec_sm_attach(s->sm, (uint16_t)(i + 1), &s->edge[i])) {
            fprintf(stderr, "ibsec_netsim: LID %u exceeds the SM model's table\n", i + 1);
            exit(EXIT_USAGE);
        }
    }
    /* attacker near one corner, victim near the opposite one; spoofed LID: a bystander */
    if (cfg->kind == IBSEC_TOPO_HYPERCUBE || cfg->kind == IBSEC_TOPO_FATTREE) {
        s->attacker = 1;
        s->victim = s->t.n - 2;          /* hypercube: all dimensions differ; fat tree: via the top */
        s->spoofed = s->t.n - 1;
    } else {
        s->attacker = id_of(&s->t, (uint32_t[2]){ 1, 1 });
        s->victim = id_of(&s->t, (uint32_t[2]){ cfg->k - 2, cfg->k - 2 });
        s->spoofed = id_of(&s->t, (uint32_t[2]){ 0, cfg->k - 1 });
    }
    /* Bisection bound of uniform traffic, packets per slot per node: 4/k (mesh),
     * 8/k (torus), 2 (hypercube), 1 (fat tree, full bisection); the injection
     * link caps it at 1. */
    double bound = cfg->kind == IBSEC_TOPO_MESH ? 4.0 / cfg->k
                 : cfg->kind == IBSEC_TOPO_TORUS ? 8.0 / cfg->k
                 : cfg->kind == IBSEC_TOPO_HYPERCUBE ? 2.0 : 1.0;
    s->p_inject = cfg->load * (bound < 1.0 ? bound : 1.0);
    for (uint32_t i = 0; i < s->t.n; i++)
        if (!(cfg->attack && i == s->attacker))
            heap_push(&s->h, next_slot(&s->g, 0, s->p_inject), EV_GEN, i, 0);
    if (cfg->attack)
        heap_push(&s->h, cfg->gen_ns / 4, EV_ATTACK, s->attacker, 0);
}

static void sim_free(struct sim *s)
{
    free(s->link_free); free(s->inj_free); free(s->edge); free(s->edge_time);
    free(s->ca); free(s->sm); free(s->traps); free(s->pk); free(s->freelist); free(s->h.e);
}

static struct flood_res run_flood(const struct flood_cfg *cfg)
{
    struct sim s;
    uint64_t now = 0;
    sim_setup(&s, cfg);
    while (s.h.n) {
        struct event ev = heap_pop(&s.h);
        now = ev.t;
        switch (ev.type) {
        case EV_GEN: {
            uint32_t dst = ibsec_rng_below(&s.g, s.t.n - 1);
            dst += (dst >= ev.a);
            inject(&s, now, ev.a, dst, false);
            s.r.legit_gen++;
            uint64_t nt = next_slot(&s.g, now, s.p_inject);
            if (nt < cfg->gen_ns)
                heap_push(&s.h, nt, EV_GEN, ev.a, 0);
            break;
        }
        case EV_ATTACK:
            inject(&s, now, ev.a, s.victim, true);
            s.r.atk_sent++;
            if (now + TX_NS < cfg->gen_ns / 2)
                heap_push(&s.h, now + TX_NS, EV_ATTACK, ev.a, 0);
            break;
        case EV_SWITCH:
        case EV_SWITCH_FROM_CA:
            at_switch(&s, now, ev.a, ev.b, ev.type == EV_SWITCH_FROM_CA);
            break;
        case EV_FT_SWITCH:
            at_switch_ft(&s, now, ev.a, ev.b);
            break;
        case EV_CA:
            at_ca(&s, now, ev.a, ev.b);
            break;
        default:
            at_sm(&s, now, ev.a);
            break;
        }
    }
    /* run the quiet timers to the end of the generation period (or later) */
    uint64_t end = now > cfg->gen_ns ? now : cfg->gen_ns;
    for (uint32_t i = 0; i < s.t.n; i++) {
        ibsec_sif_tick(&s.edge[i], (uint32_t)(end - s.edge_time[i]));
        s.r.flushes += s.edge[i].flushes;
        s.r.filtering_at_end |= s.edge[i].filtering;
    }
    double n = (double)(s.r.legit_done ? s.r.legit_done : 1);
    s.r.lat_mean = s.lat_sum / n;
    s.r.lat_sd = sqrt_pos(s.lat_sq / n - s.r.lat_mean * s.r.lat_mean);
    s.r.lat_attack_mean = s.lat_atk_n ? s.lat_atk_sum / (double)s.lat_atk_n : 0;
    struct flood_res r = s.r;
    sim_free(&s);
    return r;
}

/* ---- the trace experiment (Table 3 sizes) ----------------------------------- */

struct trace_res {
    unsigned trials, identified, slid_right;
    uint64_t hops;
};

/* Fat tree (k-ary n-tree): one spoofed packet climbs from its leaf to the
 * lowest common ancestor level of source and destination, taking a random up-port at
 * every level (adaptive: any of the k replicas above), then descends.  A
 * switch is (level l, subtree prefix = the leaf digits above l, replica); it
 * marks with its own prefix as the ancestor constant (TPDS §5.4.2). */
static struct trace_res run_trace_fattree(unsigned levels, uint32_t k, unsigned trials, ibsec_rng *g)
{
    struct ibsec_ddpm_cfg dcfg;
    struct trace_res r = { 0, 0, 0, 0 };
    unsigned b;
    if (ibsec_ddpm_configure(&dcfg, IBSEC_TOPO_FATTREE, levels, &k, 0) != IBSEC_DDPM_CFG_OK)
        return r;
    b = dcfg.w;
    for (unsigned tr = 0; tr < trials; tr++) {
        uint32_t src[IBSEC_DDPM_MAX_DIMS], dst[IBSEC_DDPM_MAX_DIMS], got[IBSEC_DDPM_MAX_DIMS];
        uint8_t buf[128];
        unsigned top = 0;
        bool ok = true;
        for (unsigned l = 0; l < levels; l++) {
            src[l] = ibsec_rng_below(g, k);
            dst[l] = ibsec_rng_below(g, k);
            if (src[l] != dst[l])
                top = l;        /* the packet turns at the highest differing level */
        }
        size_t len = build_pkt(buf, sizeof buf, 0x0BAD, 0x0001, PKEY_ATTACK);
        ibsec_mf_put(buf + IBSEC_LRH_LEN, ibsec_rng_next(g)); /* forged mark */
        for (unsigned l = 0; l <= top; l++) {
            uint64_t prefix = 0;    /* this switch's subtree: the leaf digits above l */
            for (unsigned a = l + 1; a < levels; a++)
                prefix |= (uint64_t)src[a] << (a * b);
            (void)ibsec_rng_below(g, k); /* the replica the up-route picked: no effect on the mark */
            ok &= ibsec_dpm_mark_fattree(&dcfg, buf, len, l, src[l], prefix) == IBSEC_DDPM_MARKED;
        }
        r.hops += 2 * (top + 1);
        ok &= ibsec_ddpm_identify(&dcfg, buf, len, NULL, got) == IBSEC_DDPM_SOURCE_FOUND;
        for (unsigned l = 0; l < levels; l++)
            ok &= got[l] == src[l];
        r.identified += ok;
        r.trials++;
    }
    return r;
}

static struct trace_res run_trace(enum ibsec_topo kind, unsigned nd, uint32_t k, unsigned trials,
                                  ibsec_rng *g)
{
    if (kind == IBSEC_TOPO_FATTREE)
        return run_trace_fattree(nd, k, trials, g);
    struct topo t = { kind, nd, k, 0, kind == IBSEC_TOPO_HYPERCUBE ? nd : 2 * nd };
    struct ibsec_ddpm_cfg dcfg;
    uint32_t radix[IBSEC_DDPM_MAX_DIMS];
    struct trace_res r = { 0, 0, 0, 0 };
    for (unsigned i = 0; i < nd; i++)
        radix[i] = k;
    if (ibsec_ddpm_configure(&dcfg, kind, nd, radix, 0) != IBSEC_DDPM_CFG_OK)
        return r;
    for (unsigned tr = 0; tr < trials; tr++) {
        uint32_t src[IBSEC_DDPM_MAX_DIMS], dst[IBSEC_DDPM_MAX_DIMS], c[IBSEC_DDPM_MAX_DIMS];
        uint32_t nxt[IBSEC_DDPM_MAX_DIMS], got[IBSEC_DDPM_MAX_DIMS];
        uint8_t buf[128];
        for (unsigned i = 0; i < nd; i++) {
            src[i] = ibsec_rng_below(g, k);
            dst[i] = ibsec_rng_below(g, k);
        }
        /* the spoofed SLID names some other node; nothing below reads it */
        size_t len = build_pkt(buf, sizeof buf, 0x0BAD, 0x0001, PKEY_ATTACK);
        ibsec_mf_put(buf + IBSEC_LRH_LEN, ibsec_rng_next(g)); /* forged mark */
        memcpy(c, src, nd * sizeof c[0]);
        bool first = true, ok = true, at_dst = false;
        while (!at_dst) {
            unsigned prod[2 * IBSEC_DDPM_MAX_DIMS], np = 0, p;
            for (p = 0; p < t.nports; p++)
                if (productive(&t, c, dst, p))
                    prod[np++] = p;
            struct ibsec_ddpm_hop hop;
            memset(&hop, 0, sizeof hop);
            hop.from_node = first;
            first = false;
            if (np == 0) {
                at_dst = true; /* deliver: displacement zero */
            } else {
                do
                    p = ibsec_rng_below(g, 5) == 0 ? ibsec_rng_below(g, t.nports)
                                                   : prod[ibsec_rng_below(g, np)];
                while (!step(&t, c, p, nxt));
                unsigned dim;
                int32_t delta = port_delta(&t, p, &dim);
                hop.delta[dim] = delta;
                memcpy(c, nxt, nd * sizeof c[0]);
                r.hops++;
            }
            ok &= ibsec_ddpm_mark(&dcfg, buf, len, &hop) == IBSEC_DDPM_MARKED;
        }
        ok &= ibsec_ddpm_identify(&dcfg, buf, len, dst, got) == IBSEC_DDPM_SOURCE_FOUND;
        for (unsigned i = 0; i < nd; i++)
            ok &= got[i] == src[i];
        r.identified += ok;
        r.trials++;
    }
    return r;
}

struct trace_net {
    enum ibsec_topo kind;
    unsigned nd;
    uint32_t k;
    const char *label;
};

static const struct trace_net trace_nets[] = {
    { IBSEC_TOPO_MESH, 2, 1u << 18, "2^18 x 2^18 mesh" },
    { IBSEC_TOPO_TORUS, 2, 1u << 18, "2^18 x 2^18 torus" },
    { IBSEC_TOPO_MESH, 3, 1u << 11, "2^11 x 2^11 x 2^11 mesh" },
    { IBSEC_TOPO_TORUS, 3, 1u << 11, "2^11 x 2^11 x 2^11 torus" },
    { IBSEC_TOPO_HYPERCUBE, 38, 2, "38-cube hypercube" },
    { IBSEC_TOPO_FATTREE, 19, 4, "fat tree, 4 down-ports, 19 levels (4^19)" },
    { IBSEC_TOPO_FATTREE, 12, 8, "fat tree, 8 down-ports, 12 levels (8^12)" },
    { IBSEC_TOPO_FATTREE, 9, 16, "fat tree, 16 down-ports, 9 levels (16^9)" },
    { IBSEC_TOPO_FATTREE, 7, 32, "fat tree, 32 down-ports, 7 levels (32^7)" },
};
#define N_TRACE_NETS (sizeof trace_nets / sizeof trace_nets[0])

static void print_trace_table(const struct trace_res *r)
{
    printf("| network | MF bits per dimension (fat tree: per level) | trials | mean hops per packet | source identified from one packet |\n");
    printf("| --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < N_TRACE_NETS; i++) {
        struct ibsec_ddpm_cfg c;
        uint32_t radix[IBSEC_DDPM_MAX_DIMS];
        for (unsigned d = 0; d < trace_nets[i].nd; d++)
            radix[d] = trace_nets[i].k;
        unsigned w = ibsec_ddpm_configure(&c, trace_nets[i].kind, trace_nets[i].nd, radix, 0) ==
                     IBSEC_DDPM_CFG_OK ? c.w : 0;
        printf("| %s | %u | %u | %.0f | %u / %u |\n", trace_nets[i].label, w, r[i].trials,
               r[i].trials ? (double)r[i].hops / r[i].trials : 0.0, r[i].identified, r[i].trials);
    }
}

static void print_flood_header(void)
{
    printf("| load | attack | scheme | legit mean latency ns | sd ns | mean in attack window ns | "
           "legit delivered | attack pkts at victim | attack link hops | lookups per legit pkt | "
           "SIF installs (wrong port) | attack pkts sent after install at victim | SIF flushes | filtering at end |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

static void print_flood_row(const struct flood_cfg *c, const struct flood_res *r)
{
    printf("| %.0f%% | %s | %s | %.1f | %.1f | %.1f | %llu/%llu | %llu/%llu | %llu | %.2f | %llu (%llu) | %llu | %llu | %s |\n",
           c->load * 100,
           !c->attack ? "no" : !c->spoof ? "yes" : c->ddpm_trace ? "spoofed, SM by DDPM" : "spoofed, SM by SLID",
           scheme_name[c->sch],
           r->lat_mean, r->lat_sd, r->lat_attack_mean,
           (unsigned long long)r->legit_done, (unsigned long long)r->legit_gen,
           (unsigned long long)r->atk_at_victim, (unsigned long long)r->atk_sent,
           (unsigned long long)r->atk_link_hops,
           r->legit_gen ? (double)r->lookups / (double)r->legit_gen : 0.0,
           (unsigned long long)r->installs, (unsigned long long)r->wrong_port_installs,
           (unsigned long long)r->atk_after_install, (unsigned long long)r->flushes, r->filtering_at_end ? "yes" : "no");
}

/* ---- command line ------------------------------------------------------------ */

struct opts {
    uint32_t k;
    uint64_t time_us;
    uint64_t seed;
    unsigned trials;
};

static void usage_exit(const char *msg, const char *arg)
{
    fprintf(stderr, "ibsec_netsim: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "usage: ibsec_netsim flood [--k K] [--time US] [--seed N]\n"
                    "       ibsec_netsim matrix [--k K] [--time US] [--seed N]\n"
                    "       ibsec_netsim trace [--trials N] [--seed N]\n"
                    "       ibsec_netsim check\n");
    exit(EXIT_USAGE);
}

static uint64_t parse_num(const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
    char *end;
    if (!v)
        usage_exit("missing value for", opt);
    unsigned long long x = strtoull(v, &end, 10);
    if (*v == '\0' || *end != '\0' || v[0] == '-' || x < lo || x > hi) {
        fprintf(stderr, "ibsec_netsim: %s must be an integer in [%llu, %llu], got '%s'\n", opt,
                (unsigned long long)lo, (unsigned long long)hi, v);
        exit(EXIT_USAGE);
    }
    return x;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
    for (int i = 2; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--k") == 0)
            o->k = (uint32_t)parse_num("--k", v, 4, 32); /* LIDs 1..k*k stay below IBSEC_SM_MAX_LID */
        else if (strcmp(argv[i], "--time") == 0)
            o->time_us = parse_num("--time", v, 50, 100000);
        else if (strcmp(argv[i], "--seed") == 0)
            o->seed = parse_num("--seed", v, 0, UINT64_MAX);
        else if (strcmp(argv[i], "--trials") == 0)
            o->trials = (unsigned)parse_num("--trials", v, 1, 100000);
        else
            usage_exit("unknown option", argv[i]);
        i++;
    }
}

static struct flood_cfg flood_cfg(const struct opts *o, double load, enum scheme sch, int attack,
                                  bool trace)
{
    struct flood_cfg c = { o->k, o->time_us * 1000u, load, sch, attack != 0, attack == 2, trace,
                           o->seed, 1, IBSEC_TOPO_MESH, 0, false };
    return c;
}

/* The attacker rotates through several invalid keys (TPDS §5.3, last paragraph). */
static void print_rotation_header(void)
{
    printf("| invalid keys rotated | traps | SM writes (installs + fallbacks) | fallbacks | attack pkts at victim | "
           "sent after the fallback, at victim | legit mean latency ns | filtering at end |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

static void print_rotation_row(const struct flood_cfg *c, const struct flood_res *r)
{
    printf("| %u | %llu | %llu | %llu | %llu/%llu | %llu | %.1f | %s |\n", c->atk_keys,
           (unsigned long long)r->traps, (unsigned long long)r->installs,
           (unsigned long long)r->fallbacks, (unsigned long long)r->atk_at_victim,
           (unsigned long long)r->atk_sent, (unsigned long long)r->atk_after_fallback,
           r->lat_mean, r->filtering_at_end ? "yes" : "no");
}

static int cmd_flood(const struct opts *o)
{
    static const double loads[] = { 0.4, 0.5, 0.6, 0.7 };
    printf("flood: %u x %u mesh, %llu us, seed %llu; attack from %llu to %llu us; "
           "SM delay %u ns, quiet time %u ns\n\n", o->k, o->k, (unsigned long long)o->time_us,
           (unsigned long long)o->seed, (unsigned long long)o->time_us / 4,
           (unsigned long long)o->time_us / 2, SM_DELAY_NS, QUIET_NS);
    print_flood_header();
    for (size_t l = 0; l < sizeof loads / sizeof loads[0]; l++)
        for (int a = 0; a <= 1; a++)
            for (int s = 0; s < SCH_COUNT; s++) {
                struct flood_cfg c = flood_cfg(o, loads[l], (enum scheme)s, a, true);
                struct flood_res r = run_flood(&c);
                print_flood_row(&c, &r);
            }
    printf("\nspoofed source (LRH.SLID of a bystander), load 50%%: SM locating the port by SLID, then by DDPM\n\n");
    print_flood_header();
    for (int tr = 0; tr <= 1; tr++) {
        struct flood_cfg c = flood_cfg(o, 0.5, SCH_SIF, 2, tr != 0);
        struct flood_res r = run_flood(&c);
        print_flood_row(&c, &r);
    }
    printf("\nattacker rotating invalid keys, SIF, load 50%%, valid P_Key table of 1 entry per port\n\n");
    print_rotation_header();
    static const unsigned nkeys[] = { 1, 2, 8, 64 };
    for (size_t i = 0; i < sizeof nkeys / sizeof nkeys[0]; i++) {
        struct flood_cfg c = flood_cfg(o, 0.5, SCH_SIF, 1, true);
        c.atk_keys = nkeys[i];
        struct flood_res r = run_flood(&c);
        print_rotation_row(&c, &r);
    }
    return 0;
}

static int cmd_trace(const struct opts *o)
{
    struct trace_res r[N_TRACE_NETS];
    ibsec_rng g;
    ibsec_rng_seed(&g, o->seed);
    printf("trace: one spoofed packet per trial, adaptive routing with 1/5 misrouting, seed %llu\n\n",
           (unsigned long long)o->seed);
    for (size_t i = 0; i < N_TRACE_NETS; i++)
        r[i] = run_trace(trace_nets[i].kind, trace_nets[i].nd, trace_nets[i].k, o->trials, &g);
    print_trace_table(r);
    return 0;
}

/* ---- every topology and routing at one load --------------------------------- */

struct combo {
    enum ibsec_topo kind;
    bool deterministic;
};

static const struct combo combos[] = {
    { IBSEC_TOPO_MESH, false }, { IBSEC_TOPO_MESH, true }, { IBSEC_TOPO_TORUS, false },
    { IBSEC_TOPO_TORUS, true }, { IBSEC_TOPO_HYPERCUBE, false }, { IBSEC_TOPO_HYPERCUBE, true },
    { IBSEC_TOPO_FATTREE, false }, { IBSEC_TOPO_FATTREE, true },
};
#define FT_K 4u /* fat tree of the matrix: 4 down-ports per switch */
#define N_COMBOS (sizeof combos / sizeof combos[0])

static void print_matrix_header(void)
{
    printf("| topology | routing | attack | scheme | legit mean latency ns | mean in attack window ns | "
           "attack pkts at victim | sent after install, at victim | lookups per legit pkt |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

static void print_matrix_row(const struct flood_cfg *c, const struct flood_res *r, uint32_t side)
{
    char topo[48];
    if (c->kind == IBSEC_TOPO_HYPERCUBE)
        snprintf(topo, sizeof topo, "%u-cube", c->k);
    else if (c->kind == IBSEC_TOPO_FATTREE)
        snprintf(topo, sizeof topo, "%u-ary %u-tree", c->k, c->levels);
    else
        snprintf(topo, sizeof topo, "%u x %u %s", side, side, ibsec_topo_name(c->kind));
    printf("| %s | %s | %s | %s | %.1f | %.1f | %llu/%llu | %llu | %.2f |\n", topo,
           c->deterministic ? "deterministic" : "adaptive", c->attack ? "yes" : "no",
           scheme_name[c->sch], r->lat_mean, r->lat_attack_mean,
           (unsigned long long)r->atk_at_victim, (unsigned long long)r->atk_sent,
           (unsigned long long)r->atk_after_install,
           r->legit_gen ? (double)r->lookups / (double)r->legit_gen : 0.0);
}

/* log2(side * side): the hypercube with as many nodes as the side x side grid. */
static uint32_t cube_dims(uint32_t side)
{
    uint32_t d = 0;
    while ((1u << d) < side * side)
        d++;
    return d;
}

/* All schemes with and without attack on one topology/routing, load 50 %. */
static void run_combo(const struct opts *o, const struct combo *cb, struct flood_res res[2][SCH_COUNT])
{
    for (int a = 0; a <= 1; a++)
        for (int s = 0; s < SCH_COUNT; s++) {
            struct flood_cfg c = flood_cfg(o, 0.5, (enum scheme)s, a, true);
            c.kind = cb->kind;
            c.deterministic = cb->deterministic;
            if (cb->kind == IBSEC_TOPO_HYPERCUBE)
                c.k = cube_dims(o->k);
            if (cb->kind == IBSEC_TOPO_FATTREE) {   /* as many nodes as the grid */
                c.k = FT_K;
                c.levels = cube_dims(o->k) / 2;
            }
            res[a][s] = run_flood(&c);
            print_matrix_row(&c, &res[a][s], o->k);
        }
}

static int cmd_matrix(const struct opts *o)
{
    struct flood_res res[2][SCH_COUNT];
    printf("matrix: load 50%%, %llu us, seed %llu; %u x %u mesh and torus, %u-cube, %u-ary %u-tree\n\n",
           (unsigned long long)o->time_us, (unsigned long long)o->seed, o->k, o->k, cube_dims(o->k),
           FT_K, cube_dims(o->k) / 2);
    print_matrix_header();
    for (size_t i = 0; i < N_COMBOS; i++)
        run_combo(o, &combos[i], res);
    return 0;
}

static void claim(bool cond, const char *label, const char *what, unsigned *pass, unsigned *fail)
{
    if (cond) {
        (*pass)++;
    } else {
        (*fail)++;
        printf("FAIL ctest-netsim: %s: %s\n", label, what);
    }
}

/* The flood claims that must hold on every topology and routing. */
static void claim_flood(const struct flood_res r[2][SCH_COUNT], const char *label, unsigned *pass,
                        unsigned *fail)
{
    const struct flood_res *n0 = r[0], *n1 = r[1];
    claim(n1[SCH_NONE].atk_sent > 100 && n1[SCH_NONE].atk_at_victim == n1[SCH_NONE].atk_sent,
          label, "none: the whole flood reaches the victim", pass, fail);
    claim(n1[SCH_DT].atk_at_victim == 0 && n1[SCH_IF].atk_at_victim == 0, label,
          "DT and IF block the flood", pass, fail);
    claim(n1[SCH_SIF].atk_after_install == 0 && n1[SCH_SIF].atk_at_victim * 4 < n1[SCH_SIF].atk_sent &&
          n1[SCH_SIF].wrong_port_installs == 0, label, "SIF blocks the flood once the SM acts", pass, fail);
    claim(n0[SCH_SIF].lookups == 0 && n0[SCH_SIF].lat_mean == n0[SCH_NONE].lat_mean, label,
          "SIF costs nothing without an attack", pass, fail);
    claim(n0[SCH_DT].lat_mean > n0[SCH_IF].lat_mean && n0[SCH_IF].lat_mean > n0[SCH_SIF].lat_mean,
          label, "without attack DT > IF > SIF in latency", pass, fail);
}

/* Reduced sizes; every qualitative claim of docs/availability.md §3 asserted. */
static int cmd_check(void)
{
    struct opts o = { 4, 400, 1, 2 };
    struct flood_res res[2][SCH_COUNT];
    unsigned pass = 0, fail = 0;
#define CLAIM(cond, what)                                                   \
    do {                                                                    \
        if (cond) {                                                         \
            pass++;                                                         \
        } else {                                                            \
            fail++;                                                         \
            printf("FAIL ctest-netsim: %s\n", what);                        \
        }                                                                   \
    } while (0)
    print_flood_header();
    for (int a = 0; a <= 1; a++)
        for (int s = 0; s < SCH_COUNT; s++) {
            struct flood_cfg c = flood_cfg(&o, 0.5, (enum scheme)s, a, true);
            res[a][s] = run_flood(&c);
            print_flood_row(&c, &res[a][s]);
        }
    const struct flood_res *n0 = res[0], *n1 = res[1];
    CLAIM(n1[SCH_NONE].atk_sent > 100, "the attack sent a flood");
    CLAIM(n1[SCH_NONE].atk_at_victim == n1[SCH_NONE].atk_sent, "none: the whole flood reaches the victim");
    CLAIM(n1[SCH_DT].atk_at_victim == 0, "DT blocks the flood");
    CLAIM(n1[SCH_IF].atk_at_victim == 0, "IF blocks the flood");
    CLAIM(n1[SCH_SIF].atk_at_victim > 0 && n1[SCH_SIF].atk_after_install == 0 &&
          n1[SCH_SIF].atk_at_victim * 4 < n1[SCH_SIF].atk_sent,
          "SIF lets through only packets sent before the SM acts");
    CLAIM(n1[SCH_SIF].installs >= 1 && n1[SCH_SIF].wrong_port_installs == 0, "SIF filters the attacker's port");
    CLAIM(n1[SCH_SIF].flushes >= 1 && !n1[SCH_SIF].filtering_at_end, "SIF flushes and disables after the quiet time");
    for (int s = SCH_DT; s < SCH_COUNT; s++)
        CLAIM(n1[s].lat_attack_mean < n1[SCH_NONE].lat_attack_mean,
              "under attack, filtering lowers legit latency in the attack window");
    CLAIM(n0[SCH_SIF].lookups == 0, "SIF: no lookup without an attack");
    CLAIM(n0[SCH_SIF].lat_mean == n0[SCH_NONE].lat_mean, "SIF costs nothing without an attack");
    CLAIM(n0[SCH_IF].lat_mean > n0[SCH_SIF].lat_mean, "IF costs latency without an attack");
    CLAIM(n0[SCH_DT].lat_mean > n0[SCH_IF].lat_mean, "DT costs more than IF");
    CLAIM(n0[SCH_DT].lookups > n0[SCH_IF].lookups, "DT looks up at every hop, IF once");

    struct flood_cfg cs = flood_cfg(&o, 0.5, SCH_SIF, 2, false), ct = flood_cfg(&o, 0.5, SCH_SIF, 2, true);
    struct flood_res rs = run_flood(&cs), rt = run_flood(&ct);
    print_flood_row(&cs, &rs);
    print_flood_row(&ct, &rt);
    CLAIM(rs.wrong_port_installs >= 1 && rs.atk_at_victim * 2 > rs.atk_sent,
          "spoofed SLID: the SM filters the wrong port, the flood goes on");
    CLAIM(rt.wrong_port_installs == 0 && rt.atk_after_install == 0 && rt.atk_at_victim * 4 < rt.atk_sent,
          "spoofed SLID with DDPM: the SM filters the true source's port");

    print_matrix_header();
    for (size_t i = 0; i < N_COMBOS; i++) {
        struct flood_res rm[2][SCH_COUNT];
        char label[64];
        snprintf(label, sizeof label, "%s %s", ibsec_topo_name(combos[i].kind),
                 combos[i].deterministic ? "deterministic" : "adaptive");
        run_combo(&o, &combos[i], rm);
        claim_flood((const struct flood_res (*)[SCH_COUNT])rm, label, &pass, &fail);
    }

    struct flood_cfg ck = flood_cfg(&o, 0.5, SCH_SIF, 1, true);
    ck.atk_keys = 8;
    struct flood_res rk = run_flood(&ck);
    print_rotation_header();
    print_rotation_row(&ck, &rk);
    CLAIM(rk.fallbacks >= 1 && rk.atk_after_fallback == 0 && rk.wrong_port_installs == 0,
          "rotating keys: the port falls back to the valid table and blocks the rest of the flood");
    CLAIM(rk.flushes >= 1 && !rk.filtering_at_end, "rotating keys: the fallback ends with the flush");

    struct trace_res tr[N_TRACE_NETS];
    ibsec_rng g;
    ibsec_rng_seed(&g, 1);
    for (size_t i = 0; i < N_TRACE_NETS; i++) {
        tr[i] = run_trace(trace_nets[i].kind, trace_nets[i].nd, trace_nets[i].k,
                          trace_nets[i].kind == IBSEC_TOPO_HYPERCUBE ||
                          trace_nets[i].kind == IBSEC_TOPO_FATTREE ? 200 : 2, &g);
        char what[96];
        snprintf(what, sizeof what, "DDPM identifies every source on the %s", trace_nets[i].label);
        CLAIM(tr[i].trials > 0 && tr[i].identified == tr[i].trials, what);
    }
    print_trace_table(tr);
    printf("ctest-netsim: %u passed, %u failed\n", pass, fail);
    return fail ? 1 : 0;
#undef CLAIM
}

int main(int argc, char **argv)
{
    struct opts o = { 8, 400, 1, 20 };
    if (argc < 2)
        usage_exit("missing command", NULL);
    parse_opts(argc, argv, &o);
    if (strcmp(argv[1], "flood") == 0)
        return cmd_flood(&o);
    if (strcmp(argv[1], "trace") == 0)
        return cmd_trace(&o);
    if (strcmp(argv[1], "matrix") == 0)
        return cmd_matrix(&o);
    if (strcmp(argv[1], "check") == 0) {
        if (argc > 2)
            usage_exit("check takes no options", argv[2]);
        return cmd_check();
    }
    usage_exit("unknown command", argv[1]);
    return EXIT_USAGE;
}
