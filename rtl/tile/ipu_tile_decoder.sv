// Instruction decoder of the tile core: purely combinational (the clock and reset only
// time its assertions), like ibex's decoder beside its controller.
//
// Two instructions are decoded each cycle: the one in EX (insn_i: the fields, immediates,
// ALU controls and the encoding checks execute needs) and the one just fetched in RF
// (rf_insn_i: only the one-hot select of the result it writes, registered by the core so
// that EX picks its result with one flat AND-OR). What depends on the tile's CSRs and
// contexts (which CSRs exist, who may use them) is the CSR file's and the controller's.
module ipu_tile_decoder
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
(
  input  logic              clk_i,   // assertions only
  input  logic              rst_ni,  // assertions only

  // EX: the executing instruction.
  input  logic [31:0]       insn_i,
  output logic              op_jal_o,
  output logic              op_jalr_o,
  output logic              op_branch_o,
  output logic              op_load_o,
  output logic              op_store_o,
  output logic              op_imm_o,
  output logic [4:0]        rd_o,
  output logic [4:0]        rs1_o,
  output logic [2:0]        f3_o,
  output logic [11:0]       csr_o,       // the CSR number (also a misuse fault's address)
  output logic [31:0]       imm_i_o,     // the ALU's immediate operand
  output logic [31:0]       imm_u_o,     // LUI's result
  output logic [31:0]       pc_off_o,    // added to the PC: AUIPC, JAL, a taken branch
  output logic [31:0]       mem_off_o,   // added to rs1: loads, stores, JALR
  output logic [2:0]        alu_f3_o,    // a branch compares as SLT / SLTU
  output logic              alu_alt_o,   // SUB, SRA(I)
  output logic              alu_md_o,    // the M extension
  output logic              is_div_o,    // DIV/DIVU/REM/REMU: the multi-cycle divider
  output logic              wr_o,        // writes rd (CSR instructions: the CSR file decides)
  output logic              csr_path_o,  // a Zicsr instruction (CSRR*, CSRR*I)
  output logic              ecall_o,
  output logic              ebreak_o,
  output logic              illegal_o,   // an encoding RV32IM + Zicsr does not have

  // RF: the fetched instruction (its register fields are the register file's).
  /* verilator lint_off UNUSEDSIGNAL */  // bits 11:7 and 19:15 (rd, rs1) select nothing here
  input  logic [31:0]       rf_insn_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NumSel-1:0] rf_sel_o
);

  logic [6:0] opcode, f7;
  logic [2:0] f3;
  logic op_lui, op_auipc, op_jal, op_jalr, op_branch, op_load, op_store, op_imm, op_reg, op_fence, op_system;
  logic [31:0] imm_i, imm_s, imm_b, imm_j, imm_u;

  assign opcode = insn_i[6:0];
  assign f3     = insn_i[14:12];
  assign f7     = insn_i[31:25];
  assign imm_i  = {{20{insn_i[31]}}, insn_i[31:20]};
  assign imm_s  = {{20{insn_i[31]}}, insn_i[31:25], insn_i[11:7]};
  assign imm_b  = {{19{insn_i[31]}}, insn_i[31], insn_i[7], insn_i[30:25], insn_i[11:8], 1'b0};
  assign imm_j  = {{11{insn_i[31]}}, insn_i[31], insn_i[19:12], insn_i[20], insn_i[30:21], 1'b0};
  assign imm_u  = {insn_i[31:12], 12'b0};

  assign op_lui    = opcode == OpLui;
  assign op_auipc  = opcode == OpAuipc;
  assign op_jal    = opcode == OpJal;
  assign op_jalr   = opcode == OpJalr;
  assign op_branch = opcode == OpBranch;
  assign op_load   = opcode == OpLoad;
  assign op_store  = opcode == OpStore;
  assign op_imm    = opcode == OpImm;
  assign op_reg    = opcode == OpReg;
  assign op_fence  = opcode == OpFence;
  assign op_system = opcode == OpSystem;

  assign op_jal_o    = op_jal;
  assign op_jalr_o   = op_jalr;
  assign op_branch_o = op_branch;
  assign op_load_o   = op_load;
  assign op_store_o  = op_store;
  assign op_imm_o    = op_imm;
  assign rd_o        = insn_i[11:7];
  assign rs1_o       = insn_i[19:15];
  assign f3_o        = f3;
  assign csr_o       = insn_i[31:20];
  assign imm_i_o     = imm_i;
  assign imm_u_o     = imm_u;
  // Two adders serve every address (the core's PC + offset and rs1 + offset): the offsets
  // are picked here, by opcode.
  assign pc_off_o    = op_jal ? imm_j : (op_auipc ? imm_u : imm_b);
  assign mem_off_o   = op_store ? imm_s : imm_i;

  assign alu_f3_o  = op_branch ? {2'b01, f3[1]} : f3;
  assign alu_alt_o = op_reg ? f7[5] : (f3 == 3'd5 && f7[5]);
  assign alu_md_o  = op_reg && f7 == 7'h01;
  assign is_div_o  = op_reg && f7 == 7'h01 && f3[2];
  assign wr_o      = op_lui || op_auipc || op_jal || op_jalr || op_load || op_imm || op_reg;
  assign csr_path_o = op_system && f3 != 3'd0 && f3 != 3'd4;
  assign ecall_o    = insn_i == InsnEcall;
  assign ebreak_o   = insn_i == InsnEbreak;
  assign illegal_o =
      (op_jalr && f3 != 3'd0) ||
      (op_branch && f3[2:1] == 2'b01) ||
      (op_load && (f3 == 3'd3 || f3 > 3'd5)) ||
      (op_store && f3 > 3'd2) ||
      (op_imm && ((f3 == 3'd1 && f7 != 7'h00) || (f3 == 3'd5 && f7 != 7'h00 && f7 != 7'h20))) ||
      (op_reg && f7 != 7'h00 && f7 != 7'h01 && !(f7 == 7'h20 && (f3 == 3'd0 || f3 == 3'd5))) ||
      (op_system && ((f3 == 3'd0 && insn_i != InsnEcall && insn_i != InsnEbreak) || f3 == 3'd4)) ||
      !(op_lui || op_auipc || op_jal || op_jalr || op_branch || op_load || op_store || op_imm || op_reg ||
        op_fence || op_system);

  // RF: which result the fetched instruction writes.
  logic [6:0]  rf_op;
  logic [2:0]  rf_f3;
  logic [11:0] rf_csr_num;
  logic        rf_alu, rf_md, rf_csr;
  assign rf_op      = rf_insn_i[6:0];
  assign rf_f3      = rf_insn_i[14:12];
  assign rf_csr_num = rf_insn_i[31:20];
  assign rf_md      = rf_op == OpReg && rf_insn_i[31:25] == 7'h01;
  assign rf_alu     = rf_op == OpImm || (rf_op == OpReg && !rf_md);
  assign rf_csr     = rf_op == OpSystem;

  always_comb begin
    rf_sel_o                = '0;
    rf_sel_o[SelSum]        = rf_alu && rf_f3 == 3'd0;
    rf_sel_o[SelLt]         = rf_alu && rf_f3[2:1] == 2'b01;
    rf_sel_o[SelLogicOp]    = rf_alu && rf_f3[2] && rf_f3[1:0] != 2'b01;
    rf_sel_o[SelMul]        = (rf_alu && rf_f3[1:0] == 2'b01) || (rf_md && !rf_f3[2]);
    rf_sel_o[SelDiv]        = rf_md && rf_f3[2];
    rf_sel_o[SelLui]        = rf_op == OpLui;
    rf_sel_o[SelAuipc]      = rf_op == OpAuipc;
    rf_sel_o[SelLink]       = rf_op == OpJal || rf_op == OpJalr;
    rf_sel_o[SelCycLo]      = rf_csr && rf_csr_num == CsrCycle;
    rf_sel_o[SelCycHi]      = rf_csr && rf_csr_num == CsrCycleh;
    rf_sel_o[SelIrLo]       = rf_csr && rf_csr_num == CsrInstret;
    rf_sel_o[SelIrHi]       = rf_csr && rf_csr_num == CsrInstreth;
    rf_sel_o[SelTileId]     = rf_csr && rf_csr_num == CsrTileId;
    rf_sel_o[SelCtxId]      = rf_csr && rf_csr_num == CsrContextId;
    rf_sel_o[SelNumTiles]   = rf_csr && rf_csr_num == CsrNumTiles;
    rf_sel_o[SelNumWorkers] = rf_csr && rf_csr_num == CsrNumWorkers;
    rf_sel_o[SelSramSize]   = rf_csr && rf_csr_num == CsrSramSize;
    rf_sel_o[SelJoin]       = rf_csr && rf_csr_num == CsrWorkerJoin;
    rf_sel_o[SelEntry]      = rf_csr && rf_csr_num == CsrWorkerEntry;
    rf_sel_o[SelArg]        = rf_csr && rf_csr_num == CsrWorkerArg;
    rf_sel_o[SelHxDev]      = rf_csr && rf_csr_num == CsrHxDevAddr;
    rf_sel_o[SelHxTile]     = rf_csr && rf_csr_num == CsrHxTileAddr;
    rf_sel_o[SelFailInfo]   = rf_csr && rf_csr_num == CsrFailInfo;
  end

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // The result is one flat AND-OR in EX: two selects at once would OR two results.
      SelOneHot: assert ($onehot0(rf_sel_o))
        else $error("the result selects of instruction %08x are not one-hot: %b", rf_insn_i, rf_sel_o);
      // One major opcode, and the flags execute acts on agree with it.
      OneOpcode: assert ($onehot0({op_lui, op_auipc, op_jal, op_jalr, op_branch, op_load, op_store, op_imm,
          op_reg, op_fence, op_system}))
        else $error("instruction %08x decodes as two opcodes", insn_i);
      DivIsMulDiv: assert (!is_div_o || alu_md_o)
        else $error("instruction %08x: a division outside the M extension", insn_i);
      // ECALL, EBREAK and the Zicsr instructions are legal encodings: their faults are the
      // controller's, their checks the CSR file's.
      SystemLegal: assert (!((ecall_o || ebreak_o || csr_path_o) && illegal_o))
        else $error("instruction %08x: a SYSTEM encoding both decoded and illegal", insn_i);
    end
  end
`endif

endmodule : ipu_tile_decoder
