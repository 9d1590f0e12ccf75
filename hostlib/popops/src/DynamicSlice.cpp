// dynamicSlice, dynamicUpdate, multiSlice and the multiUpdates, and the tensors laid out for them
// (popops/DynamicSlice.hpp; SlicePlan.cpp holds the plan, slice_util.cpp the shared views and layout).
//
// Every operation works on one sliced dimension at a time, seen as rows: the tensor with that dimension moved to
// the front and the others flattened, [N rows, M columns]. The columns are spread over the tiles where the data
// lives (the result's columns for a slice, the base's for an update); each tile's columns are split over its
// workers and each vertex (codelets/slice_codelets.h) gets, for each of its column runs, all N rows of the base
// and the rows of the slice(s), plus the offset tensor(s), which it reads when the program runs. Slicing several
// dimensions is one compute set per dimension through intermediate tensors; updating several dimensions slices
// the outer dimensions out, updates the inner one and writes the outer ones back.
#include "popops/DynamicSlice.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "broadcast.hpp"
#include "log.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "slice_util.hpp"
#include "vertex_names.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"

namespace popops {

using poplar::Interval;
using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;
using Mapping = std::vector<std::vector<Interval> >;
using detail::checkDims;
using detail::checkOptions;
using detail::checkValid;
using detail::columnBlocks;
using detail::columnsOf;
using detail::flag;
using detail::fromRowsView;
using detail::packedRows;
using detail::planOptionRules;
using detail::rowsView;
using detail::Run;
using detail::runsOf;
using detail::shapeString;
using detail::slicedShape;

namespace {

// The unsigned type of the same size that the copying vertices see a tensor as (their template argument).
struct CopyType {
  poplar::Type as;
};
CopyType copyTypeOf(const poplar::Type &type, const std::string &name) {
  switch (type.getSize()) {
  case 8: return {poplar::UNSIGNED_LONGLONG};
  case 4: return {poplar::UNSIGNED_INT};
  case 2: return {poplar::UNSIGNED_SHORT};
  case 1: return {poplar::UNSIGNED_CHAR};
  default:
    throw poplibs_error(name + ": elements of " + type.toString() + " cannot be sliced; use a type of 1, 2, 4 or 8 "
                               "bytes");
  }
}

// Checks an offsets tensor: valid, INT or UNSIGNED_INT, of the given shape.
void checkOffsets(const Tensor &offsets, const std::vector<std::size_t> &want, const std::string &name,
                  const char *what) {
  checkValid(offsets, name, what);
  if (offsets.elementType() != poplar::UNSIGNED_INT && offsets.elementType() != poplar::INT)
    throw poplibs_error(name + ": " + what + " holds " + offsets.elementType().toString() +
                        "; offsets must be UNSIGNED_INT or INT (popops::cast them)");
  if (offsets.shape() != want)
    throw poplibs_error(name + ": " + what + " has shape " + shapeString(offsets.shape()) + " but shape " +
                        shapeString(want) + " is needed (one offset per sliced dimension" +
                        (want.size() == 2 ? ", one row per slice)" : ")"));
}

// The vertices of one step over rows: for each tile's runs, a vertex of `type` per worker with baseT = the rows
// of base2 and subT = the rows of sub2 of its runs; `extra` connects the rest (offsets, scale, plain fields).
// When every run of a tile is a contiguous block in both tensors, whole runs go to the workers and each is one
// list item (packed); otherwise the runs are split evenly over the workers with one item per row.
//
// multiVertex (dynamicSlice, dynamicUpdate: MultiVertex codelets) puts all of a tile's runs in one vertex whose
// six workers share the columns themselves (slice_codelets.h, forWorkerColumns), as PopLibs' DynamicSlice2D
// vertices share a tile's columns: a tile's contiguous block keeps its one list item per run however many rows
// it has, and still keeps every worker busy.
//
// rowsPerIndex (multiSlice only: its outputs are distinct per index) lets a tile with fewer packed blocks than
// workers also split the indices over the workers; `extra` gets the vertex's index range [k0, k1).
// The most rows (base plus slice) for which a tile's packed blocks are still split over the workers row by row.
constexpr std::size_t kSplitRowsMax = 64;

template <typename Extra>
std::size_t addRowVertices(poplar::Graph &graph, poplar::ComputeSet &cs, const std::string &type,
                           const Tensor &base2, const Tensor &sub2, const std::vector<Run> &runs, Extra extra,
                           std::size_t rowsPerIndex = 0, bool multiVertex = false) {
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const std::size_t n = base2.dim(0), s = sub2.dim(0);
  std::map<unsigned, std::vector<Interval> > byTile;
  for (const Run &r : runs)
    byTile[r.tile].push_back(r.cols);
  std::size_t vertices = 0;
  for (const auto &[tile, cols] : byTile) {
    bool packed = true;
    for (const Interval &c : cols)
      packed = packed && base2.slice(c, 1).isContiguous() && sub2.slice(c, 1).isContiguous();
    const std::size_t numIdx = rowsPerIndex ? s / rowsPerIndex : 0;
    // A tile with fewer packed blocks than workers (the sliceable layout has one per tile) and few rows: its
    // columns are split over all workers with one list item per row, which keeps every worker busy for a few
    // more edges; with many rows, whole blocks keep the vertex lists short.
    if (packed && !rowsPerIndex && !multiVertex && cols.size() < workers && n + s <= kSplitRowsMax)
      packed = false;
    if (packed && rowsPerIndex && cols.size() < workers && numIdx > 1) {
      const std::size_t chunks = std::min<std::size_t>(std::max<std::size_t>(1, workers / cols.size()), numIdx);
      for (const Interval &c : cols)
        for (std::size_t ch = 0; ch < chunks; ++ch) {
          const std::size_t k0 = ch * numIdx / chunks, k1 = (ch + 1) * numIdx / chunks;
          poplar::VertexRef v = graph.addVertex(cs, type);
          graph.setTileMapping(v, tile);
          ++vertices;
          graph.setFieldSize(v["baseT"], 1);
          graph.setFieldSize(v["subT"], 1);
          graph.connect(v["baseT"][0], base2.slice(c, 1).flatten());
          graph.connect(v["subT"][0], sub2.slice(k0 * rowsPerIndex, k1 * rowsPerIndex, 0).slice(c, 1).flatten());
          graph.setInitialValue(v["numBaseElements"], unsigned(n));
          graph.setInitialValue(v["packed"], 1u);
          extra(v, tile, k0, k1);
        }
      continue;
    }
    std::vector<std::vector<Interval> > groups;
    if (multiVertex) {
      groups.push_back(cols);
    } else if (packed) {
      groups.resize(std::min<std::size_t>(workers, cols.size()));
      for (std::size_t i = 0; i < cols.size(); ++i)
        groups[i * groups.size() / cols.size()].push_back(cols[i]);
    } else {
      groups = poplibs_support::splitForWorkers(cols, workers);
    }
    for (const auto &group : groups) {
      poplar::VertexRef v = graph.addVertex(cs, type);
      graph.setTileMapping(v, tile);
      ++vertices;
      graph.setFieldSize(v["baseT"], group.size() * (packed ? 1 : n));
      graph.setFieldSize(v["subT"], group.size() * (packed ? 1 : s));
      for (std::size_t r = 0; r < group.size(); ++r) {
        if (packed) {
          graph.connect(v["baseT"][r], base2.slice(group[r], 1).flatten());
          graph.connect(v["subT"][r], sub2.slice(group[r], 1).flatten());
          continue;
        }
        for (std::size_t i = 0; i < n; ++i)
          graph.connect(v["baseT"][r * n + i], base2[i].slice(group[r].begin(), group[r].end()));
        for (std::size_t j = 0; j < s; ++j)
          graph.connect(v["subT"][r * s + j], sub2[j].slice(group[r].begin(), group[r].end()));
      }
      graph.setInitialValue(v["numBaseElements"], unsigned(n));
      graph.setInitialValue(v["packed"], unsigned(packed));
      extra(v, tile, std::size_t(0), numIdx);
    }
  }
  return vertices;
}

void logStep(const std::string &name, const char *what, std::size_t rows, std::size_t cols, std::size_t vertices) {
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + what + " over " + std::to_string(rows) + " rows of " +
                                         std::to_string(cols) + " columns, " + std::to_string(vertices) +
                                         " vertices");
}

// One dynamic slice (update=false: sub = base rows at off) or update (base rows at off = sub) along `dim`.
void dynamicStep(poplar::Graph &graph, const Tensor &base, const Tensor &sub, const Tensor &off, std::size_t dim,
                 bool update, poplar::program::Sequence &prog, const std::string &name) {
  if (sub.numElements() == 0)
    return;
  const CopyType ct = copyTypeOf(base.elementType(), name);
  Tensor base2 = rowsView(base.reinterpret(ct.as), {dim});
  Tensor sub2 = rowsView(sub.reinterpret(ct.as), {dim});
  std::vector<Run> runs = update ? runsOf(graph, base2[0], {base2[0], sub2[0]}, name, "the tensor updated")
                                 : runsOf(graph, sub2[0], {base2[0], sub2[0]}, name, "the output");
  // Named as Graphcore names its steps (dynamicSlice_d<dim>/slice), which tools and tests look for.
  poplar::ComputeSet cs = graph.addComputeSet(name + (update ? "/dynamicUpdate_d" : "/dynamicSlice_d") +
                                              std::to_string(dim) + (update ? "/update" : "/slice"));
  const std::string type =
      poputil::detail::templateVertex(update ? "popops::DynamicUpdate" : "popops::DynamicSlice", {ct.as});
  Tensor off1 = off.reinterpret(poplar::UNSIGNED_INT);
  const unsigned nSub = unsigned(sub2.dim(0));
  auto extra = [&](poplar::VertexRef v, unsigned, std::size_t, std::size_t) {
    graph.connect(v["offset"], off1);
    graph.setInitialValue(v["numSubElements"], nSub);
  };
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, runs, extra, 0, true);
  prog.add(poplar::program::Execute(cs, name));
  logStep(name, update ? "dynamicUpdate" : "dynamicSlice", base2.dim(0), base2.dim(1), vertices);
}

