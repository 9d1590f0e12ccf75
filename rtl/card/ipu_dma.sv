// DMA engine: runs a descriptor chain from host memory, translating every host access
// through the translation table, and moves bytes between host memory and tile SRAM.
//
// Host memory is reached through a request port that the simulation harness serves
// (the bus); tile SRAM through the tiles' port A, one tile at a time. Words move when
// the host address, tile address and length are all word aligned, bytes otherwise.
module ipu_dma
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumTiles  = 4,
  parameter int unsigned SramBytes = 65536,
  // 0: no descriptor chains (DMA_CTRL.START is ignored, no DMA error records, DMA_STATUS
  // and DMA_COMPLETED read 0): only the tiles' host exchanges. The card says so in
  // CAPS.DMA (ipu_card_regs); boards short of logic (the iCE40UP5K) build it so.
  parameter bit          Chains    = 1'b1,
  localparam int unsigned Aw = $clog2(SramBytes / 4),
  localparam int unsigned TileW = NumTiles > 1 ? $clog2(NumTiles) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic             start_i,        // DMA_CTRL.START
  input  logic             tiles_run_i,    // tiles own their SRAM: refuse
  input  logic [31:0]      desc_addr_i,
  output logic             busy_o,
  output logic [2:0]       status_o,       // DMA_STATUS: {ERROR, DONE, BUSY}
  output logic [31:0]      completed_o,
  output logic [63:0]      bytes_o,
  output logic             done_pulse_o,   // a chain completed: IRQ DMA_DONE

  // Host exchange for a tile: the same moves, one tile, no descriptor; the result goes
  // back to the tile (a fault there), not to DMA_STATUS or the error FIFO. The tile holds
  // its request until it is done: from the accept on, hx_dev_i, hx_taddr_i and hx_len_i
  // are the served tile's (hx_tile_i and hx_to_host_i are read at the accept).
  input  logic             hx_req_i,
  input  logic [TileW-1:0] hx_tile_i,
  input  logic [31:0]      hx_dev_i,
  /* verilator lint_off UNUSEDSIGNAL */  // checked by the tile: an SRAM offset's bits, LenW bits
  input  logic [31:0]      hx_taddr_i,
  input  logic [31:0]      hx_len_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic             hx_to_host_i,
  output logic             hx_accept_o,
  output logic             hx_done_o,
  output logic             hx_fault_o,
  output logic [31:0]      hx_cause_o,
  output logic [31:0]      hx_addr_o,

  // Error records: {cause, addr, info}; the DMA engine's tile is 0xffffffff.
  output logic             err_push_o,
  output logic [95:0]      err_data_o,

  // Translation table, one word at a time and read synchronously (block RAM on an
  // FPGA): xlat_rdata_i is the word at the address xlat_raddr_o gave the cycle before.
  output logic [7:0]       xlat_raddr_o,   // {entry, word}: 0 DEV_BASE, 1 CTRL, 2 BUS_LO, 3 BUS_HI
  input  logic [31:0]      xlat_rdata_i,

  // Host memory: the request is answered in the same cycle (hm_done_i).
  output logic             hm_req_o,
  output logic             hm_we_o,
  output logic [63:0]      hm_addr_o,
  output logic             hm_word_o,      // 4 bytes, else 1 byte (the low byte of the data)
  output logic [31:0]      hm_wdata_o,
  input  logic             hm_done_i,
  input  logic             hm_err_i,
  input  logic [31:0]      hm_rdata_i,

  // Tile SRAM port A.
  output logic             req_o,
  output logic [TileW-1:0] tile_o,
  output logic             we_o,
  output logic [3:0]       be_o,
  output logic [Aw-1:0]    waddr_o,
  output logic [31:0]      wdata_o,
  input  logic             gnt_i,
  input  logic             rvalid_i,
  input  logic [31:0]      rdata_i
);

  localparam logic [31:0] SramSize = 32'(SramBytes);
  localparam logic [31:0] MaxChain = 32'd65536;
  localparam int unsigned LenW = $clog2(SramBytes) + 1;  // a checked length: at most SramBytes
  localparam int unsigned PagesW = XlatCtrlPagesMinus1Width;
  // The descriptor's words (DMA_DESC in contract/card.toml).
  localparam logic [2:0] WDev   = 3'(DmaDescDevAddrOffset / 4);
  localparam logic [2:0] WTile  = 3'(DmaDescTileAddrOffset / 4);
  localparam logic [2:0] WLen   = 3'(DmaDescLengthOffset / 4);
  localparam logic [2:0] WTiles = 3'(DmaDescFirstTileOffset / 4);
  localparam logic [2:0] WFlags = 3'(DmaDescFlagsOffset / 4);
  localparam int unsigned CountLsb = (DmaDescTileCountOffset % 4) * 8;
  localparam int unsigned FirstLsb = (DmaDescFirstTileOffset % 4) * 8;

  typedef enum logic [3:0] {
    DmaIdle, DmaFetch, DmaDesc, DmaCheck, DmaHostRd, DmaTileWr, DmaTileRd, DmaTileWait, DmaHostWr, DmaNext,
    DmaSearch, DmaStep
  } dma_state_e;

  // Few registers, each loaded from few places. A transfer is its device address, tile
  // address and length (a descriptor's: pos_q, taddr_q, len_q; a host exchange's: the
  // tile's request, which it holds until it is done) and one offset, off_q, the bytes
  // moved so far: hpos, the host address of every host access (descriptor words
  // included: pos_q then, off_q 0), is the device address plus the offset, so that one
  // subtractor serves the translation's coverage test and the bus address. The
  // descriptor's device address waits in data_q until the check.
  // ret: where a table search returns to (without chains: the transfer's host access)
  dma_state_e  state_q, state_d, ret_q, ret_d;
  logic [2:0]  status_q, status_d;
  logic [16:0] completed_q, completed_d;        // at most MaxChain descriptors a chain
  logic [15:0] idx_q, idx_d;                    // the descriptor's index in the chain
  logic [31:0] at_q, at_d;                      // the descriptor's address; after its check, the next's
  logic [63:0] bytes_q, bytes_d;
  logic [31:0] pos_q, pos_d;                    // the descriptor's word; its device address
  logic [31:0] taddr_q, taddr_d;                // its tile address (all 32 bits for the check)
  logic [31:0] len_q, len_d;                    // its length (all 32 bits for the check)
  logic [LenW-1:0] off_q, off_d;                // bytes of the transfer moved
  logic [31:0] data_q, data_d;                  // the word in flight; the device address before the check
  // The descriptor's tiles, judged as the word arrives (flip-flops fed by logic, not by
  // the bus): the first, the last, whether the range ends past the array, one tile.
  logic [TileW-1:0] first_q, first_d;
  logic        tiles_bad_q, tiles_bad_d, one_tile_q, one_tile_d;
  logic        to_host_q, to_host_d, last_q, last_d, rsvd_nz_q, rsvd_nz_d;
  logic [2:0]  word_q, word_d;
  logic [TileW-1:0] tcur_q, tcur_d, tlast_q, tlast_d;
  logic        words_q, words_d;
  // Translation: every host access reads its entry from the table (block RAM) again, 4
  // cycles, rather than keeping a copy of it in flip-flops: the entry that covered the
  // last access first (when hit_q: a search that found its entry leaves sidx_q there),
  // else the search from entry 0. The words are used as they stream out: DEV_BASE gives
  // the offset (diff_q), CTRL the coverage and the permissions, BUS_LO and BUS_HI the bus
  // address (haddr_q). DEV_BASE and BUS_LO are 4 KiB aligned (the model clears their low
  // 12 bits as they are written; so do we, as they are read): only the page numbers are
  // subtracted and added, the offset in the page is hpos's.
  logic        hit_q, hit_d, retry_q, retry_d, ready_q, ready_d;
  logic [32:12] diff_q, diff_d;               // hpos - DEV_BASE; bit 32: hpos below it
  logic        rd_ok_q, rd_ok_d, wr_ok_q, wr_ok_d, carry_q, carry_d;
  logic [63:12] haddr_q, haddr_d;
  logic [6:0]  sidx_q, sidx_d;
  logic [1:0]  sword_q, sword_d;               // the word of entry sidx_q on xlat_rdata_i
  logic        hx_q, hx_d;  // serving a host exchange

  // Descriptor fields for the check.
  logic [15:0] d_first, d_count_f;
  logic [16:0] d_count;
  assign d_first   = hm_rdata_i[FirstLsb +: DmaDescFirstTileBits];
  assign d_count_f = hm_rdata_i[CountLsb +: DmaDescTileCountBits];
  assign d_count   = d_count_f == 16'd0 ? 17'd1 : {1'b0, d_count_f};
  logic [16:0] d_end;  // one past the last tile
  assign d_end     = {1'b0, d_first} + d_count;

  // The tile range [taddr_q, taddr_q + len_q) lies in the SRAM (len_q is not zero there).
  // For a power-of-two SRAM: the base's upper bits, and the offset plus the length.
  logic span_ok;
  if ((SramBytes & (SramBytes - 1)) == 0) begin : g_span_pow2
    logic [LenW:0] span_end;
    assign span_end = {1'b0, taddr_q[LenW-2:0]} + {1'b0, len_q[LenW-1:0]};
    assign span_ok  = len_q <= SramSize && taddr_q[31:LenW-1] == TileSramBase[31:LenW-1] &&
                      span_end <= (LenW+1)'(SramBytes);
  end else begin : g_span_any
    assign span_ok = sram_span_ok(taddr_q, len_q, SramSize);
  end

  // The transfer: a descriptor's, else the host exchange's.
  logic          desc;
  logic [31:0]   dev, hpos;
  logic [Aw+1:0] tbase, taddr;
  logic [LenW-1:0] len, off_next;
  assign desc  = Chains && !hx_q;
  assign dev   = desc ? pos_q : hx_dev_i;
  assign tbase = desc ? taddr_q[Aw+1:0] : hx_taddr_i[Aw+1:0];
  assign len   = desc ? len_q[LenW-1:0] : hx_len_i[LenW-1:0];  // checked: at most SramBytes
  assign hpos  = dev + 32'(off_q);
  assign taddr = tbase + (Aw+2)'(off_q);  // SRAM_BASE is 1 MiB aligned

  // Does the entry cover hpos? Its size is (PAGES_MINUS_1 + 1) * 4 KiB: hpos - base
  // (diff_q, its borrow: below base) below the size, tested when CTRL is on xlat_rdata_i.
  logic        covers, host_state, hwrite, perm_ok;
  logic [32:12] sum_lo;
  assign covers = xlat_rdata_i[XlatCtrlValidLsb] && !diff_q[32] &&
                  diff_q[31:12] <= 20'(xlat_rdata_i[XlatCtrlPagesMinus1Lsb +: PagesW]);
  assign sum_lo = {1'b0, xlat_rdata_i[31:12]} + {1'b0, diff_q[31:12]};
  assign hwrite     = state_q == DmaHostWr;
  assign perm_ok    = hwrite ? wr_ok_q : rd_ok_q;
  assign host_state = (Chains && state_q == DmaDesc) || state_q == DmaHostRd || state_q == DmaHostWr;

  // The ports, from the state alone (grants and answers feed only the next state).
  always_comb begin
    hm_req_o   = host_state && ready_q && perm_ok;
    hm_we_o    = hwrite;
    hm_word_o  = (Chains && state_q == DmaDesc) || words_q;
    hm_wdata_o = data_q;
    hm_addr_o  = {haddr_q, hpos[11:0]};
    req_o      = state_q == DmaTileWr || state_q == DmaTileRd;
    tile_o     = tcur_q;
    we_o       = state_q == DmaTileWr;
    be_o       = words_q ? 4'hf : 4'b0001 << taddr[1:0];
    waddr_o    = taddr[Aw+1:2];
    wdata_o    = data_q;
  end

  // The search reads the next cycle's word: the address is where the search goes next.
  assign xlat_raddr_o = {sidx_d[5:0], sword_d};

  // One step of a transfer: a word when everything is aligned, else a byte. The transfer
  // is done when the offset reaches the length, tested in DmaStep after each step (the
  // offset's flip-flops are then fed by its adder alone: they share its logic cells).
  assign off_next = off_q + (words_q ? LenW'(4) : LenW'(1));

  // Error records: {cause, addr, info}.
  logic        err;
  logic [7:0]  err_cause;
  logic [31:0] err_addr;
  logic        err_info_idx, err_info_max;

  always_comb begin
    state_d     = state_q;
    ret_d       = ret_q;
    status_d    = status_q;
    completed_d = completed_q;
    idx_d       = idx_q;
    at_d        = at_q;
    bytes_d     = bytes_q;
    pos_d       = pos_q;
    taddr_d     = taddr_q;
    len_d       = len_q;
    off_d       = off_q;
    data_d      = data_q;
    first_d     = first_q;
    tiles_bad_d = tiles_bad_q;
    one_tile_d  = one_tile_q;
    to_host_d   = to_host_q;
    last_d      = last_q;
    rsvd_nz_d   = rsvd_nz_q;
    word_d      = word_q;
    tcur_d      = tcur_q;
    tlast_d     = tlast_q;
    words_d     = words_q;
    hit_d       = hit_q;
    retry_d     = retry_q;
    ready_d     = ready_q;
    diff_d      = diff_q;
    rd_ok_d     = rd_ok_q;
    wr_ok_d     = wr_ok_q;
    carry_d     = carry_q;
    haddr_d     = haddr_q;
    sidx_d      = sidx_q;
    sword_d     = sword_q;
    hx_d        = hx_q;
    hx_accept_o = 1'b0;
    done_pulse_o = 1'b0;
    err          = 1'b0;
    err_cause    = 8'(ErrXlatMiss);
    err_addr     = hpos;
    err_info_idx = 1'b1;
    err_info_max = 1'b0;

    unique case (state_q)
      DmaIdle: begin
        if (Chains && start_i) begin
          if (tiles_run_i) begin
            err          = 1'b1;
            err_cause    = 8'(ErrDmaBadDescriptor);
            err_addr     = desc_addr_i;
            err_info_idx = 1'b0;
          end else begin
            status_d    = 3'b001;
            completed_d = '0;
            idx_d       = '0;
            at_d        = desc_addr_i;
            hit_d       = 1'b0;
            ready_d     = 1'b0;
            hx_d        = 1'b0;
            state_d     = DmaFetch;
          end
        end else if (hx_req_i) begin
          // A host exchange is a one-descriptor chain to or from one tile.
          hx_accept_o = 1'b1;
          hx_d        = 1'b1;
          hit_d       = 1'b0;
          ready_d     = 1'b0;
          off_d       = '0;
          first_d     = hx_tile_i;
          tlast_d     = hx_tile_i;
          tiles_bad_d = 1'b0;
          one_tile_d  = 1'b1;
          to_host_d   = hx_to_host_i;
          last_d      = 1'b1;
          rsvd_nz_d   = 1'b0;
          state_d     = DmaCheck;
        end
      end
      // Host reads and writes first make sure the cached entry covers the address.
      DmaDesc, DmaHostRd, DmaHostWr: begin
        if (!ready_q) begin
          ret_d   = state_q;
          retry_d = hit_q;
          sidx_d  = hit_q ? sidx_q : 7'd0;
          sword_d = 2'd0;
          state_d = DmaSearch;
        end else if (!perm_ok) begin
          err       = 1'b1;
          err_cause = 8'(ErrXlatPermission);
        end else if (hm_done_i && hm_err_i) begin
          // A bus that refuses (an IOMMU fault) is reported like a miss.
          err = 1'b1;
        end else if (hm_done_i) begin
          ready_d = 1'b0;  // the next access looks its entry up again
          unique case (state_q)
            DmaDesc: if (Chains) begin
              unique case (word_q)
                WDev:    data_d  = hm_rdata_i;
                WTile:   taddr_d = hm_rdata_i;
                WLen:    len_d   = hm_rdata_i;
                WTiles: begin
                  first_d     = TileW'(d_first);
                  tlast_d     = TileW'(d_end - 17'd1);
                  tiles_bad_d = d_end > 17'(NumTiles);
                  one_tile_d  = d_count == 17'd1;
                end
                WFlags: begin
                  to_host_d = hm_rdata_i[DmaFlagsToHostLsb];
                  last_d    = hm_rdata_i[DmaFlagsLastLsb];
                end
                default: rsvd_nz_d = rsvd_nz_q || hm_rdata_i != 32'd0;
              endcase
              if (word_q == 3'd0) rsvd_nz_d = 1'b0;
              pos_d  = pos_q + 32'd4;
              word_d = word_q + 3'd1;
              if (word_q == 3'd7) state_d = DmaCheck;
            end
            DmaHostRd: begin
              data_d  = words_q ? hm_rdata_i : {4{hm_rdata_i[7:0]}};
              state_d = DmaTileWr;
            end
            default: begin  // DmaHostWr
              off_d   = off_next;
              state_d = DmaStep;
            end
          endcase
        end
      end
      // Lowest index first, as the model: DEV_BASE and CTRL decide (two cycles an
      // entry), BUS_LO and BUS_HI are read only for the entry that covers. The entry of
      // the last access is tried first; when it does not cover, the search starts at 0.
      DmaSearch: begin
        if (sidx_q == 7'd64) begin
          err = 1'b1;
        end else begin
          sword_d = sword_q + 2'd1;
          unique case (sword_q)
            2'd0: diff_d = {1'b0, hpos[31:12]} - {1'b0, xlat_rdata_i[31:12]};
            2'd1: begin
              rd_ok_d = xlat_rdata_i[XlatCtrlReadLsb];
              wr_ok_d = xlat_rdata_i[XlatCtrlWriteLsb];
              if (!covers) begin
                sidx_d  = retry_q ? 7'd0 : sidx_q + 7'd1;
                retry_d = 1'b0;
                sword_d = 2'd0;
              end
            end
            2'd2: begin
              haddr_d[31:12] = sum_lo[31:12];
              carry_d        = sum_lo[32];
            end
            default: begin
              haddr_d[63:32] = xlat_rdata_i + 32'(carry_q);
              hit_d   = 1'b1;
              ready_d = 1'b1;
              sword_d = 2'd0;
              state_d = Chains ? ret_q : to_host_q ? DmaHostWr : DmaHostRd;
            end
          endcase
        end
      end
      DmaCheck: begin
        // (A host exchange was checked by its tile.)
        if (desc && (len_q == 32'd0 || tiles_bad_q || (to_host_q && !one_tile_q) || !span_ok ||
                     rsvd_nz_q)) begin
          err       = 1'b1;
          err_cause = 8'(ErrDmaBadDescriptor);
          err_addr  = at_q;
        end else begin
          // A descriptor's device address waits in data_q (pos_q read its words and is
          // the next descriptor's address).
          if (desc) begin
            at_d  = pos_q;
            pos_d = data_q;
          end
          off_d   = '0;
          tcur_d  = first_q;
          words_d = (desc ? data_q[1:0] : hx_dev_i[1:0]) == 2'd0 && tbase[1:0] == 2'd0 &&
                    len[1:0] == 2'd0;
          state_d = to_host_q ? DmaTileRd : DmaHostRd;
        end
      end
      DmaTileWr: begin  // the same bytes to every tile of a broadcast
        if (gnt_i) begin
          if (Chains && tcur_q != tlast_q) begin
            tcur_d = tcur_q + 1'b1;
          end else begin
            tcur_d  = first_q;
            off_d   = off_next;
            state_d = DmaStep;
          end
        end
      end
      DmaFetch: if (Chains) begin  // the descriptor at at_q
        pos_d   = at_q;
        off_d   = '0;
        word_d  = 3'd0;
        state_d = DmaDesc;
      end
      DmaStep: begin
        if (off_q == len) state_d = DmaNext;
        else              state_d = to_host_q ? DmaTileRd : DmaHostRd;
      end
      DmaTileRd: begin
        if (gnt_i) state_d = DmaTileWait;
      end
      DmaTileWait: begin
        if (rvalid_i) begin
          data_d  = words_q ? rdata_i : {24'd0, tbyte_of(rdata_i, taddr[1:0])};
          state_d = DmaHostWr;
        end
      end
      DmaNext: begin
        bytes_d     = bytes_q + 64'(len);
        if (Chains) completed_d = completed_q + 17'd1;
        if (!Chains || last_q) begin
          status_d     = 3'b010;
          done_pulse_o = 1'b1;
          state_d      = DmaIdle;
        end else if (idx_q == 16'hffff) begin
          // A chain without LAST is bounded, never followed forever.
          err          = 1'b1;
          err_cause    = 8'(ErrDmaBadDescriptor);
          err_addr     = desc_addr_i;
          err_info_max = 1'b1;
        end else begin
          idx_d   = idx_q + 16'd1;
          state_d = DmaFetch;
        end
      end
      default: state_d = DmaIdle;
    endcase

    if (err) begin
      status_d = 3'b100;
      state_d  = DmaIdle;
    end
    err_push_o = Chains && err;
    err_data_o = {24'd0, err_cause, err_addr,
                  err_info_max ? MaxChain : err_info_idx ? {16'd0, idx_q} : 32'd0};

    // A host exchange reports to its tile; DMA_STATUS and DMA_COMPLETED stay as they were.
    hx_done_o  = hx_q && done_pulse_o;
    hx_fault_o = hx_q && err;
    hx_cause_o = {24'd0, err_cause};
    hx_addr_o  = err_addr;
    if (hx_q) begin
      done_pulse_o = 1'b0;
      err_push_o   = 1'b0;
      status_d     = status_q;
      completed_d  = completed_q;
    end
  end

  function automatic logic [7:0] tbyte_of(input logic [31:0] w, input logic [1:0] lane);
    tbyte_of = 8'(w >> {lane, 3'b000});
  endfunction

  // Only the state and the counters the host reads need a reset; the rest is loaded
  // before it is used (no reset: no LUT in front of each flip-flop's enable).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= DmaIdle;
      status_q    <= 3'd0;
      completed_q <= '0;
      bytes_q     <= 64'd0;
      hit_q       <= 1'b0;
      ready_q     <= 1'b0;
      hx_q        <= 1'b0;
    end else begin
      state_q     <= state_d;
      status_q    <= status_d;
      completed_q <= completed_d;
      bytes_q     <= bytes_d;
      hit_q       <= hit_d;
      ready_q     <= ready_d;
      hx_q        <= hx_d;
    end
  end

  always_ff @(posedge clk_i) begin
    ret_q     <= ret_d;
    idx_q     <= idx_d;
    at_q      <= at_d;
    pos_q     <= pos_d;
    taddr_q   <= taddr_d;
    len_q     <= len_d;
    off_q     <= off_d;
    data_q    <= data_d;
    first_q   <= first_d;
    tiles_bad_q <= tiles_bad_d;
    one_tile_q  <= one_tile_d;
    to_host_q <= to_host_d;
    last_q    <= last_d;
    rsvd_nz_q <= rsvd_nz_d;
    word_q    <= word_d;
    tcur_q    <= tcur_d;
    tlast_q   <= tlast_d;
    words_q   <= words_d;
    retry_q   <= retry_d;
    diff_q    <= diff_d;
    rd_ok_q   <= rd_ok_d;
    wr_ok_q   <= wr_ok_d;
    carry_q   <= carry_d;
    haddr_q   <= haddr_d;
    sidx_q    <= sidx_d;
    sword_q   <= sword_d;
  end

  assign busy_o      = state_q != DmaIdle;
  assign status_o    = Chains ? status_q : 3'd0;
  assign completed_o = Chains ? 32'(completed_q) : 32'd0;
  assign bytes_o     = bytes_q;

endmodule : ipu_dma
