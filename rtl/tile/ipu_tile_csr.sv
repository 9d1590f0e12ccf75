// CSR file of the tile core (as ibex keeps its CSRs beside the controller): which CSRs
// exist and who may use them, the write strobes an instruction in EX would raise, and the
// CSRs that hold state (WORKER_ENTRY/ARG, FAIL_INFO, HX_DEV/TILE_ADDR, the SYNC/EXIT word,
// the failed-worker mask WORKER_JOIN reads, the CONSOLE byte).
//
// The strobes are raw: the controller decides whether the instruction retires (commit_i),
// and only a retiring instruction changes a register here. The write-only CSRs' value
// (wo_val_o) is the source operand, not a read-modify-write: no path through the read
// multiplexer in front of the checks on it (the clock's critical path).
module ipu_tile_csr
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
(
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              run_clr_i,   // START (or the first edge after reset)

  // EX: the executing instruction's CSR fields.
  input  logic              csr_path_i,  // a Zicsr instruction
  input  logic [11:0]       csr_i,
  input  logic [2:0]        f3_i,
  input  logic [4:0]        rs1_i,       // the register, or CSRR*I's immediate
  input  logic [31:0]       rs1v_i,
  input  logic [CtxW-1:0]   ctx_i,
  input  logic [4:0]        rd_sel_i,    // the read-write CSRs' result selects (SelEntry..SelFailInfo)
  input  logic              commit_i,    // the instruction in EX retires this cycle

  output logic              misuse_o,    // a worker used a supervisor-only CSR
  output logic              join_o,      // WORKER_JOIN (reads the failed-worker mask)
  output logic              main_o,      // any other CSR that exists
  output logic              illegal_o,   // a CSR that does not exist, a write to a read-only one, a bad SYNC kind
  output logic [31:0]       wo_val_o,    // the value written to a write-only CSR
  output logic              w_console_o,
  output logic              w_start_o,
  output logic              w_exit_o,
  output logic              w_sync_o,
  output logic              w_texit_o,
  output logic              w_fail_o,
  output logic              w_hxstart_o,
  output logic              w_hxtile_o,
  output logic              w_exchange_o,
  output logic [31:0]       old_o,       // the selected read-write CSR's value (zero if none)

  // The registers, for the rest of the tile.
  output logic [31:0]       worker_entry_o,
  output logic [31:0]       worker_arg_o,
  output logic [31:0]       fail_info_o,
  output logic [31:0]       hx_dev_o,
  output logic [31:0]       hx_tile_o,
  output logic [MaxCtx-1:0] fail_mask_o,
  output logic [31:0]       sync_req_o,
  output logic [31:0]       exit_code_o,
  output logic              console_valid_o,
  output logic [7:0]        console_byte_o,
  input  logic              console_ready_i
);

  logic [31:0] worker_entry_q, worker_arg_q, fail_info_q, hx_dev_q, hx_tile_q;
  // The value of the last SYNC or EXIT, one register for both (32 flip-flops fewer): both
  // are the supervisor's, EXIT is its last instruction, and the card reads the SYNC value
  // only while the tile waits in that sync. The exit code shows once EXIT retired
  // (exited_q); the model reads 0 before.
  logic [31:0] ctl_word_q;
  logic        exited_q;
  logic [MaxCtx-1:0] fail_mask_q;
  logic        con_valid_q;
  logic [7:0]  con_byte_q;

  // Which CSRs exist (WORKER_JOIN reads the failed-worker mask).
  logic csr_exists;
  always_comb begin
    unique case (csr_i)
      CsrCycle, CsrCycleh, CsrInstret, CsrInstreth, CsrTileId, CsrContextId, CsrNumTiles, CsrNumWorkers,
      CsrSramSize, CsrWorkerEntry, CsrWorkerArg, CsrHxDevAddr, CsrHxTileAddr, CsrFailInfo, CsrWorkerJoin,
      CsrSync, CsrWorkerStart, CsrWorkerExit, CsrConsole, CsrExit, CsrHxStart, CsrExchange, CsrFail:
        csr_exists = 1'b1;
      default: csr_exists = 1'b0;  // includes FFLAGS/FRM/FCSR: no F extension yet
    endcase
  end
  assign old_o = ({32{rd_sel_i[0]}} & worker_entry_q) | ({32{rd_sel_i[1]}} & worker_arg_q) |
                 ({32{rd_sel_i[2]}} & hx_dev_q) | ({32{rd_sel_i[3]}} & hx_tile_q) |
                 ({32{rd_sel_i[4]}} & fail_info_q);

  logic supervisor_only;
  assign supervisor_only = csr_i == CsrSync || csr_i == CsrWorkerEntry || csr_i == CsrWorkerArg ||
                           csr_i == CsrWorkerStart || csr_i == CsrWorkerJoin || csr_i == CsrExit ||
                           csr_i == CsrExchange;

  logic [31:0] csr_src, wo_val;
  logic        csr_wr_en;
  assign wo_val    = f3_i[1:0] != 2'd3 ? csr_src : 32'd0;  // CSRRC: its old value reads as zero
  assign csr_src   = f3_i[2] ? {27'd0, rs1_i} : rs1v_i;
  assign csr_wr_en = f3_i[1:0] == 2'd1 || rs1_i != 5'd0;
  assign wo_val_o  = wo_val;

  // A read-write CSR's new value from its own old one (CSRRW, CSRRS, CSRRC): one LUT a bit
  // in front of each register's flip-flop, which then shares its logic cell.
  function automatic logic [31:0] csr_new(input logic [31:0] old, input logic [31:0] src, input logic [1:0] op);
    unique case (op)
      2'd1:    csr_new = src;
      2'd2:    csr_new = old | src;
      default: csr_new = old & ~src;
    endcase
  endfunction

  logic misuse, csr_join, csr_main, csr_write;
  assign misuse    = csr_path_i && ctx_i != '0 && supervisor_only;
  assign csr_join  = csr_path_i && !misuse && csr_i == CsrWorkerJoin;
  assign csr_main  = csr_path_i && !misuse && csr_i != CsrWorkerJoin && csr_exists;
  assign csr_write = csr_main && csr_wr_en;
  assign misuse_o  = misuse;
  assign join_o    = csr_join;
  assign main_o    = csr_main;

  logic w_entry, w_arg, w_hxdev, w_hxtile, w_finfo, w_console, w_start, w_exit, w_sync, w_texit, w_fail,
        w_hxstart, w_exchange, w_readonly;
  assign w_entry    = csr_write && csr_i == CsrWorkerEntry;
  assign w_arg      = csr_write && csr_i == CsrWorkerArg;
  assign w_hxdev    = csr_write && csr_i == CsrHxDevAddr;
  assign w_hxtile   = csr_write && csr_i == CsrHxTileAddr;
  assign w_finfo    = csr_write && csr_i == CsrFailInfo;
  assign w_console  = csr_write && csr_i == CsrConsole;
  assign w_start    = csr_write && csr_i == CsrWorkerStart;
  assign w_exit     = csr_write && csr_i == CsrWorkerExit;
  assign w_sync     = csr_write && csr_i == CsrSync;
  assign w_texit    = csr_write && csr_i == CsrExit;
  assign w_fail     = csr_write && csr_i == CsrFail;
  assign w_hxstart  = csr_write && csr_i == CsrHxStart;
  assign w_exchange = csr_write && csr_i == CsrExchange;
  assign w_readonly = csr_write && !(w_entry || w_arg || w_hxdev || w_hxtile || w_finfo || w_console || w_start ||
                                     w_exit || w_sync || w_texit || w_fail || w_hxstart || w_exchange);

  assign w_console_o  = w_console;
  assign w_start_o    = w_start;
  assign w_exit_o     = w_exit;
  assign w_sync_o     = w_sync;
  assign w_texit_o    = w_texit;
  assign w_fail_o     = w_fail;
  assign w_hxstart_o  = w_hxstart;
  assign w_hxtile_o   = w_hxtile;
  assign w_exchange_o = w_exchange;

  assign illegal_o =
      (csr_join && csr_wr_en) ||
      (csr_path_i && !misuse && csr_i != CsrWorkerJoin && !csr_exists) ||
      (w_sync && wo_val[7:0] != SyncKindInternal && wo_val[7:0] != SyncKindExternal) ||
      w_readonly;

  // Run state that START clears (and reset).
  always_ff @(posedge clk_i) begin
    if (run_clr_i) exited_q <= 1'b0;
    else if (commit_i && w_texit) exited_q <= 1'b1;
    if (run_clr_i) fail_mask_q <= '0;
    else if (commit_i && csr_join) fail_mask_q <= '0;
    else if (commit_i && w_exit && wo_val != 32'd0) fail_mask_q[ctx_i] <= 1'b1;
    if (commit_i && w_console) con_byte_q <= wo_val[7:0];
  end

  // CSR registers the host may read before a START: reset.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      worker_entry_q <= 32'd0;
      worker_arg_q   <= 32'd0;
      fail_info_q    <= 32'd0;
      hx_dev_q       <= 32'd0;
      hx_tile_q      <= 32'd0;
      ctl_word_q     <= 32'd0;
      con_valid_q    <= 1'b0;
    end else begin
      if (commit_i && w_entry)  worker_entry_q <= csr_new(worker_entry_q, csr_src, f3_i[1:0]);
      if (commit_i && w_arg)    worker_arg_q   <= csr_new(worker_arg_q, csr_src, f3_i[1:0]);
      if (commit_i && w_finfo)  fail_info_q    <= csr_new(fail_info_q, csr_src, f3_i[1:0]);
      if (commit_i && w_hxdev)  hx_dev_q       <= csr_new(hx_dev_q, csr_src, f3_i[1:0]);
      if (commit_i && w_hxtile) hx_tile_q      <= csr_new(hx_tile_q, csr_src, f3_i[1:0]);
      if (commit_i && (w_sync || w_texit)) ctl_word_q <= wo_val;
      if (commit_i && w_console) con_valid_q <= 1'b1;
      else if (console_ready_i) con_valid_q <= 1'b0;
    end
  end

  assign worker_entry_o  = worker_entry_q;
  assign worker_arg_o    = worker_arg_q;
  assign fail_info_o     = fail_info_q;
  assign hx_dev_o        = hx_dev_q;
  assign hx_tile_o       = hx_tile_q;
  assign fail_mask_o     = fail_mask_q;
  assign sync_req_o      = ctl_word_q;
  assign exit_code_o     = ctl_word_q & {32{exited_q}};
  assign console_valid_o = con_valid_q;
  assign console_byte_o  = con_byte_q;

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // An instruction writes one CSR at most, and is one of: a misuse, WORKER_JOIN, another CSR.
      OneWrite: assert ($onehot0({w_entry, w_arg, w_hxdev, w_hxtile, w_finfo, w_console, w_start, w_exit,
          w_sync, w_texit, w_fail, w_hxstart, w_exchange, w_readonly}))
        else $error("CSR %03x: two write strobes at once", csr_i);
      OnePath: assert ($onehot0({misuse, csr_join, csr_main}))
        else $error("CSR %03x: misuse, WORKER_JOIN and access at once", csr_i);
      // The supervisor (context 0) may use every CSR.
      MisuseIsWorker: assert (!misuse || ctx_i != '0)
        else $error("CSR %03x: the supervisor refused a supervisor-only CSR", csr_i);
      // Nothing written unless a Zicsr instruction is in EX.
      StrobeNeedsCsr: assert (!(csr_write && !csr_path_i))
        else $error("CSR %03x written by a non-CSR instruction", csr_i);
    end
  end
  // A buffered CONSOLE byte waits until the card takes it.
  ConsoleHeld: assert property (@(posedge clk_i) disable iff (!rst_ni)
      con_valid_q && !console_ready_i |=> con_valid_q)
    else $error("the CONSOLE byte was dropped before the card took it");
`endif

endmodule : ipu_tile_csr