// A new tensor of `shape` whose rows along `dim` are laid out in packed blocks on the tiles that hold the same
// columns of `like` (the same shape but for `dim`).
Tensor newRowsLike(poplar::Graph &graph, const Tensor &like, const std::vector<std::size_t> &shape, std::size_t dim,
                   const std::string &name, const char *what) {
  Tensor likeRows = rowsView(like, {dim});
  std::vector<Run> runs;
  if (like.numElements() != 0)
    runs = runsOf(graph, likeRows[0], {likeRows[0]}, name, what);
  Tensor out2 = packedRows(graph, like.elementType(), shape[dim], runs, likeRows.dim(1), name);
  return fromRowsView(out2, shape, {dim});
}

void dynamicSliceImpl(poplar::Graph &graph, const Tensor *output, const Tensor &t, const Tensor &offset,
                      const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                      poplar::program::Sequence &prog, const std::string &name, Tensor &result) {
  if (dims.empty()) { // a slice over no dimension is the whole tensor, copied
    result = output ? *output : graph.clone(t, name + "/whole");
    if (t.numElements() != 0)
      prog.add(poplar::program::Copy(t, result, false, name));
    detail::copyQuarterMetadata(t, result, prog, name);
    return;
  }
  // The dimension that shrinks most goes first, so that later steps move less data.
  std::vector<std::size_t> order(dims.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    // shape[a] / sizes[a] > shape[b] / sizes[b], in integers (a zero size shrinks most).
    return t.dim(unsigned(dims[a])) * sizes[b] > t.dim(unsigned(dims[b])) * sizes[a];
  });
  Tensor cur = t;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t k = order[i];
    std::vector<std::size_t> shape = cur.shape();
    shape[dims[k]] = sizes[k];
    Tensor next = (i + 1 == order.size() && output)
                      ? *output
                      : newRowsLike(graph, cur, shape, dims[k], name + "/slice" + std::to_string(k), "the source");
    if (cur.numElements() != 0)
      dynamicStep(graph, cur, next, offset[k], dims[k], false, prog, name);
    cur = next;
  }
  detail::copyQuarterMetadata(t, cur, prog, name);
  result = cur;
}

