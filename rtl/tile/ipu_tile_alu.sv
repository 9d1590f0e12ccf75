// Integer ALU of the tile core: RV32I register/immediate operations and the M extension's
// multiplies (its divisions are the core's multi-cycle divider, ipu_tile_div).
module ipu_tile_alu (
  input  logic [2:0]  funct3_i,
  input  logic        alt_i,      // SUB / SRA (funct7 bit 5)
  input  logic        muldiv_i,   // M extension (funct7 = 1)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o,
  output logic        lt_o        // a < b, signed for funct3 2 (SLT), unsigned for 3 (SLTU)
);

  logic [31:0] base_res, md_res;
  logic [4:0]  shamt;

  assign shamt = b_i[4:0];

  // One adder for ADD, SUB, SLT and SLTU (the compares subtract one more bit wide,
  // sign- or zero-extended: the borrow is the result), one right shifter for SRL, SRA
  // and SLL (a left shift is a right shift of the bit-reversed operand): area on an FPGA.
  logic        sub, ext_a, ext_b, sh_fill;
  logic [32:0] sum;
  logic [31:0] sh_in, sh_out;
  logic [31:0] a_rev, sh_rev;
  assign sub     = funct3_i != 3'd0 || alt_i;
  assign ext_a   = funct3_i == 3'd2 && a_i[31];
  assign ext_b   = funct3_i == 3'd2 && b_i[31];
  assign sum     = {ext_a, a_i} + (sub ? ~{ext_b, b_i} : {ext_b, b_i}) + 33'(sub);
  assign sh_in   = funct3_i == 3'd1 ? a_rev : a_i;
  assign sh_fill = funct3_i == 3'd5 && alt_i && a_i[31];
  assign sh_out  = 32'($signed({sh_fill, sh_in}) >>> shamt);

  always_comb for (int unsigned i = 0; i < 32; i++) a_rev[i] = a_i[31 - i];
  always_comb for (int unsigned i = 0; i < 32; i++) sh_rev[i] = sh_out[31 - i];

  always_comb begin
    unique case (funct3_i)
      3'd0: base_res = sum[31:0];
      3'd1: base_res = sh_rev;
      3'd2, 3'd3: base_res = {31'b0, sum[32]};
      3'd4: base_res = a_i ^ b_i;
      3'd5: base_res = sh_out;
      3'd6: base_res = a_i | b_i;
      default: base_res = a_i & b_i;
    endcase
  end

  // The multiplier: one unsigned 32 x 32 -> 64 product (yosys -dsp builds it from four
  // iCE40 SB_MAC16 16 x 16 multipliers); the signed high words subtract the other
  // operand for each negative one: (a - 2^32 a31)(b - 2^32 b31) = ab - 2^32 (a31 b + b31 a)
  // mod 2^64. Unsigned arithmetic keeps the simulator's C++ free of signed overflow, and
  // the product is computed only for a multiply, so the simulator skips it otherwise.
  // Division is not here: the core's multi-cycle divider (ipu_tile_div) does it.
  logic [63:0] product;
  logic [31:0] fix_a, fix_b;

  always_comb begin
    md_res  = 32'd0;
    product = 64'd0;
    fix_a   = 32'd0;
    fix_b   = 32'd0;
    if (muldiv_i && !funct3_i[2]) begin
      product = 64'(a_i) * 64'(b_i);
      fix_a   = (funct3_i[1:0] != 2'd3 && a_i[31]) ? b_i : 32'd0;  // MULH, MULHSU: a signed
      fix_b   = (funct3_i[1:0] == 2'd1 && b_i[31]) ? a_i : 32'd0;  // MULH: b signed
      md_res  = funct3_i[1:0] == 2'd0 ? product[31:0] : product[63:32] - fix_a - fix_b;
    end
  end

  assign result_o = muldiv_i ? md_res : base_res;
  assign lt_o     = sum[32];

endmodule : ipu_tile_alu
