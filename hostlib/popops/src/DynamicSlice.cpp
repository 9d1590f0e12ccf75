// dynamicSlice, dynamicUpdate, multiSlice and the multiUpdates (popops/DynamicSlice.hpp).
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
#include <set>
#include <tuple>
#include <sstream>

#include <poplar/exceptions.hpp>

#include "log.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "work_split.hpp"

namespace popops {

/// The parameters embedding::plan was given; a default plan has none.
class SlicePlanInternal {
public:
  bool planned = false;
  std::string dataType;
  std::size_t numEntries = 0, outputSize = 0;
  std::vector<std::size_t> numLookups;
  std::map<std::string, std::string> options;
  auto key() const { return std::tie(planned, dataType, numEntries, outputSize, numLookups, options); }
};

SlicePlan::SlicePlan() : internal_(new SlicePlanInternal) {}
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan &other) : internal_(new SlicePlanInternal(*other.internal_)) {}
SlicePlan::SlicePlan(SlicePlan &&other) : internal_(new SlicePlanInternal(*other.internal_)) {}
SlicePlan &SlicePlan::operator=(const SlicePlan &other) {
  *internal_ = *other.internal_;
  return *this;
}
SlicePlan &SlicePlan::operator=(SlicePlan &&other) {
  *internal_ = *other.internal_;
  return *this;
}
SlicePlan::SlicePlan(std::unique_ptr<SlicePlanInternal> internal)
    : internal_(internal ? std::move(internal) : std::unique_ptr<SlicePlanInternal>(new SlicePlanInternal)) {}

std::ostream &operator<<(std::ostream &o, const SlicePlan &p) {
  const SlicePlanInternal &i = *p.internal_;
  if (!i.planned)
    return o << "SlicePlan(default)";
  o << "SlicePlan(" << i.dataType << ", entries " << i.numEntries << ", outputSize " << i.outputSize
    << ", lookups";
  for (std::size_t n : i.numLookups)
    o << " " << n;
  return o << ")";
}
bool operator<(const SlicePlan &a, const SlicePlan &b) { return a.internal_->key() < b.internal_->key(); }
bool operator==(const SlicePlan &a, const SlicePlan &b) { return a.internal_->key() == b.internal_->key(); }
bool operator!=(const SlicePlan &a, const SlicePlan &b) { return !(a == b); }

using poplar::Interval;
using poplar::Tensor;
using poputil::poplibs_error;
namespace plog = poputil::detail;
using Mapping = std::vector<std::vector<Interval> >;

