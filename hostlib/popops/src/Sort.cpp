// popops::sort and relatives. Every 1-D slice along the sorted dimension (a row of the view with that dimension
// last) is sorted in place where it lives: a row on one tile by one vertex there (each tile's rows shared among
// its workers); a row on several tiles piece by piece on the pieces' tiles, then by rounds of merge-splits of
// neighbouring pieces (block odd-even transposition), so elements only move between neighbouring pieces.
#include "popops/Sort.hpp"

#include <algorithm>

#include "log.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"
#include "sort_internal.hpp"
#include "vertex_names.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;

namespace {

// Throws unless keys of type `t` can be sorted (the key types the sort vertices are instantiated for).
void checkKeyType(const poplar::Type &t, const std::string &name) {
  if (t != poplar::FLOAT && t != poplar::HALF && t != poplar::INT && t != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": keys of type " + t.toString() +
                        " cannot be sorted (FLOAT, HALF, INT and UNSIGNED_INT can); cast them first");
}

// The vertex class `kind` (SortKeys, SortKV, MergeSplitKeys or MergeSplitKV) for these keys and value words:
// popops::<kind><K> without values, popops::<kind><K, V> with them (codelets/sort_codelets.h).
std::string sortVertex(const char *kind, const Tensor &keys, const Tensor &words) {
  const std::string name = std::string("popops::") + kind;
  if (!words.valid())
    return poputil::detail::templateVertex(name + "Keys", {keys.elementType()});
  return poputil::detail::templateVertex(name + "KV", {keys.elementType(), words.elementType()});
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
  checkKeyType(keys.elementType(), name);
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
  // Each row's pieces [begin, end) in row order with their tiles.
  struct Piece {
    std::size_t begin, end;
    unsigned tile;
  };
  std::vector<std::vector<Piece> > pieces(rows);
  std::size_t mapped = 0;
  const poplar::TileToTensorMapping mapping = graph.getTileMapping(K, false);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      for (std::size_t b = iv.begin(); b < iv.end();) {
        std::size_t row = b / n, e = std::min<std::size_t>(iv.end(), (row + 1) * n);
        pieces[row].push_back({b - row * n, e - row * n, tile});
        mapped += e - b;
        b = e;
      }
  if (mapped != rows * n)
    throw poplibs_error(name + ": the keys have unmapped elements; map them before sorting");
  // Stage 1 sorts runs in place on their tiles: a row on one tile whole, a row on several tiles piece by piece
  // (pieces of one tile next to each other in the row are one piece).
  struct Run {
    std::size_t row, begin, end;
  };
  std::vector<std::vector<Run> > runsOf(mapping.size());
  std::vector<std::size_t> spread; // rows on several tiles
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<Piece> &ps = pieces[r];
    std::sort(ps.begin(), ps.end(), [](const Piece &a, const Piece &b) { return a.begin < b.begin; });
    std::vector<Piece> merged;
    for (const Piece &p : ps)
      if (!merged.empty() && merged.back().tile == p.tile && merged.back().end == p.begin)
        merged.back().end = p.end;
      else
        merged.push_back(p);
    ps.swap(merged);
    const bool oneTile = std::all_of(ps.begin(), ps.end(), [&](const Piece &p) { return p.tile == ps[0].tile; });
    if (oneTile) {
      runsOf[ps[0].tile].push_back({r, 0, n});
      continue;
    }
    spread.push_back(r);
    for (const Piece &p : ps)
      runsOf[p.tile].push_back({r, p.begin, p.end});
  }
  const std::string vertex = sortVertex("Sort", K, V);
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::size_t workers = graph.getTarget().getNumWorkerContexts();
  std::size_t vertices = 0;
  for (unsigned tile = 0; tile < runsOf.size(); ++tile) {
    const std::vector<Run> &rs = runsOf[tile];
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
        graph.connect(v["keys"][i - b], K[rs[i].row].slice(rs[i].begin, rs[i].end));
        if (V.valid())
          graph.connect(v["values"][i - b], V[rs[i].row].slice(rs[i].begin, rs[i].end));
      }
      ++vertices;
    }
  }
  prog.add(poplar::program::Execute(cs, name));
  // Rows on several tiles: a block odd-even transposition sort of their pieces, as many rounds as the most pieces
  // of a row; round k merge-splits the pairs (i, i+1) with i of k's parity, on the tile of the lower piece, which
  // keeps a scratch buffer of the pair's size. Only neighbouring pieces exchange elements.
  std::size_t rounds = 0;
  std::vector<std::vector<std::pair<Tensor, Tensor> > > scratch(rows);
  for (std::size_t r : spread) {
    const std::vector<Piece> &ps = pieces[r];
    rounds = std::max(rounds, ps.size());
    for (std::size_t i = 0; i + 1 < ps.size(); ++i) {
      const std::size_t size = ps[i + 1].end - ps[i].begin;
      Tensor tk = graph.addVariable(keys.elementType(), {size}, name + "/scratch");
      graph.setTileMapping(tk, ps[i].tile);
      Tensor tv;
      if (V.valid()) {
        tv = graph.addVariable(words.elementType(), {size}, name + "/scratchValues");
        graph.setTileMapping(tv, ps[i].tile);
      }
      scratch[r].push_back({tk, tv});
    }
  }
  const std::string merge = sortVertex("MergeSplit", K, V);
  for (std::size_t round = 0; round < rounds; ++round) {
    poplar::ComputeSet mcs = graph.addComputeSet(name + "/merge" + std::to_string(round));
    bool any = false;
    for (std::size_t r : spread) {
      const std::vector<Piece> &ps = pieces[r];
      for (std::size_t i = round % 2; i + 1 < ps.size(); i += 2) {
        poplar::VertexRef v = graph.addVertex(mcs, merge);
        graph.setTileMapping(v, ps[i].tile);
        graph.setInitialValue(v["descending"], descending ? 1u : 0u);
        graph.connect(v["lo"], K[r].slice(ps[i].begin, ps[i].end));
        graph.connect(v["hi"], K[r].slice(ps[i + 1].begin, ps[i + 1].end));
        graph.connect(v["tmp"], scratch[r][i].first);
        if (V.valid()) {
          graph.connect(v["loValues"], V[r].slice(ps[i].begin, ps[i].end));
          graph.connect(v["hiValues"], V[r].slice(ps[i + 1].begin, ps[i + 1].end));
          graph.connect(v["tmpValues"], scratch[r][i].second);
        }
        ++vertices;
        any = true;
      }
    }
    if (any)
      prog.add(poplar::program::Execute(mcs, name + "/merge"));
  }
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + std::to_string(rows) + " rows of " + std::to_string(n) +
                                         " elements (" + std::to_string(spread.size()) + " on several tiles, " +
                                         std::to_string(rounds) + " merge rounds), " + std::to_string(vertices) +
                                         " vertices");
}

} // namespace detail

