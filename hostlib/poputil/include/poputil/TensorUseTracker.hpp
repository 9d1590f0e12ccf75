// poputil::TensorUseTracker: records which tiles use which elements of variables (a tile that reads or writes
// an element in some vertex), then maps each used element to one of the tiles that use it, spreading the
// elements used by the same set of tiles evenly over that set. Graphcore's PopLibs declares it in
// poputil/TileMapping.hpp, which includes this header.
#ifndef POPUTIL_TENSORUSETRACKER_HPP
#define POPUTIL_TENSORUSETRACKER_HPP

#include <memory>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

namespace poputil {

class TensorUseTrackerState;

/// Tracks the tiles that use elements of variables and maps the elements by use.
class TensorUseTracker {
public:
  /// A tracker for a graph of `numTiles` tiles. Within each set of tiles sharing elements, elements go to the
  /// tiles in order of (tile - startTile) mod numTiles, ascending or, with ascendingMappingOrder false,
  /// descending.
  TensorUseTracker(unsigned numTiles, unsigned startTile = 0, bool ascendingMappingOrder = true);
  TensorUseTracker(const TensorUseTracker &other);
  TensorUseTracker(TensorUseTracker &&other);
  TensorUseTracker &operator=(const TensorUseTracker &other);
  TensorUseTracker &operator=(TensorUseTracker &&other);
  ~TensorUseTracker();

  /// How resolve() treats elements used by several tiles.
  enum class MappingMethod {
    /// A run of shared elements that continues a run already given to one of its tiles (the elements just
    /// before or after it in the variable) goes wholly to that tile, so that halos of partitioned data stay with
    /// a neighbour instead of being cut into pieces.
    OptimizeHaloRegions,
    /// Elements go only to tiles that use them (as with None: this tracker never maps to an unused tile).
    ConstrainMappingToUsedTiles,
    /// Shared elements are spread evenly over the tiles that use them.
    None
  };

  /// Records that `tile` uses every element of variables that `t` views. Throws poplibs_error for a tile beyond
  /// the tracker's tiles or an invalid tensor.
  void add(const poplar::Graph &graph, unsigned tile, const poplar::Tensor &t);
  /// Adds every use recorded by `other` (resolved or not).
  void add(TensorUseTracker other);
  /// Reduces the uses to one tile per element: elements used by the same set of tiles are spread over that set
  /// in runs that are multiples of `grainSize` elements, with at least `minElementsPerTile` elements on each tile
  /// used (so small sets use fewer tiles). With extendPartialUsage, an element of a used variable that no tile
  /// uses first takes the uses of the nearest used element before it (after it, at the start of the variable).
  void resolve(const poplar::Graph &graph, unsigned grainSize, unsigned minElementsPerTile,
               bool extendPartialUsage = false, MappingMethod mappingMethod = MappingMethod::None);
  /// resolve() and then maps each used element to its tile. Unused elements are left unmapped.
  void mapTensorsByUse(poplar::Graph &graph, unsigned grainSize, unsigned minElementsPerTile,
                       bool extendPartialUsage = false, MappingMethod mappingMethod = MappingMethod::None);
  /// True when no use has been recorded.
  bool empty() const;

private:
  std::unique_ptr<TensorUseTrackerState> st;
};

} // namespace poputil

#endif // POPUTIL_TENSORUSETRACKER_HPP
