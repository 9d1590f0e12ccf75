// How Graph::clone and Graph::cloneN lay out the new variables behind a cloned tensor.
#ifndef POPLAR_TENSOR_CLONE_METHOD_HPP
#define POPLAR_TENSOR_CLONE_METHOD_HPP

namespace poplar {

/// The element order and aliasing of a clone (Graph::clone, Graph::cloneN). Every method gives the clone the
/// shape and per-element tile mapping of the source; they differ in how the clone's elements sit in memory.
enum class TensorCloneMethod {
  /// The clone's storage mirrors the source's: elements that share storage in the source share it in the clone
  /// (a broadcast view clones to a broadcast view), and storage order follows the source's.
  PRESERVE_ORDER_AND_ALIASES,
  /// A fresh variable in the natural row-major order of the source's shape, without aliases.
  CREATE_NEW_ORDER,
  /// As PRESERVE_ORDER_AND_ALIASES when the source has no aliases, else as CREATE_NEW_ORDER (the default).
  PRESERVE_ORDER_UNLESS_ALIASES,
  /// As PRESERVE_ORDER_AND_ALIASES, but the storage is one variable whose elements are gathered by tile (each
  /// tile's elements contiguous, tiles in ascending order, each tile's elements in the source's storage order).
  GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES
};

/// How Graph::cloneN places the N copies in memory.
enum class TensorCloneDuplicationMethod {
  /// Copy i is the i-th slice of the new outermost dimension, with storage of its own.
  DUPLICATE_BY_OUTER_DIMENSION,
  /// The N copies of each of the source's contiguous per-tile regions sit next to each other in memory.
  DUPLICATE_BY_TILE_CONTIGUOUS_REGION
};

} // namespace poplar

#endif