namespace {

std::string opName(const std::string &debugPrefix, const char *fn) {
  return debugPrefix.empty() ? std::string("popops::") + fn : debugPrefix;
}

std::string shapeString(const std::vector<std::size_t> &s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

// Options: name -> allowed values; an empty list means a positive number.
using OptionRules = std::map<std::string, std::vector<std::string> >;

const OptionRules &planOptionRules() {
  static const OptionRules rules = {
      {"usedForSlice", {"true", "false"}},      {"usedForUpdate", {"true", "false"}},
      {"operationForUpdate", {"none", "add", "max"}}, {"availableMemoryProportion", {}},
      {"indicesDistribution", {"uniform", "onePoint"}}, {"planMinimisationTarget", {"memory", "cycles"}},
      {"indicesAreSorted", {"true", "false"}},  {"partialType", {"float", "half"}},
      {"remapOutOfBoundIndices", {"true", "false"}}, {"paddingIndexUsed", {"true", "false"}},
      {"validateIndices", {"true", "false"}}};
  return rules;
}

void checkOptions(const poplar::OptionFlags &options, const OptionRules &rules, const std::string &name) {
  for (const auto &[key, value] : options) {
    auto it = rules.find(key);
    if (it == rules.end()) {
      std::string known;
      for (const auto &r : rules)
        known += (known.empty() ? "" : ", ") + r.first;
      throw poplar::invalid_option(name + ": unknown option '" + key + "' (known: " + known + ")");
    }
    if (it->second.empty()) {
      char *end = nullptr;
      double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(v > 0))
        throw poplar::invalid_option(name + ": option '" + key + "' must be a positive number, not '" + value + "'");
    } else if (std::find(it->second.begin(), it->second.end(), value) == it->second.end()) {
      std::string allowed;
      for (const auto &a : it->second)
        allowed += (allowed.empty() ? "" : ", ") + a;
      throw poplar::invalid_option(name + ": option '" + key + "' cannot be '" + value + "' (allowed: " + allowed +
                                   ")");
    }
  }
}

bool flag(const poplar::OptionFlags &options, const char *key) {
  return options.contains(key) && options.at(key) == "true";
}

// The vertex suffix and the unsigned type of the same size that the copying vertices see a tensor as.
struct CopyType {
  const char *bits;
  poplar::Type as;
};
CopyType copyTypeOf(const poplar::Type &type, const std::string &name) {
  switch (type.getSize()) {
  case 4: return {"32", poplar::UNSIGNED_INT};
  case 2: return {"16", poplar::UNSIGNED_SHORT};
  case 1: return {"8", poplar::UNSIGNED_CHAR};
  default:
    throw poplibs_error(name + ": elements of " + type.toString() + " cannot be sliced; use a type of 1, 2 or 4 "
                               "bytes");
  }
}

// Checks dims/sizes against t's shape: the same count, at least one, distinct, in range, sizes not beyond.
void checkDims(const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes, const std::string &name, const char *sizesWhat = "sizes") {
  if (dims.empty())
    throw poplibs_error(name + ": no dimension to slice; pass at least one entry in dims");
  if (dims.size() != sizes.size())
    throw poplibs_error(name + ": dims has " + std::to_string(dims.size()) + " entries but " + sizesWhat + " has " +
                        std::to_string(sizes.size()) + "; give one size per sliced dimension");
  std::set<std::size_t> seen;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= shape.size())
      throw poplibs_error(name + ": dimension " + std::to_string(dims[i]) + " is out of range for a tensor of shape " +
                          shapeString(shape) + "; dims must be below its rank " + std::to_string(shape.size()));
    if (!seen.insert(dims[i]).second)
      throw poplibs_error(name + ": dimension " + std::to_string(dims[i]) + " appears twice in dims; list each once");
    if (std::string(sizesWhat) == "sizes" && sizes[i] > shape[dims[i]])
      throw poplibs_error(name + ": a slice of " + std::to_string(sizes[i]) + " elements in dimension " +
                          std::to_string(dims[i]) + " is bigger than the dimension (" +
                          std::to_string(shape[dims[i]]) + ") of the tensor of shape " + shapeString(shape) +
                          "; use a size of at most " + std::to_string(shape[dims[i]]));
  }
}

void checkValid(const Tensor &t, const std::string &name, const char *what) {
  if (!t.valid())
    throw poplibs_error(name + ": " + what + " is an invalid (default-constructed) tensor");
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

std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes) {
  for (std::size_t i = 0; i < dims.size(); ++i)
    shape[dims[i]] = sizes[i];
  return shape;
}

// t with `dims` moved to the front (in order) and everything reshaped to [product of dims, the rest].
Tensor rowsView(const Tensor &t, const std::vector<std::size_t> &dims, std::size_t lead = 0) {
  std::vector<unsigned> src, dst;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    src.push_back(unsigned(dims[i] + lead));
    dst.push_back(unsigned(i + lead));
  }
  Tensor moved = t.dimShufflePartial(src, dst);
  std::size_t rows = 1;
  for (std::size_t i = 0; i < dims.size() + lead; ++i)
    rows *= moved.dim(unsigned(i));
  std::size_t cols = rows == 0 ? 0 : t.numElements() / rows;
  return moved.reshape({rows, cols});
}

// Which tile holds which columns of `row` (a rank-1 view); every element must be mapped.
Mapping columnsOf(const poplar::Graph &graph, const Tensor &row, const std::string &name, const char *what) {
  Mapping m = graph.getTileMapping(row, false);
  std::size_t n = 0;
  for (const auto &tile : m)
    for (const auto &i : tile)
      n += i.size();
  if (n != row.numElements())
    throw poplibs_error(name + ": " + what + " has unmapped elements; map it (e.g. poputil::mapTensorLinearly) "
                                             "before the call");
  return m;
}

