// popops::CircBuf: a device-side ring of the last few values of a tensor, indexed by age.
#ifndef popops_CircBuf_hpp
#define popops_CircBuf_hpp

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A circular buffer of `size` tensors of one shape held on the device, with its position in a device variable
/// (so a loop body can add to it and read from it). add() advances the position (modulo size) and writes there;
/// prev(i) reads the entry added i calls ago (prev(0) is the latest). The position starts at 0 and every entry
/// starts undefined.
class CircBuf {
public:
  /// A buffer in `graph` of `size` entries of `dataType` and `shape`. Throws poputil::poplibs_error for size 0.
  CircBuf(poplar::Graph &graph, const poplar::Type &dataType, unsigned size, const std::vector<std::size_t> &shape,
          const poplar::DebugContext &debugContext = {});

  /// A new tensor of the buffer's shape that `seq` fills with the entry i adds old. Throws
  /// poputil::poplibs_error unless i < size().
  poplar::Tensor prev(unsigned i, poplar::program::Sequence &seq, const poplar::DebugContext &debugContext = {});

  /// Adds to `seq` the step that advances the position and copies `t` (of the buffer's shape or element count)
  /// into the entry there, overwriting the oldest when the buffer is full.
  void add(poplar::Tensor t, poplar::program::Sequence &seq, const poplar::DebugContext &debugContext = {});

  /// The one-element UNSIGNED_INT variable holding the position of the latest entry.
  poplar::Tensor getIndex() const;

  /// The number of entries.
  unsigned size() const;

  /// The tile mapping of the tensors prev() returns.
  poplar::Graph::TileToTensorMapping getTileMapping();

private:
  poplar::Graph &graph_;
  unsigned size_;
  std::vector<std::size_t> shape_;
  poplar::Tensor index_; // [1] UNSIGNED_INT, the latest entry's row of hist_
  poplar::Tensor hist_;  // [size, elements], sliceable in its first dimension
  std::string name_;
};

} // namespace popops

#endif // popops_CircBuf_hpp
