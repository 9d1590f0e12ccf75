// UART receiver, 8N1: one byte per valid pulse. The input is synchronised to clk_i
// first (it comes from the FT2232H, another clock domain); each bit is sampled
// in the middle of its period, counted from the falling edge of the start bit.
module ipu_uart_rx #(
  parameter int unsigned ClksPerBit = 91  // 10.5 MHz (the iCEBreaker's PLL clock) / 115200 baud
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic       valid_o,
  output logic [7:0] data_o
);

  localparam int unsigned CntW = $clog2(ClksPerBit * 3 / 2 + 1);

  logic [1:0]      sync_q;
  logic            busy_q;
  logic [CntW-1:0] cnt_q;
  logic [3:0]      bit_q;
  logic [7:0]      shift_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      busy_q  <= 1'b0;
      cnt_q   <= '0;
      bit_q   <= '0;
      shift_q <= '0;
      valid_o <= 1'b0;
      data_o  <= '0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      valid_o <= 1'b0;
      if (!busy_q) begin
        if (!sync_q[1]) begin
          // Start bit: wait one and a half bits to land in the middle of bit 0.
          busy_q <= 1'b1;
          cnt_q  <= CntW'(ClksPerBit * 3 / 2 - 1);
          bit_q  <= '0;
        end
      end else if (cnt_q != '0) begin
        cnt_q <= cnt_q - 1'b1;
      end else if (bit_q == 4'd8) begin
        // Stop bit: a low line here is a framing error and the byte is dropped.
        busy_q <= 1'b0;
        if (sync_q[1]) begin
          valid_o <= 1'b1;
          data_o  <= shift_q;
        end
      end else begin
        shift_q <= {sync_q[1], shift_q[7:1]};
        bit_q   <= bit_q + 1'b1;
        cnt_q   <= CntW'(ClksPerBit - 1);
      end
    end
  end

endmodule : ipu_uart_rx