// Column blocks of at least `grain` columns, one per tile over as many tiles as there are blocks.
Mapping columnBlocks(const poplar::Graph &graph, std::size_t cols, std::size_t grain) {
  const std::size_t tiles = graph.getTarget().getNumTiles();
  grain = std::max<std::size_t>(1, grain);
  std::size_t per = std::max(grain, (cols + tiles - 1) / tiles);
  per = (per + grain - 1) / grain * grain;
  Mapping m(tiles);
  for (std::size_t c = 0, tile = 0; c < cols; c += per, ++tile)
    m[tile % tiles].push_back(Interval(c, std::min(cols, c + per)));
  return m;
}

// Maps every row of rows2 ([R, M]) by the column mapping `cols`.
void mapRowsByColumns(poplar::Graph &graph, const Tensor &rows2, const Mapping &cols) {
  if (rows2.dim(0) == 0)
    return;
  for (unsigned tile = 0; tile < cols.size(); ++tile)
    for (const auto &iv : cols[tile])
      graph.setTileMapping(rows2.slice(iv.begin(), iv.end(), 1), tile);
}

// The vertices of one step over rows: for each tile's columns in `cols`, split over the workers, a vertex of
// `type` with baseT = all rows of base2 and subT = all rows of sub2 for each of its column runs; `extra`
// connects the rest (offsets, scale, plain fields).
template <typename Extra>
std::size_t addRowVertices(poplar::Graph &graph, poplar::ComputeSet &cs, const std::string &type,
                           const Tensor &base2, const Tensor &sub2, const Mapping &cols, Extra extra) {
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const std::size_t n = base2.dim(0), s = sub2.dim(0);
  std::size_t vertices = 0;
  for (unsigned tile = 0; tile < cols.size(); ++tile)
    for (const auto &runs : detail::splitForWorkers(cols[tile], workers)) {
      poplar::VertexRef v = graph.addVertex(cs, type);
      graph.setTileMapping(v, tile);
      ++vertices;
      graph.setFieldSize(v["baseT"], runs.size() * n);
      graph.setFieldSize(v["subT"], runs.size() * s);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        for (std::size_t i = 0; i < n; ++i)
          graph.connect(v["baseT"][r * n + i], base2[i].slice(runs[r].begin(), runs[r].end()));
        for (std::size_t j = 0; j < s; ++j)
          graph.connect(v["subT"][r * s + j], sub2[j].slice(runs[r].begin(), runs[r].end()));
      }
      graph.setInitialValue(v["numBaseElements"], unsigned(n));
      extra(v, tile);
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
  Mapping cols = update ? columnsOf(graph, base2[0], name, "the tensor updated")
                        : columnsOf(graph, sub2[0], name, "the output");
  poplar::ComputeSet cs = graph.addComputeSet(name + (update ? "/update" : "/slice") + std::to_string(dim));
  const std::string type = std::string("popops::") + (update ? "DynamicUpdate" : "DynamicSlice") + ct.bits;
  Tensor off1 = off.reinterpret(poplar::UNSIGNED_INT);
  const unsigned nSub = unsigned(sub2.dim(0));
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, cols, [&](poplar::VertexRef v, unsigned) {
    graph.connect(v["offset"], off1);
    graph.setInitialValue(v["numSubElements"], nSub);
  });
  prog.add(poplar::program::Execute(cs, name));
  logStep(name, update ? "dynamicUpdate" : "dynamicSlice", base2.dim(0), base2.dim(1), vertices);
}

// A new tensor of `shape` whose rows along `dim` are mapped like the columns of `like` along the same dim.
Tensor newRowsLike(poplar::Graph &graph, const Tensor &like, const std::vector<std::size_t> &shape, std::size_t dim,
                   const std::string &name, const char *what) {
  Tensor out = graph.addVariable(like.elementType(), shape, name);
  if (out.numElements() == 0)
    return out;
  Mapping cols = columnsOf(graph, rowsView(like, {dim})[0], name, what);
  mapRowsByColumns(graph, rowsView(out, {dim}), cols);
  return out;
}

