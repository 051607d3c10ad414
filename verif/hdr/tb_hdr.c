/*
 * tb_hdr.c — C harness of the header bench: rtl/ib/ib_opcode_info.v, ib_hdr_parse.v,
 * ib_hdr_edit.v and ib_hdr_mask.v (through verif/hdr/tb_hdr_top.v) against the C model.
 *
 * References (all the model's own functions; nothing of the parser is re-implemented):
 *   opcode table  ibsec_opcode_lookup / ibsec_opcode_pad_allowed, all 256 opcodes.
 *   parse, seal   ibsec_frame_parse(frame, 0 extra) then BTH byte 8 bits 6:0 == 0
 *                 (wire-format.md §7 steps 1-2), and ibsec_seal itself on an engine with
 *                 no context: its reason must be the same, or no_context where the parse
 *                 passed.
 *   parse, open   ibsec_pkt_find_bth, ibsec_secbits_unpack, ibsec_sth_code_supported,
 *                 ibsec_frame_parse with the STH length (§8 steps 1-3), and ibsec_open on
 *                 an engine with no context: same reason, or bad_vcrc / no_context where
 *                 the parse passed; the RTL's mode output against that verdict's mode.
 *   fields        when the parse passes: shape, BTH offset, end of the ETHs, STH length,
 *                 payload + pad, packet end, OpCode, PadCnt, P_Key, DestQP, PSN, SECMODE,
 *                 STHSZ from the parsed struct ibsec_pkt.
 *   pipeline      the parser is pipelined: each frame is presented for one cycle with
 *                 in_valid, then other headers without it (the frame inverted, the
 *                 other link and direction) while it moves through the stages; its
 *                 results and out_valid are read LATENCY cycles later (shim.cpp).
 *   edit          seal: the header of what ibsec_seal produces from the plain packet (a
 *                 context in a random mode and STH size); open: the header of what
 *                 ibsec_open (the peer's engine) restores from that wire packet, which
 *                 must also be the plain packet's. Bytes after the ETHs pass unchanged.
 *                 Also any value of the security bits with STH lengths 0, 12, 16, grown
 *                 and shrunk, against ibsec_pkt_insert_extra / ibsec_pkt_remove_extra.
 *   aad           ibsec_aad_headers of the parsed wire packet, mask_mf 0 and 1.
 *   ones/variant  the per-bit masks recovered from crc.c's ibsec_icrc_masked_bytes (mask
 *                 of the frame AND mask of the complemented frame), then the ICRC of the
 *                 wire packet recomputed from hdr | ones against ibsec_icrc_compute.
 *
 * Stimulus (the RTL sees the first 128 bytes of each frame; bytes past the frame end are
 * random or left from the untruncated packet):
 *   random plain packets of every shape and opcode from the model's generator (payload
 *   0..4096, biased short), each sealed in a random mode (none, icrc-mac, sth-* with
 *   STHSZ 1 and 2), AES-128 or AES-256, mask_mf 0 or 1; a directed sweep of every opcode
 *   x shape x payload 0..8 (every pad count); and a malformed corpus, each frame through
 *   the parser as seal and as open: truncation at every length 0..130, every bit of every
 *   header byte flipped, length fields set wrong (IPv4 checksum fixed or not), every
 *   opcode value, every BTH byte 8 value (bad secbits, STHSZ 3..7), Ethernet padding
 *   right and wrong, random header mutations, payloads past 4096, and frames up to
 *   140000 bytes (ib_hdr_parse with LEN_W = 17 sees them saturated at 2^17 - 1 and must
 *   be exact; the LEN_W = 13 instance sees them saturated at 8191 and is checked where
 *   its header says it is exact).
 *
 * Usage: Vtb [--seed N] [--packets N]. Last line: "hdr: N passed, N failed" (N counts
 * checks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ib_pktgen.h"
#include "ibsec.h"
#include "progress.h"
#include "rng.h"
#include "tb_hdr.h"
#include "tb_util.h"

#define HB           TB_HDR_BYTES
#define HUGE_FRAME   140000u         /* longest frame of the over-long corpus */
#define LEN13_MAX    8190u           /* longest frame the 13-bit frame_len holds exactly */
#define LEN13_SAT    8191u           /* ... and its saturation value for longer frames */
#define LEN17_SAT    ((1u << 17) - 1u) /* frame_len saturation of the 17-bit instance */
#define TRUNC_MAX    130u            /* truncation lengths 0..TRUNC_MAX */
#define N_KEYS       2u
#define SHAPES       IBSEC_SHAPE_COUNT

static tb_result res;
static ibsec_rng rng;
static ibsec_engine eng_a;      /* sealing endpoint: one context, rewritten per packet */
static ibsec_engine eng_b;      /* its peer, opening */
static ibsec_engine eng_none;   /* no context, plain traffic refused */
static uint8_t scratch[HUGE_FRAME + 64];
static unsigned long n_frames;  /* frames through ib_hdr_parse */
static unsigned long n_ok;      /* ... of which the parser accepted */
static unsigned long n_edit;    /* headers through ib_hdr_edit */
static unsigned long n_mask;    /* headers through ib_hdr_mask */
static unsigned long n_pn;      /* sealed packets parsed again with the PN bit and SecTAG */

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                          */
/* ------------------------------------------------------------------------------------ */

static void fail(const char *what, const char *ctx)
{
    tb_fail(&res, "%s (%s)", what, ctx);
}

/* The header window the RTL sees: frame bytes 0..HB-1; past the frame end either random
 * bytes or (keep_tail) whatever follows in the buffer. */
static void make_window(uint8_t win[HB], const uint8_t *frame, size_t len, size_t avail,
                        int keep_tail)
{
    ibsec_rng_bytes(&rng, win, HB);
    size_t n = len < HB ? len : HB;
    if (keep_tail)
        n = avail < HB ? avail : HB;
    memcpy(win, frame, n);
}

/* ------------------------------------------------------------------------------------ */
/* Model references for the parser                                                       */
/* ------------------------------------------------------------------------------------ */

/* Seal, wire-format.md §7 steps 1-2. */
static enum ibsec_reason ref_seal_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                        struct ibsec_pkt *p)
{
    enum ibsec_pkt_err pe = ibsec_frame_parse(buf, len, link, 0, p);
    if (pe != IBSEC_PKT_OK)
        return ibsec_reason_from_pkt_err(pe);
    if (buf[p->bth_off + IBSEC_BTH_BYTE_RESV7] & IBSEC_SECBITS_MASK)
        return IBSEC_R_BAD_SECMODE;
    return IBSEC_R_OK;
}

