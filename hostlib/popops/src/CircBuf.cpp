// popops::CircBuf (popops/CircBuf.hpp). The entries are the rows of one sliceable [size, elements] tensor; the
// position is a one-element variable that element-wise maps advance and offset modulo size, and dynamicSlice /
// dynamicUpdate read and write the row it names, so the buffer works inside device loops.
#include "popops/CircBuf.hpp"

#include <functional>
#include <numeric>

#include "popops/DynamicSlice.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace pe = popops::expr;

namespace {

std::string nameOf(const poplar::DebugContext &dc, const std::string &fallback) {
  const std::string p = dc.getPathName();
  return p.empty() ? fallback : p;
}

} // namespace

CircBuf::CircBuf(poplar::Graph &graph, const poplar::Type &dataType, unsigned size,
                 const std::vector<std::size_t> &shape, const poplar::DebugContext &debugContext)
    : graph_(graph), size_(size), shape_(shape), name_(nameOf(debugContext, "popops::CircBuf")) {
  if (size == 0)
    throw poplibs_error(name_ + ": a circular buffer needs at least one entry");
  const std::size_t n = std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<std::size_t>());
  hist_ = createSliceableTensor(graph, dataType, {size, n}, {0}, {1}, 0, name_ + "/hist");
  index_ = graph.addVariable(poplar::UNSIGNED_INT, {1}, name_ + "/index");
  graph.setTileMapping(index_, 0);
  graph.setInitialValue(index_, 0u);
}

Tensor CircBuf::prev(unsigned i, poplar::program::Sequence &seq, const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, name_ + "/prev");
  if (i >= size_)
    throw poplibs_error(name + ": entry " + std::to_string(i) + " adds old asked of a buffer of " +
                        std::to_string(size_) + " entries; it must be below the size");
  // (index + size - i) % size: never negative in unsigned arithmetic.
  Tensor row = map(graph_, pe::Rem(pe::_1 + pe::Const(size_ - i), pe::Const(size_)), {index_}, seq, name + "/row");
  Tensor out = dynamicSlice(graph_, hist_, row, {0}, {1}, seq, name);
  return out.reshape(shape_);
}

void CircBuf::add(Tensor t, poplar::program::Sequence &seq, const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, name_ + "/add");
  if (!t.valid() || t.numElements() != hist_.dim(1) || t.elementType() != hist_.elementType())
    throw poplibs_error(name + ": the tensor added must hold " + std::to_string(hist_.dim(1)) + " " +
                        hist_.elementType().toString() + " elements, the buffer's entry");
  mapInPlace(graph_, pe::Rem(pe::_1 + pe::Const(1u), pe::Const(size_)), {index_}, seq, name + "/advance");
  dynamicUpdate(graph_, hist_, t.flatten().expand({0}), index_, {0}, {1}, seq, name);
}

Tensor CircBuf::getIndex() const { return index_; }

unsigned CircBuf::size() const { return size_; }

poplar::Graph::TileToTensorMapping CircBuf::getTileMapping() { return getSliceMapping(graph_, hist_, {0}, {1}); }

} // namespace popops