void checkSlice(const Tensor &t, const Tensor &offset, const std::vector<std::size_t> &dims,
                const std::vector<std::size_t> &sizes, const poplar::OptionFlags &options, const std::string &name) {
  checkValid(t, name, "the tensor sliced");
  checkDims(t.shape(), dims, sizes, name);
  checkOffsets(offset, {dims.size()}, name, "the offset tensor");
  checkOptions(options, {{"remapOutOfBoundIndices", {"true", "false"}}, {"paddingIndexUsed", {"true", "false"}}},
               name);
}

// Update of `t` along dims[k..] with `s` at the offsets: slice the outer dims out, update inner, write back.
void updateDims(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offset,
                const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes, std::size_t k,
                poplar::program::Sequence &prog, const std::string &name) {
  if (k + 1 == dims.size()) {
    dynamicStep(graph, t, s, offset[k], dims[k], true, prog, name);
    return;
  }
  std::vector<std::size_t> shape = t.shape();
  shape[dims[k]] = sizes[k];
  Tensor part = newRowsLike(graph, t, shape, dims[k], name + "/part" + std::to_string(k), "the tensor updated");
  dynamicStep(graph, t, part, offset[k], dims[k], false, prog, name);
  updateDims(graph, part, s, offset, dims, sizes, k + 1, prog, name);
  dynamicStep(graph, t, part, offset[k], dims[k], true, prog, name);
}