void sortInPlace(poplar::Graph &graph, const Tensor &t, unsigned dim, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "sortInPlace");
  checkSortArgs(t, dim, name, "input");
  detail::sortLastDim(graph, dimLast(t, dim), Tensor(), false, prog, name);
}

Tensor sort(poplar::Graph &graph, const Tensor &t, unsigned dim, poplar::program::Sequence &prog,
            const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "sort");
  checkSortArgs(t, dim, name, "input");
  checkKeyType(t.elementType(), name);
  Tensor out = copyOf(graph, t, prog, name + "/sorted");
  detail::sortLastDim(graph, dimLast(out, dim), Tensor(), false, prog, name);
  return out;
}

void sortKeyValueInPlace(poplar::Graph &graph, const Tensor &k, const Tensor &v, unsigned dim,
                         poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "sortKeyValueInPlace");
  checkSortArgs(k, dim, name, "key");
  checkSortArgs(v, dim, name, "value");
  detail::sortLastDim(graph, dimLast(k, dim), dimLast(v, dim), false, prog, name);
}

Tensor sortKeyValue(poplar::Graph &graph, const Tensor &k, const Tensor &v, unsigned dim,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "sortKeyValue");
  checkSortArgs(k, dim, name, "key");
  checkSortArgs(v, dim, name, "value");
  checkKeyType(k.elementType(), name);
  if (k.shape() != v.shape())
    throw poplibs_error(name + ": the values have a shape other than the keys'; pass values of the keys' shape");
  valueWords(v, name);
  Tensor keys = copyOf(graph, k, prog, name + "/keys"), values = copyOf(graph, v, prog, name + "/values");
  detail::sortLastDim(graph, dimLast(keys, dim), dimLast(values, dim), false, prog, name);
  return values;
}

} // namespace popops