/* Open, wire-format.md §8 steps 1-3. */
static enum ibsec_reason ref_open_parse(const uint8_t *buf, size_t len, enum ibsec_link link,
                                        struct ibsec_pkt *p)
{
    size_t bth_off;
    struct ibsec_secbits sb;
    enum ibsec_pkt_err pe = ibsec_pkt_find_bth(buf, len, link, &bth_off);
    if (pe != IBSEC_PKT_OK)
        return ibsec_reason_from_pkt_err(pe);
    if (ibsec_secbits_unpack(buf[bth_off + IBSEC_BTH_BYTE_RESV7], &sb) != 0)
        return IBSEC_R_BAD_SECMODE;
    if (!ibsec_sth_code_supported(sb.code))
        return IBSEC_R_STH_SIZE_UNSUPPORTED;
    /* the STH with the pn nonce's SecTAG when the PN bit is set (wire-format.md §2) */
    return ibsec_reason_from_pkt_err(ibsec_frame_parse(buf, len, link, ibsec_secbits_sth_len(&sb), p));
}

/* The engine's verdict on a frame when no context exists: the reason the header checks
 * must give, where they pass the first later check (VCRC on open, context lookup). */
static int engine_agrees(enum ibsec_reason ref, enum ibsec_reason eng, int is_open)
{
    if (ref != IBSEC_R_OK)
        return eng == ref;
    return eng == IBSEC_R_NO_CONTEXT || (is_open && eng == IBSEC_R_BAD_VCRC);
}

/* Field outputs against the parsed packet; returns the number of mismatches. */
static int compare_fields(const struct dut_parse *o, const struct ibsec_pkt *p, int is_open,
                          const char *ctx)
{
    struct { const char *name; unsigned long exp, got; } f[] = {
        { "shape", p->shape, o->shape },
        { "bth_off", p->bth_off, o->bth_off },
        { "hdr_len", p->eths_end, o->hdr_len },
        { "sth_len", is_open ? p->extra_len : 0, o->sth_len },
        { "pp_len", ibsec_payload_pad_len(p), o->pp_len },
        { "pkt_end", p->end, o->pkt_end },
        { "pp_len (LEN_W 17)", ibsec_payload_pad_len(p), o->pp_len17 },
        { "pkt_end (LEN_W 17)", p->end, o->pkt_end17 },
        { "opcode", p->bth.opcode, o->opcode },
        { "padcnt", p->padcnt, o->padcnt },
        { "pkey", p->bth.pkey, o->pkey },
        { "destqp", p->bth.destqp, o->destqp },
        { "psn", p->bth.psn, o->psn },
        { "secmode", (p->bth.resv7 & IBSEC_SECMODE_MASK) >> IBSEC_SECMODE_SHIFT, o->secmode },
        { "sthsz", p->bth.resv7 & IBSEC_STHSZ_MASK, o->sthsz },
        { "kp", (p->bth.resv7 & IBSEC_SECBITS_KP) != 0, o->kp },
        { "pn", (p->bth.resv7 & IBSEC_SECBITS_PN) != 0, o->pn },
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (f[i].exp != f[i].got) {
            if (!bad && res.failed < TB_MAX_REPORTS)
                printf("  fields of %s:\n", ctx);
            if (res.failed < TB_MAX_REPORTS)
                printf("    %s expected %lu got %lu\n", f[i].name, f[i].exp, f[i].got);
            bad++;
        }
    }
    return bad;
}

/* Is the 13-bit instance, given frame_len saturated at 8191, exact for this frame?
 * ib_hdr_parse's header: always up to 8190 bytes and for native frames; for longer
 * RoCEv2 frames unless the IP length field ends the packet at byte 8191 or at the real
 * frame end (read here from the header bytes, only to select the frames the claim
 * covers). */
static int len13_exact(const uint8_t *frame, size_t len, enum ibsec_link link)
{
    if (len <= LEN13_MAX || link == IBSEC_LINK_IB)
        return 1;
    uint16_t ethertype = ibsec_get_be16(frame + 12);
    size_t ip_end = ethertype == IBSEC_ETHERTYPE_IPV4 ? 14u + ibsec_get_be16(frame + 16)
                  : ethertype == IBSEC_ETHERTYPE_IPV6 ? 54u + ibsec_get_be16(frame + 18) : 0;
    return ip_end != LEN13_SAT && ip_end != len;
}

/* One frame through ib_hdr_parse (both instances) as seal or open, against the model.
 * Returns the model's reason; *p holds the parsed packet when it is ok. */
static enum ibsec_reason check_parse(const uint8_t *frame, size_t len, size_t avail,
                                     enum ibsec_link link, int is_open, const char *what,
                                     struct ibsec_pkt *p)
{
    char ctx[160];
    uint8_t win[HB];
    struct dut_parse o;
    ibsec_verdict v;
    size_t out_len;

    snprintf(ctx, sizeof ctx, "%s, %s, %s, frame %zu bytes", what, is_open ? "open" : "seal",
             link == IBSEC_LINK_ROCE ? "RoCEv2" : "native", len);
    enum ibsec_reason ref = is_open ? ref_open_parse(frame, len, link, p)
                                    : ref_seal_parse(frame, len, link, p);
    enum ibsec_reason eng = is_open
        ? ibsec_open(&eng_none, link, frame, len, scratch, sizeof scratch, &out_len, &v)
        : ibsec_seal(&eng_none, link, frame, len, scratch, sizeof scratch, &out_len, &v);
    if (engine_agrees(ref, eng, is_open))
        tb_pass(&res);
    else
        tb_fail(&res, "model engine gives %s where its parse steps give %s (%s)",
                ibsec_reason_name(eng), ibsec_reason_name(ref), ctx);

    make_window(win, frame, len, avail, (int)(ibsec_rng_below(&rng, 2)));
    unsigned len13 = len > LEN13_SAT ? LEN13_SAT : (unsigned)len;
    unsigned len17 = len > LEN17_SAT ? LEN17_SAT : (unsigned)len;
    dut_parse(win, len13, len17, link, is_open, &o);
    int check13 = len13_exact(frame, len, link);
    n_frames++;

    int bad = 0;
    if (!o.valid) {
        if (res.failed < TB_MAX_REPORTS)
            printf("  out_valid not set LATENCY cycles after the header\n");
        bad++;
    }
    if (o.reason17 != (unsigned)ref) {
        if (res.failed < TB_MAX_REPORTS)
            printf("  reason (LEN_W 17) expected %s got %u\n", ibsec_reason_name(ref), o.reason17);
        bad++;
    }
    if (check13 && o.reason13 != (unsigned)ref) {
        if (res.failed < TB_MAX_REPORTS)
            printf("  reason expected %s got %u\n", ibsec_reason_name(ref), o.reason13);
        bad++;
    }
    unsigned exp_mode = is_open ? (unsigned)v.mode : 0;
    if (check13 && o.mode != exp_mode) { /* mode comes from the 13-bit instance */
        if (res.failed < TB_MAX_REPORTS)
            printf("  mode expected %u got %u\n", exp_mode, o.mode);
        bad++;
    }
    if (ref == IBSEC_R_OK) {
        n_ok++;
        bad += compare_fields(&o, p, is_open, ctx);
    }
    if (bad)
        fail("ib_hdr_parse differs from the model", ctx);
    else
        tb_pass(&res);
    return ref;
}

