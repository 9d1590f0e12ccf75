// Tile block package: RV32 opcodes, widths and the CSR side-effect encoding of the tile core.
package ipu_tile_pkg;

  // Context index width: supervisor 0 plus up to six workers (IPU_TILE_CONTEXTS_MAX = 7).
  localparam int unsigned CtxW = 3;
  localparam int unsigned MaxCtx = 2 ** CtxW;

  // RV32 major opcodes (instruction bits 6:0).
  localparam logic [6:0] OpLui    = 7'h37;
  localparam logic [6:0] OpAuipc  = 7'h17;
  localparam logic [6:0] OpJal    = 7'h6f;
  localparam logic [6:0] OpJalr   = 7'h67;
  localparam logic [6:0] OpBranch = 7'h63;
  localparam logic [6:0] OpLoad   = 7'h03;
  localparam logic [6:0] OpStore  = 7'h23;
  localparam logic [6:0] OpImm    = 7'h13;
  localparam logic [6:0] OpReg    = 7'h33;
  localparam logic [6:0] OpFence  = 7'h0f;
  localparam logic [6:0] OpSystem = 7'h73;

  localparam logic [31:0] InsnEcall  = 32'h0000_0073;
  localparam logic [31:0] InsnEbreak = 32'h0010_0073;

  // The result an instruction writes, one-hot, decoded in RF from the fetched instruction
  // (ipu_tile_decoder) and registered: EX picks it with one flat AND-OR. The last five are
  // the read-write CSRs. One localparam a line: rtl/synth/sv_for_yosys.py reads them so.
  localparam int unsigned SelSum        = 0;
  localparam int unsigned SelLt         = 1;
  localparam int unsigned SelLogicOp    = 2;
  localparam int unsigned SelMul        = 3;
  localparam int unsigned SelDiv        = 4;
  localparam int unsigned SelLui        = 5;
  localparam int unsigned SelAuipc      = 6;
  localparam int unsigned SelLink       = 7;
  localparam int unsigned SelCycLo      = 8;
  localparam int unsigned SelCycHi      = 9;
  localparam int unsigned SelIrLo       = 10;
  localparam int unsigned SelIrHi       = 11;
  localparam int unsigned SelTileId     = 12;
  localparam int unsigned SelCtxId      = 13;
  localparam int unsigned SelNumTiles   = 14;
  localparam int unsigned SelNumWorkers = 15;
  localparam int unsigned SelSramSize   = 16;
  localparam int unsigned SelJoin       = 17;
  localparam int unsigned SelEntry      = 18;
  localparam int unsigned SelArg        = 19;
  localparam int unsigned SelHxDev      = 20;
  localparam int unsigned SelHxTile     = 21;
  localparam int unsigned SelFailInfo   = 22;
  localparam int unsigned NumSel        = 23;

  // What a retiring CSR instruction does to tile state besides returning a value.
  typedef enum logic [3:0] {
    CsrActNone,
    CsrActWorkerEntry,
    CsrActWorkerArg,
    CsrActHxDevAddr,
    CsrActHxTileAddr,
    CsrActFailInfo,
    CsrActConsole,
    CsrActWorkerStart,
    CsrActWorkerJoin,
    CsrActWorkerExit,
    CsrActSync,
    CsrActExit,
    CsrActHxStart
  } csr_act_e;

  // Is `a` in a tile's SRAM of `size` bytes at TILE_SRAM_BASE? For a power-of-two size a
  // compare of the high address bits (the SRAM base is aligned to it), not two 32-bit ones.
  function automatic logic sram_contains(input logic [31:0] a, input logic [31:0] size);
    if ((size & (size - 32'd1)) != 32'd0)
      sram_contains = a >= ipu_card_pkg::TileSramBase && a - ipu_card_pkg::TileSramBase < size;
    else
      sram_contains = (a & ~(size - 32'd1)) == ipu_card_pkg::TileSramBase;
  endfunction

  // Do `len` bytes from `a` lie in a tile's SRAM of `size` bytes at TILE_SRAM_BASE
  // (len <= size, a >= base, a - base <= size - len)? For a power-of-two size (SRAM_BASE
  // is 1 MiB aligned, the SRAM at most 1 MiB) the same answer from the high address bits
  // and a narrow end-offset sum instead of 32-bit subtractors: area on an FPGA.
  // (Assignments to the function name: yosys 0.23 reads those.)
  function automatic logic sram_span_ok(input logic [31:0] a, input logic [31:0] len, input logic [31:0] size);
    logic [31:0] mask, off, len_lo;
    mask   = size - 32'd1;
    off    = a & mask;
    len_lo = len & (size | mask);  // exact once len <= size
    if ((size & mask) != 32'd0)
      sram_span_ok = len <= size && a >= ipu_card_pkg::TileSramBase && a - ipu_card_pkg::TileSramBase <= size - len;
    else
      sram_span_ok = len <= size && (((a & ~mask) == ipu_card_pkg::TileSramBase && off + len_lo <= size) ||
                                     ((a & ~mask) == ipu_card_pkg::TileSramBase + size && off == 32'd0 && len == 32'd0));
  endfunction

endpackage : ipu_tile_pkg
