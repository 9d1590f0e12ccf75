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

  // Unsigned arithmetic on sign-extended or magnitude operands gives the signed
  // results bit for bit, without signed overflow in the simulator's C++. Each
  // operation is computed only in its own branch, so the simulator skips the
  // multiplier and the divider for every other instruction.
  logic [63:0] mul_a, mul_b, product;
  logic        a_neg, b_neg;
  logic [31:0] a_mag, b_mag;

  always_comb begin
    md_res  = 32'd0;
    mul_a   = 64'd0;
    mul_b   = 64'd0;
    product = 64'd0;
    a_neg   = 1'b0;
    b_neg   = 1'b0;
    a_mag   = 32'd0;
    b_mag   = 32'd0;
    if (muldiv_i) begin
      unique case (funct3_i)
        3'd0: md_res = a_i * b_i;
        3'd1, 3'd2, 3'd3: begin
          // MULH, MULHSU, MULHU: the high word of the 64-bit product of the
          // operands sign- or zero-extended to 64 bits.
          mul_a   = {{32{funct3_i != 3'd3 && a_i[31]}}, a_i};
          mul_b   = {{32{funct3_i == 3'd1 && b_i[31]}}, b_i};
          product = mul_a * mul_b;
          md_res  = product[63:32];
        end
        default: begin
          // Division on magnitudes; DIV/REM fix the signs. -2^31 / -1 comes out as
          // -2^31 remainder 0, as RISC-V defines the overflow case.
          a_neg = !funct3_i[0] && a_i[31];  // DIV (4) and REM (6) are signed
          b_neg = !funct3_i[0] && b_i[31];
          a_mag = a_neg ? 32'd0 - a_i : a_i;
          b_mag = b_neg ? 32'd0 - b_i : b_i;
          if (b_i == 32'd0) md_res = funct3_i[1] ? a_i : 32'hffff_ffff;
          else if (!funct3_i[1]) md_res = (a_neg ^ b_neg) ? 32'd0 - a_mag / b_mag : a_mag / b_mag;
          else md_res = a_neg ? 32'd0 - a_mag % b_mag : a_mag % b_mag;
        end
      endcase
    end
  end

  assign result_o = muldiv_i ? md_res : base_res;

  // The low half of the product is MUL's, computed on its own above.
  logic unused_product;
  assign unused_product = ^product[31:0];

endmodule : ipu_tile_alu
