// Internal: the matrix-multiplication planner. A product of G groups of {rows x inner} * {inner x cols} is cut into
// blocks: the groups, rows, columns and inner dimension are each split into a number of parts, and every
// combination of parts is one tile's block. The planner tries every split whose parts differ in size, estimates
// its cycles with a cost model of the target (tile codelet cycles per multiply-accumulate on the six workers,
// exchange bytes per cycle, the reduction of inner-dimension partials in stages) and its bytes per tile, and keeps
// the fastest that fits the memory the options allow.
#pragma once

#include <cstddef>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

#include "poplin/MatMul.hpp"

namespace poplin::detail {

/// The options of the matMul family, parsed and checked.
struct MatMulOptions {
  double availableMemoryProportion = 0.6;
  poplar::Type partialsType = poplar::FLOAT;
  std::string fullyConnectedPass = "NONE";
  /// A stable text of the options for the plan cache key.
  std::string key() const;
};
/// Reads `options`; throws poplar::invalid_option naming an unknown option or a bad value (`what` is the caller).
MatMulOptions parseMatMulOptions(const poplar::OptionFlags &options, const std::string &what);

/// One (grouped) product.
struct MatMulProblem {
  std::size_t groups = 1, rows = 0, inner = 0, cols = 0;
  poplar::Type inputType = poplar::FLOAT, outputType = poplar::FLOAT;
};

/// Partial sums that one reduction stage sums at most into one result; more need further stages.
constexpr unsigned kMaxReduceFanIn = 8;

/// A split of a problem over the tiles, with its estimate.
struct MatMulPlan {
  unsigned gSplit = 1, rSplit = 1, cSplit = 1, kSplit = 1; // parts of each dimension
  std::size_t gBlock = 1, rBlock = 1, cBlock = 1, kBlock = 1; // elements of each dimension in a part (the last
                                                               // part may hold fewer)
  unsigned tiles = 1;            // gSplit * rSplit * cSplit * kSplit
  unsigned reduceStages = 0;     // stages of the inner-dimension reduction (0: no inner split)
  poplar::Type partialsType = poplar::FLOAT; // of the inner-dimension partials: HALF only for HALF operands with
                                             // the partialsType option half (FLOAT operands keep float partials)
  std::size_t bytesPerTile = 0;  // estimated peak bytes of the operation on a tile
  double computeCycles = 0, exchangeCycles = 0, reduceCycles = 0;
  double cycles() const { return computeCycles + exchangeCycles + reduceCycles; }
  /// How blocks are numbered within a group: the order of the row, column and inner parts, outermost first.
  /// A fully connected layer's BWD and WU plans use the forward plan's tiles for their transposed operands.
  enum class TileOrder { RCK, RKC, KCR };
  TileOrder order = TileOrder::RCK;
  /// The tile of block (g, r, c, k).
  unsigned tileOf(unsigned g, unsigned r, unsigned c, unsigned k) const {
    switch (order) {
    case TileOrder::RKC: return ((g * rSplit + r) * kSplit + k) * cSplit + c;
    case TileOrder::KCR: return ((g * kSplit + k) * cSplit + c) * rSplit + r;
    case TileOrder::RCK: break;
    }
    return ((g * rSplit + r) * cSplit + c) * kSplit + k;
  }
  /// One line: split, blocks, tiles, memory and the estimate.
  std::string toString() const;
};

/// The fastest plan of `p` on `target` within the options' memory. Throws poputil::poplibs_error naming the
/// smallest bytes per tile any split needs when none fits.
MatMulPlan planMatMul(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o);

/// planMatMul through `cache` (when given). Logs the plan at DEBUG (PL:[D]) with `what`: the problem, the
/// partials type, whether the cache held it, the split, tiles, bytes per tile and estimated cycles.
MatMulPlan getMatMulPlan(const poplar::Target &target, const MatMulProblem &p, const MatMulOptions &o,
                         matmul::PlanningCache *cache, const std::string &what);

/// The graph profile's optimizationInfo key of an operation named `name` ("<debug prefix>/<function>", or
/// "poplin::<function>" without a prefix): "poplin::<function>/<debug prefix>", e.g. "poplin::matMul/fwd/layer0".
std::string profileKey(const std::string &name);
/// Records the plan's estimated cycles in `graph`'s profile under profileKey(name).
void recordPlanInProfile(const poplar::Graph &graph, const std::string &name, const MatMulPlan &plan);

} // namespace poplin::detail
