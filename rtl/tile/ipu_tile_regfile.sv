// Integer register file of all tile contexts: two asynchronous read ports, one write port.
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

  // No reset: the core's per-context valid masks make unwritten registers read as zero.
  logic [31:0] mem_q [2**AddrW];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
  end

  assign rdata_a_o = mem_q[raddr_a_i];
  assign rdata_b_o = mem_q[raddr_b_i];

endmodule : ipu_tile_regfile
