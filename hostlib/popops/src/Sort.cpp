// popops::sort and relatives. A sort is one compute set: every 1-D slice along the sorted dimension (a row of the
// view with that dimension last) is sorted in place by one vertex on the tile that holds the row's first element,
// and each tile's rows are shared among its workers. A row spread over several tiles is brought to that tile by
// the graph compiler (the vertex's edges) and written back.
#include "popops/Sort.hpp"

#include <algorithm>

#include "log.hpp"
#include "poputil/exceptions.hpp"
#include "sort_internal.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;

namespace {

std::string keySuffix(const poplar::Type &t, const std::string &name) {
  if (t == poplar::FLOAT)
    return "Float";
  if (t == poplar::HALF)
    return "Half";
  if (t == poplar::INT)
    return "Int";
  if (t == poplar::UNSIGNED_INT)
    return "Unsigned";
  throw poplibs_error(name + ": keys of type " + t.toString() +
                      " cannot be sorted (FLOAT, HALF, INT and UNSIGNED_INT can); cast them first");
}

// The values as the words the vertex moves: 32- or 16-bit.
Tensor valueWords(const Tensor &v, const std::string &name) {
  if (v.elementType().getSize() == 4)
    return v.reinterpret(poplar::UNSIGNED_INT);
  if (v.elementType().getSize() == 2)
    return v.reinterpret(poplar::UNSIGNED_SHORT);
  throw poplibs_error(name + ": values of type " + v.elementType().toString() +
                      " cannot be permuted (types of 2 or 4 bytes can); cast them first");
}

// `t` with dimension `dim` moved last.
Tensor dimLast(const Tensor &t, unsigned dim) {
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < t.rank(); ++d)
    if (d != dim)
      perm.push_back(d);
  perm.push_back(dim);
  return t.dimShuffle(perm);
}

void checkSortArgs(const Tensor &t, unsigned dim, const std::string &name, const char *what) {
  if (!t.valid())
    throw poplibs_error(name + ": the " + what + " tensor is invalid (default-constructed)");
  if (dim >= t.rank())
    throw poplibs_error(name + ": dimension " + std::to_string(dim) + " is out of range for " + what +
                        " of rank " + std::to_string(t.rank()) + "; pass a dimension below the rank");
}

std::string nameOf(const std::string &debugPrefix, const char *fn) {
  return debugPrefix.empty() ? std::string("popops::") + fn : debugPrefix;
}

// A new tensor holding a copy of t, laid out like t.
Tensor copyOf(poplar::Graph &graph, const Tensor &t, poplar::program::Sequence &prog, const std::string &name) {
  Tensor c = graph.clone(t, name);
  prog.add(poplar::program::Copy(t, c));
  return c;
}

} // namespace

