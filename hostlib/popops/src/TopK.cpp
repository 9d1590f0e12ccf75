// popops::topK and relatives: the rows are sorted (copies, stable) in the direction that puts the wanted elements
// first, and the first k columns are the result; an order opposite to that direction is one more stable sort of
// the k columns. Indices come from a constant laid out like the copied input.
#include "popops/TopK.hpp"

#include <algorithm>
#include <ostream>

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "sort_internal.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

std::ostream &operator<<(std::ostream &os, const SortOrder &o) {
  switch (o) {
  case SortOrder::NONE: return os << "none";
  case SortOrder::ASCENDING: return os << "ascending";
  case SortOrder::DESCENDING: return os << "descending";
  }
  return os << "unknown";
}

TopKParams::TopKParams(unsigned k_, bool largest_, SortOrder sortOrder_, bool stableSort_) noexcept
    : k(k_), largest(largest_), sortOrder(sortOrder_), stableSort(stableSort_) {}

std::ostream &operator<<(std::ostream &os, const TopKParams &p) {
  return os << "{k=" << p.k << ", largest=" << (p.largest ? "true" : "false") << ", sortOrder=" << p.sortOrder
            << ", stableSort=" << (p.stableSort ? "true" : "false") << "}";
}

namespace {

void checkInput(const Tensor &t, const TopKParams &params, const std::string &name) {
  if (!t.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  if (t.rank() == 0)
    throw poplibs_error(name + ": the input is a scalar; topK takes a tensor of rank 1 or more");
  const std::size_t n = t.dim(t.rank() - 1);
  if (params.k > n)
    throw poplibs_error(name + ": k=" + std::to_string(params.k) + " is larger than the innermost dimension (" +
                        std::to_string(n) + "); pass k <= " + std::to_string(n));
}

Tensor copyOf(poplar::Graph &graph, const Tensor &t, poplar::program::Sequence &prog, const std::string &name) {
  Tensor c = graph.clone(t, name);
  prog.add(poplar::program::Copy(t, c));
  return c;
}

// The top k of `keys` with `values` (invalid: none) permuted alike. Both are copied first unless `ownCopies` (the
// caller made them for this call).
std::pair<Tensor, Tensor> topKImpl(poplar::Graph &graph, poplar::program::Sequence &prog, const Tensor &keys,
                                   const Tensor &values, const TopKParams &params, const std::string &name,
                                   bool ownCopies = false) {
  const unsigned last = keys.rank() - 1;
  Tensor k = ownCopies ? keys : copyOf(graph, keys, prog, name + "/keys");
  Tensor v = !values.valid() || ownCopies ? values : copyOf(graph, values, prog, name + "/values");
  detail::sortLastDim(graph, k, v, params.largest, prog, name);
  Tensor topKeys = k.slice(0, params.k, last), topValues = v.valid() ? v.slice(0, params.k, last) : Tensor();
  const bool reverse = (params.largest && params.sortOrder == SortOrder::ASCENDING) ||
                       (!params.largest && params.sortOrder == SortOrder::DESCENDING);
  if (reverse && params.k > 1)
    detail::sortLastDim(graph, topKeys, topValues, !params.largest, prog, name + "/order");
  return {topKeys, topValues};
}

} // namespace

Tensor createTopKInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                       const TopKParams &, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createTopKInput");
  if (shape.empty())
    throw poplibs_error(name + ": the shape is a scalar's; topK takes a tensor of rank 1 or more");
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t, 0, std::max<std::size_t>(1, shape.back()));
  return t;
}

Tensor topK(poplar::Graph &graph, poplar::program::Sequence &prog, const Tensor &t, const TopKParams &params,
            const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "topK");
  checkInput(t, params, name);
  return topKImpl(graph, prog, t, Tensor(), params, name).first;
}

std::pair<Tensor, Tensor> topKKeyValue(poplar::Graph &graph, poplar::program::Sequence &prog, const Tensor &keys,
                                       const Tensor &values, const TopKParams &params,
                                       const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "topKKeyValue");
  checkInput(keys, params, name);
  if (!values.valid() || values.shape() != keys.shape())
    throw poplibs_error(name + ": the values must have the keys' shape; pass values of the keys' shape");
  return topKImpl(graph, prog, keys, values, params, name);
}

std::pair<Tensor, Tensor> topKWithPermutation(poplar::Graph &graph, poplar::program::Sequence &prog, const Tensor &t,
                                              const TopKParams &params, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "topKWithPermutation");
  checkInput(t, params, name);
  const std::size_t n = t.dim(t.rank() - 1);
  std::vector<unsigned> iota(t.numElements());
  for (std::size_t i = 0; i < iota.size(); ++i)
    iota[i] = unsigned(i % n);
  // The indices live where the copied keys will: each tile gets the constants of its own elements.
  Tensor keys = copyOf(graph, t, prog, name + "/keys");
  Tensor idx = graph.addConstant(poplar::UNSIGNED_INT, t.shape(), iota, name + "/iota");
  graph.setTileMapping(idx, graph.getTileMapping(keys));
  Tensor indices = graph.clone(idx, name + "/indices");
  prog.add(poplar::program::Copy(idx, indices));
  return topKImpl(graph, prog, keys, indices, params, name, true);
}

} // namespace popops
