// UART transmitter, 8N1: takes a byte when valid_i && ready_o.
module ipu_uart_tx #(
  parameter int unsigned ClksPerBit = 91  // 10.5 MHz (the iCEBreaker's PLL clock) / 115200 baud
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       valid_i,
  input  logic [7:0] data_i,
  output logic       ready_o,
  output logic       tx_o
);

  localparam int unsigned CntW = $clog2(ClksPerBit);

  logic [9:0]      shift_q;  // stop, data[7:0], start; shifted out LSB first
  logic [3:0]      left_q;   // bits still to send
  logic [CntW-1:0] cnt_q;

  assign ready_o = left_q == '0;
  assign tx_o    = ready_o ? 1'b1 : shift_q[0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      shift_q <= '1;
      left_q  <= '0;
      cnt_q   <= '0;
    end else if (ready_o) begin
      if (valid_i) begin
        shift_q <= {1'b1, data_i, 1'b0};
        left_q  <= 4'd10;
        cnt_q   <= CntW'(ClksPerBit - 1);
      end
    end else if (cnt_q != '0) begin
      cnt_q <= cnt_q - 1'b1;
    end else begin
      shift_q <= {1'b1, shift_q[9:1]};
      left_q  <= left_q - 1'b1;
      cnt_q   <= CntW'(ClksPerBit - 1);
    end
  end

endmodule : ipu_uart_tx
