// One tile: the barrel-threaded core, its single-port SRAM, the host window port and the SRAM clearer.
module ipu_tile
  import ipu_card_pkg::*;
  import ipu_tile_pkg::*;
#(
  parameter int unsigned NumWorkers = 6,
  parameter int unsigned SramBytes  = 65536,
  // 1: no exchange unit; the core's EXCHANGE goes to the card as a request (xs_*) that
  // the host driver services (CAPS.HOST_SERVICE), and the outbox ports are tied off.
  parameter bit          HostService = 1'b0,
  localparam int unsigned Words = SramBytes / 4,
  localparam int unsigned Aw = $clog2(Words)
) (
  input  logic            clk_i,
  input  logic            rst_ni,

  input  logic [15:0]     tile_id_i,
  input  logic [15:0]     num_tiles_i,
  input  logic            enable_i,
  input  logic [31:0]     entry_i,
  input  logic [31:0]     boot_arg_i,
  input  logic            boot_load_i,
  input  logic [31:0]     watchdog_units_i,
  input  logic            wd_load_i,
  input  logic            start_i,
  input  logic            halt_i,
  input  logic            release_i,

  output tile_state_e     state_o,
  output logic [31:0]     exit_code_o,
  output logic [31:0]     sync_req_o,
  output logic [63:0]     cycles_o,
  input  logic [CtxW-1:0] ctx_sel_i,
  input  logic [CtxW-1:0] ctx_sel_next_i,
  output ctx_state_e      ctx_state_o,
  output logic [31:0]     ctx_pc_o,
  output logic [31:0]     ctx_instret_o,

  output logic            has_fault_o,
  output logic            err_pending_o,
  input  logic            err_ack_i,
  output logic [31:0]     err_cause_o,
  output logic [CtxW-1:0] err_ctx_o,
  output logic [31:0]     err_pc_o,
  output logic [31:0]     err_addr_o,
  output logic [31:0]     err_info_o,

  output logic            console_valid_o,
  output logic [7:0]      console_byte_o,
  input  logic            console_ready_i,

  // Host access to SRAM (the BAR2 window): request until granted, data one cycle later.
  input  logic            host_req_i,
  input  logic            host_we_i,
  input  logic [3:0]      host_be_i,
  input  logic [Aw-1:0]   host_addr_i,
  input  logic [31:0]     host_wdata_i,
  output logic            host_gnt_o,
  output logic            host_rvalid_o,
  output logic [31:0]     host_rdata_o,

  // Host exchange, served by the card's DMA engine.
  output logic            hx_req_o,
  output logic [31:0]     hx_dev_o,
  output logic [31:0]     hx_tile_o,
  output logic [31:0]     hx_len_o,
  output logic            hx_to_host_o,
  input  logic            hx_done_i,
  input  logic            hx_fault_i,
  input  logic [31:0]     hx_cause_i,
  input  logic [31:0]     hx_addr_i,

  // Exchange outbox, drained by the card's exchange fabric at a sync (0 with HostService).
  output logic            out_valid_o,
  output logic [127:0]    out_head_o,
  input  logic            out_pop_i,

  // HostService: the supervisor's EXCHANGE waits for the host (xs_req_o, the list address
  // held with it) until the card completes it (a pulse); the tile keeps a fault's address
  // (given with the pulse) in the list's register, and the card holds the info until the
  // core takes it (it serves one request at a time). Unused (req 0) otherwise.
  output logic            xs_req_o,
  output logic [31:0]     xs_list_o,
  input  logic            xs_done_i,
  input  logic            xs_fault_i,
  input  logic [31:0]     xs_fault_addr_i,  // with xs_fault_i
  input  logic [31:0]     xs_fault_info_i,

  output logic            rvfi_valid_o,
  output logic [CtxW-1:0] rvfi_ctx_o,
  output logic [31:0]     rvfi_pc_o,
  output logic [31:0]     rvfi_insn_o,
  output logic [4:0]      rvfi_rd_o,
  output logic [31:0]     rvfi_rd_value_o
);

  // SRAM clearer: after reset the SRAM reads as zero, as the contract says.
  logic          clear_q;
  logic [Aw-1:0] clear_addr_q;
  logic          host_rvalid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clear_q       <= 1'b1;
      clear_addr_q  <= '0;
      host_rvalid_q <= 1'b0;
    end else begin
      host_rvalid_q <= host_gnt_o && !host_we_i;
      if (clear_q) begin
        clear_addr_q <= clear_addr_q + 1'b1;
        if (32'(clear_addr_q) == Words - 1) clear_q <= 1'b0;
      end
    end
  end

  // The SRAM's one port, by priority: the clearer; a load/store of the core or the
  // exchange unit's list read (both want the data the next cycle and cannot wait); the
  // host (the card's window, exchange fabric and DMA engine wait for a grant); and
  // instruction fetch, which loses its turn to any of them (the context fetches again
  // at its next turn). The core accesses data at most every other cycle (a data access
  // stalls the fetch behind it), so the host is never starved by the core.
  logic          fetch_req;
  logic [Aw-1:0] fetch_addr;
  logic          m_req, m_we;
  logic [3:0]    m_be;
  logic [Aw-1:0] m_addr;
  logic [31:0]   m_wdata, m_rdata;
  logic          d_req, d_we;
  logic [3:0]    d_be;
  logic [Aw-1:0] d_addr;
  logic [31:0]   d_wdata;

  // Exchange unit; it owns the data path while it reads a list (the core issues nothing then).
  logic          xu_start, xu_busy, xu_done, xu_consume, xu_fault, xu_req;
  logic [31:0]   xu_list, xu_faddr, xu_finfo;
  logic [Aw-1:0] xu_addr;
  logic          data_req;

  // The exchange unit owns the data path while it reads a list (never with HostService:
  // the core then issues nothing while its EXCHANGE waits, and the port needs no mux).
  logic xu_owns;
  assign xu_owns    = !HostService && xu_busy;
  assign data_req   = xu_owns ? xu_req : d_req;
  assign host_gnt_o    = host_req_i && !clear_q && !data_req;
  assign host_rvalid_o = host_rvalid_q;

  always_comb begin
    if (clear_q) begin
      m_req = 1'b1; m_we = 1'b1; m_be = 4'hf; m_addr = clear_addr_q; m_wdata = 32'd0;
    end else if (data_req) begin
      m_req = 1'b1; m_we = !xu_owns && d_we; m_be = xu_owns ? 4'h0 : d_be;
      m_addr = xu_owns ? xu_addr : d_addr; m_wdata = d_wdata;
    end else if (host_req_i) begin
      m_req = 1'b1; m_we = host_we_i; m_be = host_be_i; m_addr = host_addr_i; m_wdata = host_wdata_i;
    end else begin
      m_req = fetch_req; m_we = 1'b0; m_be = 4'h0; m_addr = fetch_addr; m_wdata = 32'd0;
    end
  end
  assign host_rdata_o = m_rdata;

  if (!HostService) begin : g_xu
    ipu_tile_xu #(.SramBytes(SramBytes)) u_xu (
      .clk_i,
      .rst_ni,
      .clear_i      (start_i),
      .num_tiles_i,
      .start_i      (xu_start),
      .list_i       (xu_list),
      .busy_o       (xu_busy),
      .done_o       (xu_done),
      .consume_i    (xu_consume),
      .fault_o      (xu_fault),
      .fault_addr_o (xu_faddr),
      .fault_info_o (xu_finfo),
      .req_o        (xu_req),
      .addr_o       (xu_addr),
      .rdata_i      (m_rdata),
      .out_valid_o,
      .out_head_o,
      .out_pop_i
    );
    assign xs_req_o  = 1'b0;
    assign xs_list_o = 32'd0;
    logic unused_xs;
    assign unused_xs = ^{xs_done_i, xs_fault_i, xs_fault_addr_i, xs_fault_info_i};
  end else begin : g_xs
    // The exchange unit's handshake with the host in its place: busy (the core issues
    // nothing) from the start until the card completes the request, then done (with the
    // fault flag) until the core consumes it. A START clears it, as it clears the unit.
    logic xs_pend_q, xs_done_q, xs_fault_q;
    logic [31:0] xs_list_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        xs_pend_q  <= 1'b0;
        xs_done_q  <= 1'b0;
        xs_fault_q <= 1'b0;
      end else if (start_i) begin
        xs_pend_q  <= 1'b0;
        xs_done_q  <= 1'b0;
      end else if (xu_start) begin
        xs_pend_q  <= 1'b1;
      end else if (xs_pend_q && (xs_done_i || xs_fault_i)) begin
        xs_pend_q  <= 1'b0;
        xs_done_q  <= 1'b1;
        xs_fault_q <= xs_fault_i;
      end else if (xu_consume) begin
        xs_done_q  <= 1'b0;
      end
    end
    // The list's address while the request waits, then a fault's address.
    always_ff @(posedge clk_i) begin
      if (xu_start) xs_list_q <= xu_list;
      else if (xs_pend_q && xs_fault_i) xs_list_q <= xs_fault_addr_i;
    end
    assign xu_busy  = xs_pend_q;
    assign xu_done  = xs_done_q;
    assign xu_fault = xs_fault_q;
    assign xu_faddr = xs_list_q;
    assign xu_finfo = xs_fault_info_i;
    assign xu_req   = 1'b0;
    assign xu_addr  = '0;
    assign xs_req_o  = xs_pend_q;
    assign xs_list_o = xs_list_q;
    assign out_valid_o = 1'b0;
    assign out_head_o  = '0;
    logic unused_out;
    assign unused_out = out_pop_i;
  end

  ipu_tile_sram #(.Words(Words)) u_sram (
    .clk_i,
    .req_i   (m_req),
    .we_i    (m_we),
    .be_i    (m_be),
    .addr_i  (m_addr),
    .wdata_i (m_wdata),
    .rdata_o (m_rdata)
  );

  ipu_tile_core #(
    .NumWorkers (NumWorkers),
    .SramBytes  (SramBytes)
  ) u_core (
    .clk_i,
    .rst_ni,
    .tile_id_i,
    .num_tiles_i,
    .enable_i,
    .entry_i,
    .boot_arg_i,
    .boot_load_i,
    .watchdog_units_i,
    .wd_load_i,
    .start_i,
    .halt_i,
    .release_i,
    .state_o,
    .exit_code_o,
    .sync_req_o,
    .cycles_o,
    .ctx_sel_i,
    .ctx_sel_next_i,
    .ctx_state_o,
    .ctx_pc_o,
    .ctx_instret_o,
    .has_fault_o,
    .err_pending_o,
    .err_ack_i,
    .err_cause_o,
    .err_ctx_o,
    .err_pc_o,
    .err_addr_o,
    .err_info_o,
    .console_valid_o,
    .console_byte_o,
    .console_ready_i,
    .fetch_stall_i (clear_q || host_req_i || data_req),
    .fetch_req_o   (fetch_req),
    .fetch_addr_o  (fetch_addr),
    .fetch_rdata_i (m_rdata),
    .data_req_o    (d_req),
    .data_we_o     (d_we),
    .data_be_o     (d_be),
    .data_addr_o   (d_addr),
    .data_wdata_o  (d_wdata),
    .data_rdata_i  (m_rdata),
    .xu_start_o      (xu_start),
    .xu_list_o       (xu_list),
    .xu_busy_i       (xu_busy),
    .xu_done_i       (xu_done),
    .xu_consume_o    (xu_consume),
    .xu_fault_i      (xu_fault),
    .xu_fault_addr_i (xu_faddr),
    .xu_fault_info_i (xu_finfo),
    .hx_req_o,
    .hx_dev_o,
    .hx_tile_o,
    .hx_len_o,
    .hx_to_host_o,
    .hx_done_i,
    .hx_fault_i,
    .hx_cause_i,
    .hx_addr_i,
    .rvfi_valid_o,
    .rvfi_ctx_o,
    .rvfi_pc_o,
    .rvfi_insn_o,
    .rvfi_rd_o,
    .rvfi_rd_value_o
  );

endmodule : ipu_tile
