// Host link bridge: the link protocol of contract/card.toml ([link], LINK_TYPE,
// LINK_NAK; docs/hardware.md) from the host's UART byte stream onto the card's
// BAR0 register bus and BAR2 tile-memory window, responses and IRQ messages back,
// and the card's host-memory port (its DMA engine) as DMA_REQ messages that the
// host answers with DMA_DATA.
// Frame (both ways): SOF | TYPE | LEN | PAYLOAD[LEN] | CHECK, CHECK making the
// byte sum from TYPE to CHECK zero. This bridge implements REG_READ, REG_WRITE,
// MEM_READ, MEM_WRITE, DMA_DATA (payloads up to 8 bytes) and the block transfers
// BLOCK_READ (answered as a stream of words) and BLOCK_WRITE (each word written
// as it arrives, so a block that fails its CHECK is written anyway and NAKed: the
// host sends it again); other types get NAK TYPE, a wrong LEN NAK LENGTH, a bad CHECK NAK CHECK, a DMA_DATA nobody asked
// for NAK UNEXPECTED, and an address that is not the card's NAK RANGE: a register offset past the register map
// (RegsEnd) or not 4-aligned, tile words past the window (it does not wrap: a write there would land on another
// word). IRQ is sent when a line rises. The bridge takes bytes only
// while it receives (rx_ready_o): the board top buffers the host's bytes that
// arrive while a message goes out.
module ipu_link_bridge #(
  parameter int unsigned Aw = 14  // word address width of the BAR2 window
) (
  input  logic          clk_i,
  input  logic          rst_ni,

  // Bytes from and to the UART.
  input  logic          rx_valid_i,
  input  logic [7:0]    rx_data_i,
  output logic          rx_ready_o,
  output logic          tx_valid_o,
  output logic [7:0]    tx_data_o,
  input  logic          tx_ready_i,

  // BAR0: rdata in the request cycle.
  output logic          reg_req_o,
  output logic          reg_we_o,
  output logic [15:0]   reg_addr_o,
  output logic [31:0]   reg_wdata_o,
  input  logic [31:0]   reg_rdata_i,

  // BAR2: hold req until gnt, rdata with rvalid.
  output logic          mem_req_o,
  output logic          mem_we_o,
  output logic [Aw-1:0] mem_addr_o,
  output logic [31:0]   mem_wdata_o,
  input  logic          mem_gnt_i,
  input  logic          mem_rvalid_i,
  input  logic [31:0]   mem_rdata_i,

  // Host memory (the card's DMA engine): the request is held until done, which
  // comes once the host has answered the DMA_REQ; err when the host refused.
  input  logic          hm_req_i,
  input  logic          hm_we_i,
  input  logic [63:0]   hm_addr_i,
  input  logic          hm_word_i,
  input  logic [31:0]   hm_wdata_i,
  output logic          hm_done_o,
  output logic          hm_err_o,
  output logic [31:0]   hm_rdata_o,

  input  logic [3:0]    irq_i
);

  // The contract's codes as plain bytes (the frame's TYPE byte may hold any value).
  localparam logic [7:0] Sof = ipu_card_pkg::LinkSof;
  localparam logic [7:0] TRegRead  = 8'(ipu_card_pkg::LinkTypeRegRead);
  localparam logic [7:0] TRegWrite = 8'(ipu_card_pkg::LinkTypeRegWrite);
  localparam logic [7:0] TMemRead  = 8'(ipu_card_pkg::LinkTypeMemRead);
  localparam logic [7:0] TMemWrite = 8'(ipu_card_pkg::LinkTypeMemWrite);
  localparam logic [7:0] TDmaData  = 8'(ipu_card_pkg::LinkTypeDmaData);
  localparam logic [7:0] TBlkRead  = 8'(ipu_card_pkg::LinkTypeBlockRead);
  localparam logic [7:0] TBlkWrite = 8'(ipu_card_pkg::LinkTypeBlockWrite);
  localparam logic [7:0] TDmaReq   = 8'(ipu_card_pkg::LinkTypeDmaReq);
  localparam logic [7:0] TRegData  = 8'(ipu_card_pkg::LinkTypeRegData);
  localparam logic [7:0] TMemData  = 8'(ipu_card_pkg::LinkTypeMemData);
  localparam logic [7:0] TAck      = 8'(ipu_card_pkg::LinkTypeAck);
  localparam logic [7:0] TNak      = 8'(ipu_card_pkg::LinkTypeNak);
  localparam logic [7:0] TIrq      = 8'(ipu_card_pkg::LinkTypeIrq);
  localparam logic [7:0] NakCheck  = 8'(ipu_card_pkg::LinkNakCheck);
  localparam logic [7:0] NakType   = 8'(ipu_card_pkg::LinkNakType);
  localparam logic [7:0] NakLength = 8'(ipu_card_pkg::LinkNakLength);
  localparam logic [7:0] NakUnexpected = 8'(ipu_card_pkg::LinkNakUnexpected);
  localparam logic [7:0] NakRange  = 8'(ipu_card_pkg::LinkNakRange);
  // Bw*: a BLOCK_WRITE word waits for the window; Br*: a BLOCK_READ answer streams
  // out (header, then per word a read and its 4 bytes, then the check).
  typedef enum logic [3:0] {RxSof, RxType, RxLen, RxPayload, RxCheck, Exec, MemWait, Send,
                            BwWrite, BrHead, BrRead, BrWait, BrSend, BrCheck} state_e;
  state_e      state_q;
  logic [7:0]  type_q, len_q, got_q, sum_q;
  logic [7:0]  pay_q [8];
  // The message out: SOF, TYPE, LEN, payload, CHECK, each byte made as it goes out (no
  // copy of the message): a response's payload is blk_word_q (up to 4 bytes), a DMA_REQ's
  // comes from the host-memory port, which holds the request until it is answered.
  logic        out_dma_q;   // the message is a DMA_REQ
  logic [7:0]  out_type_q, out_n_q;
  logic [4:0]  out_len_q, out_idx_q;
  logic [7:0]  out_sum_q;   // byte sum of the message sent so far (a streamed answer's too): its CHECK is the negation
  logic [3:0]  irq_seen_q;
  logic        granted_q;   // the window took the MEM_READ; its data is on the way
  // The host-memory access sent as DMA_REQ and not yet answered: its shape.
  logic        dma_sent_q, dma_we_q, dma_word_q;
  logic        hm_done_q, hm_err_q;
  // Block transfers: the word address, the words left, the word in hand.
  logic [Aw-1:0] blk_addr_q;
  logic [7:0]    blk_left_q;
  logic [31:0]   blk_word_q;  // also a response's payload
  logic          blk_bad_q;  // a BLOCK_WRITE whose LEN is not 4 + 4N: received, not written, NAKed
  logic          blk_range_q;  // a BLOCK_WRITE whose words reach past the window: received, not written, NAKed

  logic [31:0] word, data;
  assign word = {pay_q[3], pay_q[2], pay_q[1], pay_q[0]};
  assign data = {pay_q[5], pay_q[4], pay_q[3], pay_q[2]};

  assign reg_addr_o  = {pay_q[1], pay_q[0]};
  assign reg_wdata_o = data;
  assign reg_we_o    = type_q == TRegWrite;
  assign reg_req_o   = state_q == Exec && (type_q == TRegRead || type_q == TRegWrite) &&
                       len_q == (type_q == TRegRead ? 8'd2 : 8'd6) && reg_in_map;
  logic block_state;
  assign block_state = state_q == BwWrite || state_q == BrRead;
  assign mem_addr_o  = block_state ? blk_addr_q : Aw'(word);
  // Addresses the card has: a register offset inside the map and 4-aligned; N words from an index inside the
  // window (the last one is index + N - 1, so the sum of index and N - 1 must not carry into bit Aw).
  logic reg_in_map;
  assign reg_in_map = reg_addr_o < ipu_card_pkg::RegsEnd && reg_addr_o[1:0] == 2'b00;
  function automatic logic words_in_window(input logic [31:0] index, input logic [7:0] n);
    logic [Aw:0] last;
    last = {1'b0, index[Aw-1:0]} + {{(Aw-7){1'b0}}, n} - 1'b1;
    words_in_window = ~|index[31:Aw] && !last[Aw];
  endfunction
  // MEM_WRITE's data and each BLOCK_WRITE word: payload bytes 4..7.
  assign mem_wdata_o = {pay_q[7], pay_q[6], pay_q[5], pay_q[4]};
  assign mem_we_o    = state_q == BwWrite || (state_q == MemWait && type_q == TMemWrite);
  assign mem_req_o   = (state_q == MemWait && !granted_q) || block_state;

  // The streamed answer's bytes: SOF, MEM_DATA, LEN; the words; the check.
  logic [7:0] br_byte;
  always_comb begin
    unique case (state_q)
      BrHead:  br_byte = out_idx_q == 5'd0 ? Sof : out_idx_q == 5'd1 ? TMemData : {blk_left_q[5:0], 2'b00};
      BrSend:  br_byte = blk_word_q[8*out_idx_q[1:0] +: 8];
      default: br_byte = 8'd0 - out_sum_q;  // BrCheck
    endcase
  end
  assign tx_valid_o = state_q == Send || state_q == BrHead || state_q == BrSend || state_q == BrCheck;
  // A DMA_REQ's payload: bus address (8 bytes), length (4 or 1), direction (1: to the
  // host), and the bytes when writing.
  // The payload as one vector indexed by the byte (one byte multiplexer, no range compares).
  logic [3:0]   pay_idx;
  logic [7:0]   dma_byte, send_byte;
  logic [127:0] dma_payload;
  assign pay_idx     = 4'(out_idx_q - 5'd3);
  assign dma_payload = {16'd0, hm_wdata_i, 7'd0, hm_we_i, 5'd0, hm_word_i, 1'b0, !hm_word_i, hm_addr_i};
  assign dma_byte    = dma_payload[8*pay_idx +: 8];
  always_comb begin
    unique case (out_idx_q)
      5'd0:    send_byte = Sof;
      5'd1:    send_byte = out_type_q;
      5'd2:    send_byte = out_n_q;
      default: send_byte = out_idx_q + 5'd1 == out_len_q ? 8'd0 - out_sum_q :
                           out_dma_q ? dma_byte : blk_word_q[8*pay_idx[1:0] +: 8];
    endcase
  end
  assign tx_data_o  = state_q == Send ? send_byte : br_byte;
  assign rx_ready_o = state_q == RxSof || state_q == RxType || state_q == RxLen || state_q == RxPayload ||
                      state_q == RxCheck;
  assign hm_done_o  = hm_done_q;
  assign hm_err_o   = hm_err_q;
  // DMA_DATA's bytes read, as long as the payload stays (until the next frame): a byte
  // read's byte is the low one (the others are not defined).
  assign hm_rdata_o = {pay_q[4], pay_q[3], pay_q[2], pay_q[1]};

  // What a DMA_DATA answer carries: a status byte, then the bytes read (none for a write).
  logic [7:0] dma_data_len;
  assign dma_data_len = dma_we_q ? 8'd1 : (dma_word_q ? 8'd5 : 8'd2);

  // Loads the response: type, len and up to 4 data bytes; the check is summed as they
  // go out (one adder, not one per kind of message).
  task automatic respond(input logic [7:0] t, input logic [7:0] n, input logic [31:0] d);
    respond_code(t, n, d[7:0]);
    blk_word_q[31:8] <= d[31:8];
  endtask

  // A response of at most one payload byte: the rest of blk_word_q is not sent.
  task automatic respond_code(input logic [7:0] t, input logic [7:0] n, input logic [7:0] code);
    out_dma_q  <= 1'b0;
    out_type_q <= t;
    out_n_q    <= n;
    blk_word_q[7:0] <= code;
    out_len_q <= 5'd4 + 5'(n[3:0]);  // SOF, type, len, data, check
    out_idx_q <= '0;
    out_sum_q <= '0;
    state_q   <= Send;
  endtask

  // Loads a DMA_REQ for the access on the host-memory port: bus address, length
  // (4 or 1), direction (1: to the host), and the bytes when writing.
  task automatic request_dma();
    logic [7:0] n;
    n = 8'd10 + (hm_we_i ? (hm_word_i ? 8'd4 : 8'd1) : 8'd0);
    out_dma_q  <= 1'b1;
    out_type_q <= TDmaReq;
    out_n_q    <= n;
    out_len_q  <= 5'd4 + 5'(n[4:0]);
    out_idx_q  <= '0;
    out_sum_q  <= '0;
    dma_sent_q <= 1'b1;
    dma_we_q   <= hm_we_i;
    dma_word_q <= hm_word_i;
    state_q    <= Send;
  endtask

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= RxSof;
      type_q     <= '0;
      len_q      <= '0;
      got_q      <= '0;
      sum_q      <= '0;
      out_len_q  <= '0;
      out_idx_q  <= '0;
      out_sum_q  <= '0;
      irq_seen_q <= '0;
      granted_q  <= 1'b0;
      dma_sent_q <= 1'b0;
      dma_we_q   <= 1'b0;
      dma_word_q <= 1'b0;
      hm_done_q  <= 1'b0;
      hm_err_q   <= 1'b0;
      out_dma_q  <= 1'b0;
      out_type_q <= '0;
      out_n_q    <= '0;
      blk_addr_q <= '0;
      blk_left_q <= '0;
      blk_word_q <= '0;
      blk_bad_q  <= 1'b0;
      blk_range_q <= 1'b0;
      for (int unsigned i = 0; i < 8; i++) pay_q[i] <= '0;
    end else begin
      hm_done_q <= 1'b0;
      // A request that went away unanswered (the card was reset) is forgotten;
      // a late DMA_DATA for it gets NAK UNEXPECTED.
      if (!hm_req_i) dma_sent_q <= 1'b0;
      unique case (state_q)
        RxSof: begin
          granted_q <= 1'b0;
          if (rx_valid_i) begin
            if (rx_data_i == Sof) state_q <= RxType;  // other bytes are dropped: resynchronisation
          end else if ((irq_i & ~irq_seen_q) != '0) begin
            // A line rose since it was last reported: tell the host.
            respond_code(TIrq, 8'd1, {4'd0, irq_i});
            irq_seen_q <= irq_i;
          end else if (hm_req_i && !dma_sent_q && !hm_done_q) begin
            request_dma();
          end else begin
            irq_seen_q <= irq_seen_q & irq_i;  // a line that fell may be reported again
          end
        end
        RxType: if (rx_valid_i) begin
          type_q  <= rx_data_i;
          sum_q   <= rx_data_i;
          state_q <= RxLen;
        end
        RxLen: if (rx_valid_i) begin
          len_q     <= rx_data_i;
          sum_q     <= sum_q + rx_data_i;
          got_q     <= '0;
          blk_bad_q <= rx_data_i < 8'd8 || rx_data_i[1:0] != 2'd0;
          blk_range_q <= 1'b0;
          state_q   <= rx_data_i == 8'd0 ? RxCheck : RxPayload;
        end
        RxPayload: if (rx_valid_i) begin
          // Bytes past the eighth go to 4..7 in turn: a BLOCK_WRITE's words after its
          // index, each written once its fourth byte is in (longer frames of other
          // types are refused).
          pay_q[got_q < 8'd8 ? got_q[2:0] : {1'b1, got_q[1:0]}] <= rx_data_i;
          sum_q <= sum_q + rx_data_i;
          got_q <= got_q + 1'b1;
          if (type_q == TBlkWrite && got_q == 8'd3) begin
            blk_addr_q <= Aw'({rx_data_i, pay_q[2], pay_q[1], pay_q[0]});
            // LEN = 4 + 4N: N = LEN / 4 - 1 words (only looked at when LEN has that form).
            blk_range_q <= !blk_bad_q &&
                           !words_in_window({rx_data_i, pay_q[2], pay_q[1], pay_q[0]}, {2'b00, len_q[7:2]} - 8'd1);
          end
          if (type_q == TBlkWrite && got_q > 8'd3 && got_q[1:0] == 2'd3 && !blk_bad_q && !blk_range_q)
            state_q <= BwWrite;
          else if (got_q + 1'b1 == len_q) state_q <= RxCheck;
        end
        BwWrite: if (mem_gnt_i) begin
          blk_addr_q <= blk_addr_q + 1'b1;
          state_q    <= got_q == len_q ? RxCheck : RxPayload;
        end
        RxCheck: if (rx_valid_i) begin
          if (sum_q + rx_data_i != 8'd0) respond_code(TNak, 8'd1, NakCheck);
          else state_q <= Exec;
        end
        Exec: begin
          unique case (type_q)
            TRegRead:  if (len_q != 8'd2) respond_code(TNak, 8'd1, NakLength);
                       else if (!reg_in_map) respond_code(TNak, 8'd1, NakRange);
                       else respond(TRegData, 8'd4, reg_rdata_i);
            TRegWrite: if (len_q != 8'd6) respond_code(TNak, 8'd1, NakLength);
                       else if (!reg_in_map) respond_code(TNak, 8'd1, NakRange);
                       else respond_code(TAck, 8'd0, 8'd0);
            TMemRead:  if (len_q != 8'd4) respond_code(TNak, 8'd1, NakLength);
                       else if (!words_in_window(word, 8'd1)) respond_code(TNak, 8'd1, NakRange);
                       else state_q <= MemWait;
            TMemWrite: if (len_q != 8'd8) respond_code(TNak, 8'd1, NakLength);
                       else if (!words_in_window(word, 8'd1)) respond_code(TNak, 8'd1, NakRange);
                       else state_q <= MemWait;
            TBlkWrite: if (blk_bad_q) respond_code(TNak, 8'd1, NakLength);
                       else if (blk_range_q) respond_code(TNak, 8'd1, NakRange);
                       else respond_code(TAck, 8'd0, 8'd0);
            TBlkRead:  if (len_q != 8'd5 || pay_q[4] == 8'd0 || pay_q[4] > 8'd63)
                         respond_code(TNak, 8'd1, NakLength);
                       else if (!words_in_window(word, pay_q[4])) respond_code(TNak, 8'd1, NakRange);
                       else begin
                         blk_addr_q <= Aw'(word);
                         blk_left_q <= pay_q[4];
                         out_sum_q  <= TMemData + {pay_q[4][5:0], 2'b00};
                         out_idx_q  <= '0;
                         state_q    <= BrHead;
                       end
            TDmaData:  if (!dma_sent_q) respond_code(TNak, 8'd1, NakUnexpected);
                       else if (len_q != dma_data_len) respond_code(TNak, 8'd1, NakLength);
                       else begin
                         // Status 0: done (with the bytes read); anything else: the host refused.
                         hm_done_q  <= 1'b1;
                         hm_err_q   <= pay_q[0] != 8'd0;
                         dma_sent_q <= 1'b0;
                         respond_code(TAck, 8'd0, 8'd0);
                       end
            default:   respond_code(TNak, 8'd1, NakType);
          endcase
        end
        MemWait: begin
          // Writes finish at the grant; reads when their data comes back.
          if (mem_gnt_i) granted_q <= 1'b1;
          if (mem_we_o && mem_gnt_i) respond_code(TAck, 8'd0, 8'd0);
          else if (!mem_we_o && mem_rvalid_i) respond(TMemData, 8'd4, mem_rdata_i);
        end
        BrHead: if (tx_ready_i) begin
          out_idx_q <= out_idx_q + 1'b1;
          if (out_idx_q == 5'd2) state_q <= BrRead;
        end
        BrRead: if (mem_gnt_i) begin
          if (mem_rvalid_i) begin
            blk_word_q <= mem_rdata_i;
            out_idx_q  <= '0;
            state_q    <= BrSend;
          end else begin
            state_q <= BrWait;
          end
        end
        BrWait: if (mem_rvalid_i) begin
          blk_word_q <= mem_rdata_i;
          out_idx_q  <= '0;
          state_q    <= BrSend;
        end
        BrSend: if (tx_ready_i) begin
          out_sum_q <= out_sum_q + tx_data_o;
          out_idx_q <= out_idx_q + 1'b1;
          if (out_idx_q == 5'd3) begin
            blk_addr_q <= blk_addr_q + 1'b1;
            blk_left_q <= blk_left_q - 1'b1;
            state_q    <= blk_left_q == 8'd1 ? BrCheck : BrRead;
          end
        end
        BrCheck: if (tx_ready_i) state_q <= RxSof;
        default: begin  // Send
          if (tx_ready_i) begin
            out_idx_q <= out_idx_q + 1'b1;
            if (out_idx_q != 5'd0) out_sum_q <= out_sum_q + tx_data_o;
            if (out_idx_q + 5'd1 == out_len_q) state_q <= RxSof;
          end
        end
      endcase
    end
  end

endmodule : ipu_link_bridge