/* Both directions, for the malformed corpus. */
static void check_parse_both(const uint8_t *frame, size_t len, size_t avail,
                             enum ibsec_link link, const char *what)
{
    struct ibsec_pkt p;
    check_parse(frame, len, avail, link, 0, what, &p);
    check_parse(frame, len, avail, link, 1, what, &p);
}

/* ------------------------------------------------------------------------------------ */
/* Mask and AAD                                                                           */
/* ------------------------------------------------------------------------------------ */

/* The per-bit variant mask of crc.c for the frame positions of a parsed wire packet:
 * a bit is variant when the masked copy has it set for the frame and for the frame with
 * every covered header byte complemented. */
static void ref_ones(const uint8_t *wire, const struct ibsec_pkt *pw, uint8_t ones[HB])
{
    static uint8_t comp[IBSEC_MAX_PKT + 64];
    uint8_t m1[IBSEC_MASKED_HDR_MAX], m2[IBSEC_MASKED_HDR_MAX];
    memcpy(comp, wire, pw->end);
    for (size_t i = pw->icrc_cov_off; i < pw->eths_end; i++)
        comp[i] = (uint8_t)~comp[i];
    size_t n1 = ibsec_icrc_masked_bytes(wire, pw, pw->eths_end, m1, sizeof m1);
    size_t n2 = ibsec_icrc_masked_bytes(comp, pw, pw->eths_end, m2, sizeof m2);
    size_t prefix = (pw->link == IBSEC_LINK_ROCE) ? IBSEC_ROCE_LRH_STANDIN : 0;
    memset(ones, 0, HB);
    if (n1 == 0 || n1 != n2)
        return;
    for (size_t k = prefix; k < n1; k++) {
        size_t f = pw->icrc_cov_off + (k - prefix);
        if (f < HB)
            ones[f] = m1[k] & m2[k];
    }
}

/* ib_hdr_mask on the window win of the wire packet (wire, pw). */
static void check_mask(const uint8_t win[HB], const uint8_t *wire, struct ibsec_pkt *pw,
                       int mask_mf, const char *ctx)
{
    uint8_t aad[HB], variant[HB], ones[HB], exp_aad[IBSEC_MASKED_HDR_MAX], exp_ones[HB];
    unsigned aad_len;

    pw->mask_mf = mask_mf != 0;
    dut_mask(win, pw->shape, (unsigned)pw->eths_end, mask_mf, aad, &aad_len, variant, ones);
    n_mask++;

    memset(exp_aad, 0, sizeof exp_aad);
    size_t n = ibsec_aad_headers(wire, pw, exp_aad, sizeof exp_aad);
    int ok = tb_check_u64(&res, "aad_len", n, aad_len);
    ok &= tb_check_bytes(&res, "aad (H of wire-format.md §3.1)", exp_aad, aad, HB);

    ref_ones(wire, pw, exp_ones);
    ok &= tb_check_bytes(&res, "ones (variant bits of crc.c)", exp_ones, ones, HB);
    uint8_t exp_variant[HB];
    for (unsigned i = 0; i < HB; i++)
        exp_variant[i] = exp_ones[i] == 0xFF;
    ok &= tb_check_bytes(&res, "variant (whole variant bytes)", exp_variant, variant, HB);

    /* the ICRC computed with the RTL's mask */
    static const uint8_t standin[IBSEC_ROCE_LRH_STANDIN] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint32_t reg = IBSEC_CRC32_INIT;
    if (pw->link == IBSEC_LINK_ROCE)
        reg = ibsec_crc32_update(reg, standin, sizeof standin);
    for (size_t i = pw->icrc_cov_off; i < pw->icrc_off; i++) {
        uint8_t b = wire[i] | (i < HB ? ones[i] : 0);
        reg = ibsec_crc32_update(reg, &b, 1);
    }
    ok &= tb_check_u64(&res, "ICRC from hdr | ones", ibsec_icrc_compute(wire, pw),
                       reg ^ IBSEC_CRC32_XOROUT);
    if (!ok && res.failed <= TB_MAX_REPORTS)
        printf("  (mask of %s, mask_mf %d)\n", ctx, mask_mf);
    pw->mask_mf = false;
}

/* ------------------------------------------------------------------------------------ */
/* Valid packets: seal and open through parse, edit and mask                            */
/* ------------------------------------------------------------------------------------ */

static const uint8_t key_bytes[32] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f };
static const uint8_t salt_bytes[IBSEC_SALT_LEN] = { 0xa0, 0xa1, 0xa2, 0xa3 };

/* A context for the packet's DestQP in both engines: mode, STH code, key, with the
 * EPSN state at the packet's PSN (so the seal and the open are accepted). */
static int set_contexts(const struct ibsec_pkt *p, enum ibsec_mode mode, unsigned code,
                        unsigned key, unsigned dir)
{
    ibsec_ctx_cfg c;
    const char *why = NULL;
    memset(&c, 0, sizeof c);
    c.sel = IBSEC_SEL_QP;
    c.match = p->bth.destqp;
    c.mode = mode;
    c.key = key;
    c.sth_code = code;
    c.dir = dir;
    c.tx_next = p->bth.psn;
    c.rx_next = p->bth.psn;
    if (ibsec_ctx_set(&eng_a, 0, &c, &why) != 0) {
        tb_fail(&res, "context refused by the model: %s", why ? why : "?");
        return -1;
    }
    c.dir = dir ^ 1u;
    if (ibsec_ctx_set(&eng_b, 0, &c, &why) != 0) {
        tb_fail(&res, "peer context refused by the model: %s", why ? why : "?");
        return -1;
    }
    return 0;
}

/* A payload length for an opcode, biased towards short packets. */
static int pick_payload_len(const struct ibsec_opcode_info *op)
{
    if (!op->has_payload || op->fixed_payload)
        return -1;
    uint32_t k = ibsec_rng_below(&rng, 8);
    int mult4 = op->pos == IBSEC_POS_FIRST || op->pos == IBSEC_POS_MIDDLE;
    if (k < 4) {
        uint32_t n = ibsec_rng_range(&rng, 0, 80);
        return mult4 ? (int)(n & ~3u) : (int)n;
    }
    if (k < 6)
        return -1; /* the generator's own choice */
    uint32_t n = ibsec_rng_range(&rng, 0, IBSEC_MAX_PAYLOAD);
    return mult4 ? (int)(n & ~3u) : (int)n;
}

/* Seal side of a plain packet *p that the parser accepted, sealed by the model into
 * wire (parsed as *pw): ib_hdr_edit on the plain header must give the sealed header,
 * ib_hdr_mask on the edited header the wire packet's H and masks. */
