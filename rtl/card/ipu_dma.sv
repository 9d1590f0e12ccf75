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
  // back to the tile (a fault there), not to DMA_STATUS or the error FIFO.
  input  logic             hx_req_i,
  input  logic [TileW-1:0] hx_tile_i,
  input  logic [31:0]      hx_dev_i,
  input  logic [31:0]      hx_taddr_i,
  input  logic [31:0]      hx_len_i,
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

  typedef enum logic [3:0] {
    DmaIdle, DmaDesc, DmaCheck, DmaHostRd, DmaTileWr, DmaTileRd, DmaTileWait, DmaHostWr, DmaNext, DmaSearch
  } dma_state_e;

  dma_state_e  state_q, state_d, ret_q, ret_d;  // ret: where a table search returns to
  logic [2:0]  status_q, status_d;
  logic [31:0] completed_q, completed_d, idx_q, idx_d, at_q, at_d;
  logic [63:0] bytes_q, bytes_d;
  // Descriptor words 0..4; of the reserved words 5..7 only whether one is not zero.
  logic [31:0] desc_q [5];
  logic [31:0] desc_d [5];
  logic        rsvd_nz_q, rsvd_nz_d;
  logic [2:0]  word_q, word_d;
  logic [31:0] pos_q, pos_d, taddr_q, taddr_d, left_q, left_d, data_q, data_d;
  logic [15:0] tcur_q, tcur_d;
  logic        words_q, words_d;
  // The translation entry in use (the first that covers the address).
  logic        hit_q, hit_d;
  logic [31:0] hbase_q, hbase_d, hctrl_q, hctrl_d;
  logic [63:0] hbus_q, hbus_d;
  logic [6:0]  sidx_q, sidx_d;
  logic [1:0]  sword_q, sword_d;               // the word of entry sidx_q on xlat_rdata_i
  logic [31:0] sbase_q, sbase_d, sctrl_q, sctrl_d, slo_q, slo_d;  // its words read so far
  logic        hx_q, hx_d;  // serving a host exchange

  // Descriptor fields (the DMA_DESC format).
  logic [31:0] d_dev, d_taddr, d_len, d_flags, d_count;
  logic [15:0] d_first;
  logic        d_to_host;
  // Descriptor words and fields at the offsets contract/card.toml gives (DMA_DESC).
  localparam int unsigned CountLsb = (DmaDescTileCountOffset % 4) * 8;
  localparam int unsigned FirstLsb = (DmaDescFirstTileOffset % 4) * 8;
  assign d_dev     = desc_q[DmaDescDevAddrOffset / 4];
  assign d_taddr   = desc_q[DmaDescTileAddrOffset / 4];
  assign d_len     = desc_q[DmaDescLengthOffset / 4];
  assign d_first   = desc_q[DmaDescFirstTileOffset / 4][FirstLsb +: DmaDescFirstTileBits];
  assign d_count   = desc_q[DmaDescTileCountOffset / 4][CountLsb +: DmaDescTileCountBits] == 16'd0 ? 32'd1
                   : {16'd0, desc_q[DmaDescTileCountOffset / 4][CountLsb +: DmaDescTileCountBits]};
  assign d_flags   = desc_q[DmaDescFlagsOffset / 4];
  assign d_to_host = d_flags[DmaFlagsToHostLsb];

  // Does entry `e` cover `a`? Its size is (PAGES_MINUS_1 + 1) * 4 KiB.
  // (Assignments to the function name rather than return: yosys 0.23 reads those.)
  function automatic logic covers(input logic [31:0] base, input logic [31:0] ctrl, input logic [31:0] a);
    // a - base < size: one subtractor (its borrow: a below base) and a compare of the
    // page number with PAGES_MINUS_1, not a compare, an adder and a compare.
    /* verilator lint_off UNUSEDSIGNAL */  // diff[11:0]: within the page
    logic [32:0] diff;
    /* verilator lint_on UNUSEDSIGNAL */
    diff   = {1'b0, a} - {1'b0, base};
    covers = ctrl[XlatCtrlValidLsb] && !diff[32] &&
             {5'd0, diff[31:12]} <= 25'(ctrl[XlatCtrlPagesMinus1Lsb +: XlatCtrlPagesMinus1Width]);
  endfunction

  logic [31:0] hpos;       // the host (device) address of the current access
  logic        hwrite;     // the current host access writes host memory
  logic        cached_ok;  // the cached entry covers hpos
  logic        host_state;
  assign hpos       = state_q == DmaDesc ? at_q + {27'd0, word_q, 2'b00} : pos_q;
  assign hwrite     = state_q == DmaHostWr;
  assign cached_ok  = hit_q && covers(hbase_q, hctrl_q, hpos);
  assign host_state = state_q == DmaDesc || state_q == DmaHostRd || state_q == DmaHostWr;

  // The ports, from the state alone (grants and answers feed only the next state).
  always_comb begin
    hm_req_o   = host_state && cached_ok && hctrl_q[hwrite ? XlatCtrlWriteLsb : XlatCtrlReadLsb];
    hm_we_o    = hwrite;
    hm_word_o  = state_q == DmaDesc || words_q;
    hm_wdata_o = data_q;
    hm_addr_o  = hbus_q + {32'd0, hpos - hbase_q};
    req_o      = state_q == DmaTileWr || state_q == DmaTileRd;
    tile_o     = tcur_q[TileW-1:0];
    we_o       = state_q == DmaTileWr;
    be_o       = words_q ? 4'hf : 4'b0001 << taddr_q[1:0];
    waddr_o    = taddr_q[Aw+1:2];  // SRAM_BASE is 1 MiB aligned
    wdata_o    = data_q;
  end

  // The search reads the next cycle's word: the address is where the search goes next.
  assign xlat_raddr_o = {sidx_d[5:0], sword_d};

  logic [31:0] search_pos;  // the address a table search looks for
  assign search_pos = ret_q == DmaDesc ? at_q + {27'd0, word_q, 2'b00} : pos_q;

  always_comb begin
    state_d     = state_q;
    ret_d       = ret_q;
    status_d    = status_q;
    completed_d = completed_q;
    idx_d       = idx_q;
    at_d        = at_q;
    bytes_d     = bytes_q;
    for (int unsigned k = 0; k < 5; k++) desc_d[k] = desc_q[k];
    rsvd_nz_d   = rsvd_nz_q;
    word_d      = word_q;
    pos_d       = pos_q;
    taddr_d     = taddr_q;
    left_d      = left_q;
    data_d      = data_q;
    tcur_d      = tcur_q;
    words_d     = words_q;
    hit_d       = hit_q;
    hbase_d     = hbase_q;
    hctrl_d     = hctrl_q;
    hbus_d      = hbus_q;
    sidx_d      = sidx_q;
    sword_d     = sword_q;
    sbase_d     = sbase_q;
    sctrl_d     = sctrl_q;
    slo_d       = slo_q;
    hx_d        = hx_q;
    hx_accept_o = 1'b0;
    done_pulse_o = 1'b0;
    err_push_o  = 1'b0;
    err_data_o  = 96'd0;

    unique case (state_q)
      DmaIdle: begin
        if (start_i) begin
          if (tiles_run_i) begin
            status_d   = 3'b100;
            err_push_o = 1'b1;
            err_data_o = {32'(ErrDmaBadDescriptor), desc_addr_i, 32'd0};
          end else begin
            status_d    = 3'b001;
            completed_d = 32'd0;
            idx_d       = 32'd0;
            at_d        = desc_addr_i;
            word_d      = 3'd0;
            hit_d       = 1'b0;
            hx_d        = 1'b0;
            state_d     = DmaDesc;
          end
        end else if (hx_req_i) begin
          // A host exchange is a one-descriptor chain to or from one tile.
          hx_accept_o = 1'b1;
          hx_d        = 1'b1;
          hit_d       = 1'b0;
          desc_d[0]   = hx_dev_i;
          desc_d[1]   = hx_taddr_i;
          desc_d[2]   = hx_len_i;
          desc_d[3]   = {16'd0, 16'(hx_tile_i)};
          desc_d[4]   = (32'(hx_to_host_i) << DmaFlagsToHostLsb) | (32'(1) << DmaFlagsLastLsb);
          rsvd_nz_d   = 1'b0;
          state_d     = DmaCheck;
        end
      end
      // Host reads and writes first make sure the cached entry covers the address.
      DmaDesc, DmaHostRd, DmaHostWr: begin
        if (!cached_ok) begin
          ret_d   = state_q;
          sidx_d  = 7'd0;
          sword_d = 2'd0;
          state_d = DmaSearch;
        end else if (!hctrl_q[hwrite ? XlatCtrlWriteLsb : XlatCtrlReadLsb]) begin
          status_d   = 3'b100;
          err_push_o = 1'b1;
          err_data_o = {32'(ErrXlatPermission), hpos, idx_q};
          state_d    = DmaIdle;
        end else begin
          if (hm_done_i && hm_err_i) begin
            // A bus that refuses (an IOMMU fault) is reported like a miss.
            status_d   = 3'b100;
            err_push_o = 1'b1;
            err_data_o = {32'(ErrXlatMiss), hpos, idx_q};
            state_d    = DmaIdle;
          end else if (hm_done_i) begin
            unique case (state_q)
              DmaDesc: begin
                if (word_q < 3'd5) desc_d[word_q] = hm_rdata_i;
                else rsvd_nz_d = rsvd_nz_q || hm_rdata_i != 32'd0;
                if (word_q == 3'd0) rsvd_nz_d = 1'b0;
                word_d = word_q + 3'd1;
                if (word_q == 3'd7) state_d = DmaCheck;
              end
              DmaHostRd: begin
                data_d  = words_q ? hm_rdata_i : {4{hm_rdata_i[7:0]}};
                tcur_d  = d_first;
                state_d = DmaTileWr;
              end
              default: begin  // DmaHostWr
                pos_d   = pos_q + (words_q ? 32'd4 : 32'd1);
                taddr_d = taddr_q + (words_q ? 32'd4 : 32'd1);
                left_d  = left_q - (words_q ? 32'd4 : 32'd1);
                state_d = left_d == 32'd0 ? DmaNext : DmaTileRd;
              end
            endcase
          end
        end
      end
      // Lowest index first, as the model: DEV_BASE and CTRL decide (two cycles an
      // entry), BUS_LO and BUS_HI are read only for the entry that covers.
      DmaSearch: begin
        if (sidx_q == 7'd64) begin
          status_d   = 3'b100;
          err_push_o = 1'b1;
          err_data_o = {32'(ErrXlatMiss), search_pos, idx_q};
          state_d    = DmaIdle;
        end else begin
          sword_d = sword_q + 2'd1;
          unique case (sword_q)
            2'd0: sbase_d = xlat_rdata_i;
            2'd1: begin
              sctrl_d = xlat_rdata_i;
              if (!covers(sbase_q, xlat_rdata_i, search_pos)) begin
                sidx_d  = sidx_q + 7'd1;
                sword_d = 2'd0;
              end
            end
            2'd2: slo_d = xlat_rdata_i;
            default: begin
              hit_d   = 1'b1;
              hbase_d = sbase_q;
              hctrl_d = sctrl_q;
              hbus_d  = {xlat_rdata_i, slo_q};
              sword_d = 2'd0;
              state_d = ret_q;
            end
          endcase
        end
      end
      DmaCheck: begin
        if (d_len == 32'd0 || {16'd0, d_first} + d_count > 32'(NumTiles) || (d_to_host && d_count != 32'd1) ||
            !sram_span_ok(d_taddr, d_len, SramSize) ||
            rsvd_nz_q) begin
          status_d   = 3'b100;
          err_push_o = 1'b1;
          err_data_o = {32'(ErrDmaBadDescriptor), at_q, idx_q};
          state_d    = DmaIdle;
        end else begin
          pos_d   = d_dev;
          taddr_d = d_taddr;
          left_d  = d_len;
          tcur_d  = d_first;
          words_d = d_dev[1:0] == 2'd0 && d_taddr[1:0] == 2'd0 && d_len[1:0] == 2'd0;
          state_d = d_to_host ? DmaTileRd : DmaHostRd;
        end
      end
      DmaTileWr: begin  // the same bytes to every tile of a broadcast
        if (gnt_i) begin
          if ({16'd0, tcur_q} + 32'd1 < {16'd0, d_first} + d_count) begin
            tcur_d = tcur_q + 16'd1;
          end else begin
            pos_d   = pos_q + (words_q ? 32'd4 : 32'd1);
            taddr_d = taddr_q + (words_q ? 32'd4 : 32'd1);
            left_d  = left_q - (words_q ? 32'd4 : 32'd1);
            state_d = left_d == 32'd0 ? DmaNext : DmaHostRd;
          end
        end
      end
      DmaTileRd: begin
        if (gnt_i) state_d = DmaTileWait;
      end
      DmaTileWait: begin
        if (rvalid_i) begin
          data_d  = words_q ? rdata_i : {24'd0, tbyte_of(rdata_i, taddr_q[1:0])};
          state_d = DmaHostWr;
        end
      end
      DmaNext: begin
        bytes_d     = bytes_q + {32'd0, d_len};
        completed_d = completed_q + 32'd1;
        if (d_flags[DmaFlagsLastLsb]) begin
          status_d     = 3'b010;
          done_pulse_o = 1'b1;
          state_d      = DmaIdle;
        end else if (idx_q + 32'd1 == MaxChain) begin
          // A chain without LAST is bounded, never followed forever.
          status_d   = 3'b100;
          err_push_o = 1'b1;
          err_data_o = {32'(ErrDmaBadDescriptor), desc_addr_i, MaxChain};
          state_d    = DmaIdle;
        end else begin
          idx_d   = idx_q + 32'd1;
          at_d    = at_q + 32'd32;
          word_d  = 3'd0;
          state_d = DmaDesc;
        end
      end
      default: state_d = DmaIdle;
    endcase

    // A host exchange reports to its tile; DMA_STATUS and DMA_COMPLETED stay as they were.
    hx_done_o  = hx_q && done_pulse_o;
    hx_fault_o = hx_q && err_push_o;
    hx_cause_o = err_data_o[95:64];
    hx_addr_o  = err_data_o[63:32];
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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= DmaIdle;
      ret_q       <= DmaIdle;
      status_q    <= 3'd0;
      completed_q <= 32'd0;
      idx_q       <= 32'd0;
      at_q        <= 32'd0;
      bytes_q     <= 64'd0;
      for (int unsigned k = 0; k < 5; k++) desc_q[k] <= 32'd0;
      rsvd_nz_q   <= 1'b0;
      word_q      <= 3'd0;
      pos_q       <= 32'd0;
      taddr_q     <= 32'd0;
      left_q      <= 32'd0;
      data_q      <= 32'd0;
      tcur_q      <= 16'd0;
      words_q     <= 1'b0;
      hit_q       <= 1'b0;
      hbase_q     <= 32'd0;
      hctrl_q     <= 32'd0;
      hbus_q      <= 64'd0;
      sidx_q      <= 7'd0;
      sword_q     <= 2'd0;
      sbase_q     <= 32'd0;
      sctrl_q     <= 32'd0;
      slo_q       <= 32'd0;
      hx_q        <= 1'b0;
    end else begin
      state_q     <= state_d;
      ret_q       <= ret_d;
      status_q    <= status_d;
      completed_q <= completed_d;
      idx_q       <= idx_d;
      at_q        <= at_d;
      bytes_q     <= bytes_d;
      for (int unsigned k = 0; k < 5; k++) desc_q[k] <= desc_d[k];
      rsvd_nz_q   <= rsvd_nz_d;
      word_q      <= word_d;
      pos_q       <= pos_d;
      taddr_q     <= taddr_d;
      left_q      <= left_d;
      data_q      <= data_d;
      tcur_q      <= tcur_d;
      words_q     <= words_d;
      hit_q       <= hit_d;
      hbase_q     <= hbase_d;
      hctrl_q     <= hctrl_d;
      hbus_q      <= hbus_d;
      sidx_q      <= sidx_d;
      sword_q     <= sword_d;
      sbase_q     <= sbase_d;
      sctrl_q     <= sctrl_d;
      slo_q       <= slo_d;
      hx_q        <= hx_d;
    end
  end

  assign busy_o      = state_q != DmaIdle;
  assign status_o    = status_q;
  assign completed_o = completed_q;
  assign bytes_o     = bytes_q;

endmodule : ipu_dma
