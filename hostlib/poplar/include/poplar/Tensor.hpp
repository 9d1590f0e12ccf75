// Tensors: typed, shaped views onto graph variables. Slicing, reshaping and transposing never copy data.
#ifndef POPLAR_TENSOR_HPP
#define POPLAR_TENSOR_HPP

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/Interval.hpp"
#include "poplar/Type.hpp"

namespace poplar {

namespace detail {
struct GraphImpl;
/// Elements [begin, end) of variable `var` (flattened, row-major).
struct VarRegion {
  unsigned var;
  std::size_t begin;
  std::size_t end;
};
} // namespace detail

/// A view of elements of one or more variables, in row-major order with a shape. Copying a Tensor copies the
/// view, not the data; every operation returns a new view of the same elements.
class Tensor {
public:
  /// An invalid tensor (valid() is false); assign one from Graph::addVariable().
  Tensor();
  /// Internal: the view `regions` (row-major) of `graph` with `shape`.
  Tensor(detail::GraphImpl *graph, Type type, const std::vector<std::size_t> &shape,
         std::shared_ptr<const std::vector<detail::VarRegion> > regions);

  /// The sub-tensor at index i of the outermost dimension (rank drops by one).
  Tensor operator[](std::size_t i) const;
  /// Elements [begin, end) of dimension `dim`.
  Tensor slice(std::size_t begin, std::size_t end, unsigned dim = 0) const;
  /// Elements of `region` in dimension `dim`.
  Tensor slice(const Interval &region, unsigned dim = 0) const;
  /// The box [begin[d], end[d]) in every dimension d (one value per dimension).
  Tensor slice(const std::vector<std::size_t> &begin, const std::vector<std::size_t> &end) const;
  /// The same elements as one dimension.
  Tensor flatten() const;
  /// Dimensions [dimBegin, dimEnd) merged into one.
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  /// The same elements in row-major order with another shape of the same element count.
  Tensor reshape(const std::vector<std::size_t> &shape) const;
  /// Dimension i of the result is dimension permutation[i] of this tensor.
  Tensor dimShuffle(const std::vector<unsigned> &permutation) const;
  /// Swaps the two dimensions of a rank-2 tensor.
  Tensor transpose() const;
  /// Reverses the order of the elements along `dim`.
  Tensor reverse(unsigned dim) const;
  /// Inserts dimensions of size 1 before each listed position.
  Tensor expand(const std::vector<std::size_t> &indices) const;
  /// Removes the listed dimensions, which must have size 1.
  Tensor squeeze(const std::vector<std::size_t> &dims) const;

  /// Number of elements (the product of the shape).
  std::size_t numElements() const;
  /// Size of dimension `i`.
  std::size_t dim(unsigned i) const;
  /// Number of dimensions.
  std::size_t rank() const { return shape_.size(); }
  /// The shape.
  const std::vector<std::size_t> &shape() const { return shape_; }
  /// The element type.
  Type elementType() const { return type_; }
  /// False for a default-constructed tensor.
  bool valid() const { return graph_ != 0; }
  /// True when the elements are one run of one variable.
  bool isContiguous() const;
  /// True when no element appears twice in the view.
  bool isParallelWriteable() const;
  /// True when both views have the same shape and elements.
  bool intersectsWith(const Tensor &other) const;
  /// Internal: the elements as runs of variables, in row-major order.
  const std::vector<detail::VarRegion> &regions() const;
  /// Internal: the graph the tensor belongs to.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  detail::GraphImpl *graph_;
  Type type_;
  std::vector<std::size_t> shape_;
  std::shared_ptr<const std::vector<detail::VarRegion> > regions_;
};

/// `a` and `b` joined along `dim` (all other dimensions must match).
Tensor concat(const Tensor &a, const Tensor &b, unsigned dim = 0);
/// The tensors joined along `dim`.
Tensor concat(const std::vector<Tensor> &ts, unsigned dim = 0);
/// Prints the tensor's type, shape and elements ("float[2,3] {v1[0,3), ...}").
std::ostream &operator<<(std::ostream &os, const Tensor &t);

} // namespace poplar

#endif // POPLAR_TENSOR_HPP
