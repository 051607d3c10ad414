/*
 * ibsec_enums.vh — the C model's enums that cross block boundaries in the RTL, as
 * localparams. Included inside a module body by every block that gives or tests one of
 * these codes (ib_hdr_parse, ib_hdr_edit, ib_hdr_mask, ibsec_rx_check, ibsec_ctx_table,
 * ibsec_engine), so that each code has one definition in the tree.
 *
 *   R_*      enum ibsec_reason (cmodel/ibsec.h, docs/wire-format.md §10): the drop
 *            reason of a packet, 6 bits on every internal reason bus and in the counter
 *            index (docs/registers.md); R_OK = delivered.
 *   M_*      enum ibsec_mode (cmodel/ibsec.h, BRIEF §2): the context's and the wire's
 *            security mode, 3 bits; 5..7 are invalid.
 *   SHAPE_*  enum ibsec_shape (cmodel/ib_pkt.h): the headers in front of the BTH, 2 bits.
 *
 * The codes must equal the C model's: the harness compares the RTL's drop reasons and
 * counters with the model's by number (verif/engine).
 *
 * Each including module uses only some of the codes; the list is shared on purpose, so
 * the unused ones are not warnings.
 */

/* verilator lint_off UNUSEDPARAM */

// enum ibsec_reason
localparam [5:0] R_OK                   = 6'd0;
// parse errors (ib_hdr_parse), one per ib_pkt.h error
localparam [5:0] R_TRUNCATED            = 6'd1;
localparam [5:0] R_BAD_LNH              = 6'd2;
localparam [5:0] R_BAD_LVER             = 6'd3;
localparam [5:0] R_BAD_PKTLEN           = 6'd4;
localparam [5:0] R_BAD_IPVER            = 6'd5;
localparam [5:0] R_BAD_NXTHDR           = 6'd6;
localparam [5:0] R_BAD_GRH_PAYLEN       = 6'd7;
localparam [5:0] R_BAD_ETHERTYPE        = 6'd8;
localparam [5:0] R_BAD_IPV4_IHL         = 6'd9;
localparam [5:0] R_BAD_IPV4_CSUM        = 6'd10;
localparam [5:0] R_IP_FRAGMENT          = 6'd11;
localparam [5:0] R_BAD_IP_LEN           = 6'd12;
localparam [5:0] R_NOT_UDP              = 6'd13;
localparam [5:0] R_BAD_UDP_PORT         = 6'd14;
localparam [5:0] R_BAD_UDP_LEN          = 6'd15;
localparam [5:0] R_BAD_TVER             = 6'd16;
localparam [5:0] R_BAD_OPCODE           = 6'd17;
localparam [5:0] R_BAD_PADCNT           = 6'd18;
localparam [5:0] R_BAD_PAYLOAD_LEN      = 6'd19;
localparam [5:0] R_TOO_LONG             = 6'd20;
// link and security checks (ibsec_engine, ibsec_ctx_table)
localparam [5:0] R_BAD_VCRC             = 6'd21;
localparam [5:0] R_BAD_SECMODE          = 6'd22;
localparam [5:0] R_NO_CONTEXT           = 6'd23;
localparam [5:0] R_MODE_MISMATCH        = 6'd24;
localparam [5:0] R_STH_SIZE_UNSUPPORTED = 6'd25;
localparam [5:0] R_STH_SIZE_MISMATCH    = 6'd26;
localparam [5:0] R_NO_KEY               = 6'd27;
localparam [5:0] R_BAD_ICRC             = 6'd28;
localparam [5:0] R_EPSN_EXHAUSTED       = 6'd29;
localparam [5:0] R_PSN_TOO_OLD          = 6'd30;
localparam [5:0] R_REPLAY               = 6'd31;
localparam [5:0] R_AUTH_FAILED          = 6'd32;
localparam [5:0] R_NONCE_REUSE          = 6'd33;
localparam [5:0] R_UNKNOWN_SENDER       = 6'd34;
localparam [5:0] R_PN_TOO_OLD           = 6'd35;
localparam [5:0] R_PN_EXHAUSTED         = 6'd36;
localparam [5:0] R_MGMT_DROPPED         = 6'd37;

// enum ibsec_mode
localparam [2:0] M_NONE     = 3'd0;   // clear, real ICRC
localparam [2:0] M_ICRC_MAC = 3'd1;   // AES-GCM, 32-bit tag in the ICRC field
localparam [2:0] M_STH_HDR  = 3'd2;   // GMAC over the nonce and the masked headers
localparam [2:0] M_STH_PKT  = 3'd3;   // GMAC over the masked headers, payload and pad
localparam [2:0] M_STH_AEAD = 3'd4;   // AES-GCM, tag in the STH
localparam [2:0] M_COUNT    = 3'd5;   // first invalid code

// enum ibsec_shape
localparam [1:0] SHAPE_IB_LOCAL  = 2'd0;   // LRH + BTH
localparam [1:0] SHAPE_IB_GLOBAL = 2'd1;   // LRH + GRH + BTH
localparam [1:0] SHAPE_ROCE_V4   = 2'd2;   // Ethernet + IPv4 + UDP + BTH
localparam [1:0] SHAPE_ROCE_V6   = 2'd3;   // Ethernet + IPv6 + UDP + BTH

/* verilator lint_on UNUSEDPARAM */
