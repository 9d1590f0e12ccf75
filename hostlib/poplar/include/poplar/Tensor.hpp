// Tensors: typed, shaped views onto graph variables. Slicing, reshaping and transposing never copy data.
#ifndef POPLAR_TENSOR_HPP
#define POPLAR_TENSOR_HPP

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/ArrayRef.hpp"
#include "poplar/Interval.hpp"
#include "poplar/Type.hpp"
#include "poplar/VariableRef.hpp"

namespace poplar {

namespace detail {
struct GraphImpl;
/// VarRegion::replica of an ordinary region: the elements of the replica that runs the program (every replica's own).
const unsigned kLocalReplica = ~0u;
/// Elements [begin, end) of variable `var` (flattened, row-major), in replica `replica` of a replicated graph
/// (Graph::getNonReplicatedTensor) or, for kLocalReplica, in each replica's own copy.
struct VarRegion {
  unsigned var;
  std::size_t begin;
  std::size_t end;
  unsigned replica;
};
/// A view's regions, read-only: the one region a contiguous view keeps inside itself, or its shared list. Valid
/// while the Tensor it came from lives.
typedef ArrayRef<VarRegion> RegionSpan;
class RegionList;
} // namespace detail

/// How Tensor::upsample fills the new elements.
enum class UpsampleMethod {
  REPEAT ///< each element repeated `scale` times in place: {a, b} upsampled by 2 is {a, a, b, b}
};

/// A view of elements of one or more variables, in row-major order with a shape. Copying a Tensor copies the
/// view, not the data; every operation returns a new view of the same elements.
class Tensor {
public:
  /// An invalid tensor (valid() is false); assign one from Graph::addVariable().
  Tensor();
  /// Internal: the view `regions` (row-major) of `graph` with `shape`. Throws poplar_error when the shape's
  /// element count does not fit in 64 bits.
  Tensor(detail::GraphImpl *graph, Type type, const std::vector<std::size_t> &shape,
         std::shared_ptr<const std::vector<detail::VarRegion> > regions);

  /// The sub-tensor at index i of the outermost dimension (rank drops by one).
  Tensor operator[](std::size_t i) const;
  /// t[indices[0]][indices[1]]...: rank drops by indices.size().
  Tensor index(ArrayRef<std::size_t> indices) const;
  /// Elements [begin, end) of dimension `dim`.
  Tensor slice(std::size_t begin, std::size_t end, unsigned dim = 0) const;
  /// Elements of `region` in dimension `dim`.
  Tensor slice(const Interval &region, unsigned dim = 0) const;
  /// The box [begin[d], end[d]) in every dimension d (one value per dimension).
  Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
  /// One slice per interval of dimension `dim`.
  std::vector<Tensor> slices(ArrayRef<Interval> intervals, unsigned dim = 0) const;
  /// One tensor per inner list: the slices of that list joined along `dim`.
  std::vector<Tensor> slices(const std::vector<std::vector<Interval> > &intervals, unsigned dim = 0) const;
  /// One slice [i, i + 1) of dimension `dim` per index i (the rank is kept).
  std::vector<Tensor> slices(ArrayRef<unsigned> indices, unsigned dim = 0) const;
  /// The same elements as one dimension.
  Tensor flatten() const;
  /// Dimensions [dimBegin, dimEnd) merged into one.
  Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
  /// The same elements in row-major order with another shape of the same element count.
  Tensor reshape(ArrayRef<std::size_t> shape) const;
  /// Dimensions [beginIndex, endIndex) replaced by `newDims` (same element count; an empty range inserts).
  Tensor reshapePartial(unsigned beginIndex, unsigned endIndex, ArrayRef<std::size_t> newDims) const;
  /// Dimension i of the result is dimension permutation[i] of this tensor.
  Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
  /// Moves dimension source[i] to position destination[i]; the other dimensions keep their order.
  Tensor dimShufflePartial(ArrayRef<unsigned> source, ArrayRef<unsigned> destination) const;
  /// Moves dimension `dimIdx` to position `newIdx`; the other dimensions keep their order.
  Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
  /// Swaps the two dimensions of a rank-2 tensor.
  Tensor transpose() const;
  /// Reverses the order of the elements along `dim`.
  Tensor reverse(unsigned dim) const;
  /// Inserts dimensions of size 1 before each listed position (positions in the input's numbering).
  Tensor expand(ArrayRef<std::size_t> indices) const;
  /// Removes the listed dimensions, which must have size 1.
  Tensor squeeze(ArrayRef<std::size_t> dims) const;
  /// Every `stride`-th element of dimension `dim`, starting with the first (size ceil(dim / stride)).
  Tensor subSample(unsigned stride, unsigned dim) const;
  /// Each element of dimension `dim` repeated `scale` times in place (scale 0 gives an empty dimension).
  Tensor upsample(unsigned scale, unsigned dim, UpsampleMethod method = UpsampleMethod::REPEAT) const;
  /// The whole tensor repeated N times along `dim` (as concat of N copies).
  Tensor broadcast(unsigned N, unsigned dim) const;
  /// The same elements seen as `type`, which must have the element type's size (FLOAT as INT, HALF as SHORT, ...).
  Tensor reinterpret(const Type &type) const;