void dynamicSliceImpl(poplar::Graph &graph, const Tensor *output, const Tensor &t, const Tensor &offset,
                      const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                      poplar::program::Sequence &prog, const std::string &name, Tensor &result) {
  Tensor cur = t;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    std::vector<std::size_t> shape = cur.shape();
    shape[dims[k]] = sizes[k];
    Tensor next = (k + 1 == dims.size() && output)
                      ? *output
                      : newRowsLike(graph, cur, shape, dims[k], name + "/slice" + std::to_string(k), "the source");
    if (cur.numElements() != 0)
      dynamicStep(graph, cur, next, offset[k], dims[k], false, prog, name);
    cur = next;
  }
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
  Mapping cols = update ? columnsOf(graph, base2[0], name, "the tensor updated")
                        : columnsOf(graph, sub2[0], name, "the output");
  Tensor offs = offsets.reinterpret(poplar::UNSIGNED_INT).flatten();
  poplar::ComputeSet cs = graph.addComputeSet(name);
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, cols, [&](poplar::VertexRef v, unsigned) {
    graph.connect(v["offsets"], offs);
    graph.setInitialValue(v["sliceSize"], unsigned(size));
    if (!update)
      graph.setInitialValue(v["remap"], unsigned(remap));
    if (scale)
      graph.connect(v["scale"], scale->flatten()[0]);
  });
  prog.add(poplar::program::Execute(cs, name));
  logStep(name, type.c_str(), base2.dim(0), base2.dim(1), vertices);
}

void multiUpdateImpl(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                     const Tensor *scale, const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                     poplar::program::Sequence &prog, const poplar::OptionFlags &options, const std::string &name,
                     const char *op) {
  checkMulti(t, offsets, dims, sizes, options, name);
  checkSlices(t, s, offsets, dims, sizes, name);
  if (!t.isParallelWriteable())
    throw poplibs_error(name + ": the tensor updated has aliased elements (a broadcast view?); update a tensor "
                               "whose elements are distinct");
  std::string type;
  poplar::Type viewAs = t.elementType();
  if (std::string(op).empty()) {
    CopyType ct = copyTypeOf(t.elementType(), name);
    type = std::string("popops::MultiUpdate") + ct.bits;
    viewAs = ct.as;
  } else {
    const poplar::Type &et = t.elementType();
    std::string suffix = et == poplar::FLOAT ? "Float" : et == poplar::INT ? "Int"
                         : et == poplar::UNSIGNED_INT ? "Unsigned" : et == poplar::HALF ? "Half" : "";
    if (suffix.empty())
      throw poplibs_error(name + ": " + et.toString() + " is not supported; multiUpdate" + op +
                          " works on FLOAT, HALF, INT and UNSIGNED_INT tensors");
    if (scale) {
      checkValid(*scale, name, "the scale");
      const bool halfFloat = et == poplar::HALF && scale->elementType() == poplar::FLOAT;
      if (scale->numElements() != 1 || (scale->elementType() != et && !halfFloat))
        throw poplibs_error(name + ": the scale must be one element of the base's type (" + et.toString() +
                            (et == poplar::HALF ? " or FLOAT" : "") + "), not " +
                            std::to_string(scale->numElements()) + " of " + scale->elementType().toString());
      if (halfFloat)
        suffix += "FloatScale";
    }
    type = std::string("popops::MultiUpdate") + op + suffix;
  }
  multiStep(graph, t, s, offsets, dims[0], sizes[0], type, true, scale, false, viewAs, prog, name);
}

} // namespace

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             std::size_t minGrainSize, const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceableTensor");
  checkDims(shape, dims, sizes, name);
  Tensor t = graph.addVariable(type, shape, name);
  if (t.numElements() == 0)
    return t;
  Tensor rows = rowsView(t, dims);
  mapRowsByColumns(graph, rows, columnBlocks(graph, rows.dim(1), minGrainSize));
  return t;
}

Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             const SlicePlan &, const poplar::OptionFlags &options, const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceableTensor");
  checkOptions(options, planOptionRules(), name);
  return createSliceableTensor(graph, type, shape, dims, sizes, 0, debugPrefix);
}