// The "validateIndices" option: a run whose offsets reach past dimension `dim` of t stops with an error (an
// AbortOnCondition on "some offset >= the size", computed on the device) instead of reading or writing nothing.
void validateIndices(poplar::Graph &graph, const Tensor &t, const Tensor &offsets, std::size_t dim,
                     poplar::program::Sequence &prog, const poplar::OptionFlags &options, const std::string &name) {
  if (!flag(options, "validateIndices") || offsets.numElements() == 0)
    return;
  namespace pe = popops::expr;
  // Negative INT offsets seen as UNSIGNED_INT are huge, so one comparison catches both ends.
  Tensor bad = popops::map(graph, pe::Gte(pe::_1, pe::Const(unsigned(t.dim(unsigned(dim))))),
                           {offsets.reinterpret(poplar::UNSIGNED_INT).flatten()}, prog, name + "/validate");
  Tensor any = popops::reduce(graph, bad, {0}, {popops::Operation::LOGICAL_OR}, prog, name + "/validate");
  prog.add(poplar::program::AbortOnCondition(any, name + ": an index is out of range (validateIndices)"));
}

// Checks of the multi operations: one sliced dimension, offsets [n, 1], the slices' shape.
void checkMulti(const Tensor &t, const Tensor &offsets, const std::vector<std::size_t> &dims,
                const std::vector<std::size_t> &sizes, const poplar::OptionFlags &options, const std::string &name) {
  checkValid(t, name, "the base tensor");
  checkDims(t.shape(), dims, sizes, name);
  if (dims.size() != 1)
    throw poplibs_error(name + ": " + std::to_string(dims.size()) + " sliced dimensions; the multi-slice operations "
                               "slice one dimension (pass dims = {d}, sizes = {n}; reshape to merge dimensions)");
  checkValid(offsets, name, "the offsets tensor");
  if (offsets.rank() != 2)
    throw poplibs_error(name + ": the offsets tensor has rank " + std::to_string(offsets.rank()) +
                        "; it must be [numIndices, dims.size()] (createIndicesTensor makes one)");
  checkOffsets(offsets, {offsets.dim(0), 1}, name, "the offsets tensor");
  checkOptions(options, planOptionRules(), name);
}

void checkSlices(const Tensor &t, const Tensor &s, const Tensor &offsets, const std::vector<std::size_t> &dims,
                 const std::vector<std::size_t> &sizes, const std::string &name) {
  checkValid(s, name, "the slices tensor");
  std::vector<std::size_t> want = slicedShape(t.shape(), dims, sizes);
  want.insert(want.begin(), offsets.dim(0));
  if (s.shape() != want)
    throw poplibs_error(name + ": the slices have shape " + shapeString(s.shape()) + " but shape " +
                        shapeString(want) + " is needed ([numIndices] + the base's shape with the sliced size)");
  if (s.elementType() != t.elementType())
    throw poplibs_error(name + ": the slices hold " + s.elementType().toString() + " but the base holds " +
                        t.elementType().toString() + "; cast one of them");
}

