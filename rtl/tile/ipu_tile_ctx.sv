// Per-context state of the tile core that the barrel turns through: every context's PC,
// its INSTRET, and the register clearer that starts a context with zeroed registers.
// (ibex keeps one hart's PC in its IF stage; a barrel keeps one a context.)
//
// PCs: a ring that turns with the barrel. Entry j holds context (ex_ctx_i + j) mod NumCtx,
// so EX reads entry 0, IF (two slots ahead) entry 2, and the one write sits where entry 0
// moves to the end: no per-context write multiplexers.
//
// INSTRET: block RAM of {high, low} words, one a context (4 BRAMs on the iCE40, and 2 for
// the host's copy, instead of a ring of the low words in 96 flip-flops and a second
// incrementer). RF reads the word of the context EX runs next (rf_ctx_i), WB writes it back
// plus one when that instruction retired; the context's next read is a turn later. A copy
// of the low words answers the host's TILE_CTX_INSTRET, read at the context TILE_CTX_SEL
// selects from this edge on. After START or a reset a sweep writes both to zero, a word a
// cycle, before anything retires or the host reads.
//
// The register clearer: START clears the supervisor's registers, WORKER_START the worker's
// (a0: its start argument), 32 writes through the register file's write port in the
// cycles WB leaves free, while the tile issues nothing; it also writes the context's first
// PC when the ring brings it round. Cheaper than per-context valid masks read beside every
// register.
module ipu_tile_ctx
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumCtx = 7,
  localparam int unsigned CtxIdxW = $clog2(NumCtx)
) (
  input  logic            clk_i,
  input  logic            rst_ni,      // assertions only
  input  logic            init_i,      // the first edge after reset
  input  logic            run_clr_i,   // START or init_i: rings and counts to zero
  input  logic            start_i,     // RUN_CTRL.START: clear the supervisor
  input  logic [31:0]     entry_i,     // its first PC
  input  logic            boot_load_i, // boot_arg_i holds the supervisor's a0
  input  logic [31:0]     boot_arg_i,

  // The pipeline.
  /* verilator lint_off UNUSEDSIGNAL */  // index bits above CtxIdxW: zero for every context used
  input  logic [CtxW-1:0] rf_ctx_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [CtxW-1:0] ex_ctx_i,
  input  logic            commit_i,    // the instruction in EX retires
  input  logic [31:0]     next_pc_i,   // its successor
  input  logic            wb_valid_i,  // WB writes the register file this cycle
  output logic [31:0]     if_pc_o,
  output logic [31:0]     ex_pc_o,
  output logic [31:0]     ring_in_o,   // EX's context's PC as it moves to the ring's end
  output logic [63:0]     instret_o,   // EX's context's count (read in RF)

  // WORKER_START, retiring: clear that worker and start it at its entry.
  input  logic            w_start_i,
  input  logic [CtxW-1:0] start_ctx_i,
  input  logic [31:0]     start_entry_i,
  input  logic [31:0]     start_arg_i,

  // The clearer's writes into the register file (when WB leaves the port free).
  output logic            clr_busy_o,
  output logic            clr_we_o,
  output logic [CtxW+4:0] clr_waddr_o,
  output logic [31:0]     clr_wdata_o,  // a0's start value, zero for every other register

  // The host's view of the context TILE_CTX_SEL selects.
  input  logic [CtxW-1:0] ctx_sel_i,
  /* verilator lint_off UNUSEDSIGNAL */  // as rf_ctx_i
  input  logic [CtxW-1:0] ctx_sel_next_i,  // ctx_sel_i after this edge
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [31:0]     ctx_pc_o,
  output logic [31:0]     ctx_instret_o
);

  logic [31:0] pc_ring_q [NumCtx];
  (* no_rw_check, ram_style = "block" *)
  logic [63:0] ir_mem_q [2**CtxIdxW];
  (* no_rw_check, ram_style = "block" *)
  logic [31:0] ir_host_q [2**CtxIdxW];
  logic [63:0] ir_rd_q, ir_wd_q;
  logic [31:0] ir_host_rd_q;
  logic [CtxIdxW-1:0] ir_wa_q;
  logic [CtxIdxW-1:0] ir_sw_q;
  logic        ir_we_q, ir_sweep_q;

  logic              clr_busy_q, clr_step;
  logic [CtxW-1:0]   clr_ctx_q;
  logic [4:0]        clr_reg_q;
  logic [31:0]       clr_a0_q, clr_pc_q;

  // Where context c is in the ring: (c - ex) mod NumCtx.
  function automatic logic [CtxIdxW-1:0] ring_pos(input logic [CtxW-1:0] c, input logic [CtxW-1:0] ex);
    logic [CtxW:0] d;
    d = {1'b0, c} + (CtxW + 1)'(NumCtx) - {1'b0, ex};
    if (32'(d) >= NumCtx) d = d - (CtxW + 1)'(NumCtx);
    ring_pos = d[CtxIdxW-1:0];
  endfunction

  assign if_pc_o = pc_ring_q[2];  // the slot is two ahead of EX
  assign ex_pc_o = pc_ring_q[0];  // still the PC it fetched from (no pipeline copies)

  // The rings turn every cycle. START clears them (and reset); the clearer then writes the
  // started context's first PC as the ring brings it to the write position.
  // ring_in, the EX context's PC as it moves to the end, is also the fault record's PC:
  // the faulting instruction's (it does not commit), or for the watchdog the one after
  // the instruction that retired (no multiplexer of its own for the record).
  logic        pc_we;
  logic [31:0] pc_wdata, ring_in;
  assign pc_we     = commit_i || (clr_busy_q && ex_ctx_i == clr_ctx_q);
  assign pc_wdata  = commit_i ? next_pc_i : clr_pc_q;
  assign ring_in   = pc_we ? pc_wdata : pc_ring_q[0];
  assign ring_in_o = ring_in;
  always_ff @(posedge clk_i) begin
    for (int unsigned j = 0; j + 1 < NumCtx; j++) pc_ring_q[j] <= run_clr_i ? 32'd0 : pc_ring_q[j + 1];
    pc_ring_q[NumCtx - 1] <= run_clr_i ? 32'd0 : ring_in;
  end

  // INSTRET: the EX context's count is read in RF, the retirement writes it back plus one
  // in WB (one 64-bit incrementer for all contexts).
  always_ff @(posedge clk_i) begin
    ir_rd_q      <= ir_mem_q[CtxIdxW'(rf_ctx_i)];
    ir_host_rd_q <= ir_host_q[CtxIdxW'(ctx_sel_next_i)];
    ir_we_q      <= commit_i && !run_clr_i;
    ir_wa_q      <= CtxIdxW'(ex_ctx_i);
    ir_wd_q      <= (run_clr_i || ir_sweep_q) ? 64'd0 : ir_rd_q + 64'd1;
    if (run_clr_i) begin
      ir_sweep_q <= 1'b1;
      ir_sw_q    <= '0;
    end else if (ir_sweep_q) begin
      ir_sw_q <= ir_sw_q + 1'b1;
      if (&ir_sw_q) ir_sweep_q <= 1'b0;
    end
    // Nothing retires while the sweep runs (the register clearer takes longer after a
    // START), so the sweep has the write port; ir_wd_q is zero meanwhile.
    if (ir_we_q || ir_sweep_q) begin
      ir_mem_q[ir_sweep_q ? ir_sw_q : ir_wa_q]  <= ir_wd_q;
      ir_host_q[ir_sweep_q ? ir_sw_q : ir_wa_q] <= ir_wd_q[31:0];
    end
  end
  assign instret_o = ir_rd_q;

  // The clearer: WB goes first at the register file's write port.
  assign clr_step = clr_busy_q && !wb_valid_i;
  always_ff @(posedge clk_i) begin
    if (run_clr_i || (commit_i && w_start_i)) clr_reg_q <= 5'd0;
    else if (clr_step) clr_reg_q <= clr_reg_q + 5'd1;
    if (start_i || (commit_i && w_start_i)) clr_busy_q <= 1'b1;
    else if (init_i || (clr_step && clr_reg_q == 5'd31)) clr_busy_q <= 1'b0;
    // Loaded from the instruction stream; read only after what loads them.
    if (start_i) begin
      clr_ctx_q <= '0;
      clr_pc_q  <= entry_i;
    end else if (commit_i && w_start_i) begin
      clr_ctx_q <= start_ctx_i;
      clr_pc_q  <= start_entry_i;
    end
    // The supervisor's a0 comes with START or up to two cycles later (the card's block
    // RAM); the clearer writes a0 at its eleventh step at the earliest.
    if (boot_load_i) clr_a0_q <= boot_arg_i;
    else if (commit_i && w_start_i) clr_a0_q <= start_arg_i;
  end
  assign clr_busy_o  = clr_busy_q;
  assign clr_we_o    = clr_step;
  assign clr_waddr_o = {clr_ctx_q, clr_reg_q};
  assign clr_wdata_o = {32{!wb_valid_i && clr_reg_q == 5'd10}} & clr_a0_q;

  // A started context's PC reaches its ring entry within a turn of the barrel; the
  // clearer's copy shows meanwhile (as soon as START or WORKER_START set it).
  assign ctx_pc_o      = (clr_busy_q && ctx_sel_i == clr_ctx_q) ? clr_pc_q : pc_ring_q[ring_pos(ctx_sel_i, ex_ctx_i)];
  assign ctx_instret_o = ir_host_rd_q;

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Nothing retires while the clearer runs (the tile issues nothing), nor during the
      // sweep, which therefore owns the INSTRET write port.
      QuietWhileClearing: assert (!(clr_busy_q && commit_i))
        else $error("context %0d retired while the register clearer ran", ex_ctx_i);
      QuietWhileSweeping: assert (!(ir_sweep_q && ir_we_q))
        else $error("an instruction retired during the INSTRET sweep");
      // The clearer only works on a context that exists.
      ClearExists: assert (!clr_busy_q || 32'(clr_ctx_q) < NumCtx)
        else $error("the register clearer works on context %0d of %0d", clr_ctx_q, NumCtx);
    end
  end
`endif

endmodule : ipu_tile_ctx
