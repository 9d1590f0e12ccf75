// Load/store unit of the tile core (ibex's load_store_unit, for a one-cycle SRAM): EX's
// alignment and range checks and its request on the SRAM's data port, then in WB the
// loaded bytes aligned and extended.
//
// The SRAM answers a cycle after the request, when the instruction is in WB: EX registers
// one-hot byte-lane selects (all zero unless a load retires into rd != x0), so WB's value
// is an AND-OR of the read data that the core ORs with the other results.
module ipu_tile_lsu
  import ipu_tile_pkg::*;
#(
  parameter int unsigned SramBytes = 65536,
  localparam int unsigned Aw = $clog2(SramBytes / 4)
) (
  input  logic          clk_i,
  input  logic          rst_ni,  // assertions only

  // EX: the access.
  input  logic          go_i,      // the instruction in EX executes this cycle
  input  logic          load_i,    // a load (LB/LH/LW/LBU/LHU)
  input  logic          store_i,   // a store (SB/SH/SW)
  input  logic [2:0]    f3_i,      // the width, and a load's sign
  input  logic [31:0]   addr_i,    // rs1 + the offset
  input  logic [31:0]   wdata_i,   // rs2
  input  logic          fault_i,   // the instruction faults (this unit's fault among others)
  input  logic          commit_i,  // the instruction retires
  input  logic [4:0]    rd_i,
  output logic          mis_o,     // misaligned for its width
  output logic          fault_o,   // a load or store that faults: misaligned or outside the SRAM
  output logic          load_o,    // a load that does not fault (WB takes its data)

  // The SRAM's data port.
  output logic          data_req_o,
  output logic          data_we_o,
  output logic [3:0]    data_be_o,
  output logic [Aw-1:0] data_addr_o,
  output logic [31:0]   data_wdata_o,
  input  logic [31:0]   data_rdata_i,

  // WB: the loaded value, zero unless a load retired into rd != x0.
  output logic [31:0]   ld_value_o
);

  localparam logic [31:0] SramSize = 32'(SramBytes);

  logic ld, st, mis;
  assign mis     = (f3_i[1:0] == 2'd1 && addr_i[0]) || (f3_i[1:0] == 2'd2 && addr_i[1:0] != 2'd0);
  assign fault_o = (load_i || store_i) && (mis || !sram_contains(addr_i, SramSize));
  assign mis_o   = mis;
  assign ld      = load_i && !fault_i;
  assign st      = store_i && !fault_i;
  assign load_o  = ld;

  assign data_req_o  = go_i && (ld || st);
  assign data_we_o   = st;
  assign data_addr_o = addr_i[Aw+1:2];  // SRAM_BASE is 1 MiB aligned, SRAM at most 1 MiB
  always_comb begin
    unique case (f3_i[1:0])
      2'd0:    begin data_be_o = 4'b0001 << addr_i[1:0]; data_wdata_o = {4{wdata_i[7:0]}}; end
      2'd1:    begin data_be_o = 4'b0011 << addr_i[1:0]; data_wdata_o = {2{wdata_i[15:0]}}; end
      default: begin data_be_o = 4'b1111;                data_wdata_o = wdata_i; end
    endcase
  end

  // A load's byte lanes, one-hot; all zero unless a load retires into rd != x0.
  logic [3:0] lane_q;        // bits 7:0 from byte lane i
  logic [1:0] hi_q;          // bits 15:8 from byte 1 (bit 0) or byte 3 (bit 1)
  logic       word_q;        // bits 31:16 from bytes 3:2
  logic       sb_q, sh_q;    // sign-extend from bit 7 (LB) or bit 15 (LH)
  logic       wb_ld;
  assign wb_ld = commit_i && ld && rd_i != 5'd0;
  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < 4; i++) lane_q[i] <= wb_ld && addr_i[1:0] == 2'(i);
    hi_q   <= {wb_ld && f3_i[1:0] != 2'd0 && addr_i[1], wb_ld && f3_i[1:0] != 2'd0 && !addr_i[1]};
    word_q <= wb_ld && f3_i[1];
    sb_q   <= wb_ld && f3_i == 3'd0;
    sh_q   <= wb_ld && f3_i == 3'd1;
  end

  // Loads are aligned (misaligned ones faulted): a byte from any lane, a halfword from
  // lanes 0-1 or 2-3, a word from lane 0.
  logic [7:0] b0, b1;
  logic       sign;
  always_comb begin
    b0 = 8'd0;
    for (int unsigned i = 0; i < 4; i++) b0 |= {8{lane_q[i]}} & data_rdata_i[8*i +: 8];
    b1   = ({8{hi_q[0]}} & data_rdata_i[15:8]) | ({8{hi_q[1]}} & data_rdata_i[31:24]);
    sign = (sb_q && b0[7]) || (sh_q && b1[7]);
    ld_value_o = {{16{sign}} | ({16{word_q}} & data_rdata_i[31:16]), b1 | {8{sb_q && b0[7]}}, b0};
  end

`ifndef SYNTHESIS
  // Immediate assertions at each rising edge, on the values before it (what the concurrent form
  // samples): Verilator copies every signal a concurrent assertion reads at every eval.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      // Only aligned accesses inside the tile's SRAM reach the port, with the lanes they touch.
      AccessChecked: assert (!(data_req_o) || (!mis && sram_contains(addr_i, SramSize) && data_be_o != 4'b0000))
        else $error("the data port got an unchecked access at %08x", addr_i);
      OneAccess: assert (!(load_i && store_i))
        else $error("an instruction both loads and stores");
      // WB reads one byte lane for bits 7:0 and one for bits 15:8.
      LanesOneHot: assert ($onehot0(lane_q) && $onehot0(hi_q))
        else $error("load byte lanes %b / %b are not one-hot", lane_q, hi_q);
      SignOnce: assert (!(sb_q && sh_q) && !((sb_q || sh_q) && word_q))
        else $error("a load is sign-extended two ways");
    end
  end
`endif

endmodule : ipu_tile_lsu