static void check_seal_side(const uint8_t *plain, size_t plen, const struct ibsec_pkt *p,
                            enum ibsec_mode mode, unsigned code, const uint8_t *wire,
                            struct ibsec_pkt *pw, int mask_mf, const char *ctx)
{
    uint8_t win[HB], edited[HB], exp[HB];
    size_t hl = p->eths_end;
    make_window(win, plain, plen, plen, 0);
    dut_edit(win, p->shape, (unsigned)p->bth_off, 0, (unsigned)pw->extra_len,
             ibsec_secbits_encode(mode, code), edited);
    n_edit++;
    memcpy(exp, wire, hl);
    memcpy(exp + hl, win + hl, HB - hl); /* the bytes after the ETHs pass unchanged */
    if (!tb_check_bytes(&res, "ib_hdr_edit, seal: header of the sealed packet", exp, edited, HB) &&
        res.failed <= TB_MAX_REPORTS)
        printf("  (%s)\n", ctx);
    check_mask(edited, wire, pw, mask_mf, ctx);
}

/* Open side of the wire packet: ib_hdr_parse as open, ib_hdr_edit (shrink, byte 8
 * cleared) against the header the peer's ibsec_open restores and the plain header,
 * ib_hdr_mask on the received header. */
static void check_open_side(const uint8_t *plain, const uint8_t *wire, size_t wlen,
                            struct ibsec_pkt *pw, int mask_mf, const char *ctx)
{
    static uint8_t opened[IBSEC_MAX_PKT + 64];
    uint8_t win[HB], edited[HB], exp[HB];
    struct ibsec_pkt po;
    ibsec_verdict v;
    size_t olen, hl = pw->eths_end;

    if (check_parse(wire, wlen, wlen, pw->link, 1, ctx, &po) != IBSEC_R_OK) {
        fail("the sealed packet does not parse as open", ctx);
        return;
    }
    enum ibsec_reason r = ibsec_open(&eng_b, pw->link, wire, wlen, opened, sizeof opened, &olen, &v);
    if (r != IBSEC_R_OK) {
        tb_fail(&res, "model open: %s (%s)", ibsec_reason_name(r), ctx);
        return;
    }
    make_window(win, wire, wlen, wlen, 0);
    dut_edit(win, po.shape, (unsigned)po.bth_off, 1, (unsigned)po.extra_len, 0, edited);
    n_edit++;
    memcpy(exp, opened, hl);
    memcpy(exp + hl, win + hl, HB - hl);
    int ok = tb_check_bytes(&res, "ib_hdr_edit, open: header of the opened packet", exp, edited, HB);
    /* the plain header as open restores it: RoCEv2 with UDP checksum 0 */
    uint8_t plain0[HB];
    memcpy(plain0, plain, hl);
    ibsec_pkt_clear_udp_csum(plain0, &po);
    ok &= tb_check_bytes(&res, "ib_hdr_edit, open: header of the plain packet", plain0, edited, hl);
    if (!ok && res.failed <= TB_MAX_REPORTS)
        printf("  (%s)\n", ctx);
    check_mask(win, wire, pw, mask_mf, ctx);
}

/* The sealed packet as the pn nonce would carry it (wire-format.md §2, §5.2): 12 more
 * bytes in front of the STH (the SecTAG's place), every length field grown, the PN bit
 * and a random key phase set; ib_hdr_parse as open must find the 24- or 28-byte STH and
 * the same payload. The CRCs are left as they are (the parse does not read them). */
static void check_pn_variant(const uint8_t *wire, size_t wlen, enum ibsec_link link,
                             const char *ctx)
{
    static uint8_t grown[IBSEC_MAX_PKT + 64];
    struct ibsec_pkt p0, pg, po;
    size_t glen;
    char c2[200];
    /* the STH taken as the start of the payload, so that 12 bytes go in front of it */
    if (ibsec_frame_parse(wire, wlen, link, 0, &p0) != IBSEC_PKT_OK)
        return;
    memcpy(grown, wire, wlen);
    if (ibsec_pkt_insert_extra(grown, sizeof grown, &p0, NULL, IBSEC_SECTAG_LEN, &glen, &pg) !=
        IBSEC_PKT_OK)
        return;
    grown[pg.bth_off + IBSEC_BTH_BYTE_RESV7] |=
        (uint8_t)(IBSEC_SECBITS_PN | (ibsec_rng_below(&rng, 2) ? IBSEC_SECBITS_KP : 0u));
    snprintf(c2, sizeof c2, "%s, with the PN bit and the SecTAG", ctx);
    n_pn++;
    check_parse(grown, glen, glen, link, 1, c2, &po);
}

/* One plain packet: parsed as seal, sealed by the model with a context in the given
 * mode, then the seal side and the open side. Returns 0, or -1 if the model could not
 * seal it. */
static int check_valid(const uint8_t *plain, size_t plen, enum ibsec_link link,
                       enum ibsec_mode mode, unsigned code, unsigned key, int mask_mf,
                       const char *what)
{
    static uint8_t wire[IBSEC_MAX_PKT + 64];
    char ctx[160];
    struct ibsec_pkt p, pw;
    ibsec_verdict v;
    size_t wlen;

    snprintf(ctx, sizeof ctx, "%s, mode %s, STHSZ %u, mask_mf %d", what, ibsec_mode_name(mode),
             code, mask_mf);
    if (check_parse(plain, plen, plen, link, 0, ctx, &p) != IBSEC_R_OK) {
        fail("a generated plain packet does not parse", ctx);
        return -1;
    }
    if (set_contexts(&p, mode, code, key, ibsec_rng_below(&rng, 2)) != 0)
        return -1;
    eng_a.mask_mf = eng_b.mask_mf = mask_mf != 0;
    enum ibsec_reason r = ibsec_seal(&eng_a, link, plain, plen, wire, sizeof wire, &wlen, &v);
    if (r != IBSEC_R_OK) {
        tb_fail(&res, "model seal: %s (%s)", ibsec_reason_name(r), ctx);
        return -1;
    }
    size_t sth = ibsec_mode_has_sth(mode) ? ibsec_sth_len(code) : 0;
    if (ibsec_frame_parse(wire, wlen, link, sth, &pw) != IBSEC_PKT_OK) {
        fail("the model's sealed packet does not parse", ctx);
        return -1;
    }
    check_seal_side(plain, plen, &p, mode, code, wire, &pw, mask_mf, ctx);
    /* RoCEv2: half the sealed packets with a UDP checksum written on the way (open ignores
       it and delivers 0) */
    if (ibsec_rng_below(&rng, 2))
        ibsec_pktgen_udp_csum(&rng, wire, wlen, link);
    check_open_side(plain, wire, wlen, &pw, mask_mf, ctx);
    if (ibsec_mode_has_sth(mode) && ibsec_rng_below(&rng, 2))
        check_pn_variant(wire, wlen, link, ctx);
    return 0;
}

/* A random mode and STH code. */
static void pick_mode(enum ibsec_mode *mode, unsigned *code)
{
    *mode = (enum ibsec_mode)ibsec_rng_below(&rng, IBSEC_MODE_COUNT);
    *code = ibsec_mode_has_sth(*mode) ? ibsec_rng_range(&rng, IBSEC_STH_CODE_96, IBSEC_STH_CODE_128)
                                      : IBSEC_STH_CODE_NONE;
}

