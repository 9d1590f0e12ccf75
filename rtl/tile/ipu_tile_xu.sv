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

  // With a power-of-two SRAM (SRAM_BASE is 1 MiB aligned, the SRAM at most 1 MiB) the
  // bounds checks compare high address bits and add offsets only Aw + 3 bits wide.
  localparam bit SramPow2 = SramBytes == 2 ** (Aw + 2);
  localparam int unsigned W = Aw + 2;  // an SRAM offset's bits

  typedef enum logic [2:0] {XuIdle, XuDrain, XuList, XuDesc, XuRefetch, XuDone} xu_state_e;

  xu_state_e   state_q, state_d;
  // Narrow where the range is known (area on an FPGA): a list has at most SramSize / 16
  // sends, and the descriptor pointer is a word in the SRAM (SRAM_BASE is 1 MiB aligned).
  localparam int unsigned CountW = $clog2(SramBytes / 16) + 1;
  logic        list_ok_q, list_ok_d;
  logic [CountW-1:0] idx_q, idx_d;
  logic [Aw-1:0] dptr_q, dptr_d;        // the descriptor being read
  logic [1:0]  step_q, step_d;
  localparam int unsigned OffW = Aw + 2;
  localparam int unsigned LenW = Aw + 3;
  logic            len_big_q;           // LENGTH has bits above LenW: beyond any SRAM
  logic        dst_bad_q, src_bad_q;    // DST_ADDR's and SRC_ADDR's ranges, checked as they came
  logic        fault_q, fault_d;
  // The fault record's words hold what the list's reading needs until a fault is known
  // (each word kept once, in flip-flops fed by logic rather than by the RAM): faddr_q the
  // list's address (its offset in the SRAM: list_off), then a descriptor's LENGTH (len),
  // then the faulty address; finfo_q the count, then the faulty descriptor's index.
  logic [31:0] faddr_q, faddr_d, finfo_q, finfo_d;
  logic [W-1:0]      list_off;
  logic [LenW-1:0]   len;
  logic [CountW-1:0] count;
  assign list_off = faddr_q[W-1:0];
  assign len      = faddr_q[LenW-1:0];
  assign count    = finfo_q[CountW-1:0];
  logic [Ow:0] wptr_q, wptr_d, wstart_q, wstart_d, rptr_q, rptr_d;
  logic        push;

  // Stored narrow (fewer block RAMs on an FPGA): a validated send's addresses are SRAM
  // offsets and its length at most the SRAM size; the head is widened again below. The
  // addresses go into their own RAMs as they arrive (no flip-flops hold them), DST_TILE
  // and LENGTH when the send is pushed. A read of the slot being written is read again
  // the next cycle (below): yosys need not emulate that case around the block RAM.
  localparam int unsigned EntryW = 16 + 2 * OffW + LenW;
  (* no_rw_check *) logic [15 + LenW:0] outbox_tl_q [Depth];  // {dst_tile, length}
  (* no_rw_check *) logic [OffW-1:0]    outbox_dst_q [Depth];
  (* no_rw_check *) logic [OffW-1:0]    outbox_src_q [Depth];

  // A descriptor's words are read LENGTH (3), DST_ADDR (1), SRC_ADDR (2), DST_TILE (0),
  // so that one range check on the arriving word serves both addresses; it completes
  // with DST_TILE on rdata_i.
  logic span_here, tile_ok, dst_ok, src_ok;
  assign span_here = sram_span_ok(rdata_i, {{(32 - LenW){len_big_q}}, len}, SramSize);
  assign tile_ok   = rdata_i[31:16] == 16'd0 && rdata_i[15:0] < num_tiles_i;
  assign dst_ok    = tile_ok && !dst_bad_q;
  assign src_ok    = !src_bad_q;

  logic count_ok, full;
  assign list_ok_d = list_i[1:0] == 2'b00 && sram_contains(list_i, SramSize);
  // The count and its descriptors (16 bytes each) fit after the list's start.
  logic [W+1:0] list_end;
  assign list_end = (W + 2)'(list_off) + (W + 2)'(4) + {rdata_i[W-4:0], 4'd0};
  assign count_ok = rdata_i <= SramSize / 32'd16 &&
                    (SramPow2 ? list_end <= (W + 2)'(SramBytes)
                              : 32'(list_off) + 32'd4 <= SramSize - {rdata_i[27:0], 4'd0});
  assign full     = wptr_q - rptr_q == (Ow + 1)'(Depth);

  // The word read next: step 0..3 reads word 3, 1, 2, 0 of the descriptor at dptr_q;
  // after the last, word 3 of the next descriptor (dptr_q + 4 + 3).
  logic [2:0]    rd_off;
  logic [Aw-1:0] list_word;
  assign list_word = list_off[W-1:2];
  always_comb begin
    unique case (step_q)
      2'd0:    rd_off = 3'd1;
      2'd1:    rd_off = 3'd2;
      2'd2:    rd_off = 3'd0;
      default: rd_off = 3'd7;
    endcase
  end

  always_comb begin
    state_d  = state_q;
    idx_d    = idx_q;
    dptr_d   = dptr_q;
    step_d   = step_q;
    fault_d  = fault_q;
    faddr_d  = faddr_q;
    finfo_d  = finfo_q;
    wptr_d   = wptr_q;
    wstart_d = wstart_q;
    rptr_d   = rptr_q + ((out_pop_i && out_valid_o) ? (Ow + 1)'(1) : '0);
    req_o    = 1'b0;
    addr_o   = dptr_q + Aw'(rd_off);
    push     = 1'b0;

    unique case (state_q)
      XuIdle: begin
        if (start_i) begin
          state_d  = XuDrain;  // the core issued nothing in the start cycle: port B is free
          fault_d  = 1'b0;
          faddr_d  = list_i;        // the address of a bad list's fault; list_off
          wstart_d = wptr_q;
        end
      end
      XuDrain: begin
        if (!list_ok_q) begin
          // Lists must be word aligned here (the model also takes unaligned ones).
          state_d = XuDone; fault_d = 1'b1; finfo_d = 32'd0;
        end else begin
          req_o  = 1'b1;
          addr_o = list_word;
          dptr_d = list_word + Aw'(1);
          state_d = XuList;
        end
      end
      XuList: begin  // rdata_i is the count
        finfo_d = rdata_i;  // count: kept only when count_ok, at most SramSize / 16
        idx_d   = '0;
        step_d  = 2'd0;
        if (!count_ok) begin
          state_d = XuDone; fault_d = 1'b1;
        end else if (rdata_i == 32'd0) begin
          state_d = XuDone;
        end else begin
          req_o   = 1'b1;
          addr_o  = dptr_q + Aw'(3);
          state_d = XuDesc;
        end
      end
      XuDesc: begin  // rdata_i is word 3, 1, 2, 0 (step_q) of descriptor idx_q
        if (step_q != 2'd3) begin
          if (step_q == 2'd0) faddr_d = rdata_i;  // LENGTH: len, len_big_q
          step_d = step_q + 2'd1;
          req_o  = 1'b1;
        end else if (!dst_ok || !src_ok || full) begin
          // Read the faulty address again: DST_ADDR (word 1) or SRC_ADDR (word 2).
          state_d = XuRefetch;
          fault_d = 1'b1;
          req_o   = 1'b1;
          addr_o  = dptr_q + (dst_ok ? Aw'(2) : Aw'(1));
          finfo_d = 32'(idx_q);
        end else begin
          push   = 1'b1;
          wptr_d = wptr_q + (Ow + 1)'(1);
          idx_d  = idx_q + 1'b1;
          step_d = 2'd0;
          if (idx_q + 1'b1 == count) begin
            state_d = XuDone;
          end else begin
            req_o  = 1'b1;
            dptr_d = dptr_q + Aw'(4);
          end
        end
      end
      XuRefetch: begin  // rdata_i is the faulty address
        faddr_d = rdata_i;
        state_d = XuDone;
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

  // The descriptor's checks as its words arrive (read only in XuDesc, after they are loaded).
  always_ff @(posedge clk_i) begin
    if (state_q == XuDesc) begin
      unique case (step_q)
        2'd0:    len_big_q <= rdata_i[31:LenW] != '0;
        2'd1:    dst_bad_q <= !span_here;
        2'd2:    src_bad_q <= !span_here;
        default: ;
      endcase
    end
  end

  // The outbox is read synchronously (block RAM on an FPGA): the head of the next cycle is
  // read whenever it can differ from the one read last, that is when the read pointer moves
  // or the outbox was written the cycle before (writes happen only in XuDesc), and otherwise
  // kept, which is what reading it again would give. A read each cycle would cost the
  // simulation the 128-bit head's read and assembly in every cycle of every tile, idle or not.
  // A push into the slot being read is seen a cycle later; it is not
  // visible before then anyway (a list's sends show once the unit is idle again).
  // The addresses are written into slot wptr_q as they arrive, unless the outbox is full
  // (the slot then holds the oldest send); a send that is not pushed leaves them unused.
  logic [EntryW-1:0] head_q;
  // Validated: the tile is below num_tiles_i (16 bits), the offsets and length in range;
  // SRAM_BASE is 1 MiB aligned and the SRAM at most 1 MiB, so an offset is the low bits.
  logic addr_we, outbox_written_q, head_re;
  assign addr_we = state_q == XuDesc && !full;
  assign head_re = rptr_d != rptr_q || outbox_written_q;
  always_ff @(posedge clk_i) begin
    if (push) outbox_tl_q[wptr_q[Ow-1:0]] <= {rdata_i[15:0], len};
    if (addr_we && step_q == 2'd1) outbox_dst_q[wptr_q[Ow-1:0]] <= rdata_i[OffW-1:0];
    if (addr_we && step_q == 2'd2) outbox_src_q[wptr_q[Ow-1:0]] <= rdata_i[OffW-1:0];
    outbox_written_q <= state_q == XuDesc;
    if (head_re)
      head_q <= {outbox_tl_q[rptr_d[Ow-1:0]][15 + LenW -: 16], outbox_dst_q[rptr_d[Ow-1:0]],
                 outbox_src_q[rptr_d[Ow-1:0]], outbox_tl_q[rptr_d[Ow-1:0]][LenW-1:0]};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= XuIdle;
      wptr_q   <= '0;
      rptr_q   <= '0;
    end else begin
      state_q  <= state_d;
      wptr_q   <= wptr_d;
      rptr_q   <= rptr_d;
    end
  end

  // Read only in the states that load them first. The list's registers change only while
  // the list is read or when it starts (in XuIdle and XuDone their next value is their
  // value), so they load only then: loading them every cycle cost the simulation their
  // next-value logic in every cycle of every tile.
  logic list_load;
  assign list_load = busy_o || (state_q == XuIdle && start_i);
  always_ff @(posedge clk_i) begin
    if (state_q == XuIdle) list_ok_q <= list_ok_d;
    if (list_load) begin
      idx_q    <= idx_d;
      dptr_q   <= dptr_d;
      step_q   <= step_d;
      fault_q  <= fault_d;
      faddr_q  <= faddr_d;
      finfo_q  <= finfo_d;
      wstart_q <= wstart_d;
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
                         TileSramBase | 32'(head_q[LenW + OffW +: OffW]),
                         TileSramBase | 32'(head_q[LenW +: OffW]),
                         32'(head_q[LenW-1:0])};

endmodule : ipu_tile_xu
