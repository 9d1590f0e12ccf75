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
  logic            neg_q, want_rem_q;

  logic        a_neg, b_neg;
  logic [31:0] a_mag, b_mag;
  logic [32:0] trial;
  assign a_neg = !op_i[0] && a_i[31];
  assign b_neg = !op_i[0] && b_i[31];
  assign a_mag = a_neg ? 32'd0 - a_i : a_i;
  assign b_mag = b_neg ? 32'd0 - b_i : b_i;
  // One restoring step: shift the next dividend bit into the partial remainder.
  assign trial = {rem_q, quo_q[31]} - {1'b0, b_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= DivIdle;
      ctx_q      <= '0;
      quo_q      <= 32'd0;
      rem_q      <= 32'd0;
      b_q        <= 32'd0;
      count_q    <= 5'd0;
      neg_q      <= 1'b0;
      want_rem_q <= 1'b0;
    end else if (clear_i) begin
      state_q <= DivIdle;
    end else begin
      unique case (state_q)
        DivIdle: if (start_i) begin
          ctx_q      <= ctx_i;
          want_rem_q <= op_i[1];
          count_q    <= 5'd0;
          if (b_i == 32'd0) begin
            // RISC-V: quotient all ones, remainder the dividend.
            quo_q   <= 32'hffff_ffff;
            rem_q   <= a_i;
            neg_q   <= 1'b0;
            state_q <= DivDone;
          end else begin
            // -2^31 / -1 comes out as -2^31 remainder 0, as RISC-V defines the overflow.
            quo_q   <= a_mag;
            rem_q   <= 32'd0;
            b_q     <= b_mag;
            neg_q   <= op_i[1] ? a_neg : a_neg ^ b_neg;
            state_q <= DivBusy;
          end
        end
        DivBusy: begin
          if (trial[32]) begin
            rem_q <= {rem_q[30:0], quo_q[31]};
            quo_q <= {quo_q[30:0], 1'b0};
          end else begin
            rem_q <= trial[31:0];
            quo_q <= {quo_q[30:0], 1'b1};
          end
          count_q <= count_q + 5'd1;
          if (count_q == 5'd31) state_q <= DivDone;
        end
        DivDone: if (consume_i) state_q <= DivIdle;
        default: state_q <= DivIdle;
      endcase
    end
  end

  logic [31:0] mag;
  assign mag      = want_rem_q ? rem_q : quo_q;
  assign result_o = neg_q ? 32'd0 - mag : mag;
  assign idle_o   = state_q == DivIdle;
  assign done_o   = state_q == DivDone;
  assign ctx_o    = ctx_q;

endmodule : ipu_tile_div
