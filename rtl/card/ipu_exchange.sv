// The exchange fabric: at a sync, lands every tile's outbox in tile order, descriptor by
// descriptor, through the tiles' SRAM port A (words when aligned, bytes otherwise).
module ipu_exchange
  import ipu_card_pkg::*;
#(
  parameter int unsigned NumTiles  = 4,
  parameter int unsigned SramBytes = 65536,
  localparam int unsigned Aw = $clog2(SramBytes / 4),
  localparam int unsigned TileW = NumTiles > 1 ? $clog2(NumTiles) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,   // every live tile waits in a sync
  output logic                busy_o,

  // Outboxes: {dst_tile, dst_addr, src_addr, length}, validated by the sending tile.
  input  logic [NumTiles-1:0]     out_valid_i,
  input  logic [NumTiles*128-1:0] out_head_i,
  output logic [NumTiles-1:0]     out_pop_o,

  // Port A of one tile at a time.
  output logic                req_o,
  output logic [TileW-1:0]    tile_o,
  output logic                we_o,
  output logic [3:0]          be_o,
  output logic [Aw-1:0]       waddr_o,
  output logic [31:0]         wdata_o,
  input  logic                gnt_i,
  input  logic                rvalid_i,
  input  logic [31:0]         rdata_i
);

  typedef enum logic [2:0] {ExIdle, ExNext, ExRead, ExWait, ExWrite} ex_state_e;
  // A validated send lies in the SRAMs: its addresses matter in their low Bw bits (the
  // SRAM's byte offset), its length fits LenW bits.
  localparam int unsigned Bw = Aw + 2;
  localparam int unsigned LenW = Bw + 1;

  ex_state_e        state_q, state_d;
  logic [TileW-1:0] tile_q, tile_d;     // the sending tile
  logic [TileW-1:0] dst_tile_q, dst_tile_d;
  logic [Bw-1:0]    dst_q, dst_d, src_q, src_d;
  logic [LenW-1:0]  left_q, left_d;
  logic [31:0]      data_q, data_d;
  logic             words_q, words_d;

  /* verilator lint_off UNUSEDSIGNAL */  // the fields' upper bits: see Bw
  logic [127:0] head;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head = out_head_i[tile_q*128 +: 128];
  logic [Bw-1:0]   step;
  logic [LenW-1:0] left_next;
  assign step      = words_q ? Bw'(4) : Bw'(1);
  assign left_next = left_q - LenW'(step);

  logic [7:0] src_byte;
  assign src_byte = 8'(data_q >> {src_q[1:0], 3'b000});

  always_comb begin
    state_d    = state_q;
    tile_d     = tile_q;
    dst_tile_d = dst_tile_q;
    dst_d      = dst_q;
    src_d      = src_q;
    left_d     = left_q;
    data_d     = data_q;
    words_d    = words_q;
    out_pop_o  = '0;

    unique case (state_q)
      ExIdle: begin
        if (start_i) begin
          state_d = ExNext;
          tile_d  = '0;
        end
      end
      ExNext: begin  // the next send of this tile, or the next tile
        if (out_valid_i[tile_q]) begin
          out_pop_o[tile_q] = 1'b1;
          dst_tile_d = head[96 +: TileW];
          dst_d      = head[64 +: Bw];
          src_d      = head[32 +: Bw];
          left_d     = head[0 +: LenW];
          words_d    = head[1:0] == 2'b00 && head[33:32] == 2'b00 && head[65:64] == 2'b00;
          state_d    = head[31:0] == 32'd0 ? ExNext : ExRead;
        end else if (32'(tile_q) == NumTiles - 1) begin
          state_d = ExIdle;
        end else begin
          tile_d = tile_q + 1'b1;
        end
      end
      ExRead: begin
        if (gnt_i) state_d = ExWait;
      end
      ExWait: begin
        if (rvalid_i) begin
          data_d  = rdata_i;
          state_d = ExWrite;
        end
      end
      ExWrite: begin
        if (gnt_i) begin
          dst_d  = dst_q + step;
          src_d  = src_q + step;
          left_d = left_next;
          state_d = left_next == '0 ? ExNext : ExRead;
        end
      end
      default: state_d = ExIdle;
    endcase
  end

  // The port, from the state alone (its grant feeds back into the next state only).
  always_comb begin
    req_o   = state_q == ExRead || state_q == ExWrite;
    tile_o  = state_q == ExWrite ? dst_tile_q : tile_q;
    we_o    = state_q == ExWrite;
    waddr_o = state_q == ExWrite ? dst_q[Aw+1:2] : src_q[Aw+1:2];  // SRAM_BASE is 1 MiB aligned
    be_o    = words_q ? 4'hf : 4'b0001 << dst_q[1:0];
    wdata_o = words_q ? data_q : {4{src_byte}};
  end

  // Only the state needs a reset: a send's registers are loaded before they are used.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= ExIdle;
    else         state_q <= state_d;
  end
  always_ff @(posedge clk_i) begin
    tile_q     <= tile_d;
    dst_tile_q <= dst_tile_d;
    dst_q      <= dst_d;
    src_q      <= src_d;
    left_q     <= left_d;
    data_q     <= data_d;
    words_q    <= words_d;
  end

  assign busy_o = state_q != ExIdle;

endmodule : ipu_exchange
