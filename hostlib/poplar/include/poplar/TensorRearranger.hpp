// A reordering of a tensor's elements that can be applied and undone (Graph::getSimplifyingRearranger), in the
// header of the same path as the SDK's.
#ifndef POPLAR_TENSOR_REARRANGER_HPP
#define POPLAR_TENSOR_REARRANGER_HPP

#include <cstddef>
#include <vector>

#include "poplar/ArrayRef.hpp"
#include "poplar/Interval.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

/// A permutation of the elements of tensors of one size: the rearranged tensor is the original's element intervals
/// `order()` laid end to end (the original flattened). Tensors given to it are flattened; results are 1-D.
class TensorRearranger {
public:
  /// No rearrangement: valid() is false and every call but valid() throws poplar_error.
  TensorRearranger() {}
  /// The rearrangement that takes the intervals `order` of the flattened original, in that order. Throws
  /// poplar_error unless the intervals cover 0 .. n-1 exactly once.
  explicit TensorRearranger(std::vector<Interval> order);
  /// Whether this rearranger was made by Graph::getSimplifyingRearranger (or from an order).
  bool valid() const { return valid_; }
  /// `t` (of the rearranger's number of elements) rearranged.
  Tensor rearrange(const Tensor &t) const;
  /// The original order of a rearranged `t`: undoRearrangement(rearrange(x)) has x's elements in x's order.
  Tensor undoRearrangement(const Tensor &t) const;
  /// Where elements `intervals` of the original are in the rearranged tensor (sorted, adjacent ones merged).
  std::vector<Interval> rearrange(ArrayRef<Interval> intervals) const;
  /// Where elements `intervals` of the rearranged tensor are in the original (sorted, adjacent ones merged).
  std::vector<Interval> undoRearrangement(ArrayRef<Interval> intervals) const;
  /// The original's intervals in rearranged order.
  const std::vector<Interval> &order() const { return order_; }

private:
  void checkValid(const char *call) const;
  void checkTensor(const char *call, const Tensor &t) const;
  std::vector<Interval> order_;
  std::size_t numElements_ = 0;
  bool valid_ = false;
};

} // namespace poplar

#endif // POPLAR_TENSOR_REARRANGER_HPP
