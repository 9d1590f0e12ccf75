// FPGA board top: the card (rtl/card) behind the host link bridge on the board's
// USB UART (the FT2232H's channel B on the iCEBreaker). The flow (rtl/fpga/flow.sh)
// instantiates it with the board file's shape. WithCard = 0 builds the link alone
// with a small register file in place of the card: the flow's own test design.
module ipu_board_top #(
  parameter int unsigned NumTiles   = 1,
  parameter int unsigned NumWorkers = 6,
  parameter int unsigned SramBytes  = 65536,
  parameter int unsigned ClockHz    = 12000000,
  parameter int unsigned Baud       = ipu_card_pkg::LinkBaud,
  parameter int unsigned WithCard   = 1,
  // The card's DMA engine without descriptor chains (CAPS.DMA = 0): the iCE40UP5K has no
  // room for them. The 4-tile board simulation sets 1 (and HostService = 0).
  parameter int unsigned DmaChains  = 0,
  // No DMA engine, exchange units or exchange fabric (CAPS.HOST_SERVICE): the host driver
  // services the tiles' host exchanges and EXCHANGEs over the link instead. The iCE40
  // board's default (the only way the card fits the iCE40UP5K); needs DmaChains = 0.
  parameter int unsigned HostService = 1
) (
  input  logic clk_i,
  input  logic btn_ni,       // user button: resets the card
  input  logic uart_rx_i,
  output logic uart_tx_o,
  output logic led_red_no,   // an interrupt line is up (fault, error, console)
  output logic led_green_no  // the card is running
);

  localparam int unsigned Aw = $clog2(SramBytes / 4);
  localparam int unsigned ClksPerBit = ClockHz / Baud;

  // Power-on reset: iCE40 flip-flops start at zero, so the counter counts up once.
  logic [3:0] por_q = 4'd0;
  logic       rst_n;
  always_ff @(posedge clk_i) begin
    if (por_q != 4'hf) por_q <= por_q + 1'b1;
  end
  assign rst_n = por_q == 4'hf && btn_ni;

  logic       rx_valid, tx_valid, tx_ready;
  logic [7:0] rx_data, tx_data;
  ipu_uart_rx #(.ClksPerBit(ClksPerBit)) u_rx (
    .clk_i, .rst_ni(rst_n), .rx_i(uart_rx_i), .valid_o(rx_valid), .data_o(rx_data));
  // The host's bytes wait here while the bridge sends (an IRQ or DMA_REQ may go
  // out just as a request comes in): deeper than the longest message out.
  logic       rxq_empty, rxq_pop, bridge_rx_ready;
  logic [7:0] rxq_head;
  logic       rxq_full;
  logic [5:0] rxq_count;
  ipu_fifo #(.Width(8), .Depth(32)) u_rx_queue (
    .clk_i, .rst_ni(rst_n), .push_i(rx_valid), .wdata_i(rx_data), .pop_i(rxq_pop),
    .head_o(rxq_head), .empty_o(rxq_empty), .full_o(rxq_full), .count_o(rxq_count));
  assign rxq_pop = !rxq_empty && bridge_rx_ready;
  logic unused_rxq;
  assign unused_rxq = ^{rxq_full, rxq_count};
  ipu_uart_tx #(.ClksPerBit(ClksPerBit)) u_tx (
    .clk_i, .rst_ni(rst_n), .valid_i(tx_valid), .data_i(tx_data), .ready_o(tx_ready), .tx_o(uart_tx_o));

  logic          reg_req, reg_we, mem_req, mem_we, mem_gnt, mem_rvalid, running;
  logic [15:0]   reg_addr;
  logic [31:0]   reg_wdata, reg_rdata, mem_wdata, mem_rdata;
  logic [Aw-1:0] mem_addr;
  logic [3:0]    irq;
  // The card's host-memory port, carried over the link (DMA_REQ, DMA_DATA).
  logic          hm_req, hm_we, hm_word, hm_done, hm_err;
  logic [63:0]   hm_addr;
  logic [31:0]   hm_wdata, hm_rdata;

  // With HostService the card's host-memory port is tied to zero: yosys then removes the
  // bridge's DMA_REQ path when it flattens (the cell count is the same with it cut out).
  ipu_link_bridge #(.Aw(Aw)) u_bridge (
    .clk_i, .rst_ni(rst_n),
    .rx_valid_i(!rxq_empty), .rx_data_i(rxq_head), .rx_ready_o(bridge_rx_ready),
    .tx_valid_o(tx_valid), .tx_data_o(tx_data), .tx_ready_i(tx_ready),
    .reg_req_o(reg_req), .reg_we_o(reg_we), .reg_addr_o(reg_addr), .reg_wdata_o(reg_wdata),
    .reg_rdata_i(reg_rdata),
    .mem_req_o(mem_req), .mem_we_o(mem_we), .mem_addr_o(mem_addr), .mem_wdata_o(mem_wdata),
    .mem_gnt_i(mem_gnt), .mem_rvalid_i(mem_rvalid), .mem_rdata_i(mem_rdata),
    .hm_req_i(hm_req), .hm_we_i(hm_we), .hm_addr_i(hm_addr), .hm_word_i(hm_word), .hm_wdata_i(hm_wdata),
    .hm_done_o(hm_done), .hm_err_o(hm_err), .hm_rdata_o(hm_rdata),
    .irq_i(irq));

  if (WithCard != 0) begin : g_card
    logic        dma_busy;
    logic [NumTiles-1:0]      rvfi_valid;
    logic [NumTiles*ipu_tile_pkg::CtxW-1:0] rvfi_ctx;
    logic [NumTiles*32-1:0]   rvfi_pc, rvfi_insn, rvfi_rd_value;
    logic [NumTiles*5-1:0]    rvfi_rd;
    ipu_card #(.NumTiles(NumTiles), .NumWorkers(NumWorkers), .SramBytes(SramBytes), .DmaChains(DmaChains != 0),
             .HostService(HostService != 0)) u_card (
      .clk_i, .rst_ni(rst_n),
      .cfg_clock_khz_i(32'(ClockHz / 1000)), .cfg_exch_bytes_i(32'd4),
      .reg_req_i(reg_req), .reg_we_i(reg_we), .reg_addr_i(reg_addr), .reg_wdata_i(reg_wdata),
      .reg_rdata_o(reg_rdata),
      .mem_req_i(mem_req), .mem_we_i(mem_we), .mem_be_i(4'hf), .mem_waddr_i(mem_addr),
      .mem_wdata_i(mem_wdata), .mem_gnt_o(mem_gnt), .mem_rvalid_o(mem_rvalid), .mem_rdata_o(mem_rdata),
      .hm_req_o(hm_req), .hm_we_o(hm_we), .hm_addr_o(hm_addr), .hm_word_o(hm_word),
      .hm_wdata_o(hm_wdata), .hm_done_i(hm_done), .hm_err_i(hm_err), .hm_rdata_i(hm_rdata),
      .irq_o(irq), .running_o(running), .dma_busy_o(dma_busy),
      .rvfi_valid_o(rvfi_valid), .rvfi_ctx_o(rvfi_ctx), .rvfi_pc_o(rvfi_pc), .rvfi_insn_o(rvfi_insn),
      .rvfi_rd_o(rvfi_rd), .rvfi_rd_value_o(rvfi_rd_value));
    // The retire trace is for lock-step in simulation; on the board nothing reads it.
    logic unused_card;
    assign unused_card = ^{dma_busy, rvfi_valid, rvfi_ctx,
                           rvfi_pc, rvfi_insn, rvfi_rd, rvfi_rd_value};
  end else begin : g_echo
    // The link alone: 16 registers in BAR0, a 256-word memory in BAR2, IRQ 0 follows register 15.
    logic [31:0] regs_q [16];
    logic [31:0] mem_q [256];
    logic        rvalid_q;
    logic [31:0] rdata_q;
    always_ff @(posedge clk_i) begin
      if (reg_req && reg_we) regs_q[reg_addr[5:2]] <= reg_wdata;
      rvalid_q <= mem_req && !mem_we;
      if (mem_req && mem_we) mem_q[mem_addr[7:0]] <= mem_wdata;
      if (mem_req && !mem_we) rdata_q <= mem_q[mem_addr[7:0]];
    end
    assign reg_rdata  = regs_q[reg_addr[5:2]];
    assign mem_gnt    = mem_req;
    assign mem_rvalid = rvalid_q;
    assign mem_rdata  = rdata_q;
    assign irq        = {3'd0, regs_q[15][0]};
    // No DMA engine in the link design: the host-memory port stays idle.
    assign hm_req     = 1'b0;
    assign hm_we      = 1'b0;
    assign hm_word    = 1'b0;
    assign hm_addr    = '0;
    assign hm_wdata   = '0;
    logic unused_hm;
    assign unused_hm  = ^{hm_done, hm_err, hm_rdata};
    assign running    = regs_q[14][0];
    logic unused_echo;
    assign unused_echo = ^{reg_addr[15:6], reg_addr[1:0], mem_addr};
  end

  assign led_red_no   = !(irq != '0);
  assign led_green_no = !running;

endmodule : ipu_board_top
