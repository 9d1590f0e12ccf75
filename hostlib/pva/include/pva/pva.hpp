// libpva: reads a profile report directory (what autoReport writes: profile.json or profile.cbor, and
// execution.json or execution.cbor) so that programs can analyse it: tiles and their memory, memory by category and
// by vertex type, compute sets, programs, execution steps, liveness per program step.
#ifndef PVA_PVA_HPP
#define PVA_PVA_HPP

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "poplar/ProfileValue.hpp"

namespace pva {

/// One tile's memory as the loader placed it.
struct TileMemory {
  unsigned tile = 0;
  std::uint64_t total = 0;              ///< code and data, each byte once
  std::uint64_t totalIncludingGaps = 0; ///< the span the tile's code and data take, gaps included
};

struct ComputeSet {
  unsigned id = 0;
  std::string name;
  std::uint64_t vertices = 0;
};

/// An entry of the graph profile's programs array.
struct Program {
  unsigned id = 0;
  std::string type, name;
  std::vector<unsigned> children;
};

/// A measured execution step.
struct Step {
  std::string type, name;
  unsigned program = 0;
  std::uint64_t cycles = 0, cyclesFrom = 0, cyclesTo = 0, activeTiles = 0;
  double tileBalance = 0;
};

/// Liveness of one program: bytes live on all tiles at each of its steps.
struct Liveness {
  unsigned program = 0;
  std::vector<std::string> stepNames;
  std::vector<std::uint64_t> liveBytes;
};

class Report {
public:
  /// Opens the report in `directory`. Throws poplar::profiling_error naming the directory when it holds no graph
  /// profile (profile.json or profile.cbor), or a file that cannot be read.
  static Report open(const std::string &directory);

  const poplar::ProfileValue &graph() const { return graph_; }
  /// The execution profile; an empty map when the report has none.
  const poplar::ProfileValue &execution() const { return execution_; }
  bool hasExecution() const { return execution_.isMap() && execution_.size() != 0; }

  std::string targetType() const;
  unsigned numTiles() const;
  double clockFrequency() const;
  std::vector<TileMemory> tiles() const;
  /// The graph profile's optimizationInfo: libpoplar's figures (tilesInUse, exchangeBytes, ...) and what libraries
  /// recorded (poplin: "poplin::matMul/<debug name>" = the planner's estimated cycles of that product).
  std::map<std::string, double> optimizationInfo() const;
  std::map<std::string, std::uint64_t> memoryByCategory() const;
  /// Vertex state bytes by vertex type name.
  std::map<std::string, std::uint64_t> memoryByVertexType() const;
  std::vector<ComputeSet> computeSets() const;
  std::vector<Program> programs() const;
  std::vector<Liveness> liveness() const;
  /// Steps and cycles of the execution profile (empty / 0 without one).
  std::vector<Step> steps() const;
  std::uint64_t totalCycles() const;
  std::map<std::string, std::uint64_t> tileCycles() const;

private:
  poplar::ProfileValue graph_, execution_;
};

} // namespace pva

#endif // PVA_PVA_HPP
