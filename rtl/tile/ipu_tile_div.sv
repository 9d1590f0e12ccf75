// Multi-cycle divider of the tile core (DIV, DIVU, REM, REMU): one quotient bit per
// cycle on the operands' magnitudes, signs fixed at the end. A combinational 32-bit
// divider is far larger than the rest of the core on an iCE40; this one is a few
// dozen flip-flops and a 33-bit subtractor. One context uses it at a time: the core
// starts it for a context's division, the context retries the instruction at its next
// turns until the result is done for it, then consumes it (the instruction retires).
module ipu_tile_div
  import ipu_tile_pkg::*;
(
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,     // RUN_CTRL.START: drop a division in progress
  input  logic            start_i,
  input  logic [CtxW-1:0] ctx_i,
  input  logic [1:0]      op_i,        // funct3[1:0]: bit 0 unsigned, bit 1 remainder
  input  logic [31:0]     a_i,
  input  logic [31:0]     b_i,
  output logic            idle_o,
  output logic            done_o,      // result_o is the division of ctx_o
  output logic [CtxW-1:0] ctx_o,
  output logic [31:0]     result_o,
  input  logic            consume_i
);

  typedef enum logic [1:0] {DivIdle, DivBusy, DivDone} div_state_e;

  div_state_e      state_q;
  logic [CtxW-1:0] ctx_q;
  logic [31:0]     quo_q, rem_q, b_q;
  logic [4:0]      count_q;
  logic            neg_q, want_rem_q, b_neg_q;

  // One negator, shared: it takes the dividend's magnitude at the start and gives the
  // signed result at the end ((x ^ s) + s is x or -x).
  logic        a_neg, b_neg, neg_s;
  logic [31:0] mag, neg_in, neg_out;
  assign a_neg   = !op_i[0] && a_i[31];
  assign b_neg   = !op_i[0] && b_i[31];
  assign mag     = want_rem_q ? rem_q : quo_q;
  assign neg_in  = state_q == DivIdle ? a_i : mag;
  assign neg_s   = state_q == DivIdle ? a_neg : neg_q;
  assign neg_out = (neg_in ^ {32{neg_s}}) + 32'(neg_s);

  // The divisor is kept as b, or ~b for a negative one (|b| = ~b + 1): one restoring step
  // subtracts |b| with the carry-in making up the difference. Dividing by zero needs no
  // special case: every step subtracts nothing, so the quotient is all ones and the
  // remainder the dividend, as RISC-V defines them (the quotient's sign is not applied).
  // -2^31 / -1 comes out as -2^31 remainder 0, as RISC-V defines the overflow.
  logic [32:0] trial;
  assign trial = {rem_q, quo_q[31]} + {1'b1, ~b_q} + 33'(!b_neg_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= DivIdle;
    end else if (clear_i) begin
      state_q <= DivIdle;
    end else begin
      unique case (state_q)
        DivIdle: if (start_i) state_q <= DivBusy;
        DivBusy: if (count_q == 5'd31) state_q <= DivDone;
        DivDone: if (consume_i) state_q <= DivIdle;
        default: state_q <= DivIdle;
      endcase
    end
  end

  // Operands and the running division: loaded at the start, read only after it.
  always_ff @(posedge clk_i) begin
    if (state_q == DivIdle) begin
      if (start_i) begin
        ctx_q      <= ctx_i;
        want_rem_q <= op_i[1];
        count_q    <= 5'd0;
        quo_q      <= neg_out;  // |a|
        rem_q      <= 32'd0;
        b_q        <= b_i ^ {32{b_neg}};
        b_neg_q    <= b_neg;
        neg_q      <= op_i[1] ? a_neg : (a_neg ^ b_neg) && b_i != 32'd0;
      end
    end else if (state_q == DivBusy) begin
      // Shift the next dividend bit into the partial remainder; keep the difference
      // when it did not borrow.
      rem_q   <= trial[32] ? {rem_q[30:0], quo_q[31]} : trial[31:0];
      quo_q   <= {quo_q[30:0], !trial[32]};
      count_q <= count_q + 5'd1;
    end
  end

  assign result_o = neg_out;
  assign idle_o   = state_q == DivIdle;
  assign done_o   = state_q == DivDone;
  assign ctx_o    = ctx_q;

endmodule : ipu_tile_div