Tensor createSliceTensor(poplar::Graph &graph, const Tensor &t, const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes, std::size_t numIndices,
                         const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceTensor");
  checkValid(t, name, "the tensor to be sliced");
  checkDims(t.shape(), dims, sizes, name);
  std::vector<std::size_t> shape = slicedShape(t.shape(), dims, sizes);
  shape.insert(shape.begin(), numIndices);
  Tensor out = graph.addVariable(t.elementType(), shape, name);
  if (out.numElements() == 0 || t.numElements() == 0)
    return out;
  Mapping cols = columnsOf(graph, rowsView(t, dims)[0], name, "the tensor to be sliced");
  mapRowsByColumns(graph, rowsView(out, dims, 1), cols);
  return out;
}

Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                         const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                         std::size_t numIndices, const SlicePlan &, const poplar::OptionFlags &options,
                         const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceTensor");
  checkOptions(options, planOptionRules(), name);
  checkDims(shape, dims, sizes, name);
  std::vector<std::size_t> outShape = slicedShape(shape, dims, sizes);
  outShape.insert(outShape.begin(), numIndices);
  Tensor out = graph.addVariable(type, outShape, name);
  if (out.numElements() == 0)
    return out;
  Tensor rows = rowsView(out, dims, 1);
  // The same column blocks as createSliceableTensor gives the base, so slices stay on the base's tiles.
  mapRowsByColumns(graph, rows, columnBlocks(graph, rows.dim(1), 0));
  return out;
}

Tensor createIndicesTensor(poplar::Graph &graph, const std::vector<std::size_t> &dims, std::size_t numIndices,
                           const SlicePlan &, const poplar::OptionFlags &options, const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createIndicesTensor");
  checkOptions(options, planOptionRules(), name);
  if (dims.empty())
    throw poplibs_error(name + ": no dimension; pass the dimensions the indices will slice");
  Tensor t = graph.addVariable(poplar::UNSIGNED_INT, {numIndices, dims.size()}, name);
  if (t.numElements() != 0)
    poputil::mapTensorLinearly(graph, t, 1, unsigned(dims.size()));
  return t;
}

Tensor createSliceableTensorFromSlice(poplar::Graph &graph, const Tensor &s, const std::vector<std::size_t> &dims,
                                      const std::vector<std::size_t> &numSlices, const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceableTensorFromSlice");
  checkValid(s, name, "the reference slice");
  checkDims(s.shape(), dims, numSlices, name, "numSlices");
  std::vector<std::size_t> shape = s.shape();
  std::size_t copies = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    shape[dims[i]] *= numSlices[i];
    copies *= numSlices[i];
  }
  Tensor t = graph.addVariable(s.elementType(), shape, name);
  if (t.numElements() == 0)
    return t;
  Mapping m = columnsOf(graph, s.flatten(), name, "the reference slice");
  for (std::size_t c = 0; c < copies; ++c) {
    std::vector<std::size_t> begin(shape.size(), 0), end = shape;
    std::size_t rest = c;
    for (std::size_t i = dims.size(); i-- > 0;) {
      std::size_t idx = rest % numSlices[i], d = dims[i];
      rest /= numSlices[i];
      begin[d] = idx * s.dim(unsigned(d));
      end[d] = begin[d] + s.dim(unsigned(d));
    }
    Tensor piece = t.slice(begin, end).flatten();
    for (unsigned tile = 0; tile < m.size(); ++tile)
      for (const auto &iv : m[tile])
        graph.setTileMapping(piece.slice(iv.begin(), iv.end()), tile);
  }
  return t;
}

Tensor dynamicSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offset, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                    const std::string &debugPrefix, const poplar::OptionFlags &options) {
  const std::string name = opName(debugPrefix, "dynamicSlice");
  checkSlice(t, offset, dims, sizes, options, name);
  Tensor result;
  dynamicSliceImpl(graph, nullptr, t, offset, dims, sizes, prog, name, result);
  return result;
}

