/*
 * ddpm.h — source identification by packet marking in the GRH (Lee & Kim,
 * TPDS 2007, §5.4): the 38-bit Marking Field (MF), deterministic port marking
 * for fat trees (§5.4.2, Table 2) and deterministic distance packet marking,
 * DDPM, for meshes, tori and hypercubes (§5.4.3, Algorithm 2, Table 3).
 *
 * Where the MF is (TPDS Fig. 4).  Inside a site a GRH's DGID starts with the
 * 10-bit link-local prefix 1111111010 (FE80::/10) or site-local prefix
 * 1111111011 (FEC0::/10).  The link-local format then has 54 zero bits before
 * the 64-bit interface ID; the site-local format has 38 zero bits, a 16-bit
 * subnet ID and the interface ID.  The 38 bits both formats leave zero are
 * DGID bits 117..80 (DGID bit 127 = first bit on the wire), i.e.
 *     GRH byte 25 bits 5:0  = MF bits 37:32   (DGID byte 1)
 *     GRH bytes 26..29      = MF bits 31:0    (DGID bytes 2..5, big-endian)
 * (GRH byte 24 = DGID byte 0; GRH byte 25 bits 7:6 are the end of the prefix.)
 * A DGID with any other prefix leaves the site: the packet is not marked.
 *
 * Field layout inside the MF (bit 0 = least significant):
 *   mesh, torus : ndims fields of w = mf_bits / ndims bits; dimension i at
 *                 bits [i*w + w-1 : i*w].  Mesh fields hold the displacement
 *                 V = current - source as w-bit two's complement; the most
 *                 negative value -2^(w-1) is never a displacement and marks a
 *                 poisoned MF (overflow seen on the way).  Torus fields hold
 *                 V mod radix.  Radix per dimension <= 2^(w-1) (Table 3:
 *                 2^18 x 2^18 with 38 bits, 2^11 x 2^11 x 2^11).
 *   hypercube   : bit i = dimension i of V = current XOR source (<= 38 dims).
 *   fat tree    : level l (0 = the switches next to the nodes) at bits
 *                 [l*b + b-1 : l*b], b = ceil(log2 k) for k down-ports per
 *                 switch; the MF of a packet that went up is the source's
 *                 address, digit l = its down-port index at level l (Fig. 5).
 *
 * The per-packet switch function (hardware shape): the switch reads the GRH,
 * takes a per-input-port bit "from_node" (the port faces a CA: the MF restarts
 * from zero, which also erases any mark an attacker forged) and a per-output-
 * port constant (the displacement of that link: +1/-1 in one dimension, or one
 * hypercube bit; zero for the port to the local node), adds field by field,
 * writes the MF back and recomputes the VCRC.  A fat-tree switch at level L
 * that receives a packet on down-port d writes slot L = d and the slots above
 * L = its own subtree's address digits (a per-switch constant), keeping slots
 * below L; so the MF is the full source address even when the packet turns
 * below the top level.
 *
 * The MF lies in the DGID, which the ICRC and the GCM AAD cover: see
 * docs/availability.md §2.4 for the masking rule this needs.
 */
#ifndef IBSEC_DDPM_H
#define IBSEC_DDPM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sw_hdr.h"

#define IBSEC_MF_BITS        38u  /* TPDS §5.4.1: the common zero bits of both DGID formats */
#define IBSEC_MF_GRH_BYTE_HI 25u  /* GRH byte holding MF bits 37:32 in its bits 5:0 */
#define IBSEC_MF_GRH_BYTE_LO 26u  /* first of the 4 GRH bytes holding MF bits 31:0 */
#define IBSEC_MF_HI_MASK     0x3Fu
#define IBSEC_DGID_PREFIX_BITS  10u
#define IBSEC_DGID_LINK_LOCAL 0x3FAu /* 1111111010: FE80::/10 (TPDS Fig. 4a) */
#define IBSEC_DGID_SITE_LOCAL 0x3FBu /* 1111111011: FEC0::/10 (TPDS Fig. 4b) */
#define IBSEC_DDPM_MAX_DIMS  38u

enum ibsec_topo {
    IBSEC_TOPO_MESH = 0,
    IBSEC_TOPO_TORUS,
    IBSEC_TOPO_HYPERCUBE,
    IBSEC_TOPO_FATTREE,
    IBSEC_TOPO_COUNT
};

enum ibsec_ddpm_cfg_err {
    IBSEC_DDPM_CFG_OK = 0,
    IBSEC_DDPM_CFG_BAD_ARG,    /* no dimensions, radix < 2, mf_bits 0 or > 38 */
    IBSEC_DDPM_CFG_TOO_LARGE,  /* the network does not fit the MF bits (Tables 2, 3) */
    IBSEC_DDPM_CFG_COUNT
};

