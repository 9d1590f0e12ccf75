// Synchronous first-in first-out buffer with a visible head (console and error records).
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

  logic [Width-1:0] mem_q [Depth];
  logic [Aw-1:0]    rptr_q, wptr_q;
  logic [Aw:0]      count_q;
  logic             do_push, do_pop;

  assign empty_o = count_q == '0;
  assign full_o  = 32'(count_q) == Depth;
  assign count_o = count_q;
  assign head_o  = mem_q[rptr_q];
  assign do_push = push_i && !full_o;
  assign do_pop  = pop_i && !empty_o;

  always_ff @(posedge clk_i) begin
    if (do_push) mem_q[wptr_q] <= wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (do_push) wptr_q <= (32'(wptr_q) == Depth - 1) ? '0 : wptr_q + 1'b1;
      if (do_pop)  rptr_q <= (32'(rptr_q) == Depth - 1) ? '0 : rptr_q + 1'b1;
      count_q <= count_q + {{Aw{1'b0}}, do_push} - {{Aw{1'b0}}, do_pop};
    end
  end

`ifndef SYNTHESIS
  CountInRange: assert property (@(posedge clk_i) disable iff (!rst_ni) 32'(count_q) <= Depth)
    else $error("fifo count overflow");
`endif

endmodule : ipu_fifo
