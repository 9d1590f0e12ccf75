// The card as the Verilated harness (rtl/sim/rtl_card_impl.hpp) drives it: ipu_card with
// its BAR0/BAR2 request inputs and configuration words taken at the falling clock edge.
// Simulation only (never synthesized): the FPGA board top instantiates ipu_card itself.
//
// Why: Verilator 5.006 re-runs all logic fed by an input port at every eval, whether an
// input changed or not, and the BAR request lines reach through the register block into
// every tile's controller and SRAM port, so that region was about a tenth of a 4-tile
// card's cycle. Behind these flip-flops that logic depends on state only and runs once,
// after the clock edge. The card sees the same values at each rising edge as before: the
// harness sets the inputs before the falling edge of the cycle in which they count (and
// clocks that edge whenever it changed one), and reads rdata, gnt and the other outputs
// after it. The host-memory answer (hm_*) goes through the same stage: the DMA engine's
// next-state logic reads it, and fed by input ports that logic (and the tiles' host-exchange
// logic behind it) ran at every eval even with the engine idle. The request outputs depend
// on state only, so the harness sees a request right after the rising edge that starts its
// cycle and answers it before that cycle's falling edge, as it sets the other inputs.
module ipu_card_sim
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumTiles     = 4,
  parameter int unsigned NumWorkers   = 6,
  parameter int unsigned SramBytes    = 65536,
  parameter int unsigned ConsoleDepth = 1024,
  parameter bit          DmaChains    = 1'b1,
  parameter bit          HostService  = 1'b0,
  localparam int unsigned Aw = $clog2(SramBytes / 4)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] cfg_clock_khz_i,
  input  logic [31:0] cfg_exch_bytes_i,
  input  logic        reg_req_i,
  input  logic        reg_we_i,
  input  logic [15:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,
  input  logic        mem_req_i,
  input  logic        mem_we_i,
  input  logic [3:0]  mem_be_i,
  input  logic [Aw-1:0] mem_waddr_i,
  input  logic [31:0] mem_wdata_i,
  output logic        mem_gnt_o,
  output logic        mem_rvalid_o,
  output logic [31:0] mem_rdata_o,
  output logic        hm_req_o,
  output logic        hm_we_o,
  output logic [63:0] hm_addr_o,
  output logic        hm_word_o,
  output logic [31:0] hm_wdata_o,
  input  logic        hm_done_i,
  input  logic        hm_err_i,
  input  logic [31:0] hm_rdata_i,
  output logic [3:0]  irq_o,
  output logic        running_o,
  output logic        dma_busy_o,
  output logic [NumTiles-1:0]      rvfi_valid_o,
  output logic [NumTiles*CtxW-1:0] rvfi_ctx_o,
  output logic [NumTiles*32-1:0]   rvfi_pc_o,
  output logic [NumTiles*32-1:0]   rvfi_insn_o,
  output logic [NumTiles*5-1:0]    rvfi_rd_o,
  output logic [NumTiles*32-1:0]   rvfi_rd_value_o
);

  // No reset: the harness holds every request low from its first eval on.
  logic [31:0]   clock_khz_q, exch_bytes_q, reg_wdata_q, mem_wdata_q;
  logic          reg_req_q, reg_we_q, mem_req_q, mem_we_q;
  logic [15:0]   reg_addr_q;
  logic [3:0]    mem_be_q;
  logic [Aw-1:0] mem_waddr_q;
  logic          hm_done_q, hm_err_q;
  logic [31:0]   hm_rdata_q;
  always_ff @(negedge clk_i) begin
    clock_khz_q  <= cfg_clock_khz_i;
    exch_bytes_q <= cfg_exch_bytes_i;
    reg_req_q    <= reg_req_i;
    reg_we_q     <= reg_we_i;
    reg_addr_q   <= reg_addr_i;
    reg_wdata_q  <= reg_wdata_i;
    mem_req_q    <= mem_req_i;
    mem_we_q     <= mem_we_i;
    mem_be_q     <= mem_be_i;
    mem_waddr_q  <= mem_waddr_i;
    mem_wdata_q  <= mem_wdata_i;
    hm_done_q    <= hm_done_i;
    hm_err_q     <= hm_err_i;
    hm_rdata_q   <= hm_rdata_i;
  end

  ipu_card #(
    .NumTiles(NumTiles), .NumWorkers(NumWorkers), .SramBytes(SramBytes), .ConsoleDepth(ConsoleDepth),
    .DmaChains(DmaChains), .HostService(HostService)
  ) u_card (
    .clk_i, .rst_ni,
    .cfg_clock_khz_i(clock_khz_q), .cfg_exch_bytes_i(exch_bytes_q),
    .reg_req_i(reg_req_q), .reg_we_i(reg_we_q), .reg_addr_i(reg_addr_q), .reg_wdata_i(reg_wdata_q),
    .reg_rdata_o,
    .mem_req_i(mem_req_q), .mem_we_i(mem_we_q), .mem_be_i(mem_be_q), .mem_waddr_i(mem_waddr_q),
    .mem_wdata_i(mem_wdata_q), .mem_gnt_o, .mem_rvalid_o, .mem_rdata_o,
    .hm_req_o, .hm_we_o, .hm_addr_o, .hm_word_o, .hm_wdata_o, .hm_done_i(hm_done_q), .hm_err_i(hm_err_q),
    .hm_rdata_i(hm_rdata_q),
    .irq_o, .running_o, .dma_busy_o,
    .rvfi_valid_o, .rvfi_ctx_o, .rvfi_pc_o, .rvfi_insn_o, .rvfi_rd_o, .rvfi_rd_value_o
  );

endmodule : ipu_card_sim