namespace detail {

void sortLastDim(poplar::Graph &graph, const Tensor &keys, const Tensor &values, bool descending,
                 poplar::program::Sequence &prog, const std::string &name) {
  const std::string suffix = keySuffix(keys.elementType(), name);
  if (keys.rank() == 0 || keys.numElements() == 0)
    return;
  if (!keys.isParallelWriteable())
    throw poplibs_error(name + ": the keys have aliased elements (a broadcast view?); sort a tensor whose "
                               "elements are distinct");
  Tensor words;
  if (values.valid()) {
    if (values.shape() != keys.shape())
      throw poplibs_error(name + ": the values have a shape other than the keys'; pass values of the keys' shape");
    if (!values.isParallelWriteable())
      throw poplibs_error(name + ": the values have aliased elements; pass a tensor whose elements are distinct");
    words = valueWords(values, name);
  }
  const std::size_t n = keys.dim(keys.rank() - 1), rows = keys.numElements() / n;
  const Tensor K = keys.reshape({rows, n});
  const Tensor V = words.valid() ? words.reshape({rows, n}) : Tensor();
  const poplar::TileToTensorMapping mapping = graph.getTileMapping(K, false);
  std::vector<std::vector<std::size_t> > rowsOf(mapping.size());
  std::size_t placed = 0;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      for (std::size_t r = (iv.begin() + n - 1) / n; r * n < iv.end(); ++r) {
        rowsOf[tile].push_back(r);
        ++placed;
      }
  if (placed != rows)
    throw poplibs_error(name + ": the keys have unmapped elements; map them before sorting");
  const std::string vertex = std::string("popops::") + (V.valid() ? "SortKV" : "SortKeys") + suffix +
                             (V.valid() ? (words.elementType() == poplar::UNSIGNED_INT ? "32" : "16") : "");
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::size_t workers = graph.getTarget().getNumWorkerContexts();
  std::size_t vertices = 0;
  for (unsigned tile = 0; tile < rowsOf.size(); ++tile) {
    const std::vector<std::size_t> &rs = rowsOf[tile];
    const std::size_t groups = std::min(workers, rs.size());
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t b = rs.size() * g / groups, e = rs.size() * (g + 1) / groups;
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, tile);
      graph.setInitialValue(v["descending"], descending ? 1u : 0u);
      graph.setFieldSize(v["keys"], e - b);
      if (V.valid())
        graph.setFieldSize(v["values"], e - b);
      for (std::size_t i = b; i < e; ++i) {
        graph.connect(v["keys"][i - b], K[rs[i]]);
        if (V.valid())
          graph.connect(v["values"][i - b], V[rs[i]]);
      }
      ++vertices;
    }
  }
  prog.add(poplar::program::Execute(cs, name));
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + std::to_string(rows) + " rows of " + std::to_string(n) +
                                         " elements, " + std::to_string(vertices) + " vertices");
}

} // namespace detail

void sortInPlace(poplar::Graph &graph, const Tensor &t, unsigned dim, poplar::program::Sequence &prog,
                 const std::string &debugPrefix) {
  const std::string name = nameOf(debugPrefix, "sortInPlace");
  checkSortArgs(t, dim, name, "input");
  detail::sortLastDim(graph, dimLast(t, dim), Tensor(), false, prog, name);
}

Tensor sort(poplar::Graph &graph, const Tensor &t, unsigned dim, poplar::program::Sequence &prog,
            const std::string &debugPrefix) {
  const std::string name = nameOf(debugPrefix, "sort");
  checkSortArgs(t, dim, name, "input");
  keySuffix(t.elementType(), name);
  Tensor out = copyOf(graph, t, prog, name + "/sorted");
  detail::sortLastDim(graph, dimLast(out, dim), Tensor(), false, prog, name);
  return out;
}

void sortKeyValueInPlace(poplar::Graph &graph, const Tensor &k, const Tensor &v, unsigned dim,
                         poplar::program::Sequence &prog, const std::string &debugPrefix) {
  const std::string name = nameOf(debugPrefix, "sortKeyValueInPlace");
  checkSortArgs(k, dim, name, "key");
  checkSortArgs(v, dim, name, "value");
  detail::sortLastDim(graph, dimLast(k, dim), dimLast(v, dim), false, prog, name);
}

Tensor sortKeyValue(poplar::Graph &graph, const Tensor &k, const Tensor &v, unsigned dim,
                    poplar::program::Sequence &prog, const std::string &debugPrefix) {
  const std::string name = nameOf(debugPrefix, "sortKeyValue");
  checkSortArgs(k, dim, name, "key");
  checkSortArgs(v, dim, name, "value");
  keySuffix(k.elementType(), name);
  if (k.shape() != v.shape())
    throw poplibs_error(name + ": the values have a shape other than the keys'; pass values of the keys' shape");
  valueWords(v, name);
  Tensor keys = copyOf(graph, k, prog, name + "/keys"), values = copyOf(graph, v, prog, name + "/values");
  detail::sortLastDim(graph, dimLast(keys, dim), dimLast(values, dim), false, prog, name);
  return values;
}

} // namespace popops
