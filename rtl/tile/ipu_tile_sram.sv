// Tile SRAM: one synchronous 32-bit port with byte enables, shared by fetch, load/store,
// the exchange unit, the host and the clearer (ipu_tile arbitrates). One port because
// the FPGA's large memory is single-ported: yosys maps this to iCE40UP5K SPRAM (16K x 16
// each, two side by side for 64 KiB; the byte enables become its nibble masks). The read
// data holds until the next read (SPRAM's behaviour), so a reader may take it any time
// before the next read.
module ipu_tile_sram #(
  parameter int unsigned Words = 16384,
  localparam int unsigned Aw = $clog2(Words)
) (
  input  logic          clk_i,
  input  logic          req_i,
  input  logic          we_i,
  input  logic [3:0]    be_i,
  input  logic [Aw-1:0] addr_i,
  input  logic [31:0]   wdata_i,
  output logic [31:0]   rdata_o
);

  logic [31:0] mem_q [Words];

  always_ff @(posedge clk_i) begin
    if (req_i) begin
      if (we_i) begin
        for (int unsigned i = 0; i < 4; i++) begin
          if (be_i[i]) mem_q[addr_i][8*i +: 8] <= wdata_i[8*i +: 8];
        end
      end else begin
        rdata_o <= mem_q[addr_i];
      end
    end
  end

endmodule : ipu_tile_sram