/* The nearest payload length the opcode allows to a wanted one (-1 stays -1: random). */
static int legal_payload_len(const struct ibsec_opcode_info *op, int n)
{
    if (n < 0)
        return n;
    if (!op->has_payload)
        return 0;
    if (op->fixed_payload)
        return op->fixed_payload;
    if (op->pos == IBSEC_POS_FIRST || op->pos == IBSEC_POS_MIDDLE)
        return n & ~3;
    return n;
}

/* Build a plain packet of a shape (opcode -1: random; payload_len -2: biased random,
 * -1: the generator's choice, else the nearest legal length) into buf. */
static int gen_plain(enum ibsec_shape shape, int opcode, int payload_len, uint8_t *buf,
                     size_t *len, struct ibsec_pkt *p)
{
    struct ibsec_pktgen_opts o;
    ibsec_pktgen_default_opts(&o, shape);
    o.opcode = opcode >= 0 ? opcode : ibsec_pktgen_random_opcode(&rng, shape);
    const struct ibsec_opcode_info *op = ibsec_opcode_lookup((uint8_t)o.opcode);
    o.payload_len = payload_len == -2 ? pick_payload_len(op) : legal_payload_len(op, payload_len);
    if (ibsec_pktgen(&rng, &o, buf, IBSEC_MAX_PKT, len, p) != IBSEC_PKT_OK) {
        tb_fail(&res, "model generator refused shape %s opcode 0x%02x payload %d",
                ibsec_shape_name(shape), o.opcode, o.payload_len);
        return -1;
    }
    /* RoCEv2: half of them with a UDP checksum, which the edit sets to 0 */
    if (ibsec_shape_link(shape) == IBSEC_LINK_ROCE && ibsec_rng_below(&rng, 2)) {
        ibsec_pktgen_udp_csum(&rng, buf, *len, IBSEC_LINK_ROCE);
        p->udp.csum = ibsec_get_be16(buf + p->udp_off + IBSEC_UDP_CSUM_OFF);
    }
    return 0;
}

/* Stimulus crafting: does the RFC 1071 sum of an IPv4 header (checksum word left out)
 * need the second end-around-carry fold? */
static int ipv4_sum_folds_twice(const uint8_t *ip)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < IBSEC_IPV4_LEN; i += 2)
        if (i != 10)
            sum += ibsec_get_be16(ip + i);
    return (sum & 0xFFFFu) + (sum >> 16) > 0xFFFFu;
}

/* Fields the generator leaves at fixed values, varied so the RTL must keep them: LRH
 * Resv5 and Resv2 (native); and for IPv4, an Identification that makes the header sum of
 * the plain (or the sealed, grown by sth bytes) header take the second carry fold. */
static void tweak_plain(uint8_t *buf, const struct ibsec_pkt *p, size_t sth)
{
    if (p->link == IBSEC_LINK_IB) {
        if (ibsec_rng_below(&rng, 2)) {
            buf[4] = (uint8_t)((buf[4] & 0x07u) | (ibsec_rng_u32(&rng) & 0xF8u)); /* Resv5 */
            buf[1] = (uint8_t)((buf[1] & 0xF3u) | (ibsec_rng_u32(&rng) & 0x0Cu)); /* Resv2 */
        }
        return;
    }
    if (p->shape != IBSEC_SHAPE_ROCE_V4 || ibsec_rng_below(&rng, 3) != 0)
        return;
    uint8_t ip[IBSEC_IPV4_LEN];
    memcpy(ip, buf + p->ip_off, sizeof ip);
    size_t grow = ibsec_rng_below(&rng, 2) ? sth : 0;
    ibsec_put_be16(ip + 2, (uint16_t)(ibsec_get_be16(ip + 2) + grow));
    uint16_t id = (uint16_t)ibsec_rng_u32(&rng);
    for (unsigned tries = 0; tries < 0x10000u; tries++, id++) {
        ibsec_put_be16(ip + 4, id);
        if (ipv4_sum_folds_twice(ip))
            break;
    }
    ibsec_put_be16(buf + p->ip_off + 4, id);
    ibsec_put_be16(buf + p->ip_off + 10, ibsec_ipv4_checksum(buf + p->ip_off));
}

static void run_random(unsigned long count)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    ibsec_progress prog;   /* a line every few seconds on a long run */
    ibsec_progress_start(&prog, "hdr", "packets", count);
    for (unsigned long i = 0; i < count; i++) {
        ibsec_progress_update(&prog, i);
        enum ibsec_shape shape = (enum ibsec_shape)(i % SHAPES);
        size_t len;
        struct ibsec_pkt p;
        enum ibsec_mode mode;
        unsigned code;
        if (gen_plain(shape, -1, -2, buf, &len, &p) != 0)
            continue;
        pick_mode(&mode, &code);
        tweak_plain(buf, &p, ibsec_mode_has_sth(mode) ? ibsec_sth_len(code) : 0);
        check_valid(buf, len, p.link, mode, code, ibsec_rng_below(&rng, N_KEYS),
                    (int)ibsec_rng_below(&rng, 2), "random packet");
    }
    ibsec_progress_end(&prog, count);
}

/* Every opcode of every shape with payload 0..8 (every pad count), every mode. */
static void run_opcode_sweep(void)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    char what[96];
    for (unsigned s = 0; s < SHAPES; s++) {
        for (size_t i = 0; i < ibsec_opcode_count(); i++) {
            const struct ibsec_opcode_info *op = ibsec_opcode_at(i);
            if (op->tclass == IBSEC_TC_CNP && ibsec_shape_link((enum ibsec_shape)s) != IBSEC_LINK_ROCE)
                continue;
            for (int pl = 0; pl <= 8; pl++) {
                int n = !op->has_payload ? 0 : op->fixed_payload ? op->fixed_payload
                      : (op->pos == IBSEC_POS_FIRST || op->pos == IBSEC_POS_MIDDLE) ? (pl & ~3) : pl;
                size_t len;
                struct ibsec_pkt p;
                if (gen_plain((enum ibsec_shape)s, op->opcode, n, buf, &len, &p) != 0)
                    continue;
                enum ibsec_mode mode = (enum ibsec_mode)(pl % IBSEC_MODE_COUNT);
                unsigned code = ibsec_mode_has_sth(mode) ? 1u + (unsigned)(pl / IBSEC_MODE_COUNT) % 2u : 0;
                snprintf(what, sizeof what, "sweep %s %s payload %d", ibsec_shape_name(p.shape),
                         op->name, n);
                check_valid(buf, len, p.link, mode, code, (unsigned)pl % N_KEYS, pl & 1, what);
                if (!op->has_payload || op->fixed_payload)
                    break; /* one length is all these opcodes have */
            }
        }
    }
}

/* ib_hdr_edit with every STH length and any value of the security bits, against the
 * model's ibsec_pkt_insert_extra (grow) and ibsec_pkt_remove_extra (shrink) with BTH
 * byte 8 bits 6:0 then replaced (AckReq kept) and, RoCEv2, the UDP checksum 0. */
