/*
 * aes_sub_bytes — SubBytes of FIPS-197 §5.1.1: the S-box applied to each of the 16
 * bytes of the state independently.
 *
 * SBOX_IMPL chooses how the S-boxes are built:
 *   0: combinational tables (aes_sbox), mapped to LUTs;
 *   1: registered ROMs (aes_sbox_rom2), two S-boxes per ROM, mapped to block RAM
 *      (eight DP16KD on an ECP5); the output is registered.
 *
 * Latency:    SBOX_IMPL = 0: combinational (0 cycles); SBOX_IMPL = 1: 1 cycle.
 * Throughput: one 128-bit state per evaluation / per clock (16 S-boxes).
 * Byte order: big-endian block order of docs/conventions.md: byte k of the block
 *             (FIPS-197 in[k], state s[k mod 4][k div 4]) is state[127-8k -: 8]. SubBytes
 *             acts on each byte alone, so the order only matters to the reader.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module aes_sub_bytes #(
    // S-box implementation: 0 = LUT table (combinational), 1 = block RAM ROM (registered)
    parameter SBOX_IMPL = 0
) (
    // used only with SBOX_IMPL = 1
    input  wire         clk,
    input  wire [127:0] state_in,
    output wire [127:0] state_out
);

genvar k;

generate
    if (SBOX_IMPL != 0 && SBOX_IMPL != 1) begin : g_check_impl
        initial begin
            $error("aes_sub_bytes: SBOX_IMPL must be 0 or 1 (instance %m)");
            $finish;
        end
    end

    if (SBOX_IMPL == 1) begin : g_rom
        // bytes 2j and 2j+1 share one dual-port ROM
        for (k = 0; k < 16; k = k + 2) begin : g_pair
            aes_sbox_rom2 sbox_rom_inst (
                .clk(clk),
                .a_in(state_in[127-8*k -: 8]),
                .a_out(state_out[127-8*k -: 8]),
                .b_in(state_in[119-8*k -: 8]),
                .b_out(state_out[119-8*k -: 8])
            );
        end
    end else begin : g_lut
        // the combinational tables take no clock
        wire unused_clk = clk;

        for (k = 0; k < 16; k = k + 1) begin : g_byte
            aes_sbox sbox_inst (
                .in(state_in[127-8*k -: 8]),
                .out(state_out[127-8*k -: 8])
            );
        end
    end
endgenerate

endmodule

`resetall
