// The RTL card: an array of tiles, the BAR0 register block, the BAR2 tile-memory window,
// console and error arbitration, the sync controller and the per-tile retire trace.
module ipu_card
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumTiles     = 4,
  parameter int unsigned NumWorkers   = 6,
  parameter int unsigned SramBytes    = 65536,
  parameter int unsigned ConsoleDepth = 1024,
  // 0: the DMA engine runs no descriptor chains, only the tiles' host exchanges (CAPS.DMA = 0).
  parameter bit          DmaChains    = 1'b1,
  // 1 (the iCE40 board, with DmaChains = 0): no DMA engine, exchange units or exchange
  // fabric; the host driver services the tiles' host exchanges and EXCHANGEs and lands
  // the sends at a sync through the SVC_ registers (CAPS.HOST_SERVICE).
  parameter bit          HostService  = 1'b0,
  localparam int unsigned Aw = $clog2(SramBytes / 4),
  localparam int unsigned TileW = NumTiles > 1 ? $clog2(NumTiles) : 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic [31:0] cfg_clock_khz_i,
  input  logic [31:0] cfg_exch_bytes_i,

  // BAR0: 32-bit registers; rdata in the request cycle, effects at the clock edge.
  input  logic        reg_req_i,
  input  logic        reg_we_i,
  input  logic [15:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,

  // BAR2: one 32-bit word of the window tile's SRAM; hold req until gnt, rdata with rvalid.
  input  logic        mem_req_i,
  input  logic        mem_we_i,
  input  logic [3:0]  mem_be_i,
  input  logic [Aw-1:0] mem_waddr_i,  // word index in the window tile's SRAM
  input  logic [31:0] mem_wdata_i,
  output logic        mem_gnt_o,
  output logic        mem_rvalid_o,
  output logic [31:0] mem_rdata_o,

  // Host memory for the DMA engine, answered by the bus in the request cycle.
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

  // Retire trace of every tile (lock-step); tile t's fields are at [t*width +: width].
  output logic [NumTiles-1:0]      rvfi_valid_o,
  output logic [NumTiles*CtxW-1:0] rvfi_ctx_o,
  output logic [NumTiles*32-1:0]   rvfi_pc_o,
  output logic [NumTiles*32-1:0]   rvfi_insn_o,
  output logic [NumTiles*5-1:0]    rvfi_rd_o,
  output logic [NumTiles*32-1:0]   rvfi_rd_value_o
);

  if (HostService && DmaChains) begin : g_bad_config
    $error("ipu_card: HostService = 1 has no DMA engine, so it needs DmaChains = 0");
  end

  // RESET.KEY resets the whole card (and clears tile SRAM) through the reset tree.
  logic reset_req, soft_rst_q, rst_n;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) soft_rst_q <= 1'b0;
    else         soft_rst_q <= reset_req;
  end
  assign rst_n = rst_ni && !soft_rst_q;

  // Register block <-> tiles.
  logic [NumTiles-1:0] tile_enable;
  logic [NumTiles*32-1:0] tile_entry, tile_boot_arg;
  logic [31:0]         watchdog_units;
  logic                boot_load, wd_load;
  logic                start, halt, release_sync;
  logic [TileW-1:0]    tile_sel, window_tile;
  logic [CtxW-1:0]     ctx_sel, ctx_sel_next;
  card_state_e         card_state;

  tile_state_e         t_state [NumTiles];
  logic [31:0]         t_exit_code [NumTiles];
  logic [31:0]         t_sync_req [NumTiles];
  logic [63:0]         t_cycles [NumTiles];
  ctx_state_e          t_ctx_state [NumTiles];
  logic [31:0]         t_ctx_pc [NumTiles];
  logic [31:0]         t_ctx_instret [NumTiles];
  logic [NumTiles-1:0] t_has_fault, t_err_pending, t_err_ack;
  logic [31:0]         t_err_cause [NumTiles];
  logic [CtxW-1:0]     t_err_ctx [NumTiles];
  logic [31:0]         t_err_pc [NumTiles];
  logic [31:0]         t_err_addr [NumTiles];
  logic [31:0]         t_err_info [NumTiles];
  logic [NumTiles-1:0] t_con_valid, t_con_ready;
  logic [7:0]          t_con_byte [NumTiles];
  logic [NumTiles-1:0] t_host_req, t_host_gnt, t_host_rvalid;
  logic [NumTiles-1:0] t_out_valid, t_out_pop;
  logic [NumTiles*128-1:0] t_out_head;

  // Exchange fabric <-> tiles' port A (it has the port while it lands a superstep).
  logic             xchg_start, xchg_busy, x_req, x_we;
  logic [TileW-1:0] x_tile;
  logic [3:0]       x_be;
  logic [Aw-1:0]    x_waddr;
  logic [31:0]      x_wdata;

  // DMA engine <-> tiles' port A (only while the tiles do not run).
  logic             dma_start, dma_busy, dma_done, tiles_run, d_req, d_we, dma_err_push;
  logic [31:0]      dma_desc_addr, dma_completed, d_wdata;
  logic [2:0]       dma_status;
  logic [63:0]      dma_bytes;
  logic [95:0]      dma_err_data;
  logic [7:0]       xlat_raddr;
  logic [31:0]      xlat_rdata;
  logic [TileW-1:0] d_tile;
  logic [3:0]       d_be;
  logic [Aw-1:0]    d_waddr;

  // Host exchange requests of the tiles, served by the DMA engine lowest tile first.
  logic [NumTiles-1:0] t_hx_req, t_hx_to_host, t_hx_done, t_hx_fault;
  logic [31:0]      t_hx_dev [NumTiles];
  logic [31:0]      t_hx_taddr [NumTiles];
  logic [31:0]      t_hx_len [NumTiles];
  logic             hx_req, hx_accept, hx_done, hx_fault;
  logic [TileW-1:0] hx_tile, hx_served_q;
  logic [31:0]      hx_cause, hx_addr;
  logic [31:0]         t_host_rdata [NumTiles];

  // HostService: the tiles' EXCHANGE requests, and the request the registers hold.
  logic [NumTiles-1:0] t_xs_req, t_xs_done, t_xs_fault;
  logic [31:0]      t_xs_list [NumTiles];
  logic             svc_req, svc_req_xs, svc_done, svc_fault;
  logic [TileW-1:0] svc_req_tile, svc_tile;
  logic [1:0]       svc_kind;
  logic [31:0]      svc_arg0, svc_arg1, svc_arg2, svc_addr, svc_info;
  logic [7:0]       svc_cause;

  // ---------------------------------------------------------------------------
  // The tile array.
  // ---------------------------------------------------------------------------
  for (genvar t = 0; t < NumTiles; t++) begin : g_tile
    assign t_hx_done[t]  = hx_done && hx_served_q == TileW'(t);
    assign t_hx_fault[t] = hx_fault && hx_served_q == TileW'(t);
    assign t_xs_done[t]  = svc_done && svc_kind == 2'(SvcKindExchange) && svc_tile == TileW'(t);
    assign t_xs_fault[t] = svc_fault && svc_kind == 2'(SvcKindExchange) && svc_tile == TileW'(t);
    assign t_host_req[t] = xchg_busy ? x_req && x_tile == TileW'(t) :
                           dma_busy ? d_req && d_tile == TileW'(t) : mem_req_i && window_tile == TileW'(t);

    ipu_tile #(
      .NumWorkers  (NumWorkers),
      .SramBytes   (SramBytes),
      .HostService (HostService)
    ) u_tile (
      .clk_i,
      .rst_ni           (rst_n),
      .tile_id_i        (16'(t)),
      .num_tiles_i      (16'(NumTiles)),
      .enable_i         (tile_enable[t]),
      .entry_i          (tile_entry[t*32 +: 32]),
      .boot_arg_i       (tile_boot_arg[t*32 +: 32]),
      .boot_load_i      (boot_load),
      .watchdog_units_i (watchdog_units),
      .wd_load_i        (wd_load),
      .start_i          (start),
      .halt_i           (halt),
      .release_i        (release_sync),
      .state_o          (t_state[t]),
      .exit_code_o      (t_exit_code[t]),
      .sync_req_o       (t_sync_req[t]),
      .cycles_o         (t_cycles[t]),
      .ctx_sel_i        (ctx_sel),
      .ctx_sel_next_i   (ctx_sel_next),
      .ctx_state_o      (t_ctx_state[t]),
      .ctx_pc_o         (t_ctx_pc[t]),
      .ctx_instret_o    (t_ctx_instret[t]),
      .has_fault_o      (t_has_fault[t]),
      .err_pending_o    (t_err_pending[t]),
      .err_ack_i        (t_err_ack[t]),
      .err_cause_o      (t_err_cause[t]),
      .err_ctx_o        (t_err_ctx[t]),
      .err_pc_o         (t_err_pc[t]),
      .err_addr_o       (t_err_addr[t]),
      .err_info_o       (t_err_info[t]),
      .console_valid_o  (t_con_valid[t]),
      .console_byte_o   (t_con_byte[t]),
      .console_ready_i  (t_con_ready[t]),
      .host_req_i       (t_host_req[t]),
      .host_we_i        (xchg_busy ? x_we : dma_busy ? d_we : mem_we_i),
      .host_be_i        (xchg_busy ? x_be : dma_busy ? d_be : mem_be_i),
      .host_addr_i      (xchg_busy ? x_waddr : dma_busy ? d_waddr : mem_waddr_i),
      .host_wdata_i     (xchg_busy ? x_wdata : dma_busy ? d_wdata : mem_wdata_i),
      .host_gnt_o       (t_host_gnt[t]),
      .host_rvalid_o    (t_host_rvalid[t]),
      .host_rdata_o     (t_host_rdata[t]),
      .hx_req_o         (t_hx_req[t]),
      .hx_dev_o         (t_hx_dev[t]),
      .hx_tile_o        (t_hx_taddr[t]),
      .hx_len_o         (t_hx_len[t]),
      .hx_to_host_o     (t_hx_to_host[t]),
      .hx_done_i        (t_hx_done[t]),
      .hx_fault_i       (t_hx_fault[t]),
      .hx_cause_i       (hx_cause),
      .hx_addr_i        (hx_addr),
      .out_valid_o      (t_out_valid[t]),
      .out_head_o       (t_out_head[t*128 +: 128]),
      .out_pop_i        (t_out_pop[t]),
      .xs_req_o         (t_xs_req[t]),
      .xs_list_o        (t_xs_list[t]),
      .xs_done_i        (t_xs_done[t]),
      .xs_fault_i       (t_xs_fault[t]),
      .xs_fault_addr_i  (svc_addr),
      .xs_fault_info_i  (svc_info),
      .rvfi_valid_o     (rvfi_valid_o[t]),
      .rvfi_ctx_o       (rvfi_ctx_o[t*CtxW +: CtxW]),
      .rvfi_pc_o        (rvfi_pc_o[t*32 +: 32]),
      .rvfi_insn_o      (rvfi_insn_o[t*32 +: 32]),
      .rvfi_rd_o        (rvfi_rd_o[t*5 +: 5]),
      .rvfi_rd_value_o  (rvfi_rd_value_o[t*32 +: 32])
    );
  end : g_tile

  // Port A responses come from the tile that granted the request; the BAR2 window
  // waits while the exchange fabric lands a superstep.
  logic [TileW-1:0] rsp_tile_q;
  always_ff @(posedge clk_i or negedge rst_n) begin
    if (!rst_n)                     rsp_tile_q <= '0;
    else if (xchg_busy && x_req)    rsp_tile_q <= x_tile;
    else if (dma_busy && d_req)     rsp_tile_q <= d_tile;
    else if (!xchg_busy && !dma_busy && mem_req_i) rsp_tile_q <= window_tile;
  end
  assign mem_gnt_o    = !xchg_busy && !dma_busy && |t_host_gnt;
  assign mem_rvalid_o = |t_host_rvalid;
  assign mem_rdata_o  = t_host_rdata[rsp_tile_q];

  if (!HostService) begin : g_exchange
    ipu_exchange #(
      .NumTiles  (NumTiles),
      .SramBytes (SramBytes)
    ) u_exchange (
      .clk_i,
      .rst_ni      (rst_n),
      .start_i     (xchg_start),
      .busy_o      (xchg_busy),
      .out_valid_i (t_out_valid),
      .out_head_i  (t_out_head),
      .out_pop_o   (t_out_pop),
      .req_o       (x_req),
      .tile_o      (x_tile),
      .we_o        (x_we),
      .be_o        (x_be),
      .waddr_o     (x_waddr),
      .wdata_o     (x_wdata),
      .gnt_i       (|t_host_gnt),
      .rdata_i     (mem_rdata_o)
    );
  end else begin : g_no_exchange
    // The host lands the sends through the window (SVC_KIND LAND).
    assign xchg_busy = 1'b0;
    assign x_req     = 1'b0;
    assign x_tile    = '0;
    assign x_we      = 1'b0;
    assign x_be      = 4'h0;
    assign x_waddr   = '0;
    assign x_wdata   = 32'd0;
    assign t_out_pop = '0;
    logic unused_exchange;
    assign unused_exchange = ^{xchg_start, t_out_valid, t_out_head};
  end

  // ---------------------------------------------------------------------------
  // Tiles taken together: run state, the sync controller's view, arbitration.
  // ---------------------------------------------------------------------------
  logic any_running, any_sync, any_error, any_busy;
  logic [31:0] sync_req;
  logic con_full, con_push, err_push;
  logic [8+TileW-1:0]   con_data;  // {tile, byte}
  logic [132+TileW-1:0] err_data;  // {dma, cause, tile, ctx, pc, addr, info}

  always_comb begin
    any_running = 1'b0;
    any_sync    = 1'b0;
    any_error   = 1'b0;
    sync_req    = t_sync_req[NumTiles-1];  // read only while a tile is in a sync
    for (int t = NumTiles - 1; t >= 0; t--) begin
      if (t_state[t] == TileStateRunning) any_running = 1'b1;
      if (t_state[t] == TileStateError) any_error = 1'b1;
      if (t_state[t] == TileStateSyncWait) begin
        any_sync = 1'b1;
        sync_req = t_sync_req[t];  // the lowest tile's request, as the model takes it
      end
    end
    any_busy = |t_err_pending || |t_con_valid;
  end

  // Console: the lowest tile with a byte goes first, while the card FIFO has room. The
  // FIFOs take their data only with a push, so without one it is the last tile's (not
  // zero: gating every bit costs a LUT each).
  always_comb begin
    con_push    = 1'b0;
    con_data    = {TileW'(NumTiles - 1), t_con_byte[NumTiles-1]};
    t_con_ready = '0;
    for (int t = NumTiles - 1; t >= 0; t--) begin
      if (t_con_valid[t]) begin
        con_push    = !con_full;
        con_data    = {TileW'(t), t_con_byte[t]};
        t_con_ready = '0;
        t_con_ready[t] = !con_full;
      end
    end
  end

  // Error records: the DMA engine's (a pulse) first, else one tile per cycle, lowest first.
  always_comb begin
    err_push  = 1'b0;
    err_data  = {1'b0, t_err_cause[NumTiles-1], TileW'(NumTiles - 1), t_err_ctx[NumTiles-1],
                 t_err_pc[NumTiles-1], t_err_addr[NumTiles-1], t_err_info[NumTiles-1]};
    t_err_ack = '0;
    for (int t = NumTiles - 1; t >= 0; t--) begin
      if (t_err_pending[t]) begin
        err_push  = 1'b1;
        err_data  = {1'b0, t_err_cause[t], TileW'(t), t_err_ctx[t], t_err_pc[t], t_err_addr[t], t_err_info[t]};
        t_err_ack = '0;
        t_err_ack[t] = 1'b1;
      end
    end
    if (dma_err_push) begin
      err_push  = 1'b1;
      err_data  = {1'b1, dma_err_data[95:64], TileW'(0), 3'd0, 32'd0, dma_err_data[63:0]};
      t_err_ack = '0;
    end
  end

  if (!HostService) begin : g_dma
    always_comb begin
      hx_req  = 1'b0;
      hx_tile = '0;
      for (int t = NumTiles - 1; t >= 0; t--) begin
        if (t_hx_req[t]) begin
          hx_req  = 1'b1;
          hx_tile = TileW'(t);
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_n) begin
      if (!rst_n)         hx_served_q <= '0;
      else if (hx_accept) hx_served_q <= hx_tile;
    end

    ipu_dma #(
      .NumTiles  (NumTiles),
      .SramBytes (SramBytes),
      .Chains    (DmaChains)
    ) u_dma (
      .clk_i,
      .rst_ni       (rst_n),
      .start_i      (dma_start),
      .tiles_run_i  (tiles_run),
      .desc_addr_i  (dma_desc_addr),
      .busy_o       (dma_busy),
      .status_o     (dma_status),
      .completed_o  (dma_completed),
      .bytes_o      (dma_bytes),
      .done_pulse_o (dma_done),
      .hx_req_i     (hx_req),
      .hx_tile_i    (hx_tile),
      // The served tile holds its request until it is done: read from the accept on.
      .hx_dev_i     (t_hx_dev[hx_served_q]),
      .hx_taddr_i   (t_hx_taddr[hx_served_q]),
      .hx_len_i     (t_hx_len[hx_served_q]),
      .hx_to_host_i (t_hx_to_host[hx_tile]),
      .hx_accept_o  (hx_accept),
      .hx_done_o    (hx_done),
      .hx_fault_o   (hx_fault),
      .hx_cause_o   (hx_cause),
      .hx_addr_o    (hx_addr),
      .err_push_o   (dma_err_push),
      .err_data_o   (dma_err_data),
      .xlat_raddr_o (xlat_raddr),
      .xlat_rdata_i (xlat_rdata),
      .hm_req_o,
      .hm_we_o,
      .hm_addr_o,
      .hm_word_o,
      .hm_wdata_o,
      .hm_done_i,
      .hm_err_i,
      .hm_rdata_i,
      .req_o        (d_req),
      .tile_o       (d_tile),
      .we_o         (d_we),
      .be_o         (d_be),
      .waddr_o      (d_waddr),
      .wdata_o      (d_wdata),
      .gnt_i        (|t_host_gnt),
      .rvalid_i     (|t_host_rvalid),
      .rdata_i      (mem_rdata_o)
    );
    // The DMA engine serves requests; the SVC_ registers read 0.
    assign svc_req      = 1'b0;
    assign svc_req_tile = '0;
    assign svc_req_xs   = 1'b0;
    assign svc_arg0     = 32'd0;
    assign svc_arg1     = 32'd0;
    assign svc_arg2     = 32'd0;
    logic unused_svc;
    assign unused_svc = ^{t_xs_req, svc_tile, svc_kind, svc_done, svc_fault, svc_cause,
                          svc_addr, svc_info};
    for (genvar t = 0; t < NumTiles; t++) begin : g_unused_xs
      logic unused_xs_list;
      assign unused_xs_list = ^t_xs_list[t];
    end
  end else begin : g_svc
    // The lowest tile with a request (a tile has at most one: either stalls it), held by
    // the registers until the host completes it; the tile holds its operands meanwhile.
    always_comb begin
      svc_req      = 1'b0;
      svc_req_tile = '0;
      svc_req_xs   = 1'b0;
      for (int t = NumTiles - 1; t >= 0; t--) begin
        if (t_hx_req[t] || t_xs_req[t]) begin
          svc_req      = 1'b1;
          svc_req_tile = TileW'(t);
          svc_req_xs   = t_xs_req[t];
        end
      end
    end
    // The operands by kind; the registers read 0 where the kind has none. The tile has
    // checked a host exchange's range: the address is inside its SRAM (1 MiB aligned, at
    // most 1 MiB) and the length at most its size, so only those bits are read.
    assign svc_arg0 = svc_kind == 2'(SvcKindExchange) ? t_xs_list[svc_tile] : t_hx_dev[svc_tile];
    assign svc_arg1 = TileSramBase | 32'(t_hx_taddr[svc_tile][Aw+1:0]);
    assign svc_arg2 = 32'(t_hx_len[svc_tile][Aw+2:0]);
    // A host exchange completes through the tile's DMA ports.
    assign hx_served_q = svc_tile;
    assign hx_done     = svc_done && svc_kind == 2'(SvcKindHostExchange);
    assign hx_fault    = svc_fault && svc_kind == 2'(SvcKindHostExchange);
    assign hx_cause    = 32'(svc_cause);
    assign hx_addr     = svc_addr;
    assign hx_req      = 1'b0;
    assign hx_tile     = '0;
    assign hx_accept   = 1'b0;
    // No DMA engine: nothing uses the tiles' port A but the window.
    assign dma_busy      = 1'b0;
    assign dma_done      = 1'b0;
    assign dma_status    = 3'd0;
    assign dma_completed = 32'd0;
    assign dma_bytes     = 64'd0;
    assign dma_err_push  = 1'b0;
    assign dma_err_data  = '0;
    assign xlat_raddr    = 8'd0;
    assign d_req   = 1'b0;
    assign d_tile  = '0;
    assign d_we    = 1'b0;
    assign d_be    = 4'h0;
    assign d_waddr = '0;
    assign d_wdata = 32'd0;
    assign hm_req_o   = 1'b0;
    assign hm_we_o    = 1'b0;
    assign hm_addr_o  = 64'd0;
    assign hm_word_o  = 1'b0;
    assign hm_wdata_o = 32'd0;
    logic unused_dma;
    assign unused_dma = ^{dma_start, tiles_run, dma_desc_addr, xlat_rdata, hm_done_i, hm_err_i,
                          hm_rdata_i, hx_req, hx_tile, hx_accept};
  end

  ipu_card_regs #(
    .NumTiles     (NumTiles),
    .NumWorkers   (NumWorkers),
    .SramBytes    (SramBytes),
    .ConsoleDepth (ConsoleDepth),
    .DmaChains    (DmaChains),
    .HostService  (HostService)
  ) u_regs (
    .clk_i,
    .rst_ni            (rst_n),
    .cfg_clock_khz_i,
    .cfg_exch_bytes_i,
    .req_i             (reg_req_i),
    .we_i              (reg_we_i),
    .addr_i            (reg_addr_i),
    .wdata_i           (reg_wdata_i),
    .rdata_o           (reg_rdata_o),
    .reset_req_o       (reset_req),
    .tile_enable_o     (tile_enable),
    .tile_entry_o      (tile_entry),
    .tile_boot_arg_o   (tile_boot_arg),
    .boot_load_o       (boot_load),
    .watchdog_units_o  (watchdog_units),
    .wd_load_o         (wd_load),
    .start_o           (start),
    .halt_o            (halt),
    .release_o         (release_sync),
    .tile_sel_o        (tile_sel),
    .ctx_sel_o         (ctx_sel),
    .ctx_sel_next_o    (ctx_sel_next),
    .window_tile_o     (window_tile),
    .any_running_i     (any_running),
    .any_sync_i        (any_sync),
    .any_error_i       (any_error),
    .any_busy_i        (any_busy),
    .xchg_start_o      (xchg_start),
    .xchg_busy_i       (xchg_busy),
    .dma_start_o       (dma_start),
    .dma_desc_addr_o   (dma_desc_addr),
    .tiles_run_o       (tiles_run),
    .dma_busy_i        (dma_busy),
    .dma_status_i      (dma_status),
    .dma_completed_i   (dma_completed),
    .dma_bytes_i       (dma_bytes),
    .dma_done_i        (dma_done),
    .xlat_raddr_i      (xlat_raddr),
    .xlat_rdata_o      (xlat_rdata),
    .svc_req_i         (svc_req),
    .svc_req_tile_i    (svc_req_tile),
    .svc_req_xs_i      (svc_req_xs),
    .svc_tile_o        (svc_tile),
    .svc_kind_o        (svc_kind),
    .svc_arg0_i        (svc_arg0),
    .svc_arg1_i        (svc_arg1),
    .svc_arg2_i        (svc_arg2),
    .svc_to_host_i     (t_hx_to_host[svc_tile]),
    .svc_done_o        (svc_done),
    .svc_fault_o       (svc_fault),
    .svc_cause_o       (svc_cause),
    .svc_addr_o        (svc_addr),
    .svc_info_o        (svc_info),
    .sync_req_i        (sync_req),
    .sel_state_i       (t_state[tile_sel]),
    .sel_exit_code_i   (t_exit_code[tile_sel]),
    .sel_has_fault_i   (t_has_fault[tile_sel]),
    .sel_err_cause_i   (t_err_cause[tile_sel]),
    .sel_err_pc_i      (t_err_pc[tile_sel]),
    .sel_err_addr_i    (t_err_addr[tile_sel]),
    .sel_cycles_i      (t_cycles[tile_sel]),
    .sel_ctx_state_i   (t_ctx_state[tile_sel]),
    .sel_ctx_pc_i      (t_ctx_pc[tile_sel]),
    .sel_ctx_instret_i (t_ctx_instret[tile_sel]),
    .con_push_i        (con_push),
    .con_data_i        (con_data),
    .con_full_o        (con_full),
    .err_push_i        (err_push),
    .err_data_i        (err_data),
    .state_o           (card_state),
    .irq_o
  );

  assign running_o  = card_state == CardStateRunning;
  assign dma_busy_o = dma_busy;

endmodule : ipu_card
