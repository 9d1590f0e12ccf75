// Controller of the tile core (ibex's controller, for a barrel): the tile's and the
// contexts' run states, whether the barrel's slot issues and the instruction in EX
// executes, its outcome (retire, retry at the context's next turn, or fault), the fault
// record, the watchdog and the host exchange's handshake.
//
// The causes come in raw from the decoder, the CSR file and the load/store unit; this
// module ranks them. Faults by priority: a fetch fault, an illegal instruction, then the
// rest (at most one of them). The first fault of a run is recorded; it stops the context
// and the tile.
module ipu_tile_controller
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumWorkers = 6,
  parameter int unsigned SramBytes  = 65536,
  localparam int unsigned NumCtx = NumWorkers + 1,
  localparam int unsigned CtxIdxW = $clog2(NumCtx)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            init_i,      // the first edge after reset
  input  logic            run_clr_i,   // START or init_i

  // Run control from the card.
  input  logic            enable_i,
  input  logic            start_i,
  input  logic            halt_i,
  input  logic            release_i,

  // Issue: the barrel's slot in IF, the instruction in EX.
  input  logic [CtxW-1:0] slot_i,
  input  logic            fetch_stall_i,
  input  logic            xu_busy_i,
  input  logic            xu_start_i,
  input  logic            clr_busy_i,
  output logic            issue_o,     // the slot's context fetches (if its PC is fetchable)
  input  logic            ex_valid_i,
  input  logic [CtxW-1:0] ex_ctx_i,
  input  logic            ex_fetch_fault_i,
  output logic            go_o,        // the instruction in EX executes this cycle

  // Its fault causes.
  input  logic            illegal_i,
  input  logic            load_i,
  input  logic            store_i,
  input  logic            mem_fault_i,
  input  logic            mem_mis_i,
  input  logic            ecall_i,
  input  logic            ebreak_i,
  input  logic            misuse_i,
  input  logic            w_start_i,
  input  logic            w_exit_i,
  input  logic            w_texit_i,
  input  logic            w_sync_i,
  input  logic            w_fail_i,
  input  logic            w_hxstart_i,
  input  logic            w_hxtile_i,
  input  logic            w_exchange_i,
  input  logic            join_i,
  input  logic [31:0]     wo_val_i,
  input  logic            xu_done_i,
  input  logic            xu_fault_i,
  // Its retries besides those decided here.
  input  logic            div_wait_i,      // a division whose result is not ready
  input  logic            console_wait_i,  // CONSOLE with the byte buffer full

  // The fault record's sources.
  input  logic [31:0]     insn_i,
  input  logic [31:0]     addr_i,          // a load's or store's address
  input  logic [11:0]     csr_i,
  input  logic [31:0]     hx_tile_i,
  input  logic [31:0]     fail_info_i,
  input  logic [31:0]     xu_fault_addr_i,
  input  logic [31:0]     xu_fault_info_i,
  input  logic [31:0]     ring_in_i,       // the PC the record takes
  input  logic [31:0]     watchdog_units_i,
  input  logic            wd_load_i,
  input  logic            wb_valid_i,      // the previous cycle retired

  // Outcome.
  output logic            fault_o,
  output logic            commit_o,

  // Host exchange: after HX_START retires the tile waits while the card moves the bytes.
  output logic            hx_req_o,
  output logic [31:0]     hx_len_o,
  output logic            hx_to_host_o,
  input  logic            hx_done_i,
  input  logic            hx_fault_i,
  input  logic [31:0]     hx_cause_i,
  input  logic [31:0]     hx_addr_i,

  // Status.
  output tile_state_e     state_o,
  input  logic [CtxW-1:0] ctx_sel_i,
  output ctx_state_e      ctx_state_o,
  output logic            has_fault_o,
  output logic            err_pending_o,
  input  logic            err_ack_i,
  output logic [31:0]     err_cause_o,
  output logic [CtxW-1:0] err_ctx_o,
  output logic [31:0]     err_pc_o,
  output logic [31:0]     err_addr_o,
  output logic [31:0]     err_info_o
);

  localparam logic [31:0] SramSize = 32'(SramBytes);

  // Per-context state has NumCtx slots (not MaxCtx): the board's worker count sizes
  // the core. Context numbers on ports stay CtxW bits wide; every one used as an index
  // is below NumCtx (the barrel's slot, WORKER_START's checked number, TILE_CTX_SEL's).
  /* verilator lint_off UNUSEDSIGNAL */  // the high bits are zero for every index used
  function automatic logic [CtxIdxW-1:0] cx(input logic [CtxW-1:0] c);
    cx = c[CtxIdxW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  tile_state_e state_q, state_d;
  ctx_state_e  cstate_q [NumCtx];
  ctx_state_e  cstate_d [NumCtx];
  logic        has_fault_q, err_pending_q;
  logic [31:0] f_cause_q, f_pc_q, f_addr_q, f_info_q;
  logic [CtxW-1:0] f_ctx_q;
  // The watchdog's budget left this run: START loads WATCHDOG_INSNS x 1024 (below 2^42)
  // and every retired instruction takes one; the tile faults when one retires with
  // nothing left. Counting down needs no compare against the limit (the model also
  // takes the budget at START).
  logic [41:0] wd_left_q;
  logic        wd_on_q;
  logic        hx_pend_q, hx_th_q;
  logic [30:0] hx_len_q;

  logic running;
  assign running = state_q == TileStateRunning;

  logic any_worker_running;
  always_comb begin
    any_worker_running = 1'b0;
    for (int unsigned w = 1; w <= NumWorkers; w++) begin
      if (cstate_q[w] == CtxStateRunning) any_worker_running = 1'b1;
    end
  end

  // While the exchange unit reads a list, the card moves a host exchange or the clearer
  // runs, the tile executes nothing: an instruction already fetched is dropped and fetched
  // again.
  logic go, ex_running;
  assign ex_running = cstate_q[cx(ex_ctx_i)] == CtxStateRunning;
  assign issue_o = running && cstate_q[cx(slot_i)] == CtxStateRunning && !fetch_stall_i && !start_i &&
                   !xu_busy_i && !xu_start_i && !hx_pend_q && !clr_busy_i;
  assign go      = ex_valid_i && running && ex_running && !xu_busy_i && !hx_pend_q && !clr_busy_i;
  assign go_o    = go;

  logic [CtxW-1:0] start_w;
  logic [30:0]     hx_len;
  assign start_w = wo_val_i[CtxW-1:0];
  assign hx_len  = wo_val_i[30:0];

  logic ws_bad, wexit_bad, hx_bad, xu_bad;
  assign ws_bad    = w_start_i && (wo_val_i == 32'd0 || wo_val_i > 32'(NumWorkers) ||
                                   cstate_q[cx(start_w)] == CtxStateRunning);
  assign wexit_bad = w_exit_i && ex_ctx_i == '0;
  // HX_START's range check is registered (off the commit path): its first turn checks
  // and retries, the next one faults or retires with the result. Writing HX_TILE_ADDR
  // meanwhile checks again; only the context itself writes the length's register.
  logic            hx_chk_ok_q, hx_chk_bad_q, hx_mine;
  logic [CtxW-1:0] hx_chk_ctx_q;
  assign hx_mine = hx_chk_ok_q && hx_chk_ctx_q == ex_ctx_i;
  assign hx_bad  = w_hxstart_i && hx_mine && hx_chk_bad_q;
  assign xu_bad  = w_exchange_i && xu_done_i && xu_fault_i;

  logic ex_fault, ex_retry, other_fault, commit, trap;
  logic s_fetch, s_ill, s_other;
  assign other_fault = mem_fault_i || ecall_i || ebreak_i || misuse_i || ws_bad || wexit_bad || w_fail_i ||
                       hx_bad || xu_bad;
  assign ex_fault = ex_fetch_fault_i || illegal_i || other_fault;
  assign s_fetch  = ex_fetch_fault_i;
  assign s_ill    = !ex_fetch_fault_i && illegal_i;
  assign s_other  = !ex_fetch_fault_i && !illegal_i;
  assign ex_retry = !ex_fault && (div_wait_i || (join_i && any_worker_running) || console_wait_i ||
                                  (w_exchange_i && !xu_done_i) || (w_hxstart_i && !hx_mine));
  assign commit   = go && !ex_fault && !ex_retry;
  assign trap     = go && ex_fault;
  assign fault_o  = ex_fault;
  assign commit_o = commit;

  logic [7:0]  ex_code;
  logic [31:0] ex_faddr, ex_finfo;
  always_comb begin
    if (s_fetch)                          ex_code = ErrFetchFault;
    else if (illegal_i)                   ex_code = ErrIllegalInstruction;
    else if (load_i)                      ex_code = mem_mis_i ? ErrLoadMisaligned : ErrLoadFault;
    else if (store_i)                     ex_code = mem_mis_i ? ErrStoreMisaligned : ErrStoreFault;
    else if (ecall_i)                     ex_code = ErrEcall;
    else if (ebreak_i)                    ex_code = ErrEbreak;
    else if (hx_bad)                      ex_code = ErrHostExchange;
    else if (xu_bad)                      ex_code = ErrBadExchange;
    else                                  ex_code = ErrWorkerMisuse;
  end
  assign ex_faddr = ({32{s_ill}} & insn_i) |
                    ({32{s_other && mem_fault_i}} & addr_i) |
                    ({32{s_other && (misuse_i || wexit_bad)}} & {20'd0, csr_i}) |
                    ({32{s_other && ws_bad}} & wo_val_i) |
                    ({32{s_other && hx_bad}} & hx_tile_i) |
                    ({32{s_other && xu_bad}} & xu_fault_addr_i);
  assign ex_finfo = ({32{s_other && w_fail_i}} & fail_info_i) |
                    ({32{s_other && xu_bad}} & xu_fault_info_i);

  // Watchdog: the instruction that exceeds the budget retires, then the tile faults
  // (it retires with nothing left). Whether the budget is spent is registered, off the
  // commit path: wd_cur_q for the count as it is, wd_next_q for one less, taken when the
  // previous cycle retired (wb_valid_i); the count only falls by one a cycle.
  logic wd_hit, wd_cur_q, wd_next_q;
  assign wd_hit = commit && wd_on_q && (wb_valid_i ? wd_next_q : wd_cur_q);
  always_ff @(posedge clk_i) begin
    wd_cur_q  <= !wd_load_i && wd_left_q == 42'd0;
    wd_next_q <= !wd_load_i && wd_left_q == 42'd1;
  end

  logic hx_fail, record, hx_check;
  assign hx_fail  = hx_pend_q && hx_fault_i;
  // HX_START's first turn: it checks the range and retries (see hx_chk_ok_q).
  assign hx_check = go && s_other && w_hxstart_i && !hx_chk_ok_q;
  assign record   = !has_fault_q && (trap || wd_hit || hx_fail);  // the first fault of a run

  // Context and tile states.
  always_comb begin
    for (int unsigned c = 0; c < NumCtx; c++) cstate_d[c] = cstate_q[c];
    state_d = state_q;

    if (commit && w_start_i) cstate_d[cx(start_w)] = CtxStateRunning;
    if (commit && (w_exit_i || w_texit_i)) cstate_d[cx(ex_ctx_i)] = CtxStateDone;
    if (commit && w_sync_i) cstate_d[cx(ex_ctx_i)] = CtxStateBlocked;
    // The card failed the host exchange: the tile faults at HX_START.
    if (hx_fail) begin
      cstate_d[cx(f_ctx_q)] = CtxStateFaulted;  // loaded at HX_START
      state_d = TileStateError;
    end
    // Faults stop the context and the tile.
    if (trap || wd_hit) begin
      cstate_d[cx(ex_ctx_i)] = CtxStateFaulted;
      state_d = TileStateError;
    end

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
      for (int unsigned c = 0; c < NumCtx; c++) cstate_d[c] = CtxStateIdle;
      state_d     = enable_i ? TileStateRunning : TileStateOff;
      cstate_d[0] = enable_i ? CtxStateRunning : CtxStateIdle;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned c = 0; c < NumCtx; c++) cstate_q[c] <= CtxStateIdle;
      state_q <= TileStateOff;
    end else begin
      for (int unsigned c = 0; c < NumCtx; c++) cstate_q[c] <= cstate_d[c];
      state_q <= state_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (run_clr_i || (commit && w_hxtile_i)) begin
      hx_chk_ok_q <= 1'b0;
    end else if (hx_check) begin
      hx_chk_ok_q  <= 1'b1;
      hx_chk_ctx_q <= ex_ctx_i;
      hx_chk_bad_q <= hx_len == 31'd0 || !sram_span_ok(hx_tile_i, {1'b0, hx_len}, SramSize);
    end else if (go && w_hxstart_i && hx_mine) begin
      hx_chk_ok_q <= 1'b0;  // used: HX_START retired or faulted
    end
  end

  // Counters and run state that START clears (and reset).
  always_ff @(posedge clk_i) begin
    // The card gives the budget with START or, from its block RAM, a cycle after it (the
    // register clearer runs meanwhile: nothing retires before the load).
    if (wd_load_i) wd_left_q <= {watchdog_units_i, 10'd0};
    else if (commit) wd_left_q <= wd_left_q - 42'd1;  // wraps only with the watchdog off
    if (init_i) wd_on_q <= 1'b0;
    else if (wd_load_i) wd_on_q <= watchdog_units_i != 32'd0;
    if (run_clr_i) has_fault_q <= 1'b0;
    else if (record) has_fault_q <= 1'b1;
    if (run_clr_i) err_pending_q <= 1'b0;
    else if (record) err_pending_q <= 1'b1;
    else if (err_ack_i) err_pending_q <= 1'b0;
    if (run_clr_i) hx_pend_q <= 1'b0;
    else if (commit && w_hxstart_i) hx_pend_q <= 1'b1;  // retires; the card then moves the bytes
    else if (hx_pend_q && (hx_done_i || hx_fault_i)) hx_pend_q <= 1'b0;
  end

  // Loaded from the instruction stream; read only after what loads them.
  always_ff @(posedge clk_i) begin
    // HX_START's length and direction, taken at its check turn (the card reads them only
    // after it retired; no other context checks meanwhile): its range fault's info.
    if (hx_check) begin
      hx_len_q <= hx_len;
      hx_th_q  <= wo_val_i[31];
    end
    // The fault record shows only with has_fault_q, which is set with it. HX_START's check
    // turn loads its context and PC (it retries there, so ring_in is its own PC; no other
    // fault can come while the card moves the bytes, and none came before: the tile would
    // have stopped), so that a failed host exchange adds only its cause, address and
    // length. The budget's load after START gives the watchdog's info (the budget in
    // units: the count that exceeds it, shifted down) for a fault that may never come.
    if ((record && !hx_fail) || hx_check) begin
      f_ctx_q  <= ex_ctx_i;
      f_pc_q   <= ring_in_i;
    end
    if (wd_load_i || (record && !wd_hit))
      f_info_q <= ({32{wd_load_i}} & watchdog_units_i) |
                  ({32{!wd_load_i && (hx_fail || (trap && s_other && hx_bad))}} & {1'b0, hx_len_q}) |
                  ({32{!wd_load_i && trap}} & ex_finfo);
    // Each field one flat AND-OR of its sources (one applies): fewer LUTs than nested
    // multiplexers. FAIL takes any cause.
    if (record) begin
      f_cause_q <= ({32{trap && s_other && w_fail_i}} & wo_val_i) |
                   {24'd0, {8{trap && !(s_other && w_fail_i)}} & ex_code} |
                   ({32{hx_fail}} & hx_cause_i) | ({32{wd_hit}} & 32'(ErrWatchdog));
      // A fetch fault's address and the watchdog's are the PC the record takes.
      f_addr_q  <= ({32{(trap && s_fetch) || wd_hit}} & ring_in_i) | ({32{trap}} & ex_faddr) |
                   ({32{hx_fail}} & hx_addr_i);
    end
  end

  assign state_o       = state_q;
  assign ctx_state_o   = cstate_q[cx(ctx_sel_i)];
  assign has_fault_o   = has_fault_q;
  assign err_pending_o = err_pending_q;
  assign err_cause_o   = f_cause_q;
  assign err_ctx_o     = f_ctx_q;
  assign err_pc_o      = f_pc_q;
  assign err_addr_o    = f_addr_q;
  assign err_info_o    = f_info_q;
  assign hx_req_o      = hx_pend_q;
  assign hx_len_o      = {1'b0, hx_len_q};
  assign hx_to_host_o  = hx_th_q;

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // An instruction in EX retires, faults or retries: never two of them.
      OneOutcome: assert (!(commit && trap))
        else $error("context %0d both retired and faulted", ex_ctx_i);
      // Only a running tile executes, and only a running context of it.
      GoRunning: assert (!go || (running && ex_running))
        else $error("context %0d executed while not running", ex_ctx_i);
      // A fault stops the tile: nothing retires in an errored tile.
      ErrorStops: assert (!(state_q == TileStateError && (issue_o || go)))
        else $error("the tile issued after its fault");
      // The record is pending only once it was taken (err_pending_q implies has_fault_q).
      PendingHasFault: assert (!err_pending_q || has_fault_q)
        else $error("a fault record is pending without a fault");
      // While the card moves a host exchange the tile executes nothing.
      HxStalls: assert (!(hx_pend_q && go))
        else $error("context %0d executed during a host exchange", ex_ctx_i);
    end
  end
`endif

endmodule : ipu_tile_controller
