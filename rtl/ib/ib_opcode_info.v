/*
 * ib_opcode_info — the BTH OpCode table of IBA Vol. 1 §9.2 ("OpCode field") with the
 * header sequences of §9.3 (XRC: Annex A14; CNP: RoCEv2 Annex A17.9), as combinational
 * logic. It is the table of cmodel/ib_opcode.c row for row.
 *
 * Function
 *   For a BTH OpCode it gives: whether the opcode is known at all, whether it is valid on
 *   a native IBA link and on a RoCEv2 link (the CNP 0x81 exists on RoCEv2 only), the total
 *   length of the extended transport headers (ETHs) it implies, whether a payload may
 *   follow, the packet's position in its message, whether a nonzero PadCnt is allowed
 *   (a LAST or ONLY packet that carries a payload, ibsec_opcode_pad_allowed) and whether
 *   the payload has a fixed length (CNP: exactly 16 reserved bytes).
 *   Unknown opcodes (reserved codes, RC 0x15, FLUSH 0x1C / ATOMIC WRITE 0x1D, the native
 *   congestion CNP 0x80, manufacturer-specific 0xC0-0xFF) give known = 0 and zeros.
 *
 * Latency / throughput
 *   Combinational: one 256-entry table (a ROM of 11-bit rows) and a few gates. Yosys 0.23
 *   synth_ecp5: 91 LUT4, 36 PFUMX, 12 L6MUX21; longest topological path 8 cells.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * BTH OpCode table
 */
module ib_opcode_info (
    // BTH byte 0
    input  wire [7:0] opcode,

    // the opcode is in the table
    output wire       known,
    // the opcode is the RoCEv2 CNP (Annex A17.9)
    output wire       cnp,
    // the opcode is accepted on a native IBA link (known, not the CNP)
    output wire       valid_ib,
    // the opcode is accepted on a RoCEv2 link (known)
    output wire       valid_roce,
    // bytes of ETHs after the BTH (0..32, §9.3 lengths summed in wire order)
    output wire [5:0] eth_len,
    // a payload (possibly empty) may follow the ETHs
    output wire       has_payload,
    // position in the message: 0 none, 1 first, 2 middle, 3 last, 4 only (enum ibsec_pos)
    output wire [2:0] pos,
    // a nonzero BTH PadCnt is legal (LAST or ONLY with a payload, not the CNP)
    output wire       pad_allowed,
    // the payload must be exactly FIXED_PAYLOAD_LEN bytes (CNP)
    output wire       fixed_payload
);

// ETH lengths in bytes, IBA Vol. 1 §9.3 (XRCETH: Annex A14)
localparam [5:0] LEN_NONE         = 6'd0;
localparam [5:0] LEN_RDETH        = 6'd4;   // §9.3.1 Resv8, EE-Context
localparam [5:0] LEN_DETH         = 6'd8;   // §9.3.2 Q_Key, Resv8, SrcQP
localparam [5:0] LEN_XRCETH       = 6'd4;   // A14 Resv8, XRCSRQ
localparam [5:0] LEN_RETH         = 6'd16;  // §9.3.3 VA, R_Key, DMALen
localparam [5:0] LEN_ATOMICETH    = 6'd28;  // §9.3.4 VA, R_Key, SwapDt, CmpDt
localparam [5:0] LEN_AETH         = 6'd4;   // §9.3.5 Syndrome, MSN
localparam [5:0] LEN_ATOMICACKETH = 6'd8;   // §9.3.6 OrigRemDt
localparam [5:0] LEN_IMMDT        = 6'd4;   // §9.3.7 immediate data
localparam [5:0] LEN_IETH         = 6'd4;   // §9.3.8 R_Key

// position of the packet in its message (enum ibsec_pos of cmodel/ib_opcode.h)
localparam [2:0] POS_NONE   = 3'd0;
localparam [2:0] POS_FIRST  = 3'd1;
localparam [2:0] POS_MIDDLE = 3'd2;
localparam [2:0] POS_LAST   = 3'd3;
localparam [2:0] POS_ONLY   = 3'd4;

// the RoCEv2 congestion notification packet (Annex A17.9)
localparam [7:0] OPCODE_CNP = 8'h81;

// row: {known, eth_len, has_payload, pos}
reg [10:0] row;

