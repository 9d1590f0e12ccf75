// The exchange fabric: at a sync, lands every tile's outbox in tile order, descriptor by
// descriptor, through the tiles' SRAM port A (words when aligned, bytes otherwise).
//
// A word read is written on in the next cycle, straight from the source SRAM's output
// (no holding register: on an FPGA that is a flip-flop a bit, fed by the RAM, a logic
// cell each). A write that is not granted then (the port is busy) reads the word again.
// During a sync the tiles issue nothing, so in practice every request is granted at once.
//
// The send being landed stays at the head of its outbox (it is popped once landed): its
// fields are read from there, and one offset counts the bytes landed so far. The send is
// done when the offset reaches its length at the next read (the offset's flip-flops are
// then fed by its adder alone: they share its logic cells).
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

  // Outboxes: {dst_tile, dst_addr, src_addr, length}, validated by the sending tile; a
  // head stays as it is until it is popped.
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
  input  logic [31:0]         rdata_i    // the word read in the cycle before
);

  typedef enum logic [1:0] {ExIdle, ExNext, ExRead, ExWrite} ex_state_e;
  // A validated send lies in the SRAMs: its addresses matter in their low Bw bits (the
  // SRAM's byte offset), its length fits LenW bits.
  localparam int unsigned Bw = Aw + 2;
  localparam int unsigned LenW = Bw + 1;

  ex_state_e        state_q, state_d;
  logic [TileW-1:0] tile_q, tile_d;     // the sending tile
  logic [LenW-1:0]  off_q, off_d;       // bytes of the send landed so far

  /* verilator lint_off UNUSEDSIGNAL */  // the fields' upper bits: see Bw
  logic [127:0] head;
  /* verilator lint_on UNUSEDSIGNAL */
  assign head = out_head_i[tile_q*128 +: 128];
  logic [TileW-1:0] dst_tile;
  logic [Bw-1:0]    dst, src;
  logic [LenW-1:0]  len;
  logic             words, landed;
  assign dst_tile = head[96 +: TileW];
  assign len      = head[0 +: LenW];
  assign words    = head[1:0] == 2'b00 && head[33:32] == 2'b00 && head[65:64] == 2'b00;
  assign dst      = head[64 +: Bw] + off_q[Bw-1:0];
  assign src      = head[32 +: Bw] + off_q[Bw-1:0];
  assign landed   = off_q == len;

  logic [7:0] src_byte;
  assign src_byte = 8'(rdata_i >> {src[1:0], 3'b000});

  always_comb begin
    state_d    = state_q;
    tile_d     = tile_q;
    off_d      = off_q;
    out_pop_o  = '0;

    unique case (state_q)
      ExIdle: begin
        if (start_i) begin
          state_d = ExNext;
          tile_d  = '0;
        end
      end
      ExNext: begin  // the next send of this tile, or the next tile
        off_d = '0;
        if (out_valid_i[tile_q]) begin
          state_d = ExRead;
        end else if (32'(tile_q) == NumTiles - 1) begin
          state_d = ExIdle;
        end else begin
          tile_d = tile_q + 1'b1;
        end
      end
      ExRead: begin
        if (landed) begin  // (a send of no bytes at once)
          out_pop_o[tile_q] = 1'b1;
          state_d = ExNext;
        end else if (gnt_i) begin
          state_d = ExWrite;
        end
      end
      default: begin  // ExWrite: rdata_i is the word read
        if (gnt_i) off_d = off_q + (words ? LenW'(4) : LenW'(1));
        state_d = ExRead;  // the next word, or this one again
      end
    endcase
  end

  // The port, from the state and the offset (its grant feeds back into the next state only).
  always_comb begin
    req_o   = (state_q == ExRead && !landed) || state_q == ExWrite;
    tile_o  = state_q == ExWrite ? dst_tile : tile_q;
    we_o    = state_q == ExWrite;
    waddr_o = state_q == ExWrite ? dst[Aw+1:2] : src[Aw+1:2];  // SRAM_BASE is 1 MiB aligned
    be_o    = words ? 4'hf : 4'b0001 << dst[1:0];
    wdata_o = words ? rdata_i : {4{src_byte}};
  end

  // Only the state needs a reset: the offset is cleared before a send.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) state_q <= ExIdle;
    else         state_q <= state_d;
  end
  always_ff @(posedge clk_i) begin
    tile_q     <= tile_d;
    off_q      <= off_d;
  end

  assign busy_o = state_q != ExIdle;

endmodule : ipu_exchange
