// Internal: the graph compiler. Lowers programs to per-tile control programs and lays out tile memory.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graph_impl.hpp"
#include "poplar/Program.hpp"
#include "tile_link.hpp"

namespace poplar::detail {

/// One item placed in a tile's memory, for the profile and out-of-memory messages.
struct MemItem {
  std::string category; ///< "variable", "constant", "vertex state", "edge buffer", "exchange list", ...
  std::string name;
  std::uint32_t addr = 0, size = 0;
};

struct TileData {
  std::uint32_t top = 0;            ///< next free address
  std::vector<std::uint8_t> bytes;  ///< contents from LinkedImage::freeStart to top
  std::vector<MemItem> items;
};

/// A contiguous run of tile memory and where it sits in a host buffer.
struct HostPiece {
  std::uint32_t tile = 0, addr = 0, len = 0;
  std::size_t hostOffset = 0;
};

struct CompiledStream {
  std::string name;
  std::uint32_t id = 0;
  bool toDevice = true;
  std::size_t bytes = 0;
  std::uint32_t devAddr = 0;
};

struct CompiledHandle {
  bool write = false;
  std::size_t bytes = 0;
  std::vector<HostPiece> pieces;
};

struct PrintInfo {
  std::string title;
  std::vector<std::size_t> shape;
  Type type;
};

/// One lowered step, for the profile.
struct StepInfo {
  std::string what;        ///< "Execute mulCS", "Exchange (Copy)", "StreamCopy v4-input-stream", ...
  std::uint64_t bytes = 0; ///< exchanged bytes
  unsigned depth = 0;
};

/// Per-step cycle stamps (debug.instrument): after each top-level step of a program (an exchange, a compute set, a
/// stream copy, or a whole control-flow construct) tile `tile` writes its CYCLE counter to a slot.
struct Instrumentation {
  bool enabled = false;
  std::uint32_t tile = 0;
  std::vector<std::vector<std::uint32_t>> slots; ///< per program: the start stamp, then one per top-level step
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> topSteps; ///< per program: StepInfo ranges
};

struct CompiledGraph {
  LinkedImage image;
  ipu_board board{};
  std::vector<std::uint32_t> tiles;             ///< tiles that take part, ascending
  std::map<std::uint32_t, TileData> tileData;
  std::vector<std::map<std::uint32_t, std::uint32_t>> programAddr; ///< [program][tile] control program address
  std::vector<CompiledStream> streams;
  std::map<std::string, CompiledHandle> handles;
  std::map<std::string, PrintInfo> prints;      ///< by the marker the tiles print
  std::vector<std::vector<StepInfo>> steps;     ///< per program
  std::size_t numVars = 0, numVertices = 0, numEdges = 0, numComputeSets = 0;
  std::uint64_t exchangeBytes = 0;
  std::map<std::string, std::uint64_t> bytesByCategory;
  Instrumentation instr;
};

/// Compiles `programs` for `graph`. Throws graph_program_compilation_error (unmapped data or vertices, wrong or
/// missing connections), graph_memory_allocation_error (a tile overflows) or graph_object_load_error.
/// With `instrument`, each top-level step of each program is followed by a sync and a cycle stamp on one tile.
CompiledGraph compileGraph(const GraphImpl &graph, const std::vector<program::Program> &programs, bool instrument);

} // namespace poplar::detail
