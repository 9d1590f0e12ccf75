// Integer ALU of the tile core: RV32I register/immediate operations and the M extension.
module ipu_tile_alu (
  input  logic [2:0]  funct3_i,
  input  logic        alt_i,      // SUB / SRA (funct7 bit 5)
  input  logic        muldiv_i,   // M extension (funct7 = 1)
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] result_o
);

  logic [31:0] base_res, md_res;
  logic [4:0]  shamt;
  // Unsigned arithmetic on sign-extended or magnitude operands gives the signed
  // results bit for bit, without signed overflow in the simulator's C++.
  logic [63:0] mul_a, mul_b, product;
  logic        a_neg, b_neg, div_zero;
  logic [31:0] a_mag, b_mag, quot_mag, rem_mag;

  assign shamt = b_i[4:0];

  always_comb begin
    unique case (funct3_i)
      3'd0: base_res = alt_i ? a_i - b_i : a_i + b_i;
      3'd1: base_res = a_i << shamt;
      3'd2: base_res = {31'b0, $signed(a_i) < $signed(b_i)};
      3'd3: base_res = {31'b0, a_i < b_i};
      3'd4: base_res = a_i ^ b_i;
      3'd5: base_res = alt_i ? 32'($signed(a_i) >>> shamt) : a_i >> shamt;
      3'd6: base_res = a_i | b_i;
      default: base_res = a_i & b_i;
    endcase
  end

  // One multiplier covers MUL, MULH, MULHSU and MULHU: the low 64 bits of the
  // product of the operands sign- or zero-extended to 64 bits.
  always_comb begin
    mul_a   = {{32{funct3_i != 3'd3 && a_i[31]}}, a_i};
    mul_b   = {{32{(funct3_i == 3'd0 || funct3_i == 3'd1) && b_i[31]}}, b_i};
    product = mul_a * mul_b;
  end

  // Division on magnitudes; DIV/REM fix the signs. -2^31 / -1 comes out as -2^31
  // remainder 0, as RISC-V defines the overflow case.
  assign div_zero = b_i == 32'd0;
  assign a_neg    = !funct3_i[0] && a_i[31];  // DIV (4) and REM (6) are signed
  assign b_neg    = !funct3_i[0] && b_i[31];
  assign a_mag    = a_neg ? 32'd0 - a_i : a_i;
  assign b_mag    = b_neg ? 32'd0 - b_i : b_i;
  assign quot_mag = div_zero ? 32'd0 : a_mag / b_mag;
  assign rem_mag  = div_zero ? 32'd0 : a_mag % b_mag;

  always_comb begin
    unique case (funct3_i)
      3'd0: md_res = product[31:0];
      3'd1, 3'd2, 3'd3: md_res = product[63:32];
      3'd4, 3'd5: md_res = div_zero ? 32'hffff_ffff : (a_neg ^ b_neg) ? 32'd0 - quot_mag : quot_mag;
      default:    md_res = div_zero ? a_i : a_neg ? 32'd0 - rem_mag : rem_mag;
    endcase
  end

  assign result_o = muldiv_i ? md_res : base_res;

endmodule : ipu_tile_alu
