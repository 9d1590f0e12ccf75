// Barrel-threaded RV32IM + Zicsr tile core: supervisor and worker contexts, tile CSRs, faults.
//
// Four stages, one context per cycle in strict rotation (the barrel):
//   IF  the slot's context fetches from the SRAM (synchronous read), unless the SRAM's
//       one port is taken this cycle (the context then fetches at its next turn);
//   RF  the fetched instruction's source registers are read (the register file's reads
//       are synchronous, so that it fits FPGA block RAM);
//   EX  decode, ALU, branch, CSR, load/store request on the SRAM; the instruction
//       retires or faults here and the context's PC is updated;
//   WB  load data is aligned, the register file is written, the retire trace is emitted.
// A context issues at most once every NumCtx cycles, so it never sees its own
// instruction in flight and the pipeline needs no forwarding or interlocks: that needs
// NumCtx >= 3 (a context's write-back before its next register read), two workers.
//
// Split like lowRISC ibex's core: this module keeps the pipeline registers, the barrel's
// slot, the operand adders, the result multiplexer and the retire trace; the decoder
// (ipu_tile_decoder), CSR file (ipu_tile_csr), controller (ipu_tile_controller: run
// states, outcome, fault record, watchdog, host exchange), load/store unit
// (ipu_tile_lsu) and per-context state (ipu_tile_ctx: PC ring, INSTRET, register
// clearer) are modules of their own, each asserting its own interface. Synthesis
// flattens them.
module ipu_tile_core
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumWorkers = 6,
  parameter int unsigned SramBytes  = 65536,
  localparam int unsigned NumCtx = NumWorkers + 1,
  localparam int unsigned Aw = $clog2(SramBytes / 4)
) (
  input  logic          clk_i,
  input  logic          rst_ni,

  // Identity and run control from the card.
  input  logic [15:0]   tile_id_i,
  input  logic [15:0]   num_tiles_i,
  input  logic          enable_i,
  input  logic [31:0]   entry_i,
  input  logic [31:0]   boot_arg_i,
  input  logic          boot_load_i,  // boot_arg_i holds the started supervisor's a0
  input  logic [31:0]   watchdog_units_i,
  input  logic          wd_load_i,    // watchdog_units_i holds the run's budget
  input  logic          start_i,    // RUN_CTRL.START: reset run state, start if enabled
  input  logic          halt_i,     // RUN_CTRL.HALT or another tile faulted: stop where we are
  input  logic          release_i,  // the sync this tile waits in completed

  // Status for the register block.
  output tile_state_e   state_o,
  output logic [31:0]   exit_code_o,
  output logic [31:0]   sync_req_o,
  output logic [63:0]   cycles_o,
  input  logic [CtxW-1:0] ctx_sel_i,
  input  logic [CtxW-1:0] ctx_sel_next_i,  // ctx_sel_i after this edge (TILE_CTX_SEL written now)
  output ctx_state_e    ctx_state_o,
  output logic [31:0]   ctx_pc_o,
  output logic [31:0]   ctx_instret_o,

  // The tile's fault record; err_pending_o until the card took it into the error FIFO.
  output logic          has_fault_o,
  output logic          err_pending_o,
  input  logic          err_ack_i,
  output logic [31:0]   err_cause_o,
  output logic [CtxW-1:0] err_ctx_o,
  output logic [31:0]   err_pc_o,
  output logic [31:0]   err_addr_o,
  output logic [31:0]   err_info_o,

  // CONSOLE CSR bytes, one buffered.
  output logic          console_valid_o,
  output logic [7:0]    console_byte_o,
  input  logic          console_ready_i,

  // SRAM: port A fetch (lost to the host or the clearer when fetch_stall_i), port B data.
  input  logic          fetch_stall_i,
  output logic          fetch_req_o,
  output logic [Aw-1:0] fetch_addr_o,
  input  logic [31:0]   fetch_rdata_i,
  output logic          data_req_o,
  output logic          data_we_o,
  output logic [3:0]    data_be_o,
  output logic [Aw-1:0] data_addr_o,
  output logic [31:0]   data_wdata_o,
  input  logic [31:0]   data_rdata_i,

  // Exchange unit: the supervisor's EXCHANGE starts it and retries until its result is ready.
  output logic          xu_start_o,
  output logic [31:0]   xu_list_o,
  input  logic          xu_busy_i,
  input  logic          xu_done_i,
  output logic          xu_consume_o,
  input  logic          xu_fault_i,
  input  logic [31:0]   xu_fault_addr_i,
  input  logic [31:0]   xu_fault_info_i,

  // Host exchange: after HX_START retires the tile waits while the card moves the bytes.
  output logic          hx_req_o,
  output logic [31:0]   hx_dev_o,
  output logic [31:0]   hx_tile_o,
  output logic [31:0]   hx_len_o,
  output logic          hx_to_host_o,
  input  logic          hx_done_i,
  input  logic          hx_fault_i,       // with the cause and the failing host address
  input  logic [31:0]   hx_cause_i,
  input  logic [31:0]   hx_addr_i,

  // Retire trace (lock-step): one retired instruction per cycle at most.
  output logic          rvfi_valid_o,
  output logic [CtxW-1:0] rvfi_ctx_o,
  output logic [31:0]   rvfi_pc_o,
  output logic [31:0]   rvfi_insn_o,
  output logic [4:0]    rvfi_rd_o,
  output logic [31:0]   rvfi_rd_value_o
);

  localparam logic [31:0] SramSize = 32'(SramBytes);

  // ---------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------
  // Set by reset until the first clock edge: state that START clears takes the same
  // synchronous clear at reset (a synchronous reset is free on FPGA flip-flops, an
  // asynchronous one beside a synchronous clear costs a LUT a bit).
  logic init_q, run_clr;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) init_q <= 1'b1;
    else         init_q <= 1'b0;
  end
  assign run_clr = start_i || init_q;

  // The tile's and the contexts' run states, the outcome of the instruction in EX, the
  // fault record, the watchdog and the host exchange: ipu_tile_controller.
  tile_state_e state;
  logic        if_issue, ex_go, ex_fault, commit;

  // The contexts' PCs, INSTRET and the register clearer: ipu_tile_ctx.
  logic [31:0] if_pc, ex_pc, ring_in;
  logic [63:0] instret;
  logic        clr_busy, clr_we;
  logic [CtxW+4:0] clr_waddr;
  logic [31:0] clr_wdata;

  logic [63:0] cycles_q;

  // Pipeline registers.
  logic [CtxW-1:0] slot_q, slot_d;
  logic            rf_valid_q;
  logic [CtxW-1:0] rf_ctx_q;
  logic            rf_fetch_fault_q;
  logic            ex_valid_q;
  logic [31:0]     ex_insn_q;
  logic [CtxW-1:0] ex_ctx_q;
  logic            ex_fetch_fault_q;
  logic            wb_valid_q;
  logic [CtxW-1:0] wb_ctx_q;
  logic [31:0]     wb_pc_q, wb_insn_q, wb_value_q;
  logic [4:0]      wb_rd_q;

  // ---------------------------------------------------------------------------
  // IF: the slot's context fetches unless port A is taken this cycle.
  // ---------------------------------------------------------------------------
  logic        if_pc_ok;

  assign slot_d   = (32'(slot_q) == NumCtx - 1) ? '0 : slot_q + 1'b1;
  assign if_pc_ok = if_pc[1:0] == 2'b00 && sram_contains(if_pc, SramSize);

  assign fetch_req_o  = if_issue && if_pc_ok;
  assign fetch_addr_o = if_pc[Aw+1:2];  // SRAM_BASE is 1 MiB aligned, SRAM at most 1 MiB

  // ---------------------------------------------------------------------------
  // EX: decode and execute.
  // ---------------------------------------------------------------------------
  // The decoder: the executing instruction's fields and encoding checks, and the result
  // select of the one just fetched (registered in ex_sel_q).
  logic [31:0] insn;
  logic [4:0]  rd, rs1;
  logic [2:0]  f3;
  logic [11:0] csr;
  logic [31:0] imm_i, imm_u, pc_off, mem_off, rs1v, rs2v;
  logic op_jal, op_jalr, op_branch, op_load, op_store, op_imm;
  logic [2:0] alu_f3;
  logic alu_alt, alu_md, is_div, dec_wr, csr_path, sys_ecall, sys_ebreak, dec_illegal;
  logic [NumSel-1:0] rf_sel, ex_sel_q;
  assign insn = ex_insn_q;

  ipu_tile_decoder u_decoder (
    .clk_i,
    .rst_ni,
    .insn_i      (insn),
    .op_jal_o    (op_jal),
    .op_jalr_o   (op_jalr),
    .op_branch_o (op_branch),
    .op_load_o   (op_load),
    .op_store_o  (op_store),
    .op_imm_o    (op_imm),
    .rd_o        (rd),
    .rs1_o       (rs1),
    .f3_o        (f3),
    .csr_o       (csr),
    .imm_i_o     (imm_i),
    .imm_u_o     (imm_u),
    .pc_off_o    (pc_off),
    .mem_off_o   (mem_off),
    .alu_f3_o    (alu_f3),
    .alu_alt_o   (alu_alt),
    .alu_md_o    (alu_md),
    .is_div_o    (is_div),
    .wr_o        (dec_wr),
    .csr_path_o  (csr_path),
    .ecall_o     (sys_ecall),
    .ebreak_o    (sys_ebreak),
    .illegal_o   (dec_illegal),
    .rf_insn_i   (fetch_rdata_i),
    .rf_sel_o    (rf_sel)
  );

  // The register file: WB writes first, the clearer in the cycles WB leaves free.

  ipu_tile_regfile #(.AddrW(CtxW + 5)) u_regfile (
    .clk_i,
    .raddr_a_i ({rf_ctx_q, fetch_rdata_i[19:15]}),  // RF: rs1 and rs2 of the fetched instruction
    .rdata_a_o (rs1v),
    .raddr_b_i ({rf_ctx_q, fetch_rdata_i[24:20]}),
    .rdata_b_o (rs2v),
    .we_i      ((wb_valid_q && wb_rd_q != 5'd0) || clr_we),
    .waddr_i   (wb_valid_q ? {wb_ctx_q, wb_rd_q} : clr_waddr),
    .wdata_i   (wb_value | clr_wdata)
  );

  logic [31:0] alu_b, alu_sum, alu_logic, alu_mul;
  assign alu_b = op_imm ? imm_i : rs2v;

  // Divisions take the multi-cycle divider: the context retries the instruction until
  // the divider is done with its operands (they cannot change: only the context itself
  // writes its registers), then retires it with the result.
  logic            div_idle, div_done, div_mine, div_start, div_consume;
  logic [CtxW-1:0] div_ctx;
  logic [31:0]     div_result;
  assign div_mine    = div_done && div_ctx == ex_ctx_q;
  assign div_start   = ex_go && !ex_fetch_fault_q && is_div && div_idle;
  assign div_consume = ex_go && !ex_fetch_fault_q && is_div && div_mine;

  ipu_tile_div u_div (
    .clk_i,
    .rst_ni,
    .clear_i   (start_i),
    .start_i   (div_start),
    .ctx_i     (ex_ctx_q),
    .op_i      (f3[1:0]),
    .a_i       (rs1v),
    .b_i       (rs2v),
    .idle_o    (div_idle),
    .done_o    (div_done),
    .ctx_o     (div_ctx),
    .result_o  (div_result),
    .consume_i (div_consume)
  );

  // Branches compare in the ALU: BLT/BGE as SLT, BLTU/BGEU as SLTU (alu_lt).
  logic       alu_lt;

  ipu_tile_alu u_alu (
    .funct3_i (alu_f3),
    .alt_i    (alu_alt),
    .muldiv_i (alu_md),
    .a_i      (rs1v),
    .b_i      (alu_b),
    .sum_o    (alu_sum),
    .logic_o  (alu_logic),
    .mul_o    (alu_mul),
    .lt_o     (alu_lt)
  );

  // The CSR file: the strobes of the CSR instruction in EX (raw: they change its registers
  // only when it commits) and the CSRs that hold state.
  logic [31:0] csr_old, wo_val, worker_entry, worker_arg, fail_info, hx_tile;
  logic [MaxCtx-1:0] fail_mask;
  logic        con_valid, csr_join, csr_main, misuse_sv, csr_illegal;
  logic        w_console, w_start, w_exit, w_sync, w_texit, w_fail, w_hxstart, w_hxtile, w_exchange;
  logic [CtxW-1:0] start_w;
  assign start_w = wo_val[CtxW-1:0];

  ipu_tile_csr u_csr (
    .clk_i,
    .rst_ni,
    .run_clr_i       (run_clr),
    .csr_path_i      (csr_path),
    .csr_i           (csr),
    .f3_i            (f3),
    .rs1_i           (rs1),
    .rs1v_i          (rs1v),
    .ctx_i           (ex_ctx_q),
    .rd_sel_i        (ex_sel_q[SelFailInfo : SelEntry]),
    .commit_i        (commit),
    .misuse_o        (misuse_sv),
    .join_o          (csr_join),
    .main_o          (csr_main),
    .illegal_o       (csr_illegal),
    .wo_val_o        (wo_val),
    .w_console_o     (w_console),
    .w_start_o       (w_start),
    .w_exit_o        (w_exit),
    .w_sync_o        (w_sync),
    .w_texit_o       (w_texit),
    .w_fail_o        (w_fail),
    .w_hxstart_o     (w_hxstart),
    .w_hxtile_o      (w_hxtile),
    .w_exchange_o    (w_exchange),
    .old_o           (csr_old),
    .worker_entry_o  (worker_entry),
    .worker_arg_o    (worker_arg),
    .fail_info_o     (fail_info),
    .hx_dev_o,
    .hx_tile_o       (hx_tile),
    .fail_mask_o     (fail_mask),
    .sync_req_o,
    .exit_code_o,
    .console_valid_o (con_valid),
    .console_byte_o,
    .console_ready_i
  );

  // Three adders for every address: PC + 4, PC + an immediate (AUIPC, JAL, taken branches)
  // and rs1 + an immediate (loads, stores, JALR).
  logic [31:0] pc_plus4, pc_imm, rs_imm;
  assign pc_plus4 = ex_pc + 32'd4;
  assign pc_imm   = ex_pc + pc_off;
  assign rs_imm   = rs1v + mem_off;

  logic taken;
  always_comb begin
    unique case (f3)
      3'd0:       taken = rs1v == rs2v;
      3'd1:       taken = rs1v != rs2v;
      3'd4, 3'd6: taken = alu_lt;  // the ALU compares as SLT / SLTU
      default:    taken = !alu_lt;
    endcase
  end

  // Whether the instruction writes rd (its value: ex_result).
  logic ex_wr;
  assign ex_wr    = dec_wr || csr_join || csr_main;

  logic [31:0] ex_next_pc, ex_result;
  assign ex_next_pc = op_jalr ? {rs_imm[31:1], 1'b0} : ((op_jal || (op_branch && taken)) ? pc_imm : pc_plus4);
  // The written result (a CSR's old value even for CSRRW with rd = x0: nothing is written).
  assign ex_result = ({32{ex_sel_q[SelSum]}} & alu_sum) |
                     {31'd0, ex_sel_q[SelLt] && alu_lt} |
                     ({32{ex_sel_q[SelLogicOp]}} & alu_logic) |
                     ({32{ex_sel_q[SelMul]}} & alu_mul) |
                     ({32{ex_sel_q[SelDiv]}} & div_result) |
                     ({32{ex_sel_q[SelLui]}} & imm_u) |
                     ({32{ex_sel_q[SelAuipc]}} & pc_imm) |
                     ({32{ex_sel_q[SelLink]}} & pc_plus4) |
                     ({32{ex_sel_q[SelCycLo]}} & cycles_q[31:0]) |
                     ({32{ex_sel_q[SelCycHi]}} & cycles_q[63:32]) |
                     ({32{ex_sel_q[SelIrLo]}} & instret[31:0]) |
                     ({32{ex_sel_q[SelIrHi]}} & instret[63:32]) |
                     ({32{ex_sel_q[SelTileId]}} & {16'd0, tile_id_i}) |
                     ({32{ex_sel_q[SelCtxId]}} & {29'd0, ex_ctx_q}) |
                     ({32{ex_sel_q[SelNumTiles]}} & {16'd0, num_tiles_i}) |
                     ({32{ex_sel_q[SelNumWorkers]}} & 32'(NumWorkers)) |
                     ({32{ex_sel_q[SelSramSize]}} & SramSize) |
                     ({32{ex_sel_q[SelJoin]}} & 32'(fail_mask)) |
                     csr_old;

  // EXCHANGE reaches the CSR write path only from the supervisor with a valid encoding.
  logic ex_exchange;
  assign ex_exchange  = ex_go && !ex_fetch_fault_q && w_exchange && !misuse_sv;
  assign xu_start_o   = ex_exchange && !xu_done_i && !xu_busy_i;
  assign xu_list_o    = wo_val;
  assign xu_consume_o = ex_exchange && xu_done_i;

  // The load/store unit: its checks, the data port, and in WB the loaded bytes.
  logic        mem_mis, mem_fault, ex_load;
  logic [31:0] ld_value;
  ipu_tile_lsu #(.SramBytes(SramBytes)) u_lsu (
    .clk_i,
    .rst_ni,
    .go_i         (ex_go),
    .load_i       (op_load),
    .store_i      (op_store),
    .f3_i         (f3),
    .addr_i       (rs_imm),
    .wdata_i      (rs2v),
    .fault_i      (ex_fault),
    .commit_i     (commit),
    .rd_i         (rd),
    .mis_o        (mem_mis),
    .fault_o      (mem_fault),
    .load_o       (ex_load),
    .data_req_o,
    .data_we_o,
    .data_be_o,
    .data_addr_o,
    .data_wdata_o,
    .data_rdata_i,
    .ld_value_o   (ld_value)
  );

  ipu_tile_controller #(.NumWorkers(NumWorkers), .SramBytes(SramBytes)) u_controller (
    .clk_i,
    .rst_ni,
    .init_i           (init_q),
    .run_clr_i        (run_clr),
    .enable_i,
    .start_i,
    .halt_i,
    .release_i,
    .slot_i           (slot_q),
    .fetch_stall_i,
    .xu_busy_i,
    .xu_start_i       (xu_start_o),
    .clr_busy_i       (clr_busy),
    .issue_o          (if_issue),
    .ex_valid_i       (ex_valid_q),
    .ex_ctx_i         (ex_ctx_q),
    .ex_fetch_fault_i (ex_fetch_fault_q),
    .go_o             (ex_go),
    .illegal_i        (dec_illegal || csr_illegal),
    .load_i           (op_load),
    .store_i          (op_store),
    .mem_fault_i      (mem_fault),
    .mem_mis_i        (mem_mis),
    .ecall_i          (sys_ecall),
    .ebreak_i         (sys_ebreak),
    .misuse_i         (misuse_sv),
    .w_start_i        (w_start),
    .w_exit_i         (w_exit),
    .w_texit_i        (w_texit),
    .w_sync_i         (w_sync),
    .w_fail_i         (w_fail),
    .w_hxstart_i      (w_hxstart),
    .w_hxtile_i       (w_hxtile),
    .w_exchange_i     (w_exchange),
    .join_i           (csr_join),
    .wo_val_i         (wo_val),
    .xu_done_i,
    .xu_fault_i,
    .div_wait_i       (is_div && !div_mine),
    .console_wait_i   (w_console && con_valid && !console_ready_i),
    .insn_i           (insn),
    .addr_i           (rs_imm),
    .csr_i            (csr),
    .hx_tile_i        (hx_tile),
    .fail_info_i      (fail_info),
    .xu_fault_addr_i,
    .xu_fault_info_i,
    .ring_in_i        (ring_in),
    .watchdog_units_i,
    .wd_load_i,
    .wb_valid_i       (wb_valid_q),
    .fault_o          (ex_fault),
    .commit_o         (commit),
    .hx_req_o,
    .hx_len_o,
    .hx_to_host_o,
    .hx_done_i,
    .hx_fault_i,
    .hx_cause_i,
    .hx_addr_i,
    .state_o          (state),
    .ctx_sel_i,
    .ctx_state_o,
    .has_fault_o,
    .err_pending_o,
    .err_ack_i,
    .err_cause_o,
    .err_ctx_o,
    .err_pc_o,
    .err_addr_o,
    .err_info_o
  );

  // The barrel turns every cycle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) slot_q <= '0;
    else         slot_q <= slot_d;
  end

  ipu_tile_ctx #(.NumCtx(NumCtx)) u_ctx (
    .clk_i,
    .rst_ni,
    .init_i         (init_q),
    .run_clr_i      (run_clr),
    .start_i,
    .entry_i,
    .boot_load_i,
    .boot_arg_i,
    .rf_ctx_i       (rf_ctx_q),
    .ex_ctx_i       (ex_ctx_q),
    .commit_i       (commit),
    .next_pc_i      (ex_next_pc),
    .wb_valid_i     (wb_valid_q),
    .if_pc_o        (if_pc),
    .ex_pc_o        (ex_pc),
    .ring_in_o      (ring_in),
    .instret_o      (instret),
    .w_start_i      (w_start),
    .start_ctx_i    (start_w),
    .start_entry_i  (worker_entry),
    .start_arg_i    (worker_arg),
    .clr_busy_o     (clr_busy),
    .clr_we_o       (clr_we),
    .clr_waddr_o    (clr_waddr),
    .clr_wdata_o    (clr_wdata),
    .ctx_sel_i,
    .ctx_sel_next_i,
    .ctx_pc_o,
    .ctx_instret_o
  );

  // CYCLE: counts while the tile runs or waits in a sync (two SB_MAC16 on the iCE40).
  ipu_counter64 u_cycles (
    .clk_i,
    .clear_i (run_clr),
    .inc_i   (state == TileStateRunning || state == TileStateSyncWait),
    .count_o (cycles_q)
  );

  // Pipeline registers. The contexts of RF and EX start one and two slots behind IF, as
  // the rings assume.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rf_valid_q       <= 1'b0;
      rf_ctx_q         <= CtxW'(NumCtx - 1);
      rf_fetch_fault_q <= 1'b0;
      ex_valid_q       <= 1'b0;
      ex_insn_q        <= 32'd0;
      ex_sel_q         <= '0;
      ex_ctx_q         <= CtxW'(NumCtx - 2);
      ex_fetch_fault_q <= 1'b0;
      wb_valid_q       <= 1'b0;
      wb_ctx_q         <= '0;
      wb_pc_q          <= 32'd0;
      wb_insn_q        <= 32'd0;
      wb_rd_q          <= 5'd0;
    end else begin
      rf_valid_q       <= if_issue;
      rf_ctx_q         <= slot_q;
      rf_fetch_fault_q <= !if_pc_ok;
      ex_valid_q       <= rf_valid_q && !start_i;  // START drops what was fetched before it
      ex_insn_q        <= fetch_rdata_i;
      ex_sel_q         <= rf_sel;
      ex_ctx_q         <= rf_ctx_q;
      ex_fetch_fault_q <= rf_fetch_fault_q;
      wb_valid_q       <= commit;
      if (commit) begin
        wb_ctx_q   <= ex_ctx_q;
        wb_pc_q    <= ex_pc;
        wb_insn_q  <= insn;
        wb_rd_q    <= ex_wr ? rd : 5'd0;
      end
    end
  end

  // WB's value as AND-OR terms that are zero unless they apply: the result of an
  // instruction that retires with a value for rd != x0 (zero otherwise, also in the cycles
  // nothing retires: a synchronous clear, free), or a load's bytes (the load/store unit's,
  // by one-hot lane selects). The register file's write data is then one flat OR with the
  // clearer's a0.
  always_ff @(posedge clk_i) begin
    wb_value_q <= (commit && ex_wr && !ex_load && rd != 5'd0) ? ex_result : 32'd0;
  end

  // ---------------------------------------------------------------------------
  // WB: the retire trace.
  // ---------------------------------------------------------------------------
  logic [31:0] wb_value;
  assign wb_value = wb_value_q | ld_value;

  assign rvfi_valid_o    = wb_valid_q;
  assign rvfi_ctx_o      = wb_ctx_q;
  assign rvfi_pc_o       = wb_pc_q;
  assign rvfi_insn_o     = wb_insn_q;
  assign rvfi_rd_o       = wb_rd_q;
  assign rvfi_rd_value_o = wb_value;  // zero for x0 (and when nothing retires)

  // Status outputs.
  assign state_o         = state;
  assign cycles_o        = cycles_q;
  assign console_valid_o = con_valid;
  assign hx_tile_o       = hx_tile;

  // A context never has two instructions in flight (the barrel guarantees it).
`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      OneInFlight: assert (!(ex_valid_q && wb_valid_q && ex_ctx_q == wb_ctx_q) &&
                           !(rf_valid_q && ex_valid_q && rf_ctx_q == ex_ctx_q) &&
                           !(rf_valid_q && wb_valid_q && rf_ctx_q == wb_ctx_q))
        else $error("context %0d issued twice in a row", ex_ctx_q);
    end
  end
`endif

endmodule : ipu_tile_core
