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
module ipu_tile_core
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumWorkers = 6,
  parameter int unsigned SramBytes  = 65536,
  localparam int unsigned NumCtx = NumWorkers + 1,
  localparam int unsigned CtxIdxW = $clog2(NumCtx),  // an index into the per-context state
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
  input  logic [31:0]   watchdog_units_i,
  input  logic          start_i,    // RUN_CTRL.START: reset run state, start if enabled
  input  logic          halt_i,     // RUN_CTRL.HALT or another tile faulted: stop where we are
  input  logic          release_i,  // the sync this tile waits in completed

  // Status for the register block.
  output tile_state_e   state_o,
  output logic [31:0]   exit_code_o,
  output logic [31:0]   sync_req_o,
  output logic [63:0]   cycles_o,
  input  logic [CtxW-1:0] ctx_sel_i,
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

  // Is `a` in the tile's SRAM? With a power-of-two SRAM (SRAM_BASE is 1 MiB aligned, the
  // SRAM at most 1 MiB) that is a compare of the high address bits, not two 32-bit ones.
  localparam bit SramPow2 = SramBytes == 2 ** (Aw + 2);
  function automatic logic in_sram(input logic [31:0] a);
    if (SramPow2) in_sram = a[31:Aw+2] == TileSramBase[31:Aw+2];
    else          in_sram = a >= TileSramBase && a - TileSramBase < SramSize;
  endfunction

  // Per-context state has NumCtx slots (not MaxCtx): the board's worker count sizes
  // the core. Context numbers on ports stay CtxW bits wide; every one used as an index
  // is below NumCtx (the barrel's slot, WORKER_START's checked number, TILE_CTX_SEL's).
  /* verilator lint_off UNUSEDSIGNAL */  // the high bits are zero for every index used
  function automatic logic [CtxIdxW-1:0] cx(input logic [CtxW-1:0] c);
    cx = c[CtxIdxW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------------
  tile_state_e state_q, state_d;
  logic [31:0] pc_q      [NumCtx];
  logic [31:0] pc_d      [NumCtx];
  ctx_state_e  cstate_q  [NumCtx];
  ctx_state_e  cstate_d  [NumCtx];
  logic [63:0] instret_q [NumCtx];
  logic [63:0] instret_d [NumCtx];
  logic [31:0] rvalid_q  [NumCtx];  // bit r: x[r] was written since the context started
  logic [31:0] rvalid_d  [NumCtx];
  logic [31:0] a0init_q  [NumCtx];  // a0 of a context until it writes a0 itself
  logic [31:0] a0init_d  [NumCtx];

  logic [31:0] exit_code_q, exit_code_d;
  logic [31:0] worker_entry_q, worker_entry_d;
  logic [31:0] worker_arg_q, worker_arg_d;
  logic [31:0] fail_info_q, fail_info_d;
  logic [31:0] hx_dev_q, hx_dev_d;
  logic [31:0] hx_tile_q, hx_tile_d;
  logic [MaxCtx-1:0] fail_mask_q, fail_mask_d;
  logic [31:0] sync_req_q, sync_req_d;
  logic        has_fault_q, has_fault_d;
  logic        err_pending_q, err_pending_d;
  logic [31:0] f_cause_q, f_cause_d, f_pc_q, f_pc_d, f_addr_q, f_addr_d, f_info_q, f_info_d;
  logic [CtxW-1:0] f_ctx_q, f_ctx_d;
  logic        con_valid_q, con_valid_d;
  logic [7:0]  con_byte_q, con_byte_d;
  // Retired this run, for the watchdog: its limit is below 2^42, so 42 bits that stop at
  // their maximum (still above any limit) do what 64 would.
  logic [41:0] insns_q, insns_d;
  logic [63:0] cycles_q, cycles_d;
  logic        hx_pend_q, hx_pend_d, hx_th_q, hx_th_d;
  logic [31:0] hx_len_q, hx_len_d, hx_pc_q, hx_pc_d;
  logic [CtxW-1:0] hx_ctx_q, hx_ctx_d;

  // Pipeline registers.
  logic [CtxW-1:0] slot_q, slot_d;
  logic            rf_valid_q;
  logic [CtxW-1:0] rf_ctx_q;
  logic [31:0]     rf_pc_q;
  logic            rf_fetch_fault_q;
  logic            ex_valid_q;
  logic [31:0]     ex_insn_q;
  logic [CtxW-1:0] ex_ctx_q;
  logic [31:0]     ex_pc_q;
  logic            ex_fetch_fault_q;
  logic            wb_valid_q;
  logic [CtxW-1:0] wb_ctx_q;
  logic [31:0]     wb_pc_q, wb_insn_q, wb_value_q;
  logic [4:0]      wb_rd_q;
  logic            wb_load_q;
  logic [2:0]      wb_f3_q;
  logic [1:0]      wb_off_q;

  logic running;
  assign running = state_q == TileStateRunning;

  logic any_worker_running;
  always_comb begin
    any_worker_running = 1'b0;
    for (int unsigned w = 1; w <= NumWorkers; w++) begin
      if (cstate_q[w] == CtxStateRunning) any_worker_running = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------
  // IF: the slot's context fetches unless port A is taken this cycle.
  // ---------------------------------------------------------------------------
  logic [31:0] if_pc;
  logic        if_issue, if_pc_ok;

  assign slot_d   = (32'(slot_q) == NumCtx - 1) ? '0 : slot_q + 1'b1;
  assign if_pc    = pc_q[cx(slot_q)];
  assign if_pc_ok = if_pc[1:0] == 2'b00 && in_sram(if_pc);
  assign if_issue = running && cstate_q[cx(slot_q)] == CtxStateRunning && !fetch_stall_i && !start_i &&
                    !xu_busy_i && !xu_start_o && !hx_pend_q;

  assign fetch_req_o  = if_issue && if_pc_ok;
  assign fetch_addr_o = if_pc[Aw+1:2];  // SRAM_BASE is 1 MiB aligned, SRAM at most 1 MiB

  // ---------------------------------------------------------------------------
  // EX: decode and execute.
  // ---------------------------------------------------------------------------
  logic [31:0] insn;
  logic [6:0]  opcode;
  logic [4:0]  rd, rs1, rs2;
  logic [2:0]  f3;
  logic [6:0]  f7;
  logic [31:0] imm_i, imm_s, imm_b, imm_j, imm_u;
  logic [31:0] rf_a, rf_b, rs1v, rs2v;
  logic [11:0] csr;

  assign insn   = ex_insn_q;
  assign opcode = insn[6:0];
  assign rd     = insn[11:7];
  assign f3     = insn[14:12];
  assign rs1    = insn[19:15];
  assign rs2    = insn[24:20];
  assign f7     = insn[31:25];
  assign csr    = insn[31:20];
  assign imm_i  = {{20{insn[31]}}, insn[31:20]};
  assign imm_s  = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  assign imm_b  = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
  assign imm_j  = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};
  assign imm_u  = {insn[31:12], 12'b0};

  // Registers never written since the context started read as zero (a0: its start argument).
  assign rs1v = rvalid_q[cx(ex_ctx_q)][rs1] ? rf_a : (rs1 == 5'd10 ? a0init_q[cx(ex_ctx_q)] : 32'd0);
  assign rs2v = rvalid_q[cx(ex_ctx_q)][rs2] ? rf_b : (rs2 == 5'd10 ? a0init_q[cx(ex_ctx_q)] : 32'd0);

  ipu_tile_regfile #(.AddrW(CtxW + 5)) u_regfile (
    .clk_i,
    .raddr_a_i ({rf_ctx_q, fetch_rdata_i[19:15]}),  // RF: rs1 and rs2 of the fetched instruction
    .rdata_a_o (rf_a),
    .raddr_b_i ({rf_ctx_q, fetch_rdata_i[24:20]}),
    .rdata_b_o (rf_b),
    .we_i      (wb_valid_q && wb_rd_q != 5'd0),
    .waddr_i   ({wb_ctx_q, wb_rd_q}),
    .wdata_i   (rvfi_rd_value_o)
  );

  logic [31:0] alu_b, alu_res;
  logic        alu_alt, alu_md;
  assign alu_b   = opcode == OpImm ? imm_i : rs2v;
  assign alu_alt = opcode == OpReg ? f7[5] : (f3 == 3'd5 && f7[5]);
  assign alu_md  = opcode == OpReg && f7 == 7'h01;

  // Divisions take the multi-cycle divider: the context retries the instruction until
  // the divider is done with its operands (they cannot change: only the context itself
  // writes its registers), then retires it with the result.
  logic            is_div, div_idle, div_done, div_mine, div_start, div_consume;
  logic [CtxW-1:0] div_ctx;
  logic [31:0]     div_result;
  assign is_div      = opcode == OpReg && f7 == 7'h01 && f3[2];
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
  logic [2:0] alu_f3;
  logic       alu_lt;
  assign alu_f3 = opcode == OpBranch ? {2'b01, f3[1]} : f3;

  ipu_tile_alu u_alu (
    .funct3_i (alu_f3),
    .alt_i    (alu_alt),
    .muldiv_i (alu_md),
    .a_i      (rs1v),
    .b_i      (alu_b),
    .result_o (alu_res),
    .lt_o     (alu_lt)
  );

  // CSR read side.
  logic        csr_exists;
  logic [31:0] csr_old;
  always_comb begin
    csr_exists = 1'b1;
    csr_old    = 32'd0;
    unique case (csr)
      CsrCycle:       csr_old = cycles_q[31:0];
      CsrCycleh:      csr_old = cycles_q[63:32];
      CsrInstret:     csr_old = instret_q[cx(ex_ctx_q)][31:0];
      CsrInstreth:    csr_old = instret_q[cx(ex_ctx_q)][63:32];
      CsrTileId:      csr_old = {16'd0, tile_id_i};
      CsrContextId:   csr_old = {29'd0, ex_ctx_q};
      CsrNumTiles:    csr_old = {16'd0, num_tiles_i};
      CsrNumWorkers:  csr_old = 32'(NumWorkers);
      CsrSramSize:    csr_old = SramSize;
      CsrWorkerEntry: csr_old = worker_entry_q;
      CsrWorkerArg:   csr_old = worker_arg_q;
      CsrHxDevAddr:   csr_old = hx_dev_q;
      CsrHxTileAddr:  csr_old = hx_tile_q;
      CsrFailInfo:    csr_old = fail_info_q;
      CsrSync, CsrWorkerStart, CsrWorkerExit, CsrConsole, CsrExit, CsrHxStart, CsrExchange, CsrFail:
        csr_old = 32'd0;  // write-only: reads as zero
      default:        csr_exists = 1'b0;  // includes FFLAGS/FRM/FCSR: no F extension yet
    endcase
  end

  logic supervisor_only;
  assign supervisor_only = csr == CsrSync || csr == CsrWorkerEntry || csr == CsrWorkerArg ||
                           csr == CsrWorkerStart || csr == CsrWorkerJoin || csr == CsrExit ||
                           csr == CsrExchange;

  // Execute outcome.
  logic        ex_go, ex_fault, ex_retry, ex_wr, ex_load, ex_store;
  logic [31:0] ex_cause, ex_faddr, ex_finfo, ex_fpc, ex_next_pc, ex_result, ex_maddr;
  logic [31:0] csr_src, csr_val, hx_len;
  logic        csr_rd_en, csr_wr_en;
  csr_act_e    ex_act;
  logic        taken, illegal;
  logic [2:0]  start_w;

  // While the exchange unit reads a list or the card moves a host exchange the tile
  // executes nothing: an instruction already fetched is dropped and fetched again.
  assign ex_go = ex_valid_q && running && cstate_q[cx(ex_ctx_q)] == CtxStateRunning && !xu_busy_i && !hx_pend_q;
  assign start_w = csr_val[CtxW-1:0];
  assign csr_src = f3[2] ? {27'd0, rs1} : rs1v;
  assign csr_rd_en = !(f3[1:0] == 2'd1 && rd == 5'd0);
  assign csr_wr_en = f3[1:0] == 2'd1 || rs1 != 5'd0;
  assign hx_len = {1'b0, csr_val[30:0]};

  always_comb begin
    unique case (f3[1:0])
      2'd1:    csr_val = csr_src;
      2'd2:    csr_val = csr_old | csr_src;
      default: csr_val = csr_old & ~csr_src;
    endcase
  end

  always_comb begin
    illegal       = 1'b0;
    ex_fault      = 1'b0;
    ex_retry      = 1'b0;
    ex_cause      = 32'(ErrNone);
    ex_faddr      = 32'd0;
    ex_finfo      = 32'd0;
    ex_fpc        = ex_pc_q;
    ex_next_pc    = ex_pc_q + 32'd4;
    ex_wr         = 1'b0;
    ex_result     = alu_res;
    ex_load       = 1'b0;
    ex_store      = 1'b0;
    ex_maddr      = 32'd0;
    ex_act        = CsrActNone;
    taken         = 1'b0;

    unique case (opcode)
      OpLui:   begin ex_wr = 1'b1; ex_result = imm_u; end
      OpAuipc: begin ex_wr = 1'b1; ex_result = ex_pc_q + imm_u; end
      OpJal: begin
        ex_wr = 1'b1;
        ex_result = ex_pc_q + 32'd4;
        ex_next_pc = ex_pc_q + imm_j;
      end
      OpJalr: begin
        illegal = f3 != 3'd0;
        ex_wr = 1'b1;
        ex_result = ex_pc_q + 32'd4;
        ex_next_pc = (rs1v + imm_i) & ~32'd1;
      end
      OpBranch: begin
        unique case (f3)
          3'd0: taken = rs1v == rs2v;
          3'd1: taken = rs1v != rs2v;
          3'd4, 3'd6: taken = alu_lt;  // the ALU compares as SLT / SLTU
          3'd5, 3'd7: taken = !alu_lt;
          default: illegal = 1'b1;
        endcase
        if (taken) ex_next_pc = ex_pc_q + imm_b;
      end
      OpLoad: begin
        ex_maddr = rs1v + imm_i;
        ex_wr = 1'b1;
        if (f3 == 3'd3 || f3 > 3'd5) begin
          illegal = 1'b1;
        end else if ((f3[1:0] == 2'd1 && ex_maddr[0]) || (f3[1:0] == 2'd2 && ex_maddr[1:0] != 2'd0)) begin
          ex_fault = 1'b1; ex_cause = 32'(ErrLoadMisaligned); ex_faddr = ex_maddr;
        end else if (!in_sram(ex_maddr)) begin
          ex_fault = 1'b1; ex_cause = 32'(ErrLoadFault); ex_faddr = ex_maddr;
        end else begin
          ex_load = 1'b1;
        end
      end
      OpStore: begin
        ex_maddr = rs1v + imm_s;
        if (f3 > 3'd2) begin
          illegal = 1'b1;
        end else if ((f3[1:0] == 2'd1 && ex_maddr[0]) || (f3[1:0] == 2'd2 && ex_maddr[1:0] != 2'd0)) begin
          ex_fault = 1'b1; ex_cause = 32'(ErrStoreMisaligned); ex_faddr = ex_maddr;
        end else if (!in_sram(ex_maddr)) begin
          ex_fault = 1'b1; ex_cause = 32'(ErrStoreFault); ex_faddr = ex_maddr;
        end else begin
          ex_store = 1'b1;
        end
      end
      OpImm: begin
        ex_wr = 1'b1;
        if (f3 == 3'd1) illegal = f7 != 7'h00;
        if (f3 == 3'd5) illegal = f7 != 7'h00 && f7 != 7'h20;
      end
      OpReg: begin
        ex_wr = 1'b1;
        illegal = f7 != 7'h00 && f7 != 7'h01 && !(f7 == 7'h20 && (f3 == 3'd0 || f3 == 3'd5));
        if (is_div) begin
          if (div_mine) ex_result = div_result;
          else ex_retry = 1'b1;  // until the divider has this context's result
        end
      end
      OpFence: ;  // one memory, no caches: nothing to order
      OpSystem: begin
        if (f3 == 3'd0) begin
          if (insn == InsnEcall) begin
            ex_fault = 1'b1; ex_cause = 32'(ErrEcall);
          end else if (insn == InsnEbreak) begin
            ex_fault = 1'b1; ex_cause = 32'(ErrEbreak);
          end else begin
            illegal = 1'b1;
          end
        end else if (f3 == 3'd4) begin
          illegal = 1'b1;
        end else if (ex_ctx_q != '0 && supervisor_only) begin
          ex_fault = 1'b1; ex_cause = 32'(ErrWorkerMisuse); ex_faddr = {20'd0, csr};
        end else if (csr == CsrWorkerJoin) begin
          if (csr_wr_en) begin
            illegal = 1'b1;
          end else if (any_worker_running) begin
            ex_retry = 1'b1;  // stalls without retiring until every worker exited
          end else begin
            ex_wr = 1'b1;
            ex_result = 32'(fail_mask_q);
            ex_act = CsrActWorkerJoin;
          end
        end else if (!csr_exists) begin
          illegal = 1'b1;
        end else begin
          ex_wr = 1'b1;
          ex_result = csr_rd_en ? csr_old : 32'd0;
          if (csr_wr_en) begin
            unique case (csr)
              CsrWorkerEntry: ex_act = CsrActWorkerEntry;
              CsrWorkerArg:   ex_act = CsrActWorkerArg;
              CsrHxDevAddr:   ex_act = CsrActHxDevAddr;
              CsrHxTileAddr:  ex_act = CsrActHxTileAddr;
              CsrFailInfo:    ex_act = CsrActFailInfo;
              CsrConsole: begin
                if (con_valid_q && !console_ready_i) ex_retry = 1'b1;
                else ex_act = CsrActConsole;
              end
              CsrWorkerStart: begin
                if (csr_val == 32'd0 || csr_val > 32'(NumWorkers) || cstate_q[cx(start_w)] == CtxStateRunning) begin
                  ex_fault = 1'b1; ex_cause = 32'(ErrWorkerMisuse); ex_faddr = csr_val;
                end else begin
                  ex_act = CsrActWorkerStart;
                end
              end
              CsrWorkerExit: begin
                if (ex_ctx_q == '0) begin
                  ex_fault = 1'b1; ex_cause = 32'(ErrWorkerMisuse); ex_faddr = {20'd0, csr};
                end else begin
                  ex_act = CsrActWorkerExit;
                end
              end
              CsrSync: begin
                if (csr_val[7:0] != SyncKindInternal && csr_val[7:0] != SyncKindExternal) illegal = 1'b1;
                else ex_act = CsrActSync;
              end
              CsrExit: ex_act = CsrActExit;
              CsrFail: begin
                ex_fault = 1'b1; ex_cause = csr_val; ex_finfo = fail_info_q;
              end
              CsrHxStart: begin
                if (hx_len == 32'd0 || !sram_span_ok(hx_tile_q, hx_len, SramSize)) begin
                  ex_fault = 1'b1; ex_cause = 32'(ErrHostExchange); ex_faddr = hx_tile_q; ex_finfo = hx_len;
                end else begin
                  ex_act = CsrActHxStart;  // retires; the card then moves the bytes
                end
              end
              CsrExchange: begin
                if (!xu_done_i) begin
                  ex_retry = 1'b1;  // the exchange unit reads the list first
                end else if (xu_fault_i) begin
                  ex_fault = 1'b1; ex_cause = 32'(ErrBadExchange); ex_faddr = xu_fault_addr_i;
                  ex_finfo = xu_fault_info_i;
                end
              end
              default: illegal = 1'b1;  // read-only CSR written
            endcase
          end
        end
      end
      default: illegal = 1'b1;
    endcase

    if (illegal) begin
      ex_fault = 1'b1;
        ex_cause = 32'(ErrIllegalInstruction);
      ex_faddr = insn;
      ex_finfo = 32'd0;
    end
    if (ex_fetch_fault_q) begin
      ex_fault = 1'b1;
        ex_retry = 1'b0;
      ex_cause = 32'(ErrFetchFault);
      ex_faddr = ex_pc_q;
      ex_finfo = 32'd0;
    end
    if (ex_fault) begin
      ex_retry = 1'b0;
      ex_load = 1'b0;
      ex_store = 1'b0;
    end
  end

  logic commit, trap, ex_exchange;
  assign commit = ex_go && !ex_fault && !ex_retry;
  assign trap   = ex_go && ex_fault;

  // EXCHANGE reaches the CSR write path only from the supervisor with a valid encoding.
  assign ex_exchange  = ex_go && !ex_fetch_fault_q && opcode == OpSystem && f3 != 3'd0 && f3 != 3'd4 &&
                        csr == CsrExchange && csr_wr_en && ex_ctx_q == '0;
  assign xu_start_o   = ex_exchange && !xu_done_i && !xu_busy_i;
  assign xu_list_o    = csr_val;
  assign xu_consume_o = ex_exchange && xu_done_i;

  // Watchdog: the instruction that exceeds the budget retires, then the tile faults.
  logic [41:0] wd_limit;
  logic        wd_hit;
  assign wd_limit = {watchdog_units_i, 10'd0};
  assign wd_hit   = commit && wd_limit != 42'd0 && {1'b0, insns_q} + 43'd1 > {1'b0, wd_limit};

  // Data port.
  assign data_req_o   = ex_go && (ex_load || ex_store);
  assign data_we_o    = ex_store;
  assign data_addr_o  = ex_maddr[Aw+1:2];  // SRAM_BASE is 1 MiB aligned, SRAM at most 1 MiB
  always_comb begin
    unique case (f3[1:0])
      2'd0:    begin data_be_o = 4'b0001 << ex_maddr[1:0]; data_wdata_o = {4{rs2v[7:0]}}; end
      2'd1:    begin data_be_o = 4'b0011 << ex_maddr[1:0]; data_wdata_o = {2{rs2v[15:0]}}; end
      default: begin data_be_o = 4'b1111;                  data_wdata_o = rs2v; end
    endcase
  end

  // ---------------------------------------------------------------------------
  // Next state.
  // ---------------------------------------------------------------------------
  always_comb begin
    for (int unsigned c = 0; c < NumCtx; c++) begin
      pc_d[c]      = pc_q[c];
      cstate_d[c]  = cstate_q[c];
      instret_d[c] = instret_q[c];
      rvalid_d[c]  = rvalid_q[c];
      a0init_d[c]  = a0init_q[c];
    end
    state_d        = state_q;
    exit_code_d    = exit_code_q;
    worker_entry_d = worker_entry_q;
    worker_arg_d   = worker_arg_q;
    fail_info_d    = fail_info_q;
    hx_dev_d       = hx_dev_q;
    hx_tile_d      = hx_tile_q;
    fail_mask_d    = fail_mask_q;
    sync_req_d     = sync_req_q;
    has_fault_d    = has_fault_q;
    err_pending_d  = err_pending_q && !err_ack_i;
    f_cause_d      = f_cause_q;
    f_ctx_d        = f_ctx_q;
    f_pc_d         = f_pc_q;
    f_addr_d       = f_addr_q;
    f_info_d       = f_info_q;
    con_valid_d    = con_valid_q && !console_ready_i;
    con_byte_d     = con_byte_q;
    insns_d        = insns_q;
    hx_pend_d      = hx_pend_q;
    hx_len_d       = hx_len_q;
    hx_th_d        = hx_th_q;
    hx_ctx_d       = hx_ctx_q;
    hx_pc_d        = hx_pc_q;
    cycles_d       = cycles_q + ((state_q == TileStateRunning || state_q == TileStateSyncWait) ? 64'd1 : 64'd0);

    // Register writes mark the register valid (x0 never is).
    if (wb_valid_q && wb_rd_q != 5'd0) rvalid_d[cx(wb_ctx_q)][wb_rd_q] = 1'b1;

    if (commit) begin
      pc_d[cx(ex_ctx_q)]      = ex_next_pc;
      instret_d[cx(ex_ctx_q)] = instret_q[cx(ex_ctx_q)] + 64'd1;
      insns_d             = insns_q + 42'(insns_q != '1);
      unique case (ex_act)
        CsrActWorkerEntry: worker_entry_d = csr_val;
        CsrActWorkerArg:   worker_arg_d = csr_val;
        CsrActHxDevAddr:   hx_dev_d = csr_val;
        CsrActHxTileAddr:  hx_tile_d = csr_val;
        CsrActFailInfo:    fail_info_d = csr_val;
        CsrActConsole: begin
          con_valid_d = 1'b1;
          con_byte_d  = csr_val[7:0];
        end
        CsrActWorkerStart: begin
          pc_d[cx(start_w)]     = worker_entry_q;
          cstate_d[cx(start_w)] = CtxStateRunning;
          rvalid_d[cx(start_w)] = 32'd0;
          a0init_d[cx(start_w)] = worker_arg_q;
        end
        CsrActWorkerJoin: fail_mask_d = '0;
        CsrActWorkerExit: begin
          cstate_d[cx(ex_ctx_q)] = CtxStateDone;
          if (csr_val != 32'd0) fail_mask_d[ex_ctx_q] = 1'b1;
        end
        CsrActSync: begin
          sync_req_d = csr_val;
          cstate_d[cx(ex_ctx_q)] = CtxStateBlocked;
        end
        CsrActExit: begin
          exit_code_d = csr_val;
          cstate_d[cx(ex_ctx_q)] = CtxStateDone;
        end
        CsrActHxStart: begin
          hx_pend_d = 1'b1;
          hx_len_d  = hx_len;
          hx_th_d   = csr_val[31];
          hx_ctx_d  = ex_ctx_q;
          hx_pc_d   = ex_pc_q;
        end
        default: ;
      endcase
    end

    // The card finished the host exchange, or it failed: the tile faults at HX_START.
    if (hx_pend_q && hx_done_i) hx_pend_d = 1'b0;
    if (hx_pend_q && hx_fault_i) begin
      hx_pend_d = 1'b0;
      cstate_d[cx(hx_ctx_q)] = CtxStateFaulted;
      state_d = TileStateError;
      if (!has_fault_q) begin
        has_fault_d   = 1'b1;
        err_pending_d = 1'b1;
        f_ctx_d       = hx_ctx_q;
        f_cause_d     = hx_cause_i;
        f_pc_d        = hx_pc_q;
        f_addr_d      = hx_addr_i;
        f_info_d      = hx_len_q;
      end
    end

    // Faults: the first of a run is recorded; the context and the tile stop.
    if (trap || wd_hit) begin
      cstate_d[cx(ex_ctx_q)] = CtxStateFaulted;
      state_d = TileStateError;
      if (!has_fault_q) begin
        has_fault_d   = 1'b1;
        err_pending_d = 1'b1;
        f_ctx_d       = ex_ctx_q;
        if (ex_fault) begin
          f_cause_d = ex_cause;
          f_pc_d    = ex_fpc;
          f_addr_d  = ex_faddr;
          f_info_d  = ex_finfo;
        end else begin
          f_cause_d = 32'(ErrWatchdog);
          f_pc_d    = ex_next_pc;
          f_addr_d  = ex_next_pc;
          f_info_d  = insns_d[41:10];
        end
      end
    end

    // Tile state.
    unique case (state_q)
      TileStateOff, TileStateReady: state_d = enable_i ? TileStateReady : TileStateOff;
      TileStateRunning: begin
        if (state_d != TileStateError) begin
          if (halt_i) state_d = TileStateReady;
          else if (cstate_q[0] == CtxStateDone && !any_worker_running) state_d = TileStateExited;
          else if (cstate_q[0] == CtxStateBlocked && !any_worker_running) state_d = TileStateSyncWait;
        end
      end
      TileStateSyncWait: begin
        if (halt_i) begin
          state_d = TileStateReady;
        end else if (release_i) begin
          state_d = TileStateRunning;
          cstate_d[0] = CtxStateRunning;
        end
      end
      default: ;  // EXITED and ERROR stay until the next START
    endcase

    if (start_i) begin
      for (int unsigned c = 0; c < NumCtx; c++) begin
        pc_d[c]      = 32'd0;
        cstate_d[c]  = CtxStateIdle;
        instret_d[c] = 64'd0;
        rvalid_d[c]  = 32'd0;
        a0init_d[c]  = 32'd0;
      end
      state_d       = enable_i ? TileStateRunning : TileStateOff;
      pc_d[0]       = entry_i;
      a0init_d[0]   = boot_arg_i;
      cstate_d[0]   = enable_i ? CtxStateRunning : CtxStateIdle;
      exit_code_d   = 32'd0;
      fail_mask_d   = '0;
      has_fault_d   = 1'b0;
      err_pending_d = 1'b0;
      insns_d       = '0;
      cycles_d      = 64'd0;
      hx_pend_d     = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned c = 0; c < NumCtx; c++) begin
        pc_q[c]      <= 32'd0;
        cstate_q[c]  <= CtxStateIdle;
        instret_q[c] <= 64'd0;
      end
      state_q        <= TileStateOff;
      exit_code_q    <= 32'd0;
      worker_entry_q <= 32'd0;
      worker_arg_q   <= 32'd0;
      fail_info_q    <= 32'd0;
      hx_dev_q       <= 32'd0;
      hx_tile_q      <= 32'd0;
      fail_mask_q    <= '0;
      sync_req_q     <= 32'd0;
      has_fault_q    <= 1'b0;
      err_pending_q  <= 1'b0;
      con_valid_q    <= 1'b0;
      con_byte_q     <= 8'd0;
      cycles_q       <= 64'd0;
      slot_q         <= '0;
      hx_pend_q      <= 1'b0;
      hx_len_q       <= 32'd0;
      hx_th_q        <= 1'b0;
      hx_ctx_q       <= '0;
      hx_pc_q        <= 32'd0;
    end else begin
      for (int unsigned c = 0; c < NumCtx; c++) begin
        pc_q[c]      <= pc_d[c];
        cstate_q[c]  <= cstate_d[c];
        instret_q[c] <= instret_d[c];
      end
      state_q        <= state_d;
      exit_code_q    <= exit_code_d;
      worker_entry_q <= worker_entry_d;
      worker_arg_q   <= worker_arg_d;
      fail_info_q    <= fail_info_d;
      hx_dev_q       <= hx_dev_d;
      hx_tile_q      <= hx_tile_d;
      fail_mask_q    <= fail_mask_d;
      sync_req_q     <= sync_req_d;
      has_fault_q    <= has_fault_d;
      err_pending_q  <= err_pending_d;
      con_valid_q    <= con_valid_d;
      con_byte_q     <= con_byte_d;
      cycles_q       <= cycles_d;
      slot_q         <= slot_d;
      hx_pend_q      <= hx_pend_d;
      hx_len_q       <= hx_len_d;
      hx_th_q        <= hx_th_d;
      hx_ctx_q       <= hx_ctx_d;
      hx_pc_q        <= hx_pc_d;
    end
  end

  // State that START clears and nothing reads before a START: no reset, so that the
  // clear is the FPGA flip-flops' free synchronous reset (a flip-flop with an
  // asynchronous reset needs a LUT for it).
  always_ff @(posedge clk_i) begin
    for (int unsigned c = 0; c < NumCtx; c++) begin
      rvalid_q[c] <= rvalid_d[c];
      a0init_q[c] <= a0init_d[c];
    end
    insns_q <= insns_d;
    // The fault record shows only with has_fault_q, which is set with it.
    f_cause_q <= f_cause_d;
    f_ctx_q   <= f_ctx_d;
    f_pc_q    <= f_pc_d;
    f_addr_q  <= f_addr_d;
    f_info_q  <= f_info_d;
  end

  // Pipeline registers.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rf_valid_q       <= 1'b0;
      rf_ctx_q         <= '0;
      rf_pc_q          <= 32'd0;
      rf_fetch_fault_q <= 1'b0;
      ex_valid_q       <= 1'b0;
      ex_insn_q        <= 32'd0;
      ex_ctx_q         <= '0;
      ex_pc_q          <= 32'd0;
      ex_fetch_fault_q <= 1'b0;
      wb_valid_q       <= 1'b0;
      wb_ctx_q         <= '0;
      wb_pc_q          <= 32'd0;
      wb_insn_q        <= 32'd0;
      wb_value_q       <= 32'd0;
      wb_rd_q          <= 5'd0;
      wb_load_q        <= 1'b0;
      wb_f3_q          <= 3'd0;
      wb_off_q         <= 2'd0;
    end else begin
      rf_valid_q       <= if_issue;
      rf_ctx_q         <= slot_q;
      rf_pc_q          <= if_pc;
      rf_fetch_fault_q <= !if_pc_ok;
      ex_valid_q       <= rf_valid_q && !start_i;  // START drops what was fetched before it
      ex_insn_q        <= fetch_rdata_i;
      ex_ctx_q         <= rf_ctx_q;
      ex_pc_q          <= rf_pc_q;
      ex_fetch_fault_q <= rf_fetch_fault_q;
      wb_valid_q       <= commit;
      if (commit) begin
        wb_ctx_q   <= ex_ctx_q;
        wb_pc_q    <= ex_pc_q;
        wb_insn_q  <= insn;
        wb_value_q <= ex_result;
        wb_rd_q    <= ex_wr ? rd : 5'd0;
        wb_load_q  <= ex_load;
        wb_f3_q    <= f3;
        wb_off_q   <= ex_maddr[1:0];
      end
    end
  end

  // ---------------------------------------------------------------------------
  // WB: load alignment and the retire trace.
  // ---------------------------------------------------------------------------
  logic [31:0] ld_shift, wb_value;
  assign ld_shift = data_rdata_i >> {wb_off_q, 3'b000};
  always_comb begin
    unique case (wb_f3_q)
      3'd0:    wb_value = {{24{ld_shift[7]}}, ld_shift[7:0]};
      3'd1:    wb_value = {{16{ld_shift[15]}}, ld_shift[15:0]};
      3'd4:    wb_value = {24'd0, ld_shift[7:0]};
      3'd5:    wb_value = {16'd0, ld_shift[15:0]};
      default: wb_value = ld_shift;
    endcase
  end

  assign rvfi_valid_o    = wb_valid_q;
  assign rvfi_ctx_o      = wb_ctx_q;
  assign rvfi_pc_o       = wb_pc_q;
  assign rvfi_insn_o     = wb_insn_q;
  assign rvfi_rd_o       = wb_rd_q;
  assign rvfi_rd_value_o = wb_rd_q == 5'd0 ? 32'd0 : (wb_load_q ? wb_value : wb_value_q);

  // Status outputs.
  assign state_o         = state_q;
  assign exit_code_o     = exit_code_q;
  assign sync_req_o      = sync_req_q;
  assign cycles_o        = cycles_q;
  assign ctx_state_o     = cstate_q[cx(ctx_sel_i)];
  assign ctx_pc_o        = pc_q[cx(ctx_sel_i)];
  assign ctx_instret_o   = instret_q[cx(ctx_sel_i)][31:0];
  assign has_fault_o     = has_fault_q;
  assign err_pending_o   = err_pending_q;
  assign err_cause_o     = f_cause_q;
  assign err_ctx_o       = f_ctx_q;
  assign err_pc_o        = f_pc_q;
  assign err_addr_o      = f_addr_q;
  assign err_info_o      = f_info_q;
  assign console_valid_o = con_valid_q;
  assign hx_req_o        = hx_pend_q;
  assign hx_dev_o        = hx_dev_q;
  assign hx_tile_o       = hx_tile_q;
  assign hx_len_o        = hx_len_q;
  assign hx_to_host_o    = hx_th_q;
  assign console_byte_o  = con_byte_q;

  // A context never has two instructions in flight (the barrel guarantees it).
`ifndef SYNTHESIS
  OneInFlight: assert property (@(posedge clk_i) disable iff (!rst_ni)
      !(ex_valid_q && wb_valid_q && ex_ctx_q == wb_ctx_q) &&
      !(rf_valid_q && ex_valid_q && rf_ctx_q == ex_ctx_q) &&
      !(rf_valid_q && wb_valid_q && rf_ctx_q == wb_ctx_q))
    else $error("context %0d issued twice in a row", ex_ctx_q);
`endif

endmodule : ipu_tile_core