// The multi operations' vertices: `type` over base rows along dims[0] and the slices' rows [n * size, M].
void multiStep(poplar::Graph &graph, const Tensor &base, const Tensor &slices, const Tensor &offsets,
               std::size_t dim, std::size_t size, const std::string &type, bool update, const Tensor *scale,
               bool remap, const poplar::Type &viewAs, poplar::program::Sequence &prog, const std::string &name) {
  if (slices.numElements() == 0 || base.numElements() == 0)
    return;
  Tensor base2 = rowsView(base.reinterpret(viewAs), {dim});
  // slices [n, ..., size at dim + 1, ...] -> [n * size, M] with the columns in the base's order.
  Tensor sub2 = rowsView(slices.reinterpret(viewAs), {dim}, 1);
  std::vector<Run> runs = update ? runsOf(graph, base2[0], {base2[0], sub2[0]}, name, "the tensor updated")
                                 : runsOf(graph, sub2[0], {base2[0], sub2[0]}, name, "the output");
  Tensor offs = offsets.reinterpret(poplar::UNSIGNED_INT).flatten();
  poplar::ComputeSet cs = graph.addComputeSet(name);
  auto extra = [&](poplar::VertexRef v, unsigned, std::size_t k0, std::size_t k1) {
    graph.connect(v["offsets"], update ? offs : offs.slice(k0, k1));
    graph.setInitialValue(v["sliceSize"], unsigned(size));
    graph.setInitialValue(v["remap"], unsigned(remap));
    if (scale)
      graph.connect(v["scale"], scale->flatten()[0]);
  };
  // The multiUpdates are MultiVertices (one per tile, its workers sharing the columns); multiSlice splits its
  // indices over vertices instead.
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, runs, extra, update ? 0 : size, update);
  prog.add(poplar::program::Execute(cs, name));
  logStep(name, type.c_str(), base2.dim(0), base2.dim(1), vertices);
}

void multiUpdateImpl(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                     const Tensor *scale, const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                     poplar::program::Sequence &prog, const poplar::OptionFlags &options, const std::string &name,
                     const char *op) {
  checkMulti(t, offsets, dims, sizes, options, name);
  checkSlices(t, s, offsets, dims, sizes, name);
  validateIndices(graph, t, offsets, dims[0], prog, options, name);
  if (!t.isParallelWriteable())
    throw poplibs_error(name + ": the tensor updated has aliased elements (a broadcast view?); update a tensor "
                               "whose elements are distinct");
  std::string type;
  poplar::Type viewAs = t.elementType();
  if (std::string(op).empty()) {
    CopyType ct = copyTypeOf(t.elementType(), name);
    type = poputil::detail::templateVertex("popops::MultiUpdate", {ct.as});
    viewAs = ct.as;
  } else {
    const poplar::Type &et = t.elementType();
    if (et != poplar::FLOAT && et != poplar::INT && et != poplar::UNSIGNED_INT && et != poplar::HALF)
      throw poplibs_error(name + ": " + et.toString() + " is not supported; multiUpdate" + op +
                          " works on FLOAT, HALF, INT and UNSIGNED_INT tensors");
    if (scale) {
      checkValid(*scale, name, "the scale");
      const bool halfFloat = et == poplar::HALF && scale->elementType() == poplar::FLOAT;
      if (scale->numElements() != 1 || (scale->elementType() != et && !halfFloat))
        throw poplibs_error(name + ": the scale must be one element of the base's type (" + et.toString() +
                            (et == poplar::HALF ? " or FLOAT" : "") + "), not " +
                            std::to_string(scale->numElements()) + " of " + scale->elementType().toString());
      // MultiUpdateAdd<T, S>: the scale of the base's type, or FLOAT for a HALF base.
      type = poputil::detail::templateVertex(std::string("popops::MultiUpdate") + op, {et, scale->elementType()});
    } else {
      // MultiUpdateMax<T>, MultiUpdateMul<T>
      type = poputil::detail::templateVertex(std::string("popops::MultiUpdate") + op, {et});
    }
  }
  multiStep(graph, t, s, offsets, dims[0], sizes[0], type, true, scale, flag(options, "remapOutOfBoundIndices"), viewAs,
            prog, name);
}

} // namespace

Tensor detail::sliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                               const std::vector<std::size_t> &dims, std::size_t minGrainSize,
                               const std::string &name, const Tensor &metadata) {
  std::size_t rows = 1, total = 1;
  for (std::size_t d : dims)
    rows *= shape[d];
  for (std::size_t d : shape)
    total *= d;
  const std::size_t cols = rows == 0 ? 0 : total / rows;
  Tensor t2 = packedRows(graph, type, rows, columnBlocks(graph, cols, minGrainSize), cols, name, metadata);
  return fromRowsView(t2, shape, dims);
}

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             std::size_t minGrainSize, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createSliceableTensor");
  checkDims(shape, dims, sizes, name);
  return detail::sliceableTensor(graph, type, shape, dims, minGrainSize, name, Tensor());
}

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             const SlicePlan &, const poplar::OptionFlags &options,
                             const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createSliceableTensor");
  checkOptions(options, planOptionRules(), name);
  return createSliceableTensor(graph, type, shape, dims, sizes, 0, debugContext);
}

