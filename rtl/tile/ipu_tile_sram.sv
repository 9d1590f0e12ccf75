// Tile SRAM: two synchronous 32-bit ports with byte enables (A: fetch/host/clear, B: load/store).
module ipu_tile_sram #(
  parameter int unsigned Words = 16384,
  localparam int unsigned Aw = $clog2(Words)
) (
  input  logic          clk_i,
  input  logic          a_req_i,
  input  logic          a_we_i,
  input  logic [3:0]    a_be_i,
  input  logic [Aw-1:0] a_addr_i,
  input  logic [31:0]   a_wdata_i,
  output logic [31:0]   a_rdata_o,
  input  logic          b_req_i,
  input  logic          b_we_i,
  input  logic [3:0]    b_be_i,
  input  logic [Aw-1:0] b_addr_i,
  input  logic [31:0]   b_wdata_i,
  output logic [31:0]   b_rdata_o
);

  logic [31:0] mem_q [Words];

  always_ff @(posedge clk_i) begin
    if (a_req_i) begin
      if (a_we_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (a_be_i[i]) mem_q[a_addr_i][8*i +: 8] <= a_wdata_i[8*i +: 8];
        end
      end else begin
        a_rdata_o <= mem_q[a_addr_i];
      end
    end
    if (b_req_i) begin
      if (b_we_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (b_be_i[i]) mem_q[b_addr_i][8*i +: 8] <= b_wdata_i[8*i +: 8];
        end
      end else begin
        b_rdata_o <= mem_q[b_addr_i];
      end
    end
  end

endmodule : ipu_tile_sram