void dynamicSliceWithOutput(poplar::Graph &graph, const Tensor &output, const Tensor &t, const Tensor &offset,
                            const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog, const std::string &debugPrefix,
                            const poplar::OptionFlags &options) {
  const std::string name = opName(debugPrefix, "dynamicSliceWithOutput");
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
                   poplar::program::Sequence &prog, const std::string &debugPrefix,
                   const poplar::OptionFlags &options) {
  const std::string name = opName(debugPrefix, "dynamicUpdate");
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
  if (s.numElements() != 0)
    updateDims(graph, t, s, offset, dims, sizes, 0, prog, name);
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offsets, const std::vector<std::size_t> &dims,
                  const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog, const SlicePlan &,
                  const poplar::OptionFlags &options, const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "multiSlice");
  checkMulti(t, offsets, dims, sizes, options, name);
  const CopyType ct = copyTypeOf(t.elementType(), name);
  Tensor out = createSliceTensor(graph, t, dims, sizes, offsets.dim(0), name + "/out");
  multiStep(graph, t, out, offsets, dims[0], sizes[0], std::string("popops::MultiSlice") + ct.bits, false, nullptr,
            flag(options, "remapOutOfBoundIndices"), ct.as, prog, name);
  return out;
}

Tensor multiSlice(poplar::Graph &graph, const Tensor &t, poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                  poplar::program::Sequence &prog, const std::string &debugPrefix,
                  const poplar::OptionFlags &optionFlags) {
  const std::string name = opName(debugPrefix, "multiSlice");
  checkValid(t, name, "the tensor sliced");
  checkDims(t.shape(), {dim}, {1}, name);
  checkOptions(optionFlags, planOptionRules(), name);
  const bool remap = flag(optionFlags, "remapOutOfBoundIndices");
  Tensor out = createSliceTensor(graph, t, {dim}, {1}, offsets.size(), name + "/out");
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
                 const std::string &debugPrefix) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, dims, sizes, prog, options, opName(debugPrefix, "multiUpdate"), "");
}

void multiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const Tensor &scale, const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                    const std::string &debugPrefix) {
  multiUpdateImpl(graph, t, s, offsets, &scale, dims, sizes, prog, options, opName(debugPrefix, "multiUpdateAdd"),
                  "Add");
}

void multiUpdateMax(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                    const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                    poplar::program::Sequence &prog, const SlicePlan &, const poplar::OptionFlags &options,
                    const std::string &debugPrefix) {
  multiUpdateImpl(graph, t, s, offsets, nullptr, dims, sizes, prog, options, opName(debugPrefix, "multiUpdateMax"),
                  "Max");
}

namespace embedding {

SlicePlan plan(const poplar::Graph &, const poplar::Type &dataType, std::size_t numEntries, std::size_t outputSize,
               const std::vector<std::size_t> &numLookups, const poplar::OptionFlags &options) {
  const std::string name = "popops::embedding::plan";
  checkOptions(options, planOptionRules(), name);
  if (options.contains("usedForSlice") && options.contains("usedForUpdate") &&
      options.at("usedForSlice") == "false" && options.at("usedForUpdate") == "false")
    throw poplar::invalid_option(name + ": usedForSlice and usedForUpdate are both false; the plan must be used "
                                        "for one of them");
  std::unique_ptr<SlicePlanInternal> p(new SlicePlanInternal);
  p->planned = true;
  p->dataType = dataType.toString();
  p->numEntries = numEntries;
  p->outputSize = outputSize;
  p->numLookups = numLookups;
  for (const auto &[k, v] : options)
    p->options[k] = v;
  SlicePlan result(std::move(p));
  if (plog::logEnabled(plog::LogLevel::Debug)) {
    std::ostringstream os;
    os << result;
    plog::log(plog::LogLevel::Debug, name + ": " + os.str());
  }
  return result;
}

} // namespace embedding

} // namespace popops