Tensor createSliceTensor(poplar::Graph &graph, const Tensor &t, const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes, std::size_t numIndices,
                         const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createSliceTensor");
  checkValid(t, name, "the tensor to be sliced");
  checkDims(t.shape(), dims, sizes, name);
  std::vector<std::size_t> shape = slicedShape(t.shape(), dims, sizes);
  shape.insert(shape.begin(), numIndices);
  Tensor tRows = rowsView(t, dims);
  std::size_t rows = numIndices;
  for (std::size_t sz : sizes)
    rows *= sz;
  std::vector<Run> runs;
  if (t.numElements() != 0)
    runs = runsOf(graph, tRows[0], {tRows[0]}, name, "the tensor to be sliced");
  Tensor out2 = packedRows(graph, t.elementType(), rows, runs, tRows.dim(1), name);
  return fromRowsView(out2, shape, dims, 1);
}

Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                         const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                         std::size_t numIndices, const SlicePlan &, const poplar::OptionFlags &options,
                         const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createSliceTensor");
  checkOptions(options, planOptionRules(), name);
  checkDims(shape, dims, sizes, name);
  return detail::sliceTensorOf(graph, type, shape, dims, sizes, numIndices, name, Tensor());
}

Tensor detail::sliceTensorOf(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             std::size_t numIndices, const std::string &name, const Tensor &metadata) {
  std::vector<std::size_t> outShape = slicedShape(shape, dims, sizes);
  outShape.insert(outShape.begin(), numIndices);
  std::size_t rows = numIndices, baseRows = 1, total = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    rows *= sizes[i];
    baseRows *= shape[dims[i]];
  }
  for (std::size_t d : shape)
    total *= d;
  const std::size_t cols = baseRows == 0 ? 0 : total / baseRows;
  // The same column blocks as createSliceableTensor gives the base, so slices stay on the base's tiles.
  Tensor out2 = packedRows(graph, type, rows, columnBlocks(graph, cols, 0), cols, name, metadata);
  return fromRowsView(out2, outShape, dims, 1);
}

Tensor createIndicesTensor(poplar::Graph &graph, const std::vector<std::size_t> &dims, std::size_t numIndices,
                           const SlicePlan &, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createIndicesTensor");
  checkOptions(options, planOptionRules(), name);
  if (dims.empty())
    throw poplibs_error(name + ": no dimension; pass the dimensions the indices will slice");
  Tensor t = graph.addVariable(poplar::UNSIGNED_INT, {numIndices, dims.size()}, name);
  if (t.numElements() != 0)
    poputil::mapTensorLinearly(graph, t, 1, unsigned(dims.size()));
  return t;
}

