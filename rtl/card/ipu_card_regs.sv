// BAR0 register block of the card: identity, run control and card state, tile setup and
// status, console and error FIFOs, interrupts, host sync and the translation table.
module ipu_card_regs
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumTiles     = 4,
  parameter int unsigned NumWorkers   = 6,
  parameter int unsigned SramBytes    = 65536,
  parameter int unsigned ConsoleDepth = 1024,
  parameter bit          DmaChains    = 1'b1,  // 0: CAPS.DMA = 0, DMA_DESC_ADDR reads 0, START ignored
  // 1: the host services the tiles' requests through the SVC_ registers (CAPS.HOST_SERVICE);
  // no DMA engine reads the translation table and no exchange fabric lands a superstep.
  parameter bit          HostService  = 1'b0,
  parameter int unsigned ErrDepth     = 64,
  localparam int unsigned TileW = NumTiles > 1 ? $clog2(NumTiles) : 1,
  // FIFO entries hold the tile number in TileW bits (block RAM is 16 bits wide a block).
  localparam int unsigned ConW = 8 + TileW,
  localparam int unsigned ErrW = 132 + TileW
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // Board values that only show in registers.
  input  logic [31:0]      cfg_clock_khz_i,
  input  logic [31:0]      cfg_exch_bytes_i,

  // BAR0: addr_i must hold the register's offset for one cycle before a read's request
  // (the link bridge holds it while the frame's check byte arrives; the simulation
  // harness gives it a cycle): a read returns what the register held at the start of
  // that cycle, as rdata_o in the request's cycle; so must a write of RUN_CTRL (see
  // EntryFromBus). Effects apply at the clock edge.
  input  logic             req_i,
  input  logic             we_i,
  input  logic [15:0]      addr_i,
  input  logic [31:0]      wdata_i,
  output logic [31:0]      rdata_o,

  output logic             reset_req_o,  // RESET written with the key

  // Tile setup and run control.
  output logic [NumTiles-1:0] tile_enable_o,
  output logic [NumTiles*32-1:0] tile_entry_o,     // tile t at [t*32 +: 32]
  output logic [NumTiles*32-1:0] tile_boot_arg_o,
  output logic             boot_load_o,    // the tiles take tile_boot_arg_o (START, or see StartFromRam)
  output logic [31:0]      watchdog_units_o,
  output logic             wd_load_o,      // the tiles take watchdog_units_o
  output logic             start_o,
  output logic             halt_o,
  output logic             release_o,
  output logic [TileW-1:0] tile_sel_o,
  output logic [CtxW-1:0]  ctx_sel_o,
  output logic [CtxW-1:0]  ctx_sel_next_o,  // ctx_sel_o after this edge (read ahead from block RAM)
  output logic [TileW-1:0] window_tile_o,

  // The tiles taken together, and the one TILE_SEL selects.
  input  logic             any_running_i,
  input  logic             any_sync_i,
  input  logic             any_error_i,
  input  logic             any_busy_i,     // an error record or console byte still in a tile
  input  logic [31:0]      sync_req_i,     // SYNC value of the first tile in a sync
  output logic             xchg_start_o,   // every live tile is in a sync: land the exchange
  input  logic             xchg_busy_i,
  input  tile_state_e      sel_state_i,
  input  logic [31:0]      sel_exit_code_i,
  input  logic             sel_has_fault_i,
  input  logic [31:0]      sel_err_cause_i,
  input  logic [31:0]      sel_err_pc_i,
  input  logic [31:0]      sel_err_addr_i,
  input  logic [63:0]      sel_cycles_i,
  input  ctx_state_e       sel_ctx_state_i,
  input  logic [31:0]      sel_ctx_pc_i,
  input  logic [31:0]      sel_ctx_instret_i,

  // Console bytes and error records from the tiles' arbiters.
  input  logic             con_push_i,
  input  logic [ConW-1:0]  con_data_i,     // {tile, byte}
  output logic             con_full_o,
  input  logic             err_push_i,
  input  logic [ErrW-1:0]  err_data_i,     // {dma, cause, tile, ctx[2:0], pc, addr, info}

  // DMA engine.
  output logic             dma_start_o,
  output logic [31:0]      dma_desc_addr_o,
  output logic             tiles_run_o,    // RUNNING or HOST_SYNC: tiles own their SRAM
  input  logic             dma_busy_i,
  input  logic [2:0]       dma_status_i,
  input  logic [31:0]      dma_completed_i,
  input  logic [63:0]      dma_bytes_i,
  input  logic             dma_done_i,
  input  logic [7:0]       xlat_raddr_i,   // the DMA engine's read: {entry, word}
  output logic [31:0]      xlat_rdata_o,   // the word at last cycle's xlat_raddr_i

  // HostService: the lowest tile's request (the card's arbiter), the one served and its
  // operands, and its completion (a pulse in the host's write cycle).
  input  logic             svc_req_i,      // a tile requests (the lowest one below)
  input  logic [TileW-1:0] svc_req_tile_i,
  input  logic             svc_req_xs_i,   // its request is an EXCHANGE (else a host exchange)
  output logic [TileW-1:0] svc_tile_o,     // the tile served
  output logic [1:0]       svc_kind_o,     // an SVC_KIND value while a request is held
  input  logic [31:0]      svc_arg0_i,     // the served tile's operands, by kind (any
                                           // value where the kind has none: read as 0)
  input  logic [31:0]      svc_arg1_i,
  input  logic [31:0]      svc_arg2_i,
  input  logic             svc_to_host_i,
  output logic             svc_done_o,     // in the cycle of the host's write
  output logic             svc_fault_o,
  output logic [7:0]       svc_cause_o,
  output logic [31:0]      svc_addr_o,     // with svc_fault_o
  output logic [31:0]      svc_info_o,

  output card_state_e      state_o,
  output logic [3:0]       irq_o           // one pulse per MSI-X vector
);

  localparam int unsigned ConAw = $clog2(ConsoleDepth);
  localparam int unsigned ErrAw = $clog2(ErrDepth);
  localparam logic [15:0] XlatEnd = RegXlatBase + 16'(RegXlatCount * 16);

  card_state_e state_q, state_d;
  logic [5:0]  irq_status_q, irq_status_d, irq_mask_q, irq_mask_d, irq_raise;
  // IRQ_STATUS/IRQ_MASK bits this card has (SERVICE only with HostService).
  localparam logic [5:0] IrqBits = HostService ? 6'h3f : 6'h1f;
  logic [31:0] watchdog_q, watchdog_d;
  logic [TileW-1:0] tile_sel_q, tile_sel_d, window_q, window_d;
  logic [CtxW-1:0]  ctx_sel_q, ctx_sel_d;
  logic        hsync_pending_q, hsync_pending_d;
  logic        landing_q, landing_d;         // the exchange fabric (or the host) lands this superstep
  // HostService: one request held until the host completes it (svc_held_q, what and whose);
  // the host's SVC_DONE or SVC_FAULT_ADDR write completes it in its own cycle (the tile drops
  // its request in the same edge, taking a fault's address from the write's data), and
  // land_due_q: an EXCHANGE kept sends for the next sync. SVC_FAULT_CAUSE and SVC_FAULT_INFO
  // write one register (svc_info_q, the cause its low 8 bits): a host exchange's fault
  // records CAUSE, an EXCHANGE's INFO, and the host writes the one its request needs.
  logic        svc_held_q, svc_held_d, land_due_q, land_due_d, svc_done, svc_fault,
               svc_pending, land_busy;
  logic [1:0]  svc_kind_q, svc_kind_d;
  logic [TileW-1:0] svc_tile_q, svc_tile_d;
  logic [31:0] svc_info_q;
  assign svc_pending = svc_held_q;
  assign land_busy   = svc_held_q && svc_kind_q == 2'(SvcKindLand);
  logic [31:0] hsync_id_q, hsync_id_d;
  logic [63:0] cycles_q;
  logic [31:0] err_lost_q, err_lost_d;
  logic [31:0] dma_desc_q, dma_desc_d;
  logic [NumTiles-1:0] enable_q, enable_d;
  logic [31:0] entry_q [NumTiles];
  logic [31:0] entry_d [NumTiles];
  logic [31:0] boot_q [NumTiles];
  logic [31:0] boot_d [NumTiles];
  // Reads are registered (rd_q), so the state the bus reads back can live in block RAM:
  // the translation table, one copy for the DMA engine's reads and one for the bus's
  // (bus_q, its upper half), and beside it in bus_q (lower half) a read-back copy of the
  // host-written 32-bit registers (WATCHDOG_INSNS, TILE_ENTRY, TILE_BOOT_ARG,
  // DMA_DESC_ADDR), whose flip-flops the tiles and the DMA engine need but whose read
  // would cost a LUT a bit in the read multiplexer.
  // A read in the cycle of a write to the same word is never used (no_rw_check: no bypass).
  localparam int unsigned XlatWords = RegXlatCount * 4;
  localparam int unsigned XlatAw = $clog2(XlatWords);
  localparam int unsigned BusAw = XlatAw + 1;
  (* no_rw_check *) logic [31:0] bus_q [2 * XlatWords];
  logic [31:0] xlat_dma_rd_q, bus_rd_q, rd_q;
  logic        from_bus_q;  // the read in rd_q is bus_rd_q's
  // Words never written since reset read as zero: after reset a clearer writes zero to
  // every word, one a cycle (2 * RegXlatCount * 4 cycles; the tiles' SRAM clear after the
  // same reset takes longer, and hosts wait for that). A per-word written mask would
  // cost a flip-flop and its decode per word.
  logic             xclr_q;
  logic [BusAw-1:0] xclr_addr_q;

  // Registers below 0x400 are decoded from addr_i[9:2] (8-bit compares, shared by the
  // reads and the writes) once a compare of the rest says the offset is one of them.
  logic wr, rd, low;
  assign wr  = req_i && we_i;
  assign rd  = req_i && !we_i;
  assign low = addr_i[15:10] == 6'd0 && addr_i[1:0] == 2'd0;

  // FIFOs.
  logic [ConW-1:0]  con_head;
  logic             con_empty, con_pop;
  logic [ConAw:0]   con_count;
  logic [ErrW-1:0]  err_head;
  logic             err_empty, err_full, err_pop;
  logic [ErrAw:0]   err_count;

  // A pop only takes the byte the read returns (rd_q[31]: a byte was there when read).
  assign con_pop = rd && low && addr_i[9:2] == RegConsoleData[9:2] && rd_q[31];
  assign err_pop = wr && low && addr_i[9:2] == RegErrPop[9:2] && wdata_i[0];

  ipu_fifo #(.Width(ConW), .Depth(ConsoleDepth)) u_console (
    .clk_i, .rst_ni,
    .push_i (con_push_i), .wdata_i (con_data_i),
    .pop_i (con_pop), .head_o (con_head),
    .empty_o (con_empty), .full_o (con_full_o), .count_o (con_count)
  );

  ipu_fifo #(.Width(ErrW), .Depth(ErrDepth)) u_errors (
    .clk_i, .rst_ni,
    .push_i (err_push_i), .wdata_i (err_data_i),
    .pop_i (err_pop), .head_o (err_head),
    .empty_o (err_empty), .full_o (err_full), .count_o (err_count)
  );

  // The head's fields; an empty FIFO reads as zero (gated once, after the read mux).
  logic [31:0] e_cause, e_tile, e_ctx, e_pc, e_addr, e_info;
  assign e_cause = err_head[99+TileW +: 32];
  assign e_tile  = err_head[ErrW-1] ? 32'hffff_ffff : 32'(err_head[99 +: TileW]);
  assign e_ctx   = {29'd0, err_head[98:96]};
  assign e_pc    = err_head[95:64];
  assign e_addr  = err_head[63:32];
  assign e_info  = err_head[31:0];

  // ---------------------------------------------------------------------------
  // Reads.
  // ---------------------------------------------------------------------------
  logic [1:0] xlat_word;
  logic [5:0] xlat_entry;
  logic       in_xlat;
  assign in_xlat    = addr_i >= RegXlatBase && addr_i < XlatEnd;
  assign xlat_entry = addr_i[9:4];
  assign xlat_word  = addr_i[3:2];

  // The registers' offsets below 0x400 as word indices: a compare of 8 address bits per
  // register (and one of the rest, shared), not of 16; the fields that read as zero
  // without a record or a fault are gated once, after the mux.
  logic [31:0] rd_mux;
  logic        rd_zero;
  always_comb begin
    rd_mux = 32'd0;  // write-only and unassigned offsets read as zero
    unique case (addr_i[9:2])
      RegId[9:2]:               rd_mux = RegIdResetValue;
      RegVersion[9:2]:          rd_mux = (32'(ContractVersionMajor) << 16) | 32'(ContractVersionMinor);
      RegNumTiles[9:2]:         rd_mux = 32'(NumTiles);
      RegTileMemBytes[9:2]:     rd_mux = 32'(SramBytes);
      RegNumWorkers[9:2]:       rd_mux = 32'(NumWorkers);
      RegCaps[9:2]:             rd_mux = (32'(1) << CapsRtlLsb) | (32'(1) << CapsExchangeLsb) |
                                               (32'(DmaChains) << CapsDmaLsb) |
                                               (32'(HostService) << CapsHostServiceLsb);
      RegTileClockKhz[9:2]:     rd_mux = cfg_clock_khz_i;
      RegExchangeBytesPerCycle[9:2]: rd_mux = cfg_exch_bytes_i;
      RegXlatEntries[9:2]:      rd_mux = 32'(RegXlatCount);
      RegStatus[9:2]:           rd_mux = {22'd0, svc_pending, dma_busy_i, state_q};
      RegCardCyclesLo[9:2]:     rd_mux = cycles_q[31:0];
      RegCardCyclesHi[9:2]:     rd_mux = cycles_q[63:32];
      RegIrqStatus[9:2]:        rd_mux = {26'd0, irq_status_q};
      RegIrqMask[9:2]:          rd_mux = {26'd0, irq_mask_q};
      RegHsyncStatus[9:2]:      rd_mux = {31'd0, hsync_pending_q};
      // HostService (the iCE40 card): the id straight from the tiles, which hold it while the
      // host sync waits, and 0 when none does (24 flip-flops fewer).
      RegHsyncId[9:2]:          rd_mux = HostService ? {8'd0, sync_req_i[31:8]} : hsync_id_q;
      RegConsoleStatus[9:2]:    rd_mux = 32'(con_count);
      RegConsoleData[9:2]:      rd_mux = {1'b1, 7'd0, 16'(con_head[ConW-1:8]), con_head[7:0]};
      RegErrCount[9:2]:         rd_mux = 32'(err_count);
      RegErrCause[9:2]:         rd_mux = e_cause;
      RegErrTile[9:2]:          rd_mux = e_tile;
      RegErrContext[9:2]:       rd_mux = e_ctx;
      RegErrPc[9:2]:            rd_mux = e_pc;
      RegErrAddr[9:2]:          rd_mux = e_addr;
      RegErrInfo[9:2]:          rd_mux = e_info;
      RegErrLost[9:2]:          rd_mux = err_lost_q;
      RegTileSel[9:2]:          rd_mux = 32'(tile_sel_q);
      RegTileCtrl[9:2]:         rd_mux = {31'd0, enable_q[tile_sel_q]};
      RegTileState[9:2]:        rd_mux = {24'd0, sel_state_i};
      RegTileExitCode[9:2]:     rd_mux = sel_exit_code_i;
      RegTileErrCause[9:2]:     rd_mux = sel_err_cause_i;
      RegTileErrPc[9:2]:        rd_mux = sel_err_pc_i;
      RegTileErrAddr[9:2]:      rd_mux = sel_err_addr_i;
      RegTileCyclesLo[9:2]:     rd_mux = sel_cycles_i[31:0];
      RegTileCyclesHi[9:2]:     rd_mux = sel_cycles_i[63:32];
      RegTileCtxSel[9:2]:       rd_mux = 32'(ctx_sel_q);
      RegTileCtxState[9:2]:     rd_mux = {24'd0, sel_ctx_state_i};
      RegTileCtxPc[9:2]:        rd_mux = sel_ctx_pc_i;
      RegTileCtxInstret[9:2]:   rd_mux = sel_ctx_instret_i;
      RegTilememWindowTile[9:2]: rd_mux = 32'(window_q);
      RegDmaStatus[9:2]:        rd_mux = {29'd0, dma_status_i};
      RegDmaCompleted[9:2]:     rd_mux = dma_completed_i;
      RegDmaBytesLo[9:2]:       rd_mux = dma_bytes_i[31:0];
      RegDmaBytesHi[9:2]:       rd_mux = dma_bytes_i[63:32];
      // Constant zero without HostService (svc_pending is then 0): no mux inputs.
      // svc_kind_o is NONE while no request is held; the operands are gated by rd_zero.
      RegSvcReq[9:2]:           rd_mux = HostService ? {svc_held_q, 28'd0, svc_to_host_i && svc_kind_o == 2'(SvcKindHostExchange),
                                                        svc_kind_o} : 32'd0;
      RegSvcTile[9:2]:          rd_mux = HostService && NumTiles > 1 && svc_held_q ? 32'(svc_tile_q) : 32'd0;
      RegSvcArg0[9:2]:          rd_mux = HostService ? svc_arg0_i : 32'd0;
      RegSvcArg1[9:2]:          rd_mux = HostService ? svc_arg1_i : 32'd0;
      RegSvcArg2[9:2]:          rd_mux = HostService ? svc_arg2_i : 32'd0;
      default:                        rd_mux = 32'd0;  // RegConsoleLost: tiles wait for room
    endcase
  end
  // Zero: the error record's fields without a record, the tile's fault fields without a
  // fault, CONSOLE_DATA with nothing buffered.
  always_comb begin
    unique case (addr_i[9:2])
      RegErrCause[9:2], RegErrTile[9:2], RegErrContext[9:2], RegErrPc[9:2], RegErrAddr[9:2],
      RegErrInfo[9:2]:                                              rd_zero = err_empty;
      RegTileErrCause[9:2], RegTileErrPc[9:2], RegTileErrAddr[9:2]: rd_zero = !sel_has_fault_i;
      RegConsoleData[9:2]:                                          rd_zero = con_empty;
      RegHsyncId[9:2]:                  rd_zero = HostService && !hsync_pending_q;
      RegSvcArg0[9:2]:                  rd_zero = !svc_held_q || svc_kind_q == 2'(SvcKindLand);
      RegSvcArg1[9:2], RegSvcArg2[9:2]: rd_zero = !svc_held_q || svc_kind_q != 2'(SvcKindHostExchange);
      default:                                                                  rd_zero = 1'b0;
    endcase
  end
  // The registers kept in bus_q: {0, tile, word} for the TILE_* ones (offsets 0x1xx), {1, 0,
  // word} for the others (WATCHDOG_INSNS and DMA_DESC_ADDR differ in addr_i[3:2]); the
  // table's words at {1, entry, word}.
  localparam int unsigned ShAw = 3 + $clog2(NumTiles);
  logic             shadowed;
  logic [ShAw-1:0]  sh_addr;
  logic [BusAw-1:0] bus_raddr;
  assign shadowed = low && (addr_i[9:2] == RegWatchdogInsns[9:2] || addr_i[9:2] == RegTileEntry[9:2] ||
                            addr_i[9:2] == RegTileBootArg[9:2] || addr_i[9:2] == RegDmaDescAddr[9:2]);
  assign sh_addr  = (ShAw'(!addr_i[8]) << (ShAw - 1)) | ShAw'(addr_i[3:2]) |
                    (NumTiles > 1 && addr_i[8] ? ShAw'(32'(tile_sel_q) << 2) : '0);
  // One tile (the iCE40 board): the tile takes TILE_ENTRY straight from bus_q, at START, the
  // one cycle it reads entry_i: RUN_CTRL's address cycle reads the word, so bus_rd_q holds
  // it when the write starts the tile (32 flip-flops fewer).
  localparam bit EntryFromBus = NumTiles == 1;
  localparam logic [BusAw-1:0] Entry0Addr = BusAw'(RegTileEntry[3:2]);  // {0, tile 0, word}
  logic run_ctrl_addr;
  assign run_ctrl_addr = EntryFromBus && low && addr_i[9:2] == RegRunCtrl[9:2];
  assign bus_raddr = in_xlat ? {1'b1, xlat_entry, xlat_word} : run_ctrl_addr ? Entry0Addr : BusAw'(sh_addr);

  always_ff @(posedge clk_i) begin
    if (!rst_ni || !low || rd_zero) rd_q <= 32'd0;
    else                            rd_q <= rd_mux;
    from_bus_q <= in_xlat || shadowed;
  end
  assign rdata_o = from_bus_q ? bus_rd_q : rd_q;

  // ---------------------------------------------------------------------------
  // Writes and the card state machine.
  // ---------------------------------------------------------------------------
  logic running;
  assign running = state_q == CardStateRunning || state_q == CardStateHostSync;

  always_comb begin
    state_d         = state_q;
    irq_mask_d      = irq_mask_q;
    watchdog_d      = watchdog_q;
    tile_sel_d      = tile_sel_q;
    ctx_sel_d       = ctx_sel_q;
    window_d        = window_q;
    hsync_pending_d = hsync_pending_q;
    hsync_id_d      = hsync_id_q;
    landing_d       = landing_q;
    xchg_start_o    = 1'b0;
    svc_held_d      = svc_held_q;
    svc_kind_d      = svc_kind_q;
    svc_tile_d      = svc_tile_q;
    svc_done        = 1'b0;
    svc_fault       = 1'b0;
    land_due_d      = land_due_q;
    err_lost_d      = err_lost_q + (err_push_i && err_full ? 32'd1 : 32'd0);
    dma_desc_d      = dma_desc_q;
    enable_d        = enable_q;
    for (int unsigned t = 0; t < NumTiles; t++) begin
      entry_d[t] = entry_q[t];
      boot_d[t]  = boot_q[t];
    end
    irq_raise   = 6'd0;
    start_o     = 1'b0;
    halt_o      = 1'b0;
    release_o   = 1'b0;
    reset_req_o = 1'b0;
    dma_start_o = 1'b0;

    if (con_push_i && !con_full_o) irq_raise[IrqStatusConsoleLsb] = 1'b1;
    if (err_push_i) irq_raise[IrqStatusErrorLsb] = 1'b1;
    if (dma_done_i) irq_raise[IrqStatusDmaDoneLsb] = 1'b1;

    // The run as the tiles report it.
    if (state_q == CardStateRunning && !any_busy_i) begin
      if (any_error_i) begin
        // One faulted tile stops the run: the others could never meet it at a sync.
        state_d = CardStateError;
        halt_o  = 1'b1;
      end else if (!any_running_i && any_sync_i && !landing_q) begin
        // Buffered exchange writes land first, then the tiles go on or ask the host. With
        // HostService the host lands them (a LAND request) if an EXCHANGE kept sends.
        landing_d    = 1'b1;
        xchg_start_o = !HostService;
        if (HostService && land_due_q && !svc_held_q) begin
          svc_held_d = 1'b1;
          svc_kind_d = 2'(SvcKindLand);
          svc_tile_d = '0;
          irq_raise[IrqStatusServiceLsb] = 1'b1;
        end
      end else if (!any_running_i && any_sync_i && landing_q &&
                   !(HostService ? land_busy : xchg_busy_i)) begin
        landing_d = 1'b0;
        if (sync_req_i[7:0] == SyncKindExternal) begin
          state_d         = CardStateHostSync;
          hsync_pending_d = 1'b1;
          hsync_id_d      = sync_req_i >> 8;
          irq_raise[IrqStatusHostSyncLsb] = 1'b1;
        end else begin
          release_o = 1'b1;
        end
      end else if (!any_running_i && !any_sync_i) begin
        state_d = CardStateDone;
        irq_raise[IrqStatusDoneLsb] = 1'b1;
      end
    end

    // A tile's request is held while the card runs (a halted tile keeps its own request
    // until the next START; it is not offered again). Tiles in a sync request nothing.
    if (HostService && state_q == CardStateRunning && !svc_held_q && svc_req_i) begin
      svc_held_d = 1'b1;
      svc_kind_d = svc_req_xs_i ? 2'(SvcKindExchange) : 2'(SvcKindHostExchange);
      svc_tile_d = svc_req_tile_i;
      irq_raise[IrqStatusServiceLsb] = 1'b1;
    end

    if (wr && low) begin
      unique case (addr_i[9:2])
        RegReset[9:2]: reset_req_o = wdata_i == ResetKey;
        RegRunCtrl[9:2]: begin
          if (wdata_i[RunCtrlHaltLsb]) begin
            if (running) state_d = CardStateIdle;
            hsync_pending_d = 1'b0;
            landing_d = 1'b0;
            halt_o = 1'b1;
            release_o = 1'b0;
          end else if (wdata_i[RunCtrlStartLsb] && (state_q == CardStateIdle || state_q == CardStateDone)) begin
            state_d  = CardStateRunning;
            start_o  = 1'b1;
            land_due_d = 1'b0;  // START empties the tiles' exchanges
          end
        end
        RegWatchdogInsns[9:2]: watchdog_d = wdata_i;
        RegIrqMask[9:2]:  irq_mask_d = wdata_i[5:0] & IrqBits;
        RegHsyncRelease[9:2]: begin
          if (wdata_i[0] && hsync_pending_q) begin
            hsync_pending_d = 1'b0;
            release_o = 1'b1;
            state_d = CardStateRunning;
          end
        end
        RegTileSel[9:2]:      if (wdata_i < 32'(NumTiles)) tile_sel_d = wdata_i[TileW-1:0];
        RegTileCtxSel[9:2]:   if (wdata_i <= 32'(NumWorkers)) ctx_sel_d = wdata_i[CtxW-1:0];
        RegTilememWindowTile[9:2]: if (wdata_i < 32'(NumTiles)) window_d = wdata_i[TileW-1:0];
        RegTileCtrl[9:2]:     if (!running) enable_d[tile_sel_q] = wdata_i[TileCtrlEnableLsb];
        RegTileEntry[9:2]:    if (!running) entry_d[tile_sel_q] = wdata_i;
        RegTileBootArg[9:2]:  if (!running) boot_d[tile_sel_q] = wdata_i;
        RegDmaDescAddr[9:2]:  if (DmaChains) dma_desc_d = wdata_i;
        RegDmaCtrl[9:2]:      dma_start_o = DmaChains && wdata_i[DmaCtrlStartLsb] && !dma_busy_i;
        RegSvcFaultAddr[9:2]: svc_fault = HostService && svc_pending && svc_kind_q != 2'(SvcKindLand);
        RegSvcDone[9:2]: begin
          if (HostService && svc_pending && wdata_i[SvcDoneDoneLsb]) begin
            svc_done = 1'b1;
            if (svc_kind_q == 2'(SvcKindExchange) && wdata_i[SvcDoneLandDueLsb]) land_due_d = 1'b1;
            if (svc_kind_q == 2'(SvcKindLand)) land_due_d = 1'b0;
          end
        end
        default: ;  // read-only or unassigned: ignored
      endcase
    end

    // A completion ends the held request in the edge the tile drops its own; HALT (or a
    // fault stopping the run) stops the tiles: a held request is dropped.
    if (svc_done || svc_fault || halt_o) svc_held_d = 1'b0;
    if (halt_o) land_due_d = 1'b0;
  end

  // A fault's cause or info as the host writes it (an EXCHANGE's tile takes the info when it
  // consumes the result, a few cycles after the completion; no other request completes
  // before). Enable-loaded flip-flops without a reset: nothing reads them before a write.
  always_ff @(posedge clk_i) begin
    if (wr && low && (addr_i[9:2] == RegSvcFaultCause[9:2] || addr_i[9:2] == RegSvcFaultInfo[9:2]))
      svc_info_q <= wdata_i;
  end

  // CARD_CYCLES: cleared by a start (and the reset), counts while running (two SB_MAC16 on
  // the iCE40; as a branch of the write decode it would cost a 64-bit mux per level).
  ipu_counter64 u_cycles (
    .clk_i,
    .clear_i (!rst_ni || start_o),
    .inc_i   (state_q == CardStateRunning),
    .count_o (cycles_q)
  );

  // IRQ_STATUS: w1c from the host, set by events (an event wins over a clear in the same cycle).
  always_comb begin
    irq_status_d = irq_status_q;
    if (wr && low && addr_i[9:2] == RegIrqStatus[9:2]) irq_status_d = irq_status_d & ~wdata_i[5:0];
    if (start_o) irq_status_d = irq_status_d & ~(6'(1) << IrqStatusDoneLsb) & ~(6'(1) << IrqStatusHostSyncLsb);
    irq_status_d = irq_status_d | irq_raise;
  end

  // MSI-X vectors of newly raised, unmasked causes.
  logic [5:0] irq_fire;
  assign irq_fire = irq_raise & irq_mask_q;
  assign irq_o[2'(IrqVectorHostSync)] = irq_fire[IrqStatusHostSyncLsb] | irq_fire[IrqStatusServiceLsb];
  assign irq_o[2'(IrqVectorDone)]     = irq_fire[IrqStatusDoneLsb] | irq_fire[IrqStatusDmaDoneLsb];
  assign irq_o[2'(IrqVectorError)]    = irq_fire[IrqStatusErrorLsb];
  assign irq_o[2'(IrqVectorConsole)]  = irq_fire[IrqStatusConsoleLsb];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q         <= CardStateIdle;
      irq_status_q    <= 6'd0;
      irq_mask_q      <= 6'd0;
      watchdog_q      <= 32'd0;
      tile_sel_q      <= '0;
      ctx_sel_q       <= '0;
      window_q        <= '0;
      hsync_pending_q <= 1'b0;
      landing_q       <= 1'b0;
      svc_held_q      <= 1'b0;
      land_due_q      <= 1'b0;
      svc_kind_q      <= 2'd0;
      svc_tile_q      <= '0;
      hsync_id_q      <= 32'd0;
      err_lost_q      <= 32'd0;
      dma_desc_q      <= 32'd0;
      enable_q        <= '0;
      for (int unsigned t = 0; t < NumTiles; t++) begin
        entry_q[t] <= 32'd0;
        boot_q[t]  <= 32'd0;
      end
    end else begin
      state_q         <= state_d;
      irq_status_q    <= irq_status_d;
      irq_mask_q      <= irq_mask_d;
      watchdog_q      <= watchdog_d;
      tile_sel_q      <= tile_sel_d;
      ctx_sel_q       <= ctx_sel_d;
      window_q        <= window_d;
      hsync_pending_q <= hsync_pending_d;
      landing_q       <= landing_d;
      svc_held_q      <= HostService && svc_held_d;
      land_due_q      <= HostService && land_due_d;
      svc_kind_q      <= svc_kind_d;
      svc_tile_q      <= svc_tile_d;
      hsync_id_q      <= hsync_id_d;
      err_lost_q      <= err_lost_d;
      dma_desc_q      <= dma_desc_d;
      enable_q        <= enable_d;
      for (int unsigned t = 0; t < NumTiles; t++) begin
        entry_q[t] <= entry_d[t];
        boot_q[t]  <= boot_d[t];
      end
    end
  end

  // The translation table: host-programmed, read by the DMA engine.
  // The generated package has no XLAT_ENTRY field offsets yet, so the words are stored
  // as written (the model also clears the low 12 bits of DEV_BASE and BUS_LO).
  // The read-back copy takes a host write when the register does.
  logic              sh_we, xlat_we, bus_we;
  logic [BusAw-1:0]  bus_waddr;
  logic [31:0]       bus_wdata;
  always_comb begin
    unique case (addr_i[9:2])
      RegWatchdogInsns[9:2]:                    sh_we = 1'b1;
      RegTileEntry[9:2], RegTileBootArg[9:2]:   sh_we = !running;
      RegDmaDescAddr[9:2]:                      sh_we = DmaChains;
      default:                                  sh_we = 1'b0;
    endcase
  end
  assign xlat_we   = xclr_q || (wr && in_xlat);
  assign bus_we    = xlat_we || (wr && low && sh_we);
  assign bus_waddr = xclr_q ? xclr_addr_q : bus_raddr;
  assign bus_wdata = xclr_q ? 32'd0 : wdata_i;
  always_ff @(posedge clk_i) begin
    if (bus_we)  bus_q[bus_waddr] <= bus_wdata;
    bus_rd_q      <= bus_q[bus_raddr];
  end
  if (!HostService) begin : g_xlat_dma
    (* no_rw_check *) logic [31:0] xlat_dma_q [XlatWords];
    always_ff @(posedge clk_i) begin
      if (xlat_we) xlat_dma_q[bus_waddr[XlatAw-1:0]] <= bus_wdata;
      xlat_dma_rd_q <= xlat_dma_q[xlat_raddr_i];
    end
  end else begin : g_no_xlat_dma
    // No DMA engine: the host keeps its own copy of the table (bus_q has the read-back).
    assign xlat_dma_rd_q = 32'd0;
    logic unused_xlat_raddr;
    assign unused_xlat_raddr = ^xlat_raddr_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xclr_q      <= 1'b1;
      xclr_addr_q <= '0;
    end else if (xclr_q) begin
      xclr_addr_q <= xclr_addr_q + 1'b1;
      if (32'(xclr_addr_q) == 2 * XlatWords - 1) xclr_q <= 1'b0;
    end
  end

  assign tile_enable_o    = enable_q;
  if (EntryFromBus) begin : g_entry_from_bus
    assign tile_entry_o = bus_rd_q;
  end else begin : g_entry_from_ff
    for (genvar t = 0; t < NumTiles; t++) begin : g_tile
      assign tile_entry_o[t*32 +: 32] = entry_q[t];
    end : g_tile
  end
  // One tile (the iCE40 board): TILE_BOOT_ARG and WATCHDOG_INSNS reach the tile from a
  // block-RAM copy of their own (start_mem_q, 64 flip-flops fewer), read after START: the
  // budget's word in START's own cycle (no host write can come in it), the boot
  // argument's in the next (a TILE_BOOT_ARG write is ignored then: the card runs). The
  // tile takes them one and two cycles after START, while its register clearer runs.
  // The clearer of the translation table zeroes the copy after a reset.
  localparam bit StartFromRam = NumTiles == 1;
  if (StartFromRam) begin : g_start_from_ram
    (* no_rw_check, ram_style = "block" *) logic [31:0] start_mem_q [2];
    logic [31:0] start_rd_q;
    logic        st_we, st_wd, wd_load_q, boot_load_q;
    assign st_wd = low && addr_i[9:2] == RegWatchdogInsns[9:2];  // word 1; TILE_BOOT_ARG word 0
    assign st_we = xclr_q || (wr && (st_wd || (low && addr_i[9:2] == RegTileBootArg[9:2] && !running)));
    always_ff @(posedge clk_i) begin
      if (st_we) start_mem_q[xclr_q ? xclr_addr_q[0] : st_wd] <= xclr_q ? 32'd0 : wdata_i;
      start_rd_q  <= start_mem_q[start_o];
      wd_load_q   <= start_o;
      boot_load_q <= wd_load_q;
    end
    assign tile_boot_arg_o  = start_rd_q;
    assign watchdog_units_o = start_rd_q;
    assign wd_load_o        = wd_load_q;
    assign boot_load_o      = boot_load_q;
    logic unused_start_ff;
    assign unused_start_ff = ^{boot_q[0], watchdog_q};
  end else begin : g_start_from_ff
    for (genvar t = 0; t < NumTiles; t++) begin : g_tile_setup
      assign tile_boot_arg_o[t*32 +: 32] = boot_q[t];
    end : g_tile_setup
    assign watchdog_units_o = watchdog_q;
    assign wd_load_o        = start_o;
    assign boot_load_o      = start_o;
  end
  assign tile_sel_o       = tile_sel_q;
  assign ctx_sel_o        = ctx_sel_q;
  assign ctx_sel_next_o   = ctx_sel_d;
  assign window_tile_o    = window_q;
  assign dma_desc_addr_o  = dma_desc_q;
  assign tiles_run_o      = running;
  assign xlat_rdata_o = xlat_dma_rd_q;
  assign state_o          = state_q;
  assign svc_tile_o       = svc_tile_q;
  assign svc_kind_o       = svc_held_q ? svc_kind_q : 2'(SvcKindNone);
  assign svc_done_o       = svc_done;
  assign svc_fault_o      = svc_fault;
  assign svc_cause_o      = svc_info_q[7:0];
  assign svc_addr_o       = wdata_i;  // with svc_fault_o, the write's data
  assign svc_info_o       = svc_info_q;

endmodule : ipu_card_regs