static void run_edit_any_secbits(unsigned count)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64], grown[IBSEC_MAX_PKT + 64];
    static const unsigned lens[] = { 0, 12, 16 };
    for (unsigned k = 0; k < count; k++) {
        enum ibsec_shape s = (enum ibsec_shape)(k % SHAPES);
        size_t len, glen, slen;
        struct ibsec_pkt p, pg, ps;
        uint8_t win[HB], edited[HB], exp[HB];
        if (gen_plain(s, -1, -2, buf, &len, &p) != 0)
            continue;
        tweak_plain(buf, &p, 0);
        unsigned l = lens[k / SHAPES % 3];
        unsigned sb = ibsec_rng_below(&rng, 128);
        memcpy(grown, buf, len);
        if (ibsec_pkt_insert_extra(grown, sizeof grown, &p, NULL, l, &glen, &pg) != IBSEC_PKT_OK) {
            tb_fail(&res, "model refused to insert %u bytes", l);
            continue;
        }
        size_t b8 = p.bth_off + IBSEC_BTH_BYTE_RESV7;
        make_window(win, buf, len, len, 0);
        dut_edit(win, p.shape, (unsigned)p.bth_off, 0, l, sb, edited);
        n_edit++;
        memcpy(exp, win, HB);
        memcpy(exp, grown, p.eths_end);
        exp[b8] = (uint8_t)((exp[b8] & 0x80u) | sb);
        ibsec_pkt_clear_udp_csum(exp, &p);
        tb_check_bytes(&res, "ib_hdr_edit grow, any secbits", exp, edited, HB);

        /* and back: shrink the grown packet */
        sb = ibsec_rng_below(&rng, 128);
        make_window(win, grown, glen, glen, 0);
        dut_edit(win, pg.shape, (unsigned)pg.bth_off, 1, l, sb, edited);
        n_edit++;
        if (ibsec_pkt_remove_extra(grown, &pg, &slen, &ps) != IBSEC_PKT_OK) {
            tb_fail(&res, "model refused to remove %u bytes", l);
            continue;
        }
        memcpy(exp, win, HB);
        memcpy(exp, grown, p.eths_end);
        exp[b8] = (uint8_t)((exp[b8] & 0x80u) | sb);
        ibsec_pkt_clear_udp_csum(exp, &p);
        tb_check_bytes(&res, "ib_hdr_edit shrink, any secbits", exp, edited, HB);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Malformed corpus                                                                       */
/* ------------------------------------------------------------------------------------ */

/* Rewrite every length field of a frame of a shape for a packet ending at `end`
 * (input fabrication, with the model's field encoders). */
static void set_lengths(uint8_t *b, enum ibsec_shape s, size_t end)
{
    switch (s) {
    case IBSEC_SHAPE_IB_LOCAL:
    case IBSEC_SHAPE_IB_GLOBAL: {
        uint16_t w = ibsec_get_be16(b + 4);
        ibsec_put_be16(b + 4, (uint16_t)((w & 0xF800u) | (((end - IBSEC_VCRC_LEN) / 4u) & 0x7FFu)));
        if (s == IBSEC_SHAPE_IB_GLOBAL)
            ibsec_put_be16(b + 12, (uint16_t)(end - IBSEC_VCRC_LEN - 48u));
        break;
    }
    case IBSEC_SHAPE_ROCE_V4:
        ibsec_put_be16(b + 16, (uint16_t)(end - 14u));
        ibsec_put_be16(b + 24, ibsec_ipv4_checksum(b + 14));
        ibsec_put_be16(b + 38, (uint16_t)(end - 34u));
        break;
    default:
        ibsec_put_be16(b + 18, (uint16_t)(end - 54u));
        ibsec_put_be16(b + 58, (uint16_t)(end - 54u));
        break;
    }
}

/* A base frame for the corpus: a plain packet, or (half the time) the same packet
 * sealed by the model in a random mode. */
static int corpus_base(enum ibsec_shape shape, int opcode, int payload_len, uint8_t *out,
                       size_t *len)
{
    static uint8_t plain[IBSEC_MAX_PKT + 64];
    struct ibsec_pkt p;
    size_t plen;
    if (gen_plain(shape, opcode, payload_len, plain, &plen, &p) != 0)
        return -1;
    if (ibsec_rng_below(&rng, 2)) {
        memcpy(out, plain, plen);
        *len = plen;
        return 0;
    }
    enum ibsec_mode mode;
    unsigned code;
    ibsec_verdict v;
    pick_mode(&mode, &code);
    if (set_contexts(&p, mode, code, 0, 0) != 0)
        return -1;
    enum ibsec_reason r = ibsec_seal(&eng_a, p.link, plain, plen, out, IBSEC_MAX_PKT, len, &v);
    if (r != IBSEC_R_OK) {
        tb_fail(&res, "model seal of a corpus base: %s", ibsec_reason_name(r));
        return -1;
    }
    return 0;
}

/* Frame bytes holding checked constant fields, per shape, ascending (0xFF ends). */
static const uint8_t checked[SHAPES][12] = {
    { 0, 1, 8, 9, 16, 0xFF },                               /* LRH, BTH at 8 */
    { 0, 1, 8, 14, 48, 49, 56, 0xFF },                      /* LRH, GRH, BTH at 48 */
    { 12, 13, 14, 20, 21, 23, 36, 37, 42, 43, 50, 0xFF },   /* MAC, IPv4, UDP, BTH at 42 */
    { 12, 13, 14, 20, 56, 57, 62, 63, 70, 0xFF },           /* MAC, IPv6, UDP, BTH at 62 */
};

/* Change frame byte `at` to a different random value, check the cut frame, restore. */
static void corrupt_and_check(uint8_t *buf, size_t t, size_t len, enum ibsec_link link,
                              size_t at, const char *what)
{
    uint8_t keep = buf[at];
    buf[at] = (uint8_t)(keep ^ (1u + ibsec_rng_below(&rng, 255)));
    check_parse_both(buf, t, len, link, what);
    buf[at] = keep;
}

static void run_truncation(unsigned per_shape)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    for (unsigned s = 0; s < SHAPES; s++)
        for (unsigned k = 0; k < per_shape; k++) {
            size_t len;
            if (corpus_base((enum ibsec_shape)s, -1, (int)ibsec_rng_range(&rng, 0, 40) & ~3, buf, &len) != 0)
                continue;
            enum ibsec_link link = ibsec_shape_link((enum ibsec_shape)s);
            for (size_t t = 0; t <= TRUNC_MAX && t <= len; t++) {
                check_parse_both(buf, t, len, link, "truncated");
                if (t == 0)
                    continue;
                /* the same cut with one random header byte changed, then with one byte
                 * changed that holds a checked constant field of the shape (LNH/LVer,
                 * IPVer, NxtHdr, EtherType, IP version/IHL/flags/protocol, UDP port,
                 * OpCode, TVer, BTH byte 8) */
                size_t at = ibsec_rng_below(&rng, (uint32_t)(t < 80 ? t : 80));
                corrupt_and_check(buf, t, len, link, at, "truncated, one byte changed");
                size_t nc = 0;
                while (nc < sizeof checked[s] && checked[s][nc] != 0xFF && checked[s][nc] < t)
                    nc++;
                if (nc > 0)
                    corrupt_and_check(buf, t, len, link, checked[s][ibsec_rng_below(&rng, (uint32_t)nc)],
                                      "truncated, one checked byte changed");
            }
        }
}

