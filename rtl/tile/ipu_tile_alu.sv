// Integer ALU of the tile core: RV32I register/immediate operations and the M extension's
// multiplies (its divisions are the core's multi-cycle divider, ipu_tile_div). It gives
// its results by kind; the core picks the instruction's one together with its other
// results in one flat multiplexer (fewer levels of 32-bit multiplexers on an FPGA).
module ipu_tile_alu (
  input  logic [2:0]  funct3_i,
  input  logic        alt_i,      // SUB / SRA (funct7 bit 5)
  input  logic        muldiv_i,   // M extension (funct7 = 1)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o,      // ADD, SUB
  output logic [31:0] logic_o,    // XOR (funct3 4), OR (6), AND (7)
  output logic [31:0] mul_o,      // the multiplies and the shifts
  output logic        lt_o        // a < b, signed for funct3 2 (SLT), unsigned for 3 (SLTU)
);

  // One adder for ADD, SUB, SLT and SLTU (the compares subtract one more bit wide,
  // sign- or zero-extended: the borrow is the result).
  logic        sub, ext_a, ext_b;
  logic [32:0] sum;
  assign sub   = funct3_i != 3'd0 || alt_i;
  assign ext_a = funct3_i == 3'd2 && a_i[31];
  assign ext_b = funct3_i == 3'd2 && b_i[31];
  assign sum   = {ext_a, a_i} + (sub ? ~{ext_b, b_i} : {ext_b, b_i}) + 33'(sub);

  // The multiplier: one unsigned 32 x 32 -> 64 product (yosys -dsp builds it from four
  // iCE40 SB_MAC16 16 x 16 multipliers). It also shifts, instead of a barrel shifter of
  // 32-bit multiplexers: a << n is the low word of a * 2^n, a >> n (n > 0) the high word
  // of a * 2^(32 - n). Signed high words subtract the other operand for each negative
  // one: (a - 2^32 a31)(b - 2^32 b31) = ab - 2^32 (a31 b + b31 a) mod 2^64; that makes
  // MULH, MULHSU and SRA (a signed, 2^(32 - n) unsigned). Unsigned arithmetic keeps the
  // simulator's C++ free of signed overflow.
  logic        is_shift, shift_right, use_hi, a_signed, b_signed;
  logic [4:0]  shamt, pow;
  logic [31:0] mul_b, pow2, fix_a, fix_b, md_res;
  logic [63:0] product;
  assign is_shift    = !muldiv_i && funct3_i[1:0] == 2'd1;  // SLL (1), SRL/SRA (5)
  assign shift_right = funct3_i[2];
  assign shamt       = b_i[4:0];
  assign pow         = shift_right ? 5'd0 - shamt : shamt;
  assign pow2        = 32'd1 << pow;
  assign mul_b       = is_shift ? pow2 : b_i;
  // The high word: MULH, MULHSU, MULHU, and right shifts by 1..31 (by 0: a * 1, low word).
  assign use_hi      = is_shift ? (shift_right && shamt != 5'd0) : funct3_i[1:0] != 2'd0;
  assign a_signed    = is_shift ? alt_i : funct3_i[1:0] != 2'd3;  // SRA; MULH, MULHSU
  assign b_signed    = !is_shift && funct3_i[1:0] == 2'd1;        // MULH

  // The product is formed whatever the instruction (the core takes mul_o only for a
  // multiply or a shift): gating it to zero otherwise cost 64 LUTs for nothing.
  assign product = 64'(a_i) * 64'(mul_b);
  assign fix_a   = (a_signed && a_i[31]) ? mul_b : 32'd0;
  assign fix_b   = (b_signed && b_i[31]) ? a_i : 32'd0;
  assign md_res  = use_hi ? product[63:32] - fix_a - fix_b : product[31:0];

  assign sum_o   = sum[31:0];
  assign logic_o = funct3_i[1] ? (funct3_i[0] ? a_i & b_i : a_i | b_i) : a_i ^ b_i;
  assign mul_o   = md_res;
  assign lt_o    = sum[32];

endmodule : ipu_tile_alu