Tensor createSliceableTensorFromSlice(poplar::Graph &graph, const Tensor &s, const std::vector<std::size_t> &dims,
                                      const std::vector<std::size_t> &numSlices,
                                      const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createSliceableTensorFromSlice");
  checkValid(s, name, "the reference slice");
  checkDims(s.shape(), dims, numSlices, name, "numSlices");
  std::vector<std::size_t> shape = s.shape();
  std::size_t copies = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    shape[dims[i]] *= numSlices[i];
    copies *= numSlices[i];
  }
  if (s.numElements() == 0)
    return graph.addVariable(s.elementType(), shape, name);
  // Each copy of the slice follows the slice's own memory order: its elements sorted by (tile, variable, offset)
  // are laid out contiguously, one block per tile, so that each copy reordered like the slice is one region per
  // tile (what Graphcore documents for this function).
  const Tensor flat = s.flatten();
  const std::size_t n = flat.numElements();
  Mapping m = columnsOf(graph, flat, name, "the reference slice");
  std::vector<unsigned> tileOf(n);
  for (unsigned tile = 0; tile < m.size(); ++tile)
    for (const auto &iv : m[tile])
      for (std::size_t j = iv.begin(); j < iv.end(); ++j)
        tileOf[j] = tile;
  struct Where {
    unsigned tile, var;
    std::size_t offset, element;
  };
  std::vector<Where> order;
  order.reserve(n);
  std::size_t at = 0;
  for (const auto &r : flat.getVarRegions())
    for (std::size_t o = r.interval.begin(); o < r.interval.end(); ++o, ++at)
      order.push_back({tileOf[at], r.var.id, o, at});
  std::sort(order.begin(), order.end(), [](const Where &x, const Where &y) {
    return std::tie(x.tile, x.var, x.offset) < std::tie(y.tile, y.var, y.offset);
  });
  std::vector<std::size_t> slot(n); // slot[element] = its position in a copy's storage
  for (std::size_t k = 0; k < n; ++k)
    slot[order[k].element] = k;
  Tensor storage = graph.addVariable(s.elementType(), {copies, n}, name);
  for (std::size_t c = 0; c < copies; ++c)
    for (std::size_t k = 0, e; k < n; k = e) {
      for (e = k + 1; e < n && order[e].tile == order[k].tile;)
        ++e;
      graph.setTileMapping(storage[c].slice(k, e), order[k].tile);
    }
  // A copy in the slice's element order: the runs of consecutive slots, as views of its storage row.
  auto copyView = [&](std::size_t c) {
    std::vector<Tensor> runs;
    for (std::size_t j = 0, e; j < n; j = e) {
      for (e = j + 1; e < n && slot[e] == slot[e - 1] + 1;)
        ++e;
      runs.push_back(storage[c].slice(slot[j], slot[j] + (e - j)));
    }
    return poplar::concat(runs).reshape(s.shape());
  };
  // Copies in row-major order of their index over dims; concatenating along the last listed dimension first.
  std::vector<Tensor> level;
  for (std::size_t c = 0; c < copies; ++c)
    level.push_back(copyView(c));
  for (std::size_t i = dims.size(); i-- > 0;) {
    std::vector<Tensor> next;
    for (std::size_t g = 0; g < level.size(); g += numSlices[i])
      next.push_back(poplar::concat(std::vector<Tensor>(level.begin() + long(g), level.begin() + long(g + numSlices[i])),
                                    unsigned(dims[i])));
    level = std::move(next);
  }
  return level[0];
}

Tensor dynamicSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offset, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "dynamicSlice");
  checkSlice(t, offset, dims, sizes, options, name);
  Tensor result;
  dynamicSliceImpl(graph, nullptr, t, offset, dims, sizes, prog, name, result);
  return result;
}

Tensor createDynamicSliceOutput(poplar::Graph &graph, const Tensor &t, const Tensor &offset,
                                const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                                const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "createDynamicSliceOutput");
  checkSlice(t, offset, dims, sizes, options, name);
  // One slice of createSliceTensor's layout: the rows dynamicSlice's last step writes sit on the tiles of the
  // columns they come from, as here.
  return createSliceTensor(graph, t, dims, sizes, 1, {debugContext, "createDynamicSliceOutput"}).squeeze({0});
}

void dynamicSliceWithOutput(poplar::Graph &graph, const Tensor &output, const Tensor &t, const Tensor &offset,
                            const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                            const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "dynamicSliceWithOutput");
  checkSlice(t, offset, dims, sizes, options, name);
  checkValid(output, name, "the output");
  std::vector<std::size_t> want = slicedShape(t.shape(), dims, sizes);
  if (output.shape() != want || output.elementType() != t.elementType())
    throw poplibs_error(name + ": the output is " + output.elementType().toString() + " " +
                        shapeString(output.shape()) + " but the slice is " + t.elementType().toString() + " " +
                        shapeString(want) + "; pass an output of the slice's type and shape (createSliceTensor)");
  if (!output.isParallelWriteable())
    throw poplibs_error(name + ": the output has aliased elements; write into a tensor whose elements are distinct");
  Tensor result;
  dynamicSliceImpl(graph, &output, t, offset, dims, sizes, prog, name, result);
}

poplar::TileToTensorMapping getSliceMapping(poplar::Graph &graph, const Tensor &t, const std::vector<std::size_t> &dims,
                                            const std::vector<std::size_t> &sizes) {
  const std::string name = "popops::getSliceMapping";
  checkValid(t, name, "the tensor");
  checkDims(t.shape(), dims, sizes, name);
  std::vector<std::size_t> begin(t.rank(), 0);
  return graph.getTileMapping(t.slice(begin, slicedShape(t.shape(), dims, sizes)), false);
}

void dynamicUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offset,
                   const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "dynamicUpdate");
  checkSlice(t, offset, dims, sizes, options, name);
  checkValid(s, name, "the update");
  std::vector<std::size_t> want = slicedShape(t.shape(), dims, sizes);
  if (s.shape() != want || s.elementType() != t.elementType())
    throw poplibs_error(name + ": the update is " + s.elementType().toString() + " " + shapeString(s.shape()) +
                        " but the slice of the tensor is " + t.elementType().toString() + " " + shapeString(want) +
                        "; pass an update of the slice's type and shape");
  if (!t.isParallelWriteable())
    throw poplibs_error(name + ": the tensor updated has aliased elements (a broadcast view?); update a tensor "
                               "whose elements are distinct");
  if (s.numElements() == 0)
    return;
  if (dims.empty()) // an update over no dimension replaces the whole tensor
    prog.add(poplar::program::Copy(s, t, false, name));
  else
    updateDims(graph, t, s, offset, dims, sizes, 0, prog, name);
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offsets, const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog, const SlicePlan &,
                  const poplar::OptionFlags &options, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "multiSlice");
  checkMulti(t, offsets, dims, sizes, options, name);
  const CopyType ct = copyTypeOf(t.elementType(), name);
  validateIndices(graph, t, offsets, dims[0], prog, options, name);
  Tensor out = createSliceTensor(graph, t, dims, sizes, offsets.dim(0), name + "/out");
  multiStep(graph, t, out, offsets, dims[0], sizes[0], poputil::detail::templateVertex("popops::MultiSlice", {ct.as}),
            false, nullptr, flag(options, "remapOutOfBoundIndices"), ct.as, prog, name);
  detail::copyQuarterMetadata(t, out, prog, name);
  return out;
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                  poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                  const poplar::OptionFlags &optionFlags) {
  const std::string name = opName(debugContext, "multiSlice");
  checkValid(t, name, "the tensor sliced");
  checkDims(t.shape(), {dim}, {1}, name);
  checkOptions(optionFlags, planOptionRules(), name);
  const bool remap = flag(optionFlags, "remapOutOfBoundIndices");
  Tensor out = createSliceTensor(graph, t, {dim}, {1}, offsets.size(), name + "/out");
  detail::copyQuarterMetadata(t, out, prog, name);
  if (out.numElements() == 0)
    return out;
  std::vector<Tensor> sources;
  Tensor zeros;
  for (unsigned off : offsets) {
    if (off >= t.dim(unsigned(dim)) && remap)
      off = 0;
    if (off < t.dim(unsigned(dim))) {
      sources.push_back(t.slice(off, off + 1, unsigned(dim)).expand({0}));
      continue;
    }
    if (!zeros.valid()) {
      zeros = graph.addConstant(t.elementType(), out[0].expand({0}).shape(), 0, name + "/zeros");
      graph.setTileMapping(zeros, graph.getTileMapping(out[0]));
    }
    sources.push_back(zeros);
  }
  prog.add(poplar::program::Copy(poplar::concat(sources, 0), out, false, name));
  return out;
}

void multiUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                 const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                 poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                 const poplar::DebugContext &debugContext) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, dims, sizes, prog, options, opName(debugContext, "multiUpdate"), "");
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets, const Tensor &scale,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  multiUpdateImpl(graph, t, s, offsets, &scale, dims, sizes, prog, options, opName(debugContext, "multiUpdateAdd"),
                  "Add");
}

void multiUpdateMax(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, dims, sizes, prog, options, opName(debugContext, "multiUpdateMax"),
                  "Max");
}

void multiUpdateMul(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                    const poplar::DebugContext &debugContext) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, dims, sizes, prog, options, opName(debugContext, "multiUpdateMul"),
                  "Mul");
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s, poplar::ArrayRef<unsigned> offsets,
                    const Tensor &scale, std::size_t dim, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext, const poplar::OptionFlags &optionFlags) {
  // The offsets are known now: hold them as a constant and use the device form (one vertex pass either way).
  const std::string name = opName(debugContext, "multiUpdateAdd");
  checkValid(t, name, "the tensor updated");
  const std::vector<unsigned> values(offsets.data(), offsets.data() + offsets.size());
  Tensor offs = graph.addConstant(poplar::UNSIGNED_INT, {values.size(), std::size_t(1)}, values, name + "/offsets");
  graph.setTileMapping(offs, 0);
  multiUpdateImpl(graph, t, s, offs, &scale, {dim}, {1}, prog, optionFlags, name, "Add");
}

} // namespace popops
