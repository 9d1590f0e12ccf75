// Synchronous first-in first-out buffer with a visible head (console and error records).
// The storage is read synchronously so that yosys maps it to FPGA block RAM: the head
// is read one cycle ahead (the entry after a pop, else the same). An entry pushed into
// the slot being read that cycle is not in the read yet, so for that one cycle the
// FIFO shows one entry fewer (empty_o, count_o): the head is always right when shown.
module ipu_fifo #(
  parameter int unsigned Width = 32,
  parameter int unsigned Depth = 64,
  localparam int unsigned Aw = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             pop_i,
  output logic [Width-1:0] head_o,
  output logic             empty_o,
  output logic             full_o,
  output logic [Aw:0]      count_o
);

  // Depth is a power of two: the pointers carry one bit more than the address, so the
  // count is their difference (no count register, no wrap compares).
  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] head_q;
  logic [Aw:0]      rptr_q, wptr_q, rptr_d, count;
  logic             do_push, do_pop, hidden_q;

  assign count   = wptr_q - rptr_q;
  assign empty_o = wptr_q == rptr_q || hidden_q;
  assign full_o  = count[Aw];
  // wptr - rptr - hidden as one carry chain: the carry into bit 0 is !hidden_q.
  assign count_o = (Aw+1)'(({wptr_q, 1'b1} + {~rptr_q, !hidden_q}) >> 1);
  assign head_o  = head_q;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;
  assign rptr_d  = rptr_q + {{Aw{1'b0}}, do_pop};

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wptr_q[Aw-1:0]] <= wdata_i;
    head_q <= mem_q[rptr_d[Aw-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q   <= '0;
      wptr_q   <= '0;
      hidden_q <= 1'b0;
    end else begin
      if (do_push) wptr_q <= wptr_q + 1'b1;
      rptr_q   <= rptr_d;
      hidden_q <= do_push && wptr_q[Aw-1:0] == rptr_d[Aw-1:0];  // the read above missed this push
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      CountInRange: assert (32'(count) <= Depth)
        else $error("fifo count overflow");
    end
  end
  if (Depth != (1 << Aw)) begin : g_bad_depth
    $error("ipu_fifo: Depth must be a power of two");
  end
`endif

endmodule : ipu_fifo
