// Internal: what an Executable holds (the compiled graph and the target it was compiled for), and its file format.
#pragma once

#include <istream>
#include <memory>
#include <ostream>

#include "compiler.hpp"
#include "target_values.hpp"

namespace poplar::detail {

struct GraphProfileData;

struct ExecutableImpl {
  CompiledGraph cg;
  /// The graph profile made from the graph at compile time; none for an executable read from a file.
  std::shared_ptr<const GraphProfileData> profile;
  TargetValues target;
  double compileSeconds = 0; ///< how long compileGraph() took (the Engine's "compile" phase)
};

/// The parts of tile `t`'s data that have defined contents (constants, vertex states, tables, exchange lists,
/// control programs), merged into segments: what Engine::load writes to the tile after the shared image, and what
/// Module::forEachLoadableSegment lists.
std::vector<ipu::runtime::TileSegment> initialisedSegments(const CompiledGraph &cg, std::uint32_t t);

/// Writes `exe` as the executable file format: a magic line, a format version, then every field in order.
void writeExecutable(std::ostream &out, const ExecutableImpl &exe);
/// Reads what writeExecutable() wrote; throws poplar_error naming what is wrong (not an executable, another
/// version, truncated).
ExecutableImpl readExecutable(std::istream &in);

} // namespace poplar::detail