static void run_bitflips(unsigned per_shape)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    for (unsigned s = 0; s < SHAPES; s++)
        for (unsigned k = 0; k < per_shape; k++) {
            size_t len;
            if (corpus_base((enum ibsec_shape)s, -1, -2, buf, &len) != 0)
                continue;
            enum ibsec_link link = ibsec_shape_link((enum ibsec_shape)s);
            size_t n = len < 110 ? len : 110;
            for (size_t i = 0; i < n; i++)
                for (unsigned bit = 0; bit < 8; bit++) {
                    buf[i] ^= (uint8_t)(1u << bit);
                    check_parse_both(buf, len, len, link, "bit flip");
                    buf[i] ^= (uint8_t)(1u << bit);
                }
        }
}

/* Length fields set wrong, one at a time; the IPv4 checksum fixed or left. */
static void run_bad_lengths(unsigned per_shape)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    static const size_t fields[SHAPES][2] = {
        { 4, 0 }, { 4, 12 }, { 16, 38 }, { 18, 58 } }; /* PktLen/PayLen/IP length, UDP/GRH */
    for (unsigned s = 0; s < SHAPES; s++)
        for (unsigned k = 0; k < per_shape; k++) {
            size_t len;
            if (corpus_base((enum ibsec_shape)s, -1, -2, buf, &len) != 0)
                continue;
            enum ibsec_link link = ibsec_shape_link((enum ibsec_shape)s);
            for (unsigned f = 0; f < 2; f++) {
                size_t off = fields[s][f];
                if (off == 0)
                    continue;
                uint16_t orig = ibsec_get_be16(buf + off);
                static const int deltas[] = { -4, -2, -1, 1, 2, 4, 8, 12, 16 };
                for (size_t d = 0; d < sizeof deltas / sizeof deltas[0] + 3; d++) {
                    uint16_t val = d < sizeof deltas / sizeof deltas[0]
                                       ? (uint16_t)(orig + deltas[d])
                                       : d == sizeof deltas / sizeof deltas[0] ? 0
                                       : d == sizeof deltas / sizeof deltas[0] + 1 ? 0xFFFF
                                       : (uint16_t)ibsec_rng_u32(&rng);
                    ibsec_put_be16(buf + off, val);
                    uint16_t csum = ibsec_get_be16(buf + 24);
                    if (s == IBSEC_SHAPE_ROCE_V4 && ibsec_rng_below(&rng, 2))
                        ibsec_put_be16(buf + 24, ibsec_ipv4_checksum(buf + 14));
                    check_parse_both(buf, len, len, link, "bad length field");
                    ibsec_put_be16(buf + 24, csum);
                    ibsec_put_be16(buf + off, orig);
                }
            }
        }
}

/* Every opcode value and every BTH byte 8 value on a base frame of each shape. */
static void run_opcodes_and_secbits(unsigned per_shape)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    static const size_t bth_at[SHAPES] = { 8, 48, 42, 62 };
    for (unsigned s = 0; s < SHAPES; s++)
        for (unsigned k = 0; k < per_shape; k++) {
            size_t len;
            if (corpus_base((enum ibsec_shape)s, -1, -2, buf, &len) != 0)
                continue;
            enum ibsec_link link = ibsec_shape_link((enum ibsec_shape)s);
            uint8_t *bth = buf + bth_at[s];
            uint8_t op = bth[0], b8 = bth[8];
            for (unsigned v = 0; v < 256; v++) {
                bth[0] = (uint8_t)v;
                check_parse_both(buf, len, len, link, "opcode value");
            }
            bth[0] = op;
            for (unsigned v = 0; v < 256; v++) {
                bth[8] = (uint8_t)v;
                check_parse_both(buf, len, len, link, "BTH byte 8 value");
            }
            bth[8] = b8;
        }
}

/* RoCEv2 frames with Ethernet padding: short packets padded to 60 (legal) and padded to
 * other lengths, and padded frames whose packet is 60 bytes or longer. */
static void run_eth_padding(unsigned count)
{
    static uint8_t buf[IBSEC_MAX_PKT + 128];
    for (unsigned k = 0; k < count; k++) {
        enum ibsec_shape s = (k & 1) ? IBSEC_SHAPE_ROCE_V6 : IBSEC_SHAPE_ROCE_V4;
        size_t len;
        if (corpus_base(s, -1, (int)ibsec_rng_range(&rng, 0, 8), buf, &len) != 0)
            continue;
        size_t pads[] = { 60, 60, len + 1, len + 4, 64, ibsec_rng_range(&rng, 40, 80) };
        for (size_t i = 0; i < sizeof pads / sizeof pads[0]; i++) {
            size_t n = pads[i];
            if (n < len)
                continue;
            ibsec_rng_bytes(&rng, buf + len, n - len);
            check_parse_both(buf, n, n, IBSEC_LINK_ROCE, "Ethernet padding");
        }
        /* a 60-byte frame whose length fields say the packet ends elsewhere */
        static uint8_t copy[IBSEC_MAX_PKT + 128];
        size_t ends[] = { len - 4, len - 1, len + 1, len + 4, 56, 58, 59, 60, 61, 62, 64 };
        if (len > IBSEC_ETH_MIN_FRAME)
            continue;
        for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
            memcpy(copy, buf, IBSEC_ETH_MIN_FRAME);
            set_lengths(copy, s, ends[i]);
            check_parse_both(copy, IBSEC_ETH_MIN_FRAME, IBSEC_ETH_MIN_FRAME, IBSEC_LINK_ROCE,
                             "60-byte frame, length fields moved");
        }
    }
}

/* One to four random byte changes inside the headers. */
static void run_mutations(unsigned count)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    for (unsigned k = 0; k < count; k++) {
        enum ibsec_shape s = (enum ibsec_shape)(k % SHAPES);
        size_t len;
        if (corpus_base(s, -1, -2, buf, &len) != 0)
            continue;
        unsigned n = ibsec_rng_range(&rng, 1, 4);
        size_t lim = len < 100 ? len : 100;
        for (unsigned j = 0; j < n; j++)
            buf[ibsec_rng_below(&rng, (uint32_t)lim)] = (uint8_t)ibsec_rng_u32(&rng);
        if (ibsec_rng_below(&rng, 2))
            set_lengths(buf, s, len); /* lengths consistent again, so later checks run */
        check_parse_both(buf, len, len, ibsec_shape_link(s), "mutated header");
    }
}

/* Payloads past 4096 with consistent length fields, and frames far beyond the largest
 * packet (lengths consistent with the frame where the fields can say so). */
