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

// A run of columns on one tile.
struct Run {
  Interval cols;
  unsigned tile;
};

// The column runs of rows2 ([R, M]) by the tile mapping of its row 0, each tile's intervals also cut where a row
// of `cutBy` (rank-1 views of M elements) stops being contiguous in memory; in column order.
std::vector<Run> runsOf(const poplar::Graph &graph, const Tensor &row, const std::vector<Tensor> &cutBy,
                        const std::string &name, const char *what) {
  Mapping m = columnsOf(graph, row, name, what);
  std::vector<std::size_t> cuts;
  for (const Tensor &c : cutBy)
    for (const Interval &iv : c.getContiguousRegions())
      cuts.push_back(iv.begin());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<Run> runs;
  for (unsigned tile = 0; tile < m.size(); ++tile)
    for (const Interval &iv : m[tile]) {
      std::size_t b = iv.begin();
      for (auto it = std::upper_bound(cuts.begin(), cuts.end(), b); it != cuts.end() && *it < iv.end(); ++it) {
        runs.push_back({Interval(b, *it), tile});
        b = *it;
      }
      runs.push_back({Interval(b, iv.end()), tile});
    }
  std::sort(runs.begin(), runs.end(), [](const Run &a, const Run &b) { return a.cols.begin() < b.cols.begin(); });
  return runs;
}

// Column blocks for a new sliceable layout: one span of at least `grain` columns per tile, cut into up to one
// block per worker so that each worker gets a whole block.
std::vector<Run> columnBlocks(const poplar::Graph &graph, std::size_t cols, std::size_t grain) {
  const std::size_t tiles = graph.getTarget().getNumTiles(), workers = graph.getTarget().getNumWorkerContexts();
  grain = std::max<std::size_t>(1, grain);
  std::size_t per = std::max(grain, (cols + tiles - 1) / tiles);
  per = (per + grain - 1) / grain * grain;
  std::vector<Run> runs;
  for (std::size_t c = 0, tile = 0; c < cols; c += per, ++tile) {
    const std::size_t end = std::min(cols, c + per), grains = (end - c + grain - 1) / grain;
    const std::size_t blocks = std::min(workers, grains), perBlock = (grains + blocks - 1) / blocks * grain;
    for (std::size_t b = c; b < end; b += perBlock)
      runs.push_back({Interval(b, std::min(end, b + perBlock)), unsigned(tile % tiles)});
  }
  return runs;
}

// A new [rows, cols] tensor of one variable in which each run's [rows, run width] block is contiguous (row-major)
// and mapped to the run's tile: the layout whose regions the vertices take whole (packed).
Tensor packedRows(poplar::Graph &graph, const poplar::Type &type, std::size_t rows, const std::vector<Run> &runs,
                  std::size_t cols, const std::string &name) {
  Tensor var = graph.addVariable(type, {rows * cols}, name);
  if (rows * cols == 0)
    return var.reshape({rows, cols});
  std::vector<Tensor> parts;
  std::size_t at = 0;
  for (const Run &r : runs) {
    Tensor piece = var.slice(at, at + rows * r.cols.size());
    graph.setTileMapping(piece, r.tile);
    parts.push_back(piece.reshape({rows, r.cols.size()}));
    at += rows * r.cols.size();
  }
  return poplar::concat(parts, 1);
}

// The inverse of rowsView: rows2 ([product of the lead and sliced dimensions, the rest]) seen as `shape`.
Tensor fromRowsView(const Tensor &rows2, const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                    std::size_t lead = 0) {
  std::vector<std::size_t> moved(shape.begin(), shape.begin() + lead);
  std::set<std::size_t> sliced;
  for (std::size_t d : dims) {
    moved.push_back(shape[d + lead]);
    sliced.insert(d + lead);
  }
  for (std::size_t j = lead; j < shape.size(); ++j)
    if (!sliced.count(j))
      moved.push_back(shape[j]);
  std::vector<unsigned> src, dst;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    src.push_back(unsigned(lead + i));
    dst.push_back(unsigned(dims[i] + lead));
  }
  return rows2.reshape(moved).dimShufflePartial(src, dst);
}

// The vertices of one step over rows: for each tile's runs, a vertex of `type` per worker with baseT = the rows
// of base2 and subT = the rows of sub2 of its runs; `extra` connects the rest (offsets, scale, plain fields).
// When every run of a tile is a contiguous block in both tensors, whole runs go to the workers and each is one
// list item (packed); otherwise the runs are split evenly over the workers with one item per row.
//
// rowsPerIndex (multiSlice only: its outputs are distinct per index) lets a tile with fewer packed blocks than
// workers also split the indices over the workers; `extra` gets the vertex's index range [k0, k1).
template <typename Extra>
std::size_t addRowVertices(poplar::Graph &graph, poplar::ComputeSet &cs, const std::string &type,
                           const Tensor &base2, const Tensor &sub2, const std::vector<Run> &runs, Extra extra,
                           std::size_t rowsPerIndex = 0) {
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
    if (packed) {
      groups.resize(std::min<std::size_t>(workers, cols.size()));
      for (std::size_t i = 0; i < cols.size(); ++i)
        groups[i * groups.size() / cols.size()].push_back(cols[i]);
    } else {
      groups = detail::splitForWorkers(cols, workers);
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
  poplar::ComputeSet cs = graph.addComputeSet(name + (update ? "/update" : "/slice") + std::to_string(dim));
  const std::string type = std::string("popops::") + (update ? "DynamicUpdate" : "DynamicSlice") + ct.bits;
  Tensor off1 = off.reinterpret(poplar::UNSIGNED_INT);
  const unsigned nSub = unsigned(sub2.dim(0));
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, runs, [&](poplar::VertexRef v, unsigned, std::size_t, std::size_t) {
    graph.connect(v["offset"], off1);
    graph.setInitialValue(v["numSubElements"], nSub);
  });
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
  std::vector<Run> runs = update ? runsOf(graph, base2[0], {base2[0], sub2[0]}, name, "the tensor updated")
                                 : runsOf(graph, sub2[0], {base2[0], sub2[0]}, name, "the output");
  Tensor offs = offsets.reinterpret(poplar::UNSIGNED_INT).flatten();
  poplar::ComputeSet cs = graph.addComputeSet(name);
  auto extra = [&](poplar::VertexRef v, unsigned, std::size_t k0, std::size_t k1) {
    graph.connect(v["offsets"], update ? offs : offs.slice(k0, k1));
    graph.setInitialValue(v["sliceSize"], unsigned(size));
    if (!update)
      graph.setInitialValue(v["remap"], unsigned(remap));
    if (scale)
      graph.connect(v["scale"], scale->flatten()[0]);
  };
  std::size_t vertices = addRowVertices(graph, cs, type, base2, sub2, runs, extra, update ? 0 : size);
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
  std::size_t rows = 1, total = 1;
  for (std::size_t d : dims)
    rows *= shape[d];
  for (std::size_t d : shape)
    total *= d;
  const std::size_t cols = rows == 0 ? 0 : total / rows;
  Tensor t2 = packedRows(graph, type, rows, columnBlocks(graph, cols, minGrainSize), cols, name);
  return fromRowsView(t2, shape, dims);
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
                         const std::string &debugPrefix) {
  const std::string name = opName(debugPrefix, "createSliceTensor");
  checkOptions(options, planOptionRules(), name);
  checkDims(shape, dims, sizes, name);
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
  Tensor out2 = packedRows(graph, type, rows, columnBlocks(graph, cols, 0), cols, name);
  return fromRowsView(out2, outShape, dims, 1);
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
