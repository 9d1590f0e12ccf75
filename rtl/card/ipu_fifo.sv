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

  (* no_rw_check *) logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] head_q;
  logic [Aw-1:0]    rptr_q, wptr_q, rptr_d;
  logic [Aw:0]      count_q;
  logic             do_push, do_pop, hidden_q;

  assign empty_o = count_q == '0 || hidden_q;
  assign full_o  = 32'(count_q) == Depth;
  assign count_o = count_q - {{Aw{1'b0}}, hidden_q};
  assign head_o  = head_q;
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;
  assign rptr_d  = do_pop ? ((32'(rptr_q) == Depth - 1) ? '0 : rptr_q + 1'b1) : rptr_q;

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wptr_q] <= wdata_i;
    head_q <= mem_q[rptr_d];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q   <= '0;
      wptr_q   <= '0;
      count_q  <= '0;
      hidden_q <= 1'b0;
    end else begin
      if (do_push) wptr_q <= (32'(wptr_q) == Depth - 1) ? '0 : wptr_q + 1'b1;
      rptr_q   <= rptr_d;
      count_q  <= count_q + {{Aw{1'b0}}, do_push} - {{Aw{1'b0}}, do_pop};
      hidden_q <= do_push && wptr_q == rptr_d;  // the read above missed this push
    end
  end

`ifndef SYNTHESIS
  CountInRange: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(count_q) <= Depth)
    else $error("fifo count overflow");
`endif

endmodule : ipu_fifo