static void run_over_long(unsigned count)
{
    for (unsigned k = 0; k < count; k++) {
        enum ibsec_shape s = (enum ibsec_shape)(k % SHAPES);
        size_t len;
        int opcode = (k & 4) ? 0x04 /* RC SEND Only: pad allowed */ : 0x00 /* SEND First */;
        if (corpus_base(s, opcode, 4096, scratch, &len) != 0)
            continue;
        size_t n;
        switch (k % 3) {
        case 0:  n = len + ibsec_rng_range(&rng, 1, 200); break;
        case 1:  n = ibsec_rng_range(&rng, 4300, LEN13_MAX + 10); break;
        default: n = ibsec_rng_range(&rng, LEN13_MAX, HUGE_FRAME); break;
        }
        static uint8_t big[HUGE_FRAME + 64];
        memcpy(big, scratch, len);
        ibsec_rng_bytes(&rng, big + len, n - len);
        uint32_t how = ibsec_rng_below(&rng, 8);
        if (how < 5)
            set_lengths(big, s, n);          /* lengths agree with the frame */
        else if (how < 7)
            set_lengths(big, s, ibsec_rng_range(&rng, LEN13_SAT - 8, LEN13_SAT + 8)); /* near 8191 */
        check_parse_both(big, n, n, ibsec_shape_link(s), "over-long frame");
    }
}

/* Payload lengths around 4096 with every PadCnt: SEND Only with 4096 payload bytes and
 * 0 or 4 bytes more, PadCnt 0..3 (payload 4093..4100), consistent length fields. */
static void run_payload_limit(void)
{
    static uint8_t buf[IBSEC_MAX_PKT + 64];
    static const size_t bth_at[SHAPES] = { 8, 48, 42, 62 };
    for (unsigned s = 0; s < SHAPES; s++)
        for (unsigned extra = 0; extra <= 8; extra += 4)
            for (unsigned pad = 0; pad < 4; pad++) {
                size_t len;
                if (corpus_base((enum ibsec_shape)s, 0x04 /* RC SEND Only */, 4096, buf, &len) != 0)
                    continue;
                size_t trailer = ibsec_shape_link((enum ibsec_shape)s) == IBSEC_LINK_IB ? 6 : 4;
                memmove(buf + len - trailer + extra, buf + len - trailer, trailer);
                memset(buf + len - trailer, 0, extra);
                len += extra;
                uint8_t *b1 = buf + bth_at[s] + 1;
                *b1 = (uint8_t)((*b1 & 0xCFu) | pad << 4);
                set_lengths(buf, (enum ibsec_shape)s, len);
                check_parse_both(buf, len, len, ibsec_shape_link((enum ibsec_shape)s),
                                 "payload near 4096");
            }
}

/* ------------------------------------------------------------------------------------ */
/* Opcode table                                                                           */
/* ------------------------------------------------------------------------------------ */

static void run_opcode_table(void)
{
    for (unsigned v = 0; v < 256; v++) {
        struct dut_opinfo o;
        dut_opcode(v, &o);
        const struct ibsec_opcode_info *op = ibsec_opcode_lookup((uint8_t)v);
        unsigned known = op != NULL;
        unsigned cnp = known && op->tclass == IBSEC_TC_CNP;
        unsigned exp[9] = {
            known, cnp, known && !cnp, known, known ? op->eth_len : 0u,
            known && op->has_payload, known ? (unsigned)op->pos : 0u,
            known && ibsec_opcode_pad_allowed(op), known && op->fixed_payload != 0 };
        unsigned got[9] = { o.known, o.cnp, o.valid_ib, o.valid_roce, o.eth_len, o.has_payload,
                            o.pos, o.pad_allowed, o.fixed_payload };
        if (memcmp(exp, got, sizeof exp) == 0) {
            tb_pass(&res);
        } else {
            tb_fail(&res, "ib_opcode_info 0x%02x (%s): expected known %u cnp %u ib %u roce %u "
                          "eth_len %u payload %u pos %u pad %u fixed %u, got %u %u %u %u %u %u %u %u %u",
                    v, ibsec_opcode_name((uint8_t)v), exp[0], exp[1], exp[2], exp[3], exp[4],
                    exp[5], exp[6], exp[7], exp[8], got[0], got[1], got[2], got[3], got[4],
                    got[5], got[6], got[7], got[8]);
        }
        /* the parser's CNP payload length is the table's */
        if (cnp && op->fixed_payload != 16)
            tb_fail(&res, "model CNP payload is %u bytes, ib_hdr_parse assumes 16",
                    op->fixed_payload);
    }
}

/* ------------------------------------------------------------------------------------ */
/* Main                                                                                   */
/* ------------------------------------------------------------------------------------ */

static int setup_engines(void)
{
    if (ibsec_engine_init(&eng_a, N_KEYS, 1, 1) != 0 || ibsec_engine_init(&eng_b, N_KEYS, 1, 1) != 0 ||
        ibsec_engine_init(&eng_none, N_KEYS, 1, 1) != 0)
        return -1;
    for (unsigned k = 0; k < N_KEYS; k++) {
        size_t klen = k == 0 ? 16 : 32; /* AES-128, AES-256 */
        if (ibsec_key_set(&eng_a, k, key_bytes, klen, salt_bytes) != 0 ||
            ibsec_key_set(&eng_b, k, key_bytes, klen, salt_bytes) != 0)
            return -1;
    }
    return 0;
}

static int parse_ulong(const char *s, unsigned long *v)
{
    char *end;
    *v = strtoul(s, &end, 0);
    return (*s == 0 || *end != 0) ? -1 : 0;
}

int tb_hdr_main(int argc, char **argv)
{
    unsigned long seed = 1, packets = 12000;
    for (int i = 1; i < argc; i++) {
        unsigned long *dst = !strcmp(argv[i], "--seed") ? &seed
                           : !strcmp(argv[i], "--packets") ? &packets : NULL;
        if (dst == NULL || i + 1 >= argc || parse_ulong(argv[i + 1], dst) != 0) {
            fprintf(stderr, "usage: %s [--seed N] [--packets N] (bad argument '%s')\n", argv[0],
                    argv[i]);
            dut_finish();
            return 2;
        }
        i++;
    }
    tb_result_init(&res, "hdr");
    ibsec_rng_seed(&rng, seed);
    if (setup_engines() != 0) {
        fprintf(stderr, "tb_hdr: the model refused the engine set-up\n");
        dut_finish();
        return 2;
    }

    run_opcode_table();
    run_opcode_sweep();
    run_random(packets);
    run_edit_any_secbits(3000);
    run_truncation(12);
    run_bitflips(3);
    run_bad_lengths(40);
    run_opcodes_and_secbits(3);
    run_eth_padding(300);
    run_mutations(8000);
    run_over_long(400);
    run_payload_limit();

    printf("hdr: seed %lu: %lu frames parsed (%lu accepted, %lu with the PN bit's SecTAG), "
           "%lu headers edited, %lu masked\n", seed, n_frames, n_ok, n_pn, n_edit, n_mask);
    ibsec_engine_free(&eng_a);
    ibsec_engine_free(&eng_b);
    ibsec_engine_free(&eng_none);
    dut_finish();
    return tb_summary(&res);
}
