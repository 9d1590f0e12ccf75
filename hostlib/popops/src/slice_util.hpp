// Internal: what popops' slicing operations share (DynamicSlice.cpp, SlicePlan.cpp, Gather.cpp): option checks,
// dimension checks, the [rows, columns] views of a tensor around its sliced dimensions, and the packed layout in
// which each tile's column block of those rows is contiguous.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops::detail {

/// Option name -> allowed values; an empty list means a positive number.
using OptionRules = std::map<std::string, std::vector<std::string> >;
/// The one allowed value of a rule whose option holds a JSON object (checked by its own reader).
inline const char *const kJsonObject = "<json object>";
/// The options of embedding::plan, the multi operations and the create functions.
const OptionRules &planOptionRules();
/// Throws poplar::invalid_option for an unknown name or a value not allowed, naming both and what is allowed.
void checkOptions(const poplar::OptionFlags &options, const OptionRules &rules, const std::string &name);
/// True when the option is set to "true".
bool flag(const poplar::OptionFlags &options, const char *key);

/// Checks dims/sizes against `shape`: the same count (none allowed), distinct, in range, and (when `sizesWhat` is
/// "sizes") no size beyond its dimension.
void checkDims(const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
               const std::vector<std::size_t> &sizes, const std::string &name, const char *sizesWhat = "sizes");
/// Throws when `t` is default-constructed.
void checkValid(const poplar::Tensor &t, const std::string &name, const char *what);
/// `shape` with dims[i] of size sizes[i].
std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes);

/// t with its first `lead` dimensions, then `dims`, moved to the front and reshaped to [product of those, the
/// rest]: the rows and columns the slicing vertices work on.
poplar::Tensor rowsView(const poplar::Tensor &t, const std::vector<std::size_t> &dims, std::size_t lead = 0);
/// The inverse of rowsView: rows2 seen as `shape`.
poplar::Tensor fromRowsView(const poplar::Tensor &rows2, const std::vector<std::size_t> &shape,
                            const std::vector<std::size_t> &dims, std::size_t lead = 0);

/// A run of columns on one tile.
struct Run {
  poplar::Interval cols;
  unsigned tile;
};
/// Which tile holds which elements of `row` (a rank-1 view); throws when some element is unmapped.
std::vector<std::vector<poplar::Interval> > columnsOf(const poplar::Graph &graph, const poplar::Tensor &row,
                                                      const std::string &name, const char *what);
/// The column runs of `row` by its tile mapping, also cut where a view in `cutBy` stops being contiguous in
/// memory; in column order.
std::vector<Run> runsOf(const poplar::Graph &graph, const poplar::Tensor &row, const std::vector<poplar::Tensor> &cutBy,
                        const std::string &name, const char *what);
/// Column blocks for a new sliceable layout: one span of at least `grain` columns per tile (one region per tile
/// in each slice).
std::vector<Run> columnBlocks(const poplar::Graph &graph, std::size_t cols, std::size_t grain);
/// A slice of a QUARTER tensor is read with its source's metadata: adds a copy of `from`'s metadata into `to`'s
/// (each has its own, Graph::addVariable makes one per QUARTER variable). Nothing for other types.
void copyQuarterMetadata(const poplar::Tensor &from, const poplar::Tensor &to, poplar::program::Sequence &prog,
                         const std::string &name);

/// A new [rows, cols] tensor (one variable) in which each run's [rows, run width] block is contiguous and mapped
/// to the run's tile. A QUARTER one is read with `metadata` when given (groups of one grouped tensor share it),
/// else with a metadata variable of its own.
poplar::Tensor packedRows(poplar::Graph &graph, const poplar::Type &type, std::size_t rows,
                          const std::vector<Run> &runs, std::size_t cols, const std::string &name,
                          const poplar::Tensor &metadata = poplar::Tensor());

/// createSliceableTensor's tensor (minGrainSize form), a QUARTER one read with `metadata` when given.
poplar::Tensor sliceableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                               const std::vector<std::size_t> &dims, std::size_t minGrainSize,
                               const std::string &name, const poplar::Tensor &metadata);

/// createSliceTensor's tensor (type and shape form), a QUARTER one read with `metadata` when given.
poplar::Tensor sliceTensorOf(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                             std::size_t numIndices, const std::string &name, const poplar::Tensor &metadata);

/// The one metadata variable the groups of a grouped QUARTER tensor share (tile 0); none for other types.
poplar::Tensor groupMetadata(poplar::Graph &graph, const poplar::Type &type, const std::string &name);

} // namespace popops::detail
