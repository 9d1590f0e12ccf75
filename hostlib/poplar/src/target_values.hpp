// Internal: the values behind a Target (a board description, the values derived from it, the target options).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "poplar/IpuLinkConfiguration.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Target.hpp"
#include "ipu_board.h"

namespace poplar::detail {

/// Values of the Target API that boards/*.toml does not carry: the convolution-unit (AMP) figures the
/// planners of poplibs read, and the host-exchange block layout. The emulated tile is RV32IMF and has no AMP unit
/// or exchange blocks; these are the nominal figures of the IPU generation the board is sized like, chosen from the
/// board's name (archFor) and changeable through IPUModel.
struct ArchValues {
  unsigned fp8ConvUnitMaxPipelineDepth = 0;
  unsigned fp16ConvUnitMaxPipelineDepth = 4;
  unsigned fp32ConvUnitMaxPipelineDepth = 2;
  unsigned fp8ConvUnitInputLoadElemsPerCycle = 0;
  unsigned fp16ConvUnitInputLoadElemsPerCycle = 8;
  unsigned fp32ConvUnitInputLoadElemsPerCycle = 4;
  unsigned fp8InFp16OutConvUnitsPerTile = 0;
  unsigned fp16InFp16OutConvUnitsPerTile = 16;
  unsigned fp16InFp32OutConvUnitsPerTile = 8;
  unsigned fp32InFp32OutConvUnitsPerTile = 8;
  unsigned convUnitCoeffLoadBytesPerCycle = 16;
  unsigned numTilesPerXBContext = 4; ///< tiles that share one exchange-block context
  unsigned numContextsPerXB = 16;    ///< contexts per exchange block (64 tiles per block)
  unsigned memoryElementBytes = 65536; ///< SRAM is reported as elements of this size (the last may be shorter)
  /// Target::getInterleavedMemoryElementIndex: 0, every emulated SRAM byte can be read twice per cycle.
  unsigned interleavedMemoryElementIndex = 0;
};

/// The options a Target was created with (POPLAR_TARGET_OPTIONS overrides them).
struct TargetOptionValues {
  IpuLinkConfiguration linkConfiguration = IpuLinkConfiguration::Default;
  bool linkConfigurationSet = false; ///< false: chosen from the number of IPUs
  IpuLinkTopology linkTopology = IpuLinkTopology::Mesh;
  SyncConfiguration syncConfiguration = SyncConfiguration::IntraReplicaAndAll;
  unsigned linkDomainSize = 64;
};

struct TargetValues {
  TargetType type = TargetType::IPU_MODEL;
  ipu_board board{};           ///< every board value (tiles, memory, workers, clock, ISA, ...)
  ArchValues arch;             ///< values the board file does not carry (archFor(board) unless changed)
  bool archSet = false;        ///< false: Target's constructor sets arch = archFor(board)
  TargetOptionValues options;  ///< the target options
  bool optionsSet = false;     ///< false: Target's constructor parses POPLAR_TARGET_OPTIONS alone
  bool compileIPUCode = true;  ///< IPUModel::compileIPUCode: count code in the memory profile
  std::string boardSpec;       ///< board name or path the values came from
  unsigned deviceId = 0;       ///< driver id for TargetType::IPU
  /// Derived (not serialised): start of each arch.memoryElementBytes element of board.bytes_per_tile.
  std::vector<unsigned> memoryElementOffsets;
  std::vector<GlobalExchangeConstraint> globalExchangeConstraints; ///< an IPUModel's, else none
};

/// Loads board `name` (a name in boards/ or a path); throws invalid_option with the board reader's message.
/// "ipu21" is the ipu2 board under the name ipu21 (the same tiles; its ArchValues add fp8 units).
ipu_board loadBoard(const std::string &name);
/// Sets one value of board `b` by its key through the board reader's rules (ipu_board_set), so a board made in
/// memory holds only what a board file could; throws invalid_option with the reader's message.
void setBoardValue(ipu_board &b, const char *key, const std::string &value);
/// Throws invalid_option, naming `what`, unless a card can have `numIPUs` IPUs of `tilesPerIPU` tiles: 1 .. 64 IPUs
/// (the board format's range) and at most 65535 tiles in all (the card's tile ids).
void checkNumIPUs(const std::string &what, unsigned numIPUs, unsigned tilesPerIPU);
/// The nominal ArchValues of the generation board `b` is sized like: "ipu1" gets Mk1 figures, "ipu21" Mk2 with
/// fp8 units, any other board Mk2 figures.
ArchValues archFor(const ipu_board &b);
/// Parses `opts` and then POPLAR_TARGET_OPTIONS (a JSON object) into option values; throws invalid_option naming
/// an unknown option, a malformed value or malformed JSON.
TargetOptionValues parseTargetOptions(const OptionFlags &opts);
/// Writes `board` as a board TOML under the cache (ipu_board_write) and returns its path (same content, same path);
/// throws invalid_option when the board is one a board file cannot hold (ipu_board_write's message).
std::string writeBoardFile(const ipu_board &board);
/// ~/.cache/ipu-emu (or $IPU_EMU_CACHE), created if missing.
std::string cacheDir();
/// XXH3-64 of `data`, as 16 hex digits.
std::string contentHash(const std::string &data);

} // namespace poplar::detail