/* Marking configuration of a network (the same in every switch and CA). */
struct ibsec_ddpm_cfg {
    enum ibsec_topo topo;
    unsigned ndims;                        /* mesh/torus/hypercube dims; fat-tree levels */
    uint32_t radix[IBSEC_DDPM_MAX_DIMS];   /* nodes per dimension; fat tree: radix[0] = k */
    unsigned mf_bits;                      /* MF bits used (<= 38; the rest may carry e.g. a time stamp, TPDS §6.2) */
    unsigned w;                            /* derived: bits per field */
};

/* Outcome of marking at a switch, or of identification at a receiver. */
enum ibsec_ddpm_out {
    IBSEC_DDPM_MARKED = 0,        /* switch: MF updated */
    IBSEC_DDPM_SOURCE_FOUND,      /* receiver: source identified */
    IBSEC_DDPM_NO_GRH,            /* LRH.LNH = 2: no MF, forwarded unmarked */
    IBSEC_DDPM_OFF_SITE,          /* DGID prefix neither link- nor site-local: not marked */
    IBSEC_DDPM_OVERFLOW,          /* switch: a field left its range; MF poisoned */
    IBSEC_DDPM_POISONED,          /* MF already poisoned: kept (switch) / no source (receiver) */
    IBSEC_DDPM_BAD_MARK,          /* field value no valid mark can hold; MF poisoned (switch) */
    IBSEC_DDPM_OUT_OF_NETWORK,    /* receiver: computed source outside the network */
    IBSEC_DDPM_BAD_HOP,           /* caller: displacement not one link / level out of range */
    IBSEC_DDPM_BAD_PKTLEN,        /* LRH.PktLen*4 + VCRC != bytes given: cannot fix the VCRC */
    IBSEC_DDPM_TRUNCATED,         /* header view errors (sw_hdr.h) */
    IBSEC_DDPM_BAD_LNH,
    IBSEC_DDPM_BAD_LVER,
    IBSEC_DDPM_BAD_GRH,
    IBSEC_DDPM_OUT_COUNT
};

const char *ibsec_ddpm_out_name(enum ibsec_ddpm_out o);     /* "marked", "overflow", ... */
const char *ibsec_ddpm_cfg_err_name(enum ibsec_ddpm_cfg_err e);
const char *ibsec_topo_name(enum ibsec_topo t);             /* "mesh", "torus", ... */

/* Set up *cfg.  mesh/torus: ndims dims of radix[i] nodes; hypercube: ndims
 * dims (radix ignored, 2); fat tree: ndims levels of radix[0]-port down-sides.
 * mf_bits = 0 means all 38. */
enum ibsec_ddpm_cfg_err ibsec_ddpm_configure(struct ibsec_ddpm_cfg *cfg, enum ibsec_topo topo,
                                             unsigned ndims, const uint32_t *radix,
                                             unsigned mf_bits);

/* The 38-bit MF of a GRH (grh points at GRH byte 0) / write it. */
uint64_t ibsec_mf_get(const uint8_t *grh);
void     ibsec_mf_put(uint8_t *grh, uint64_t mf);

/* The DGID prefix of a GRH is link-local or site-local (the MF is usable). */
bool ibsec_mf_in_site(const uint8_t *grh);

/* One hop through a mesh/torus/hypercube switch (Algorithm 2, switch side). */
struct ibsec_ddpm_hop {
    bool    from_node;                      /* input port faces a CA: V := 0 first */
    int32_t delta[IBSEC_DDPM_MAX_DIMS];     /* Y - X of the output link (hypercube: 0/1 per dim) */
};

/* Mark buf[0..len) (a whole native packet) at one mesh/torus/hypercube switch.
 * Rewrites the MF and the VCRC on MARKED, OVERFLOW and BAD_MARK; otherwise the
 * packet is unchanged. */
enum ibsec_ddpm_out ibsec_ddpm_mark(const struct ibsec_ddpm_cfg *cfg, uint8_t *buf, size_t len,
                                    const struct ibsec_ddpm_hop *hop);

/* Mark at a fat-tree switch of level `level` that received the packet on
 * down-port `in_port` (TPDS §5.4.2); `ancestor` holds the switch's subtree
 * address digits in the MF slots above `level` (other bits ignored). */
enum ibsec_ddpm_out ibsec_dpm_mark_fattree(const struct ibsec_ddpm_cfg *cfg, uint8_t *buf,
                                           size_t len, unsigned level, uint32_t in_port,
                                           uint64_t ancestor);

/* Receiver side: from the MF and the receiver's coordinate `self` (fat tree:
 * unused), the source's coordinate in src[0..ndims) (fat tree: the address
 * digits, level 0 first).  Returns SOURCE_FOUND or why not. */
enum ibsec_ddpm_out ibsec_ddpm_identify(const struct ibsec_ddpm_cfg *cfg, const uint8_t *buf,
                                        size_t len, const uint32_t *self, uint32_t *src);

#endif /* IBSEC_DDPM_H */
