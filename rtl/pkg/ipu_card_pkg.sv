// GENERATED FILE - DO NOT EDIT. Source: contract/card.toml, generator: contract/generate.py (make regen).
// The card's hardware interface for rtl/: register offsets, fields, enums, CSRs.
package ipu_card_pkg;

  localparam int unsigned ContractVersionMajor = 1;
  localparam int unsigned ContractVersionMinor = 2;
  localparam logic [15:0] PciVendorId = 16'h1234;
  localparam logic [15:0] PciDeviceId = 16'h11e9;
  localparam logic [31:0] TileSramBase = 32'h00100000;
  localparam logic [31:0] ResetKey = 32'h52535421;
  localparam logic [7:0] LinkSof = 8'ha5;
  localparam int unsigned LinkBaud = 115200;
  localparam int unsigned LinkMaxPayload = 255;

  // STATUS.STATE: what the card as a whole is doing.
  typedef enum logic [7:0] {
    CardStateIdle = 8'd0,
    CardStateRunning = 8'd1,
    CardStateHostSync = 8'd2,
    CardStateDone = 8'd3,
    CardStateError = 8'd4
  } card_state_e;

  // TILE_STATE: the state of the tile selected by TILE_SEL.
  typedef enum logic [7:0] {
    TileStateOff = 8'd0,
    TileStateReady = 8'd1,
    TileStateRunning = 8'd2,
    TileStateSyncWait = 8'd3,
    TileStateExited = 8'd4,
    TileStateError = 8'd5
  } tile_state_e;

  // TILE_CTX_STATE: state of one hardware context of the selected tile.
  typedef enum logic [7:0] {
    CtxStateIdle = 8'd0,
    CtxStateRunning = 8'd1,
    CtxStateBlocked = 8'd2,
    CtxStateDone = 8'd3,
    CtxStateFaulted = 8'd4
  } ctx_state_e;

  // Error codes: the cause in error records, TILE_ERR_CAUSE and the firmware FAIL CSR.
  typedef enum logic [7:0] {
    ErrNone = 8'd0,
    ErrIllegalInstruction = 8'd1,
    ErrFetchFault = 8'd2,
    ErrLoadMisaligned = 8'd3,
    ErrLoadFault = 8'd4,
    ErrStoreMisaligned = 8'd5,
    ErrStoreFault = 8'd6,
    ErrEcall = 8'd7,
    ErrEbreak = 8'd8,
    ErrBadExchange = 8'd9,
    ErrXlatMiss = 8'd10,
    ErrXlatPermission = 8'd11,
    ErrDmaBadDescriptor = 8'd12,
    ErrVertexFailed = 8'd13,
    ErrBadControlProgram = 8'd14,
    ErrWorkerMisuse = 8'd15,
    ErrWatchdog = 8'd16,
    ErrFirmwareAbort = 8'd17,
    ErrHostExchange = 8'd18,
    ErrStackOverflow = 8'd19,
    ErrLockstepDivergence = 8'd20,
    ErrXlatBadEntry = 8'd21
  } err_e;

  // Kinds of sync, written to the SYNC CSR and used by the SYNC control-program instruction.
  typedef enum logic [7:0] {
    SyncKindInternal = 8'd1,
    SyncKindExternal = 8'd2
  } sync_kind_e;

  // What a request in SVC_REQ asks of the host on a CAPS.HOST_SERVICE card. The requesting tile (or, for LAND, every tile) waits until the host completes it with SVC_DONE or SVC_FAULT_ADDR.
  typedef enum logic [7:0] {
    SvcKindNone = 8'd0,
    SvcKindHostExchange = 8'd1,
    SvcKindExchange = 8'd2,
    SvcKindLand = 8'd3
  } svc_kind_e;

  // Element types named in control programs (PRINT_TENSOR) and vertex descriptions.
  typedef enum logic [7:0] {
    DtypeFloat = 8'd0,
    DtypeHalf = 8'd1,
    DtypeInt = 8'd2,
    DtypeUnsignedInt = 8'd3,
    DtypeShort = 8'd4,
    DtypeUnsignedShort = 8'd5,
    DtypeChar = 8'd6,
    DtypeUnsignedChar = 8'd7,
    DtypeBool = 8'd8
  } dtype_e;

  // MSI-X vectors. Without MSI-X the card raises INTx for any unmasked cause.
  typedef enum logic [7:0] {
    IrqVectorHostSync = 8'd0,
    IrqVectorDone = 8'd1,
    IrqVectorError = 8'd2,
    IrqVectorConsole = 8'd3
  } irq_vector_e;

  // Link frame TYPE: requests from the host (below 0x80) and the card's messages (0x80 and up); the payload of each.
  typedef enum logic [7:0] {
    LinkTypeRegRead = 8'd1,
    LinkTypeRegWrite = 8'd2,
    LinkTypeMemRead = 8'd3,
    LinkTypeMemWrite = 8'd4,
    LinkTypeBlockRead = 8'd5,
    LinkTypeBlockWrite = 8'd6,
    LinkTypeDmaData = 8'd7,
    LinkTypeRegData = 8'd129,
    LinkTypeAck = 8'd130,
    LinkTypeMemData = 8'd131,
    LinkTypeDmaReq = 8'd132,
    LinkTypeNak = 8'd143,
    LinkTypeIrq = 8'd144
  } link_type_e;

  // Why the card refused a link request (NAK payload).
  typedef enum logic [7:0] {
    LinkNakCheck = 8'd1,
    LinkNakType = 8'd2,
    LinkNakLength = 8'd3,
    LinkNakUnexpected = 8'd4,
    LinkNakRange = 8'd5
  } link_nak_e;

  // BAR0 register offsets; RegsEnd: the first offset past the register map
  localparam logic [15:0] RegsEnd = 16'h1400;
  localparam logic [15:0] RegId = 16'h0000;
  localparam logic [31:0] RegIdResetValue = 32'h49505531;
  localparam logic [15:0] RegVersion = 16'h0004;
  localparam logic [31:0] RegVersionResetValue = 32'h00010002;
  localparam logic [15:0] RegNumTiles = 16'h0008;
  localparam logic [15:0] RegTileMemBytes = 16'h000c;
  localparam logic [15:0] RegNumWorkers = 16'h0010;
  localparam logic [15:0] RegCaps = 16'h0014;
  localparam logic [15:0] RegTileClockKhz = 16'h0018;
  localparam logic [15:0] RegExchangeBytesPerCycle = 16'h001c;
  localparam logic [15:0] RegXlatEntries = 16'h0020;
  localparam logic [31:0] RegXlatEntriesResetValue = 32'h00000040;
  localparam logic [15:0] RegNumIpus = 16'h0024;
  localparam logic [15:0] RegLinkGroup = 16'h0028;
  localparam logic [15:0] RegLinkIndex = 16'h002c;
  localparam logic [15:0] RegLinkSize = 16'h0030;
  localparam logic [15:0] RegReset = 16'h0040;
  localparam logic [15:0] RegRunCtrl = 16'h0044;
  localparam logic [15:0] RegStatus = 16'h0048;
  localparam logic [15:0] RegCardCyclesLo = 16'h0050;
  localparam logic [15:0] RegCardCyclesHi = 16'h0054;
  localparam logic [15:0] RegWatchdogInsns = 16'h0058;
  localparam logic [31:0] RegWatchdogInsnsResetValue = 32'h00000000;
  localparam logic [15:0] RegIrqStatus = 16'h0060;
  localparam logic [15:0] RegIrqMask = 16'h0064;
  localparam logic [31:0] RegIrqMaskResetValue = 32'h00000000;
  localparam logic [15:0] RegHsyncStatus = 16'h0080;
  localparam logic [15:0] RegHsyncId = 16'h0084;
  localparam logic [15:0] RegHsyncRelease = 16'h0088;
  localparam logic [15:0] RegConsoleStatus = 16'h00a0;
  localparam logic [15:0] RegConsoleData = 16'h00a4;
  localparam logic [15:0] RegConsoleLost = 16'h00a8;
  localparam logic [15:0] RegErrCount = 16'h00c0;
  localparam logic [15:0] RegErrCause = 16'h00c4;
  localparam logic [15:0] RegErrTile = 16'h00c8;
  localparam logic [15:0] RegErrContext = 16'h00cc;
  localparam logic [15:0] RegErrPc = 16'h00d0;
  localparam logic [15:0] RegErrAddr = 16'h00d4;
  localparam logic [15:0] RegErrInfo = 16'h00d8;
  localparam logic [15:0] RegErrPop = 16'h00dc;
  localparam logic [15:0] RegErrLost = 16'h00e0;
  localparam logic [15:0] RegTileSel = 16'h0100;
  localparam logic [31:0] RegTileSelResetValue = 32'h00000000;
  localparam logic [15:0] RegTileCtrl = 16'h0104;
  localparam logic [15:0] RegTileEntry = 16'h0108;
  localparam logic [15:0] RegTileBootArg = 16'h010c;
  localparam logic [15:0] RegTileState = 16'h0110;
  localparam logic [15:0] RegTileExitCode = 16'h0114;
  localparam logic [15:0] RegTileErrCause = 16'h0118;
  localparam logic [15:0] RegTileErrPc = 16'h011c;
  localparam logic [15:0] RegTileErrAddr = 16'h0120;
  localparam logic [15:0] RegTileCyclesLo = 16'h0124;
  localparam logic [15:0] RegTileCyclesHi = 16'h0128;
  localparam logic [15:0] RegTileCtxSel = 16'h0130;
  localparam logic [31:0] RegTileCtxSelResetValue = 32'h00000000;
  localparam logic [15:0] RegTileCtxState = 16'h0134;
  localparam logic [15:0] RegTileCtxPc = 16'h0138;
  localparam logic [15:0] RegTileCtxInstret = 16'h013c;
  localparam logic [15:0] RegTilememWindowTile = 16'h0180;
  localparam logic [31:0] RegTilememWindowTileResetValue = 32'h00000000;
  localparam logic [15:0] RegDmaDescAddr = 16'h0200;
  localparam logic [15:0] RegDmaCtrl = 16'h0204;
  localparam logic [15:0] RegDmaStatus = 16'h0208;
  localparam logic [15:0] RegDmaCompleted = 16'h020c;
  localparam logic [15:0] RegDmaBytesLo = 16'h0210;
  localparam logic [15:0] RegDmaBytesHi = 16'h0214;
  localparam logic [15:0] RegSvcReq = 16'h0220;
  localparam logic [15:0] RegSvcTile = 16'h0224;
  localparam logic [15:0] RegSvcArg0 = 16'h0228;
  localparam logic [15:0] RegSvcArg1 = 16'h022c;
  localparam logic [15:0] RegSvcArg2 = 16'h0230;
  localparam logic [15:0] RegSvcFaultCause = 16'h0234;
  localparam logic [15:0] RegSvcFaultInfo = 16'h0238;
  localparam logic [15:0] RegSvcFaultAddr = 16'h023c;
  localparam logic [15:0] RegSvcDone = 16'h0240;
  localparam logic [15:0] RegXlatBase = 16'h1000;
  localparam int unsigned RegXlatCount = 64;

  // Register fields: bit offset and width
  localparam int unsigned VersionMinorLsb = 0;
  localparam int unsigned VersionMinorWidth = 16;
  localparam int unsigned VersionMajorLsb = 16;
  localparam int unsigned VersionMajorWidth = 16;
  localparam int unsigned CapsFpuLsb = 0;
  localparam int unsigned CapsFpuWidth = 1;
  localparam int unsigned CapsDmaLsb = 1;
  localparam int unsigned CapsDmaWidth = 1;
  localparam int unsigned CapsMsixLsb = 2;
  localparam int unsigned CapsMsixWidth = 1;
  localparam int unsigned CapsExchangeLsb = 3;
  localparam int unsigned CapsExchangeWidth = 1;
  localparam int unsigned CapsRtlLsb = 4;
  localparam int unsigned CapsRtlWidth = 1;
  localparam int unsigned CapsHostServiceLsb = 5;
  localparam int unsigned CapsHostServiceWidth = 1;
  localparam int unsigned ResetKeyLsb = 0;
  localparam int unsigned ResetKeyWidth = 32;
  localparam int unsigned RunCtrlStartLsb = 0;
  localparam int unsigned RunCtrlStartWidth = 1;
  localparam int unsigned RunCtrlHaltLsb = 1;
  localparam int unsigned RunCtrlHaltWidth = 1;
  localparam int unsigned StatusStateLsb = 0;
  localparam int unsigned StatusStateWidth = 4;
  localparam int unsigned StatusDmaBusyLsb = 8;
  localparam int unsigned StatusDmaBusyWidth = 1;
  localparam int unsigned StatusSvcPendingLsb = 9;
  localparam int unsigned StatusSvcPendingWidth = 1;
  localparam int unsigned IrqStatusHostSyncLsb = 0;
  localparam int unsigned IrqStatusHostSyncWidth = 1;
  localparam int unsigned IrqStatusDoneLsb = 1;
  localparam int unsigned IrqStatusDoneWidth = 1;
  localparam int unsigned IrqStatusErrorLsb = 2;
  localparam int unsigned IrqStatusErrorWidth = 1;
  localparam int unsigned IrqStatusDmaDoneLsb = 3;
  localparam int unsigned IrqStatusDmaDoneWidth = 1;
  localparam int unsigned IrqStatusConsoleLsb = 4;
  localparam int unsigned IrqStatusConsoleWidth = 1;
  localparam int unsigned IrqStatusServiceLsb = 5;
  localparam int unsigned IrqStatusServiceWidth = 1;
  localparam int unsigned HsyncStatusPendingLsb = 0;
  localparam int unsigned HsyncStatusPendingWidth = 1;
  localparam int unsigned ConsoleDataByteLsb = 0;
  localparam int unsigned ConsoleDataByteWidth = 8;
  localparam int unsigned ConsoleDataTileLsb = 8;
  localparam int unsigned ConsoleDataTileWidth = 16;
  localparam int unsigned ConsoleDataValidLsb = 31;
  localparam int unsigned ConsoleDataValidWidth = 1;
  localparam int unsigned TileCtrlEnableLsb = 0;
  localparam int unsigned TileCtrlEnableWidth = 1;
  localparam int unsigned DmaCtrlStartLsb = 0;
  localparam int unsigned DmaCtrlStartWidth = 1;
  localparam int unsigned DmaStatusBusyLsb = 0;
  localparam int unsigned DmaStatusBusyWidth = 1;
  localparam int unsigned DmaStatusDoneLsb = 1;
  localparam int unsigned DmaStatusDoneWidth = 1;
  localparam int unsigned DmaStatusErrorLsb = 2;
  localparam int unsigned DmaStatusErrorWidth = 1;
  localparam int unsigned SvcReqKindLsb = 0;
  localparam int unsigned SvcReqKindWidth = 2;
  localparam int unsigned SvcReqToHostLsb = 2;
  localparam int unsigned SvcReqToHostWidth = 1;
  localparam int unsigned SvcReqPendingLsb = 31;
  localparam int unsigned SvcReqPendingWidth = 1;
  localparam int unsigned SvcDoneDoneLsb = 0;
  localparam int unsigned SvcDoneDoneWidth = 1;
  localparam int unsigned SvcDoneLandDueLsb = 1;
  localparam int unsigned SvcDoneLandDueWidth = 1;
  localparam int unsigned XlatCtrlValidLsb = 0;
  localparam int unsigned XlatCtrlValidWidth = 1;
  localparam int unsigned XlatCtrlReadLsb = 1;
  localparam int unsigned XlatCtrlReadWidth = 1;
  localparam int unsigned XlatCtrlWriteLsb = 2;
  localparam int unsigned XlatCtrlWriteWidth = 1;
  localparam int unsigned XlatCtrlPagesMinus1Lsb = 12;
  localparam int unsigned XlatCtrlPagesMinus1Width = 15;
  localparam int unsigned DmaFlagsToHostLsb = 0;
  localparam int unsigned DmaFlagsToHostWidth = 1;
  localparam int unsigned DmaFlagsLastLsb = 1;
  localparam int unsigned DmaFlagsLastWidth = 1;

  // Memory formats: size, and each field's byte offset and width in bits
  localparam int unsigned XlatEntryBytes = 16;
  localparam int unsigned XlatEntryDevBaseOffset = 0;
  localparam int unsigned XlatEntryDevBaseBits = 32;
  localparam int unsigned XlatEntryCtrlOffset = 4;
  localparam int unsigned XlatEntryCtrlBits = 32;
  localparam int unsigned XlatEntryBusLoOffset = 8;
  localparam int unsigned XlatEntryBusLoBits = 32;
  localparam int unsigned XlatEntryBusHiOffset = 12;
  localparam int unsigned XlatEntryBusHiBits = 32;
  localparam int unsigned LinkCapBytes = 16;
  localparam int unsigned LinkCapCapIdOffset = 0;
  localparam int unsigned LinkCapCapIdBits = 8;
  localparam int unsigned LinkCapNextOffset = 1;
  localparam int unsigned LinkCapNextBits = 8;
  localparam int unsigned LinkCapLengthOffset = 2;
  localparam int unsigned LinkCapLengthBits = 8;
  localparam int unsigned LinkCapKindOffset = 3;
  localparam int unsigned LinkCapKindBits = 8;
  localparam int unsigned LinkCapGroupOffset = 4;
  localparam int unsigned LinkCapGroupBits = 32;
  localparam int unsigned LinkCapIndexOffset = 8;
  localparam int unsigned LinkCapIndexBits = 32;
  localparam int unsigned LinkCapSizeOffset = 12;
  localparam int unsigned LinkCapSizeBits = 32;
  localparam int unsigned DmaDescBytes = 32;
  localparam int unsigned DmaDescDevAddrOffset = 0;
  localparam int unsigned DmaDescDevAddrBits = 32;
  localparam int unsigned DmaDescTileAddrOffset = 4;
  localparam int unsigned DmaDescTileAddrBits = 32;
  localparam int unsigned DmaDescLengthOffset = 8;
  localparam int unsigned DmaDescLengthBits = 32;
  localparam int unsigned DmaDescFirstTileOffset = 12;
  localparam int unsigned DmaDescFirstTileBits = 16;
  localparam int unsigned DmaDescTileCountOffset = 14;
  localparam int unsigned DmaDescTileCountBits = 16;
  localparam int unsigned DmaDescFlagsOffset = 16;
  localparam int unsigned DmaDescFlagsBits = 32;
  localparam int unsigned DmaDescReserved0Offset = 20;
  localparam int unsigned DmaDescReserved0Bits = 32;
  localparam int unsigned DmaDescReserved1Offset = 24;
  localparam int unsigned DmaDescReserved1Bits = 32;
  localparam int unsigned DmaDescReserved2Offset = 28;
  localparam int unsigned DmaDescReserved2Bits = 32;
  localparam int unsigned ListHeaderBytes = 4;
  localparam int unsigned ListHeaderCountOffset = 0;
  localparam int unsigned ListHeaderCountBits = 32;
  localparam int unsigned ExchDescBytes = 16;
  localparam int unsigned ExchDescDstTileOffset = 0;
  localparam int unsigned ExchDescDstTileBits = 32;
  localparam int unsigned ExchDescDstAddrOffset = 4;
  localparam int unsigned ExchDescDstAddrBits = 32;
  localparam int unsigned ExchDescSrcAddrOffset = 8;
  localparam int unsigned ExchDescSrcAddrBits = 32;
  localparam int unsigned ExchDescLengthOffset = 12;
  localparam int unsigned ExchDescLengthBits = 32;
  localparam int unsigned HxDescBytes = 16;
  localparam int unsigned HxDescDevAddrOffset = 0;
  localparam int unsigned HxDescDevAddrBits = 32;
  localparam int unsigned HxDescTileAddrOffset = 4;
  localparam int unsigned HxDescTileAddrBits = 32;
  localparam int unsigned HxDescLengthOffset = 8;
  localparam int unsigned HxDescLengthBits = 32;
  localparam int unsigned HxDescFlagsOffset = 12;
  localparam int unsigned HxDescFlagsBits = 32;
  localparam int unsigned VertexEntryBytes = 8;
  localparam int unsigned VertexEntryEntryOffset = 0;
  localparam int unsigned VertexEntryEntryBits = 32;
  localparam int unsigned VertexEntryStateOffset = 4;
  localparam int unsigned VertexEntryStateBits = 32;

  // Tile CSR numbers
  localparam logic [11:0] CsrFflags = 12'h001;
  localparam logic [11:0] CsrFrm = 12'h002;
  localparam logic [11:0] CsrFcsr = 12'h003;
  localparam logic [11:0] CsrCycle = 12'hc00;
  localparam logic [11:0] CsrInstret = 12'hc02;
  localparam logic [11:0] CsrCycleh = 12'hc80;
  localparam logic [11:0] CsrInstreth = 12'hc82;
  localparam logic [11:0] CsrTileId = 12'hcc0;
  localparam logic [11:0] CsrContextId = 12'hcc1;
  localparam logic [11:0] CsrNumTiles = 12'hcc2;
  localparam logic [11:0] CsrNumWorkers = 12'hcc3;
  localparam logic [11:0] CsrSramSize = 12'hcc4;
  localparam logic [11:0] CsrSync = 12'h800;
  localparam logic [11:0] CsrWorkerEntry = 12'h801;
  localparam logic [11:0] CsrWorkerArg = 12'h802;
  localparam logic [11:0] CsrWorkerStart = 12'h803;
  localparam logic [11:0] CsrWorkerJoin = 12'h804;
  localparam logic [11:0] CsrWorkerExit = 12'h805;
  localparam logic [11:0] CsrConsole = 12'h806;
  localparam logic [11:0] CsrExit = 12'h807;
  localparam logic [11:0] CsrHxDevAddr = 12'h808;
  localparam logic [11:0] CsrHxTileAddr = 12'h809;
  localparam logic [11:0] CsrHxStart = 12'h80a;
  localparam logic [11:0] CsrExchange = 12'h80b;
  localparam logic [11:0] CsrFailInfo = 12'h80c;
  localparam logic [11:0] CsrFail = 12'h80d;
  localparam logic [11:0] CsrStackLimit = 12'h80e;

  // Control-program opcodes
  localparam logic [7:0] CpOpEnd = 8'd0;
  localparam logic [7:0] CpOpSync = 8'd1;
  localparam logic [7:0] CpOpExchange = 8'd2;
  localparam logic [7:0] CpOpExecute = 8'd3;
  localparam logic [7:0] CpOpStreamCopy = 8'd4;
  localparam logic [7:0] CpOpRepeat = 8'd5;
  localparam logic [7:0] CpOpIf = 8'd6;
  localparam logic [7:0] CpOpSwitch = 8'd7;
  localparam logic [7:0] CpOpWhile = 8'd8;
  localparam logic [7:0] CpOpPrintTensor = 8'd9;
  localparam logic [7:0] CpOpCopy = 8'd10;

endpackage : ipu_card_pkg