always @* begin
    case (opcode)
        // ---- RC, IBA Vol. 1 §9.2 opcode class 000 ----
        8'h00: row = {1'b1, LEN_NONE, 1'b1, POS_FIRST}; // RC_SEND_FIRST
        8'h01: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // RC_SEND_MIDDLE
        8'h02: row = {1'b1, LEN_NONE, 1'b1, POS_LAST}; // RC_SEND_LAST
        8'h03: row = {1'b1, LEN_IMMDT, 1'b1, POS_LAST}; // RC_SEND_LAST_WITH_IMMEDIATE
        8'h04: row = {1'b1, LEN_NONE, 1'b1, POS_ONLY}; // RC_SEND_ONLY
        8'h05: row = {1'b1, LEN_IMMDT, 1'b1, POS_ONLY}; // RC_SEND_ONLY_WITH_IMMEDIATE
        8'h06: row = {1'b1, LEN_RETH, 1'b1, POS_FIRST}; // RC_RDMA_WRITE_FIRST
        8'h07: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // RC_RDMA_WRITE_MIDDLE
        8'h08: row = {1'b1, LEN_NONE, 1'b1, POS_LAST}; // RC_RDMA_WRITE_LAST
        8'h09: row = {1'b1, LEN_IMMDT, 1'b1, POS_LAST}; // RC_RDMA_WRITE_LAST_WITH_IMMEDIATE
        8'h0a: row = {1'b1, LEN_RETH, 1'b1, POS_ONLY}; // RC_RDMA_WRITE_ONLY
        8'h0b: row = {1'b1, LEN_RETH + LEN_IMMDT, 1'b1, POS_ONLY}; // RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE
        8'h0c: row = {1'b1, LEN_RETH, 1'b0, POS_NONE}; // RC_RDMA_READ_REQUEST
        8'h0d: row = {1'b1, LEN_AETH, 1'b1, POS_FIRST}; // RC_RDMA_READ_RESPONSE_FIRST
        8'h0e: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // RC_RDMA_READ_RESPONSE_MIDDLE
        8'h0f: row = {1'b1, LEN_AETH, 1'b1, POS_LAST}; // RC_RDMA_READ_RESPONSE_LAST
        8'h10: row = {1'b1, LEN_AETH, 1'b1, POS_ONLY}; // RC_RDMA_READ_RESPONSE_ONLY
        8'h11: row = {1'b1, LEN_AETH, 1'b0, POS_NONE}; // RC_ACKNOWLEDGE
        8'h12: row = {1'b1, LEN_AETH + LEN_ATOMICACKETH, 1'b0, POS_NONE}; // RC_ATOMIC_ACKNOWLEDGE
        8'h13: row = {1'b1, LEN_ATOMICETH, 1'b0, POS_NONE}; // RC_COMPARE_SWAP
        8'h14: row = {1'b1, LEN_ATOMICETH, 1'b0, POS_NONE}; // RC_FETCH_ADD
        8'h16: row = {1'b1, LEN_IETH, 1'b1, POS_LAST}; // RC_SEND_LAST_WITH_INVALIDATE
        8'h17: row = {1'b1, LEN_IETH, 1'b1, POS_ONLY}; // RC_SEND_ONLY_WITH_INVALIDATE
        // ---- UC, class 001 ----
        8'h20: row = {1'b1, LEN_NONE, 1'b1, POS_FIRST}; // UC_SEND_FIRST
        8'h21: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // UC_SEND_MIDDLE
        8'h22: row = {1'b1, LEN_NONE, 1'b1, POS_LAST}; // UC_SEND_LAST
        8'h23: row = {1'b1, LEN_IMMDT, 1'b1, POS_LAST}; // UC_SEND_LAST_WITH_IMMEDIATE
        8'h24: row = {1'b1, LEN_NONE, 1'b1, POS_ONLY}; // UC_SEND_ONLY
        8'h25: row = {1'b1, LEN_IMMDT, 1'b1, POS_ONLY}; // UC_SEND_ONLY_WITH_IMMEDIATE
        8'h26: row = {1'b1, LEN_RETH, 1'b1, POS_FIRST}; // UC_RDMA_WRITE_FIRST
        8'h27: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // UC_RDMA_WRITE_MIDDLE
        8'h28: row = {1'b1, LEN_NONE, 1'b1, POS_LAST}; // UC_RDMA_WRITE_LAST
        8'h29: row = {1'b1, LEN_IMMDT, 1'b1, POS_LAST}; // UC_RDMA_WRITE_LAST_WITH_IMMEDIATE
        8'h2a: row = {1'b1, LEN_RETH, 1'b1, POS_ONLY}; // UC_RDMA_WRITE_ONLY
        8'h2b: row = {1'b1, LEN_RETH + LEN_IMMDT, 1'b1, POS_ONLY}; // UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE
        // ---- RD, class 010 ----
        8'h40: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_FIRST}; // RD_SEND_FIRST
        8'h41: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_MIDDLE}; // RD_SEND_MIDDLE
        8'h42: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_LAST}; // RD_SEND_LAST
        8'h43: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_IMMDT, 1'b1, POS_LAST}; // RD_SEND_LAST_WITH_IMMEDIATE
        8'h44: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_ONLY}; // RD_SEND_ONLY
        8'h45: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_IMMDT, 1'b1, POS_ONLY}; // RD_SEND_ONLY_WITH_IMMEDIATE
        8'h46: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_RETH, 1'b1, POS_FIRST}; // RD_RDMA_WRITE_FIRST
        8'h47: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_MIDDLE}; // RD_RDMA_WRITE_MIDDLE
        8'h48: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b1, POS_LAST}; // RD_RDMA_WRITE_LAST
        8'h49: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_IMMDT, 1'b1, POS_LAST}; // RD_RDMA_WRITE_LAST_WITH_IMMEDIATE
        8'h4a: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_RETH, 1'b1, POS_ONLY}; // RD_RDMA_WRITE_ONLY
        8'h4b: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_RETH + LEN_IMMDT, 1'b1, POS_ONLY}; // RD_RDMA_WRITE_ONLY_WITH_IMMEDIATE
        8'h4c: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_RETH, 1'b0, POS_NONE}; // RD_RDMA_READ_REQUEST
        8'h4d: row = {1'b1, LEN_RDETH + LEN_AETH, 1'b1, POS_FIRST}; // RD_RDMA_READ_RESPONSE_FIRST
        8'h4e: row = {1'b1, LEN_RDETH, 1'b1, POS_MIDDLE}; // RD_RDMA_READ_RESPONSE_MIDDLE
        8'h4f: row = {1'b1, LEN_RDETH + LEN_AETH, 1'b1, POS_LAST}; // RD_RDMA_READ_RESPONSE_LAST
        8'h50: row = {1'b1, LEN_RDETH + LEN_AETH, 1'b1, POS_ONLY}; // RD_RDMA_READ_RESPONSE_ONLY
        8'h51: row = {1'b1, LEN_RDETH + LEN_AETH, 1'b0, POS_NONE}; // RD_ACKNOWLEDGE
        8'h52: row = {1'b1, LEN_RDETH + LEN_AETH + LEN_ATOMICACKETH, 1'b0, POS_NONE}; // RD_ATOMIC_ACKNOWLEDGE
        8'h53: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_ATOMICETH, 1'b0, POS_NONE}; // RD_COMPARE_SWAP
        8'h54: row = {1'b1, LEN_RDETH + LEN_DETH + LEN_ATOMICETH, 1'b0, POS_NONE}; // RD_FETCH_ADD
        8'h55: row = {1'b1, LEN_RDETH + LEN_DETH, 1'b0, POS_NONE}; // RD_RESYNC
        // ---- UD, class 011 ----
        8'h64: row = {1'b1, LEN_DETH, 1'b1, POS_ONLY}; // UD_SEND_ONLY
        8'h65: row = {1'b1, LEN_DETH + LEN_IMMDT, 1'b1, POS_ONLY}; // UD_SEND_ONLY_WITH_IMMEDIATE
        // ---- CNP, class 100: RoCEv2 Annex A17.9, no ETH, 16 reserved bytes ----
        8'h81: row = {1'b1, LEN_NONE, 1'b1, POS_NONE}; // CNP
        // ---- XRC, class 101: IBA Vol. 1 Annex A14 ----
        8'ha0: row = {1'b1, LEN_XRCETH, 1'b1, POS_FIRST}; // XRC_SEND_FIRST
        8'ha1: row = {1'b1, LEN_XRCETH, 1'b1, POS_MIDDLE}; // XRC_SEND_MIDDLE
        8'ha2: row = {1'b1, LEN_XRCETH, 1'b1, POS_LAST}; // XRC_SEND_LAST
        8'ha3: row = {1'b1, LEN_XRCETH + LEN_IMMDT, 1'b1, POS_LAST}; // XRC_SEND_LAST_WITH_IMMEDIATE
        8'ha4: row = {1'b1, LEN_XRCETH, 1'b1, POS_ONLY}; // XRC_SEND_ONLY
        8'ha5: row = {1'b1, LEN_XRCETH + LEN_IMMDT, 1'b1, POS_ONLY}; // XRC_SEND_ONLY_WITH_IMMEDIATE
        8'ha6: row = {1'b1, LEN_XRCETH + LEN_RETH, 1'b1, POS_FIRST}; // XRC_RDMA_WRITE_FIRST
        8'ha7: row = {1'b1, LEN_XRCETH, 1'b1, POS_MIDDLE}; // XRC_RDMA_WRITE_MIDDLE
        8'ha8: row = {1'b1, LEN_XRCETH, 1'b1, POS_LAST}; // XRC_RDMA_WRITE_LAST
        8'ha9: row = {1'b1, LEN_XRCETH + LEN_IMMDT, 1'b1, POS_LAST}; // XRC_RDMA_WRITE_LAST_WITH_IMMEDIATE
        8'haa: row = {1'b1, LEN_XRCETH + LEN_RETH, 1'b1, POS_ONLY}; // XRC_RDMA_WRITE_ONLY
        8'hab: row = {1'b1, LEN_XRCETH + LEN_RETH + LEN_IMMDT, 1'b1, POS_ONLY}; // XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE
        8'hac: row = {1'b1, LEN_XRCETH + LEN_RETH, 1'b0, POS_NONE}; // XRC_RDMA_READ_REQUEST
        8'had: row = {1'b1, LEN_AETH, 1'b1, POS_FIRST}; // XRC_RDMA_READ_RESPONSE_FIRST
        8'hae: row = {1'b1, LEN_NONE, 1'b1, POS_MIDDLE}; // XRC_RDMA_READ_RESPONSE_MIDDLE
        8'haf: row = {1'b1, LEN_AETH, 1'b1, POS_LAST}; // XRC_RDMA_READ_RESPONSE_LAST
        8'hb0: row = {1'b1, LEN_AETH, 1'b1, POS_ONLY}; // XRC_RDMA_READ_RESPONSE_ONLY
        8'hb1: row = {1'b1, LEN_AETH, 1'b0, POS_NONE}; // XRC_ACKNOWLEDGE
        8'hb2: row = {1'b1, LEN_AETH + LEN_ATOMICACKETH, 1'b0, POS_NONE}; // XRC_ATOMIC_ACKNOWLEDGE
        8'hb3: row = {1'b1, LEN_XRCETH + LEN_ATOMICETH, 1'b0, POS_NONE}; // XRC_COMPARE_SWAP
        8'hb4: row = {1'b1, LEN_XRCETH + LEN_ATOMICETH, 1'b0, POS_NONE}; // XRC_FETCH_ADD
        8'hb6: row = {1'b1, LEN_XRCETH + LEN_IETH, 1'b1, POS_LAST}; // XRC_SEND_LAST_WITH_INVALIDATE
        8'hb7: row = {1'b1, LEN_XRCETH + LEN_IETH, 1'b1, POS_ONLY}; // XRC_SEND_ONLY_WITH_INVALIDATE
        default: row = {1'b0, LEN_NONE, 1'b0, POS_NONE};
    endcase
end

assign known         = row[10];
assign eth_len       = row[9:4];
assign has_payload   = row[3];
assign pos           = row[2:0];
assign cnp           = (opcode == OPCODE_CNP);
assign valid_ib      = known && !cnp;
assign valid_roce    = known;
assign fixed_payload = cnp;
assign pad_allowed   = has_payload && !cnp && (pos == POS_LAST || pos == POS_ONLY);

endmodule

`resetall
