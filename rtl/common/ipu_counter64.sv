// A 64-bit event counter with a synchronous clear: the tile's and the card's cycle
// counters (CSR CYCLE/CYCLEH, TILE_CYCLES, CARD_CYCLES).
//
// In LUTs a 64-bit counter is 64 logic cells. The iCE40 flow (rtl/fpga/flow.sh defines
// IPU_ICE40_DSP) builds it from two SB_MAC16 blocks instead, each used as a 32-bit
// accumulator (no multiplier): the low block adds inc_i, the high block adds the low
// block's carry out, and a clear loads zero into both accumulators. Simulation and every
// other synthesis take the behavioural counter below; tests/integration/fpga's
// fpga_counter64_equiv proves the two equal (yosys, k-induction on the SB_MAC16 model).
module ipu_counter64 (
  input  logic        clk_i,
  input  logic        clear_i,  // synchronous: the count is 0 after the edge (wins over inc_i)
  input  logic        inc_i,    // count one at the edge
  output logic [63:0] count_o
);

`ifdef IPU_ICE40_DSP
  logic        carry;  // the low word wraps at this edge
  logic [31:0] lo, hi;

  ipu_counter64_half u_lo (.clk_i, .clear_i, .inc_i,          .count_o (lo), .carry_o (carry));
  ipu_counter64_half u_hi (.clk_i, .clear_i, .inc_i (carry), .count_o (hi), .carry_o ());

  assign count_o = {hi, lo};
`else
  logic [63:0] count_q;
  always_ff @(posedge clk_i) begin
    if (clear_i) count_q <= 64'd0;
    else         count_q <= count_q + 64'(inc_i);
  end
  assign count_o = count_q;
`endif

endmodule : ipu_counter64

`ifdef IPU_ICE40_DSP
// One SB_MAC16 as a 32-bit accumulator: O = {Q, S} registered; the bottom half adds B to
// S, the top half adds A (zero) to Q with the bottom's carry, so {Q, S} += B. OLOAD loads
// C and D (zero) instead: the clear. CO is the carry out of bit 31.
module ipu_counter64_half (
  input  logic        clk_i,
  input  logic        clear_i,
  input  logic        inc_i,
  output logic [31:0] count_o,
  output logic        carry_o
);
  SB_MAC16 #(
    .NEG_TRIGGER (1'b0),
    .C_REG (1'b0), .A_REG (1'b0), .B_REG (1'b0), .D_REG (1'b0),
    .TOP_8x8_MULT_REG (1'b0), .BOT_8x8_MULT_REG (1'b0),
    .PIPELINE_16x16_MULT_REG1 (1'b0), .PIPELINE_16x16_MULT_REG2 (1'b0),
    .TOPOUTPUT_SELECT (2'd1),       // the accumulator register Q
    .TOPADDSUB_LOWERINPUT (2'd0),   // A
    .TOPADDSUB_UPPERINPUT (1'b0),   // Q
    .TOPADDSUB_CARRYSELECT (2'd2),  // the bottom adder's carry
    .BOTOUTPUT_SELECT (2'd1),       // the accumulator register S
    .BOTADDSUB_LOWERINPUT (2'd0),   // B
    .BOTADDSUB_UPPERINPUT (1'b0),   // S
    .BOTADDSUB_CARRYSELECT (2'd0),  // no carry in
    .MODE_8x8 (1'b0), .A_SIGNED (1'b0), .B_SIGNED (1'b0)
  ) u_mac (
    .CLK (clk_i), .CE (1'b1),
    .C (16'd0), .A (16'd0), .B ({15'd0, inc_i}), .D (16'd0),
    .AHOLD (1'b0), .BHOLD (1'b0), .CHOLD (1'b0), .DHOLD (1'b0),
    .IRSTTOP (1'b0), .IRSTBOT (1'b0), .ORSTTOP (1'b0), .ORSTBOT (1'b0),
    .OLOADTOP (clear_i), .OLOADBOT (clear_i),
    .ADDSUBTOP (1'b0), .ADDSUBBOT (1'b0),
    .OHOLDTOP (1'b0), .OHOLDBOT (1'b0),
    .CI (1'b0), .ACCUMCI (1'b0), .SIGNEXTIN (1'b0),
    .O (count_o), .CO (carry_o), .ACCUMCO (), .SIGNEXTOUT ()
  );
endmodule : ipu_counter64_half
`endif
