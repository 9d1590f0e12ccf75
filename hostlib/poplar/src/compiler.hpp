// Internal: the graph compiler's entry point and its output. The passes live in compiler/ (see compiler/ir.hpp for
// the intermediate form and compiler/passes.hpp for the order they run in).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir.hpp"
#include "graph_impl.hpp"
#include "poplar/Program.hpp"
#include "tile_link.hpp"
#include "time_model.hpp"
#include "zeroed_allocator.hpp"

namespace poplar::detail {

/// One item placed in a tile's memory, for the profile and out-of-memory messages.
struct MemItem {
  std::string category; ///< "variable", "constant", "vertex state", "edge buffer", "exchange list", ...
  std::string name;
  std::uint32_t addr = 0, size = 0;
  bool initialised = false; ///< contents defined before the run (uploaded at load)
};

/// A tile's bytes from LinkedImage::freeStart, grown from empty (see ZeroedAllocator).
using TileBytes = std::vector<std::uint8_t, ZeroedAllocator<std::uint8_t>>;

struct TileData {
  std::uint32_t top = 0;            ///< end of the highest item (peak use)
  TileBytes bytes;                  ///< contents from LinkedImage::freeStart to top (resized once, from empty)
  std::vector<MemItem> items;      ///< items may share bytes when they are never in use at the same time
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
  std::size_t bytes = 0;      ///< one copy of one replica
  std::uint32_t devAddr = 0;
  unsigned replicas = 1;      ///< staging slots of `bytes` from devAddr, one per replica (1: broadcast or unreplicated)

  /// The library's own streams (remote buffers, error programs) are named "__...": users never see them.
  bool isLibraryStream() const { return name.rfind("__", 0) == 0; }
};

/// A remote buffer: host-held rows that Copy programs read and write through three internal streams.
struct CompiledRemoteBuffer {
  std::string name;
  std::uint64_t rowBytes = 0, repeats = 0;
  std::string offsetStream, toDeviceStream, toHostStream;
};

/// What program a compiled error stream belongs to: the Engine words the message by it (an Abort has no tensor).
enum class ErrorKind : std::uint8_t {
  ErrorProgram, ///< program::ErrorProgram: the message and the debug tensor's values
  Abort,        ///< program::Abort / AbortOnCondition: the message alone
};

/// An ErrorProgram's or Abort's stream: what the host says when the tiles send through it.
struct CompiledErrorStream {
  std::string stream;
  std::string message;
  std::vector<std::size_t> shape;
  Type type;
  ErrorKind kind = ErrorKind::ErrorProgram;
};

struct CompiledHandle {
  std::size_t bytes = 0;
  std::vector<HostPiece> pieces;
};

/// One lowered step, for the profile.
struct StepInfo {
  std::string what;        ///< "Execute mulCS", "Exchange (Copy)", "StreamCopy v4-input-stream", ...
  std::uint64_t bytes = 0; ///< exchanged bytes
  unsigned depth = 0;
  // For the graph profile (profiling/graph_profile.cpp): what kind of step this is and which tiles it moves bytes
  // between. kind: "OnTileExecute", "DoExchange", "StreamCopy", "Sync", "PrintTensor" or "" (control flow).
  std::string kind;
  unsigned computeSet = 0;                                  ///< OnTileExecute
  std::map<std::uint32_t, std::uint64_t> sentByTile;         ///< DoExchange, StreamCopy (device to host)
  std::map<std::uint32_t, std::uint64_t> receivedByTile;     ///< DoExchange, StreamCopy (host to device)
  /// DoExchange, StreamCopy, PrintTensor: the graph variables (GraphImpl::vars indices) the step reads or writes,
  /// ascending, for the liveness view (compute sets name theirs through their vertices' edges).
  std::vector<std::size_t> variables;
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
  unsigned replicas = 1; ///< the graph's replication factor (compiler/replicate.cpp)
  ipu_board board{};
  std::vector<std::uint32_t> tiles;             ///< tiles that take part, ascending
  std::map<std::uint32_t, TileData> tileData;
  std::vector<std::map<std::uint32_t, std::uint32_t>> programAddr; ///< [program][tile] control program address
  std::vector<CompiledStream> streams;
  std::map<HostHandleKey, CompiledHandle> handles;
  std::map<std::string, PrintInfo> prints;      ///< by the marker the tiles print
  std::vector<CompiledRemoteBuffer> remoteBuffers;
  std::vector<CompiledErrorStream> errorStreams;
  std::vector<std::vector<StepInfo>> steps;     ///< per program
  std::vector<std::vector<std::uint64_t>> liveBytes; ///< per program, per step: bytes in use on all tiles
  std::size_t numVars = 0, numVertices = 0, numEdges = 0, numComputeSets = 0;
  std::uint64_t exchangeBytes = 0;
  std::map<std::string, std::uint64_t> bytesByCategory;
  Instrumentation instr;
  std::vector<ProgramEstimate> estimate; ///< per program: the IPU Model time model's cycles (time_model.hpp)
  /// The vertex and compute-set estimates behind `estimate`, kept for the graph profile built right after compile
  /// (not written to a saved executable: one read back has no graph to profile).
  CycleEstimates cycles;
};

struct CompileOptions {
  /// Each top-level step of each program is followed by a sync and a cycle stamp on one tile.
  bool instrument = false;
  /// Data not in use at the same time share memory (off: every buffer has its own bytes, as a bump allocator).
  bool reuseMemory = true;
  /// When not empty, the compiled form is written there as text (debug.dumpCompiledGraph).
  std::string dumpPath;
  /// The replica whose first tile takes the cycle stamps (profiler.replicaToProfile; below the replication factor).
  unsigned replicaToProfile = 0;
};

/// Compiles `programs` for `graph`. Throws graph_program_compilation_error (unmapped data or vertices, wrong or
/// missing connections), graph_memory_allocation_error (a tile overflows) or graph_object_load_error.
CompiledGraph compileGraph(const GraphImpl &graph, const std::vector<program::Program> &programs,
                           const CompileOptions &options);

} // namespace poplar::detail
