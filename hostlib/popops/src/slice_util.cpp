// Internal: see slice_util.hpp.
#include "slice_util.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>
#include <poplar/exceptions.hpp>

#include "broadcast.hpp"
#include "poputil/exceptions.hpp"

namespace popops::detail {

using poplar::Interval;
using poplar::Tensor;
using poputil::poplibs_error;

const OptionRules &planOptionRules() {
  static const OptionRules rules = {
      {"usedForSlice", {"true", "false"}},      {"usedForUpdate", {"true", "false"}},
      {"operationForUpdate", {"none", "add", "max", "mul"}}, {"availableMemoryProportion", {}},
      {"indicesDistribution", {"uniform", "onePoint"}}, {"planMinimisationTarget", {"memory", "cycles"}},
      {"indicesAreSorted", {"true", "false"}},  {"partialType", {"float", "half"}},
      {"remapOutOfBoundIndices", {"true", "false"}}, {"paddingIndexUsed", {"true", "false"}},
      {"validateIndices", {"true", "false"}},   {"planConstraints", {kJsonObject}}};
  return rules;
}

namespace {
// planConstraints: PopLibs' slice planner takes a JSON object that fixes some of its split variables. Our plans
// are laid out by our own rules, so the constraints are checked (known names, non-negative integers or booleans)
// and then have no effect; docs/poplibs.md says so.
void checkPlanConstraints(const std::string &value, const std::string &name) {
  static const std::set<std::string> known = {"groupSplit",      "lookupParallelSplit", "lookupSerialSplit",
                                              "slicedDimSplit",  "unslicedDimSplit",    "unslicedGrainSize",
                                              "useOrderingInfo", "precopyBaseWhenSerialSlice"};
  const auto bad = [&](const std::string &why) {
    throw poplar::invalid_option(name + ": option 'planConstraints' " + why +
                                 "; pass a JSON object such as {\"slicedDimSplit\": 2}");
  };
  nlohmann::json j = nlohmann::json::parse(value, nullptr, false);
  if (j.is_discarded())
    bad("is not valid JSON ('" + value + "')");
  if (!j.is_object())
    bad("is not a JSON object ('" + value + "')");
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!known.count(it.key())) {
      std::string names;
      for (const auto &k : known)
        names += (names.empty() ? "" : ", ") + k;
      bad("names '" + it.key() + "', which is not a slice plan variable (known: " + names + ")");
    }
    if (!it.value().is_boolean() && !it.value().is_number_unsigned())
      bad("gives '" + it.key() + "' the value " + it.value().dump() + ", not a non-negative integer or boolean");
  }
}
} // namespace

void checkOptions(const poplar::OptionFlags &options, const OptionRules &rules, const std::string &name) {
  for (const auto &[key, value] : options) {
    auto it = rules.find(key);
    if (it == rules.end()) {
      std::string known;
      for (const auto &r : rules)
        known += (known.empty() ? "" : ", ") + r.first;
      throw poplar::invalid_option(name + ": unknown option '" + key + "' (known: " + known + ")");
    }
    if (it->second.size() == 1 && it->second[0] == kJsonObject) {
      checkPlanConstraints(value, name);
    } else if (it->second.empty()) {
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

// Checks dims/sizes against t's shape: the same count, distinct, in range, sizes not beyond. No dims at all is
// allowed (Graphcore's slices over no dimension are the whole tensor).
void checkDims(const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes, const std::string &name, const char *sizesWhat) {
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

std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes) {
  for (std::size_t i = 0; i < dims.size(); ++i)
    shape[dims[i]] = sizes[i];
  return shape;
}

// t with `dims` moved to the front (in order) and everything reshaped to [product of dims, the rest].
Tensor rowsView(const Tensor &t, const std::vector<std::size_t> &dims, std::size_t lead) {
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
std::vector<std::vector<Interval> > columnsOf(const poplar::Graph &graph, const Tensor &row, const std::string &name,
                                              const char *what) {
  std::vector<std::vector<Interval> > m = graph.getTileMapping(row, false);
  std::size_t n = 0;
  for (const auto &tile : m)
    for (const auto &i : tile)
      n += i.size();
  if (n != row.numElements())
    throw poplibs_error(name + ": " + what + " has unmapped elements; map it (e.g. poputil::mapTensorLinearly) "
                                             "before the call");
  return m;
}

// The column runs of rows2 ([R, M]) by the tile mapping of its row 0, each tile's intervals also cut where a row
// of `cutBy` (rank-1 views of M elements) stops being contiguous in memory; in column order.
std::vector<Run> runsOf(const poplar::Graph &graph, const Tensor &row, const std::vector<Tensor> &cutBy,
                        const std::string &name, const char *what) {
  std::vector<std::vector<Interval> > m = columnsOf(graph, row, name, what);
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

// Column blocks for a new sliceable layout: one span of at least `grain` columns per tile, so that one row (one
// slice) of the layout is a single region on each tile, as Graphcore's layout is; the vertices split a tile's span
// over its workers (DynamicSlice.cpp, addRowVertices).
std::vector<Run> columnBlocks(const poplar::Graph &graph, std::size_t cols, std::size_t grain) {
  const std::size_t tiles = graph.getTarget().getNumTiles();
  grain = std::max<std::size_t>(1, grain);
  std::size_t per = std::max(grain, (cols + tiles - 1) / tiles);
  per = (per + grain - 1) / grain * grain;
  std::vector<Run> runs;
  for (std::size_t c = 0, tile = 0; c < cols; c += per, ++tile)
    runs.push_back({Interval(c, std::min(cols, c + per)), unsigned(tile % tiles)});
  return runs;
}

// A new [rows, cols] tensor of one variable in which each run's [rows, run width] block is contiguous (row-major)
// and mapped to the run's tile: the layout whose regions the vertices take whole (packed).
void copyQuarterMetadata(const Tensor &from, const Tensor &to, poplar::program::Sequence &prog,
                         const std::string &name) {
  if (from.elementType() != poplar::QUARTER || !from.hasMetadata() || !to.hasMetadata())
    return;
  const Tensor src = from.getMetadata(), dst = to.getMetadata();
  if (src.getVarRegions() != dst.getVarRegions())
    prog.add(poplar::program::Copy(src, dst, false, name + "/metadata"));
}

Tensor groupMetadata(poplar::Graph &graph, const poplar::Type &type, const std::string &name) {
  if (type != poplar::QUARTER)
    return Tensor();
  Tensor md = graph.addVariable(poplar::QUARTER_METADATA, {1}, name + "/metadata");
  graph.setTileMapping(md, 0);
  return md;
}

Tensor packedRows(poplar::Graph &graph, const poplar::Type &type, std::size_t rows, const std::vector<Run> &runs,
                  std::size_t cols, const std::string &name, const Tensor &metadata) {
  Tensor var = graph.addVariable(type, metadata, {rows * cols}, name);
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
                    std::size_t lead) {
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

} // namespace popops::detail
