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
  logic signed [32:0] mul_a, mul_b;
  logic signed [63:0] product;  // operands extend to 64 bits in this context
  logic div_zero, div_ovf;

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

  // One 33x33 signed multiplier covers MUL, MULH, MULHSU and MULHU.
  always_comb begin
    mul_a = {funct3_i != 3'd3 && a_i[31], a_i};
    mul_b = {(funct3_i == 3'd0 || funct3_i == 3'd1) && b_i[31], b_i};
    product = mul_a * mul_b;
  end

  assign div_zero = b_i == 32'd0;
  assign div_ovf  = a_i == 32'h8000_0000 && b_i == 32'hffff_ffff;

  always_comb begin
    unique case (funct3_i)
      3'd0: md_res = product[31:0];
      3'd1, 3'd2, 3'd3: md_res = product[63:32];
      3'd4: md_res = div_zero ? 32'hffff_ffff : div_ovf ? a_i : 32'($signed(a_i) / $signed(b_i));
      3'd5: md_res = div_zero ? 32'hffff_ffff : a_i / b_i;
      3'd6: md_res = div_zero ? a_i : div_ovf ? 32'd0 : 32'($signed(a_i) % $signed(b_i));
      default: md_res = div_zero ? a_i : a_i % b_i;
    endcase
  end

  assign result_o = muldiv_i ? md_res : base_res;

endmodule : ipu_tile_alu
