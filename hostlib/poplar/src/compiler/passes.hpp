// Internal: the passes after lowering, in the order the compiler runs them (compile.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../tile_link.hpp"
#include "ir.hpp"

namespace poplar::detail {
struct CompiledGraph;
}

namespace poplar::detail::ir {

/// replicate.cpp: `replicas` copies of the module (built for tiles [0, tilesPerReplica)) on disjoint tiles, copy r
/// on tiles + r * tilesPerReplica, each with its own staging slot of every stream that is not a broadcast one.
/// Throws graph_program_compilation_error when the module uses a tile past the first replica's.
void replicate(Module &m, unsigned replicas, std::uint32_t tilesPerReplica);

/// instrument.cpp: a cycle stamp at the start of each program and after each of its top-level steps, on tile
/// `m.instrumentTile`, through the vertex entry `stampEntry`. Returns, per program, the stamp slots in order.
std::vector<std::vector<BufferId>> instrument(Module &m, std::uint32_t stampEntry);

/// Per program, the line ranges (listSteps indices) of each top-level step, in program order.
std::vector<std::vector<std::pair<std::size_t, std::size_t>>> topLevelSteps(const Module &m);

/// liveness.cpp: when each buffer is in use.
struct Liveness {
  /// Per buffer: true when it must keep its memory for the whole run (Program lifetime, or a Dataflow buffer whose
  /// value is needed at the start of some program, so it survives between runs).
  std::vector<bool> wholeRun;
  /// Per program, per buffer: the first and last line (listSteps index) at which it is in use; first > last when
  /// the program does not use it.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> ranges;
  /// Per program, per line: bytes of tile memory in use, all tiles (whole-run buffers included).
  std::vector<std::vector<std::uint64_t>> liveBytes;

  /// True when buffers `a` and `b` are in use at the same time somewhere (so they cannot share memory).
  bool overlap(BufferId a, BufferId b) const;
};
Liveness analyseLiveness(const Module &m);
/// The same shape with every buffer whole-run: no memory is shared (the plain bump layout, for comparison).
Liveness everythingLive(const Module &m);

/// encode.cpp, first half: reserves one control-program buffer per program and tile (sized by a dry run of the
/// encoder, whose output does not depend on addresses). Returns [program][tile index] buffer ids.
std::vector<std::vector<BufferId>> reserveControlPrograms(Module &m);

/// layout.cpp: an address for every buffer, first fit in creation order, sharing memory between buffers that
/// are never in use at the same time. Throws graph_memory_allocation_error when a tile overflows.
struct Layout {
  std::vector<std::uint32_t> addr; ///< per buffer
  std::map<std::uint32_t, std::uint32_t> top; ///< per tile: end of the highest buffer
};
Layout layOut(const Module &m, const Liveness &live, const LinkedImage &image, const ipu_board &board);

/// late_init.cpp: runs each setInitCallback with its vertex's edge addresses and writes the result into the vertex
/// state, so that encode uploads it.
void runLateInits(Module &m, const Layout &layout);

/// encode.cpp, second half: control programs and tile bytes with every address resolved.
void encode(const Module &m, const Layout &layout, const std::vector<std::vector<BufferId>> &controlPrograms,
            const LinkedImage &image, CompiledGraph &out);

/// dump.cpp: the intermediate form after layout as text (debug.dumpCompiledGraph), addresses relative to the
/// start of the free data region so that the dump does not change with the size of the tile runtime.
std::string dump(const Module &m, const Layout &layout, const Liveness &live, const LinkedImage &image);
/// The same before layout (the per-pass dumps): buffers with no address and no live ranges.
std::string dumpUnplaced(const Module &m, const LinkedImage &image);

/// verify.cpp: the intermediate form's invariants (tiles ascending; every buffer on a taking-part tile, aligned to
/// a power of two, its bytes and relocations inside it; every step's buffers existing, on the tile they are listed
/// for, and every range inside its buffer; exchange byte counts equal to their transfers). Throws poplar_error
/// naming `afterPass` and the first broken rule. compile.cpp runs it after every pass when verification is on.
void verify(const Module &m, const std::string &afterPass);

} // namespace poplar::detail::ir
