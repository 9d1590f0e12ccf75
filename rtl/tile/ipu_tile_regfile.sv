// Integer register file of all tile contexts: two synchronous read ports, one write port.
// Reads are registered (the address one cycle before the data) so that yosys maps the
// file to block RAM (iCE40 SB_RAM40_4K, one copy per read port) instead of flip-flops.
// The core never reads a register in the cycle it is written (the barrel keeps a
// context's write-back before its next read), so no read-during-write bypass is needed.
module ipu_tile_regfile #(
  parameter int unsigned AddrW = 8  // {context, register}
) (
  input  logic             clk_i,
  input  logic [AddrW-1:0] raddr_a_i,
  output logic [31:0]      rdata_a_o,
  input  logic [AddrW-1:0] raddr_b_i,
  output logic [31:0]      rdata_b_o,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [31:0]      wdata_i
);

  // No reset: the core's clearer writes a context's registers when it starts. A read
  // never meets a write to the same register (see above), so yosys need not emulate that
  // case around the block RAM (no_rw_check: without it, a bypass of 75 flip-flops and 77
  // LUTs).
  (* no_rw_check *)
  logic [31:0] mem_q [2**AddrW];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin
    rdata_a_o <= mem_q[raddr_a_i];
    rdata_b_o <= mem_q[raddr_b_i];
  end

endmodule : ipu_tile_regfile
