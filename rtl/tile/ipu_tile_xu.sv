// Tile exchange unit: validates an EXCHANGE list through SRAM port B and keeps its sends in
// an outbox that the card's exchange fabric drains at the next sync.
//
// The list is read while the tile issues nothing (the supervisor's EXCHANGE retries until
// the result is ready), so port B is free. A bad list sends nothing: the outbox write
// pointer goes back to where the list started.
module ipu_tile_xu
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned SramBytes = 65536,
  parameter int unsigned Depth     = 64,     // sends per superstep
  localparam int unsigned Aw = $clog2(SramBytes / 4),
  localparam int unsigned Ow = $clog2(Depth)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          clear_i,       // RUN_CTRL.START: empty the outbox
  input  logic [15:0]   num_tiles_i,

  // The supervisor's EXCHANGE: start with the list address, then consume the result.
  input  logic          start_i,
  input  logic [31:0]   list_i,
  output logic          busy_o,        // reading the list: the tile issues nothing
  output logic          done_o,        // the result below is ready
  input  logic          consume_i,
  output logic          fault_o,
  output logic [31:0]   fault_addr_o,
  output logic [31:0]   fault_info_o,

  // SRAM port B while busy.
  output logic          req_o,
  output logic [Aw-1:0] addr_o,
  input  logic [31:0]   rdata_i,

  // The outbox, oldest send first: {dst_tile, dst_addr, src_addr, length}.
  output logic          out_valid_o,
  output logic [127:0]  out_head_o,
  input  logic          out_pop_i
);

  localparam logic [31:0] SramSize = 32'(SramBytes);

  typedef enum logic [2:0] {XuIdle, XuDrain, XuList, XuCount, XuDesc, XuDone} xu_state_e;

  xu_state_e   state_q, state_d;
  // Narrow where the range is known (area on an FPGA): a list has at most SramSize / 16
  // sends, and the list pointer is an offset in the SRAM (SRAM_BASE is 1 MiB aligned).
  localparam int unsigned CountW = $clog2(SramBytes / 16) + 1;
  logic [31:0] list_q, list_d;
  logic [CountW-1:0] count_q, count_d, idx_q, idx_d;
  logic [Aw+1:0] ptr_q, ptr_d;
  logic [1:0]  word_q, word_d;
  logic [95:0] desc_q, desc_d;          // words 0..2 of the descriptor being read
  logic        fault_q, fault_d;
  logic [31:0] faddr_q, faddr_d, finfo_q, finfo_d;
  logic [Ow:0] wptr_q, wptr_d, wstart_q, wstart_d, rptr_q, rptr_d;
  logic        push;

  // Stored narrow (fewer block RAMs on an FPGA): a validated send's addresses are SRAM
  // offsets and its length at most the SRAM size; the head is widened again below.
  localparam int unsigned OffW = Aw + 2;
  localparam int unsigned LenW = Aw + 3;
  localparam int unsigned EntryW = 16 + 2 * OffW + LenW;
  logic [EntryW-1:0] outbox_q [Depth];
  logic [EntryW-1:0] push_entry;

  // The descriptor completes with its fourth word (LENGTH) on rdata_i.
  logic [31:0] d_dst_tile, d_dst_addr, d_src, d_len;
  logic        dst_ok, src_ok;
  assign d_dst_tile = desc_q[31:0];
  assign d_dst_addr = desc_q[63:32];
  assign d_src      = desc_q[95:64];
  assign d_len      = rdata_i;
  assign dst_ok = d_dst_tile < {16'd0, num_tiles_i} && sram_span_ok(d_dst_addr, d_len, SramSize);
  assign src_ok = sram_span_ok(d_src, d_len, SramSize);

  logic list_ok, count_ok, full;
  assign list_ok  = list_q[1:0] == 2'b00 && list_q >= TileSramBase && list_q - TileSramBase < SramSize;
  assign count_ok = rdata_i <= SramSize / 32'd16 &&
                    list_q - TileSramBase + 32'd4 <= SramSize - {rdata_i[27:0], 4'd0};
  assign full     = wptr_q - rptr_q == (Ow + 1)'(Depth);

  always_comb begin
    state_d  = state_q;
    list_d   = list_q;
    count_d  = count_q;
    idx_d    = idx_q;
    ptr_d    = ptr_q;
    word_d   = word_q;
    desc_d   = desc_q;
    fault_d  = fault_q;
    faddr_d  = faddr_q;
    finfo_d  = finfo_q;
    wptr_d   = wptr_q;
    wstart_d = wstart_q;
    rptr_d   = rptr_q + ((out_pop_i && out_valid_o) ? (Ow + 1)'(1) : '0);
    req_o    = 1'b0;
    addr_o   = ptr_q[Aw+1:2];
    push     = 1'b0;

    unique case (state_q)
      XuIdle: begin
        if (start_i) begin
          state_d  = XuDrain;  // the core issued nothing in the start cycle: port B is free
          list_d   = list_i;
          fault_d  = 1'b0;
          faddr_d  = 32'd0;
          finfo_d  = 32'd0;
          wstart_d = wptr_q;
        end
      end
      XuDrain: begin
        if (!list_ok) begin
          // Lists must be word aligned here (the model also takes unaligned ones).
          state_d = XuDone; fault_d = 1'b1; faddr_d = list_q;
        end else begin
          req_o  = 1'b1;
          addr_o = list_q[Aw+1:2];  // SRAM_BASE is 1 MiB aligned
          ptr_d  = list_q[Aw+1:0] + (Aw + 2)'(4);
          state_d = XuList;
        end
      end
      XuList: begin  // rdata_i is the count
        count_d = rdata_i[CountW-1:0];  // kept only when count_ok: at most SramSize / 16
        idx_d   = '0;
        word_d  = 2'd0;
        if (!count_ok) begin
          state_d = XuDone; fault_d = 1'b1; faddr_d = list_q; finfo_d = rdata_i;
        end else if (rdata_i == 32'd0) begin
          state_d = XuDone;
        end else begin
          req_o   = 1'b1;
          addr_o  = ptr_q[Aw+1:2];
          ptr_d   = ptr_q + (Aw + 2)'(4);
          state_d = XuDesc;
        end
      end
      XuDesc: begin  // rdata_i is word word_q of descriptor idx_q
        if (word_q != 2'd3) begin
          desc_d[32*word_q +: 32] = rdata_i;
          word_d = word_q + 2'd1;
          req_o  = 1'b1;
          addr_o = ptr_q[Aw+1:2];
          ptr_d  = ptr_q + (Aw + 2)'(4);
        end else if (!dst_ok || !src_ok || full) begin
          state_d = XuDone;
          fault_d = 1'b1;
          faddr_d = !dst_ok ? d_dst_addr : d_src;
          finfo_d = 32'(idx_q);
        end else begin
          push   = 1'b1;
          wptr_d = wptr_q + (Ow + 1)'(1);
          idx_d  = idx_q + 1'b1;
          word_d = 2'd0;
          if (idx_q + 1'b1 == count_q) begin
            state_d = XuDone;
          end else begin
            req_o  = 1'b1;
            addr_o = ptr_q[Aw+1:2];
            ptr_d  = ptr_q + (Aw + 2)'(4);
          end
        end
      end
      XuDone: begin
        if (fault_q) wptr_d = wstart_q;  // a bad list sends nothing
        if (consume_i) state_d = XuIdle;
      end
      default: state_d = XuIdle;
    endcase

    if (clear_i) begin
      state_d = XuIdle;
      wptr_d  = '0;
      rptr_d  = '0;
    end
  end

  // The outbox is read synchronously (block RAM on an FPGA): the head of the next cycle
  // is read each cycle. A push into the slot being read is seen a cycle later; it is not
  // visible before then anyway (a list's sends show once the unit is idle again).
  logic [EntryW-1:0] head_q;
  logic [31:0]       d_dst_off, d_src_off;
  assign d_dst_off  = d_dst_addr - TileSramBase;
  assign d_src_off  = d_src - TileSramBase;
  assign push_entry = {d_dst_tile[15:0], d_dst_off[OffW-1:0], d_src_off[OffW-1:0], d_len[LenW-1:0]};
  // Validated: the tile is below num_tiles_i (16 bits), the offsets and length in range.
  logic unused_high;
  assign unused_high = ^{d_dst_tile[31:16], d_dst_off[31:OffW], d_src_off[31:OffW], d_len[31:LenW]};
  always_ff @(posedge clk_i) begin
    if (push) outbox_q[wptr_q[Ow-1:0]] <= push_entry;
    head_q <= outbox_q[rptr_d[Ow-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= XuIdle;
      list_q   <= 32'd0;
      count_q  <= '0;
      idx_q    <= '0;
      ptr_q    <= '0;
      word_q   <= 2'd0;
      desc_q   <= 96'd0;
      fault_q  <= 1'b0;
      faddr_q  <= 32'd0;
      finfo_q  <= 32'd0;
      wptr_q   <= '0;
      wstart_q <= '0;
      rptr_q   <= '0;
    end else begin
      state_q  <= state_d;
      list_q   <= list_d;
      count_q  <= count_d;
      idx_q    <= idx_d;
      ptr_q    <= ptr_d;
      word_q   <= word_d;
      desc_q   <= desc_d;
      fault_q  <= fault_d;
      faddr_q  <= faddr_d;
      finfo_q  <= finfo_d;
      wptr_q   <= wptr_d;
      wstart_q <= wstart_d;
      rptr_q   <= rptr_d;
    end
  end

  assign busy_o       = state_q != XuIdle && state_q != XuDone;
  assign done_o       = state_q == XuDone;
  assign fault_o      = fault_q;
  assign fault_addr_o = faddr_q;
  assign fault_info_o = finfo_q;
  // Sends of a list still being read are not visible yet.
  assign out_valid_o  = rptr_q != (state_q == XuIdle ? wptr_q : wstart_q);
  assign out_head_o   = {16'd0, head_q[EntryW-1 -: 16],
                         TileSramBase + 32'(head_q[LenW + OffW +: OffW]),
                         TileSramBase + 32'(head_q[LenW +: OffW]),
                         32'(head_q[LenW-1:0])};

endmodule : ipu_tile_xu