  /// Number of elements (the product of the shape).
  std::size_t numElements() const;
  /// Size of dimension `i`.
  std::size_t dim(unsigned i) const;
  /// Number of dimensions.
  unsigned rank() const { return unsigned(shape_.size()); }
  /// The shape.
  const std::vector<std::size_t> &shape() const { return shape_; }
  /// The shape as "{2,3}".
  std::string shapeToString() const;
  /// The element type.
  Type elementType() const { return type_; }
  /// False for a default-constructed tensor.
  bool valid() const { return graph_ != 0; }
  /// True when the elements are one run of one variable, in order.
  bool isContiguous() const;
  /// True when some element of a variable appears more than once in the view (broadcast, upsample, concat of
  /// overlapping views).
  bool containsAliases() const;
  /// True when some element belongs to a constant (Graph::addConstant).
  bool containsConstant() const;
  /// True when the tensor can be written by parallel workers: no aliases and no constants.
  bool isParallelWriteable() const;
  /// True when the two views share at least one element of a variable.
  bool intersectsWith(const Tensor &other) const;
  /// Runs of this tensor's flattened element indices that are contiguous in memory, in order.
  std::vector<Interval> getContiguousRegions() const;
  /// The same runs as the variable elements they view, in order.
  std::vector<VariableInterval> getVarRegions() const;
  /// True when every variable the tensor views was created with metadata (Graph::addVariable with a
  /// QUARTER_METADATA tensor).
  bool hasMetadata() const;
  /// The metadata tensor of the variable the tensor views; throws poplar_error when it has none or views
  /// variables with different metadata.
  Tensor getMetadata() const;
  /// The debug names of the variables the tensor views, in order of first use, joined by "/".
  std::string getDebugStr() const;
  /// Prints the tensor as operator<< does.
  std::ostream &output(std::ostream &os) const;
  /// Prints the variable regions ("{var[0,3), var[5,6)}").
  std::ostream &outputRegions(std::ostream &os) const;
  /// Writes output() to standard output, with a newline (for a debugger's `call t.dump()`).
  void dump() const;
  /// Writes outputRegions() to standard output, with a newline.
  void dumpRegions() const;
  /// The variables and element runs behind the tensor, as outputRegions() writes them.
  std::string getVarStr() const;
  /// True when both tensors are the same view: same graph, type, shape and elements in the same order.
  bool operator==(const Tensor &o) const;
  bool operator!=(const Tensor &o) const { return !(*this == o); }
  /// True when every element belongs to a constant and all have one value, which is stored in *value (converted
  /// to T); false otherwise (*value untouched). T is an arithmetic type.
  template <typename T> bool getConstantValue(T *value) const {
    double d = 0;
    if (!constantValue(d))
      return false;
    *value = static_cast<T>(d);
    return true;
  }
  /// When every element belongs to a constant (addConstant) with one value in every replica, copies the elements'
  /// device representation (row-major, numElements() * elementType().getSize() bytes, e.g. IEEE half bits for
  /// HALF) to `dst` and returns true; otherwise returns false and leaves `dst` untouched.
  bool getConstantData(void *dst) const;
  /// Internal: the elements as runs of variables, in row-major order.
  detail::RegionSpan regions() const {
    if (single_)
      return detail::RegionSpan(&region_, 1);
    return regions_ ? detail::RegionSpan(*regions_) : detail::RegionSpan();
  }
  /// Internal: the graph the tensor belongs to.
  detail::GraphImpl *graphImpl() const { return graph_; }

private:
  friend Tensor concat(ArrayRef<Tensor> ts, unsigned dim);
  bool constantValue(double &value) const;
  /// The view `regions` of this tensor's graph, with its type and `shape`.
  Tensor withRegions(std::vector<std::size_t> shape, detail::RegionList &regions) const;
  /// This view's regions (and their index) seen with another type of the same size or another shape.
  Tensor sameElements(const Type &type, const std::vector<std::size_t> &shape) const;
  detail::GraphImpl *graph_;
  Type type_;
  /// True when the view is exactly one region, kept in region_: most views made one by one (a row, a slice of
  /// one) are, and keeping it inline leaves their shape as the only allocation of making one.
  bool single_;
  std::vector<std::size_t> shape_;
  detail::VarRegion region_;
  /// The regions of a view of several (or none: null), shared by the views that keep them (reshape, expand).
  std::shared_ptr<const std::vector<detail::VarRegion> > regions_;
  /// Flattened index of the first element of each region, and the element count last: built once with the
  /// regions and shared by the views that keep them (reshape, expand), so slicing a view of many regions looks
  /// up where to start instead of summing every region again.
  std::shared_ptr<const std::vector<std::size_t> > starts_;
};

/// The tensors joined along `dim` (all other dimensions, the type and the graph must match).
Tensor concat(ArrayRef<Tensor> ts, unsigned dim = 0);
/// `a` and `b` joined along `dim`.
Tensor concat(const Tensor &a, const Tensor &b, unsigned dim = 0);
/// `second` (rank one less than `first`) added as one more element of `first` along `dim`.
Tensor append(const Tensor &first, const Tensor &second, unsigned dim = 0);
/// Prints the tensor's type, shape and elements ("float{2,3} {v1[0,3), ...}").
std::ostream &operator<<(std::ostream &os, const Tensor &t);

} // namespace poplar

#endif // POPLAR_TENSOR_HPP
