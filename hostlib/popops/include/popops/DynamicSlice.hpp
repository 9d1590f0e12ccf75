// Slices and updates of a tensor at offsets held in tensors on the device: the offsets are read by the tile code
// when the program runs, so one compiled program slices wherever the host (or an earlier step) puts them.
//
// Offsets are UNSIGNED_INT or INT tensors. Out-of-range offsets follow PopLibs: dynamicSlice and dynamicUpdate
// use row 0 for an offset >= the dimension's size, and a slice that runs past the end wraps to row 0; multiSlice
// gives zeros for the rows past the end and multiUpdate, multiUpdateAdd, multiUpdateMax and multiUpdateMul leave
// such rows alone, or with the option remapOutOfBoundIndices both use row 0 instead. A negative INT offset is out
// of range.
#ifndef POPOPS_DYNAMIC_SLICE_HPP
#define POPOPS_DYNAMIC_SLICE_HPP

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

class SlicePlanInternal;

/// How a multiSlice / multiUpdate is implemented (embedding::plan makes one). A default-constructed plan is
/// valid and lets each operation choose for itself.
class SlicePlan {
public:
  SlicePlan();
  ~SlicePlan();
  SlicePlan(const SlicePlan &other);
  SlicePlan(SlicePlan &&other);
  SlicePlan &operator=(const SlicePlan &other);
  SlicePlan &operator=(SlicePlan &&other);
  /// Implementation: a plan made by embedding::plan.
  explicit SlicePlan(std::unique_ptr<SlicePlanInternal> internal);
  /// Implementation: the plan's parameters (never null).
  SlicePlanInternal &getImpl() const { return *internal_; }

  friend std::ostream &operator<<(std::ostream &o, const SlicePlan &p);
  friend bool operator<(const SlicePlan &a, const SlicePlan &b);
  friend bool operator==(const SlicePlan &a, const SlicePlan &b);

private:
  std::unique_ptr<SlicePlanInternal> internal_;
};
/// Plans compare by their parameters (an order for use as a map key; equal plans implement alike).
bool operator<(const SlicePlan &a, const SlicePlan &b);
bool operator==(const SlicePlan &a, const SlicePlan &b);
bool operator!=(const SlicePlan &a, const SlicePlan &b);

/// A tensor of `shape` laid out to be sliced in `dims` by `sizes`: each tile holds every position of the sliced
/// dimensions for a block of the other elements (at least `minGrainSize` of them), so slices need no exchange of
/// the base.
poplar::Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                     const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes, std::size_t minGrainSize = 0,
                                     const poplar::DebugContext &debugContext = {});

/// The same, laid out for `plan` (options: those of embedding::plan).
poplar::Tensor createSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                     const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                                     const std::vector<std::size_t> &sizes, const SlicePlan &plan,
                                     const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// A tensor of shape [numIndices, t.shape() with dims[i] of size sizes[i]] to receive multiSlice of `t` (or to
/// update it from), each element mapped to the tile that holds the same column of `t`.
poplar::Tensor createSliceTensor(poplar::Graph &graph, const poplar::Tensor &t, const std::vector<std::size_t> &dims,
                                 const std::vector<std::size_t> &sizes, std::size_t numIndices,
                                 const poplar::DebugContext &debugContext = {});

/// The same for a tensor of `type` and `shape` made by createSliceableTensor with the same plan.
poplar::Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                                 const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                                 std::size_t numIndices, const SlicePlan &plan, const poplar::OptionFlags &options,
                                 const poplar::DebugContext &debugContext = {});

/// An UNSIGNED_INT tensor of shape [numIndices, dims.size()] for the offsets of multiSlice / multiUpdate.
poplar::Tensor createIndicesTensor(poplar::Graph &graph, const std::vector<std::size_t> &dims, std::size_t numIndices,
                                   const SlicePlan &plan, const poplar::OptionFlags &options,
                                   const poplar::DebugContext &debugContext = {});

/// A tensor of s.shape() with dims[i] multiplied by numSlices[i], each slice mapped like `s`.
poplar::Tensor createSliceableTensorFromSlice(poplar::Graph &graph, const poplar::Tensor &s,
                                              const std::vector<std::size_t> &dims,
                                              const std::vector<std::size_t> &numSlices,
                                              const poplar::DebugContext &debugContext = {});

/// The slice of `t` of sizes[i] elements in dims[i] starting at offset[i] (offset: a rank-1 tensor of
/// dims.size() elements); the other dimensions are whole. Options: remapOutOfBoundIndices, paddingIndexUsed
/// (accepted; out-of-range offsets always read row 0 here).
poplar::Tensor dynamicSlice(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &offset,
                            const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = poplar::OptionFlags());

/// A new tensor of the shape and type dynamicSlice(graph, t, offset, dims, sizes, ...) returns, laid out as
/// dynamicSlice lays out its result (each tile holds the slice's part of the columns it holds of `t`), to be
/// passed to dynamicSliceWithOutput. Checks the arguments as dynamicSlice does.
poplar::Tensor createDynamicSliceOutput(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &offset,
                                        const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags());

/// dynamicSlice into `output`, which has the slice's shape.
void dynamicSliceWithOutput(poplar::Graph &graph, const poplar::Tensor &output, const poplar::Tensor &t,
                            const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = poplar::OptionFlags());

/// The tile mapping of a slice of `t` (sizes[i] elements in dims[i]): that of the slice at offset 0, which is where
/// dynamicSlice puts its result.
poplar::TileToTensorMapping getSliceMapping(poplar::Graph &graph, const poplar::Tensor &t,
                                            const std::vector<std::size_t> &dims,
                                            const std::vector<std::size_t> &sizes);

/// Writes `s` (the shape of the slice) into `t` at offset (as dynamicSlice reads it).
void dynamicUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s, const poplar::Tensor &offset,
                   const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// offsets.dim(0) slices of `t`, stacked: the result has shape [offsets.dim(0), t.shape() with dims[0] of size
/// sizes[0]]. offsets: [numIndices, 1] (one sliced dimension). Options: those of embedding::plan and
/// remapOutOfBoundIndices, paddingIndexUsed, validateIndices.
poplar::Tensor multiSlice(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &offsets,
                          const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                          poplar::program::Sequence &prog, const SlicePlan &plan, const poplar::OptionFlags &options,
                          const poplar::DebugContext &debugContext = {});

/// Slices of one element in `dim` at offsets known when the graph is built: shape [offsets.size(), t.shape() with
/// dim of size 1]; an offset >= t.dim(dim) gives a slice of zeros.
poplar::Tensor multiSlice(poplar::Graph &graph, const poplar::Tensor &t, poplar::ArrayRef<unsigned> offsets,
                          std::size_t dim, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &optionFlags = poplar::OptionFlags());

/// t[offsets[i]] = s[i] for each i in order (a later equal offset wins); s as multiSlice returns it.
void multiUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s, const poplar::Tensor &offsets,
                 const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                 poplar::program::Sequence &prog, const SlicePlan &plan, const poplar::OptionFlags &options,
                 const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] += scale * s[i] (equal offsets accumulate); scale: a one-element tensor of t's type (or FLOAT
/// when t is HALF). FLOAT, HALF, INT and UNSIGNED_INT.
void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const poplar::Tensor &scale, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] = max(t[offsets[i]], s[i]). FLOAT, HALF, INT and UNSIGNED_INT.
void multiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] *= s[i]. FLOAT, HALF, INT and UNSIGNED_INT.
void multiUpdateMul(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog, const SlicePlan &plan,
                    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});

/// t[offsets[i]] += scale * s[i] along `dim` with offsets known when the graph is built (s: [offsets.size(), t's
/// shape with dim of size 1]); offsets out of range leave t alone.
void multiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                    poplar::ArrayRef<unsigned> offsets, const poplar::Tensor &scale, std::size_t dim,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &optionFlags = poplar::OptionFlags());

// The grouped forms: groupSize independent slicings of the same size, side by side. The tensor sliced, the
// slices and the offsets each have the group as their first dimension; dims and sizes name dimensions of one
// group (the shape without the group dimension), and offsets are [groupSize, numIndices, dims.size()].

/// A tensor [groupSize] + shape laid out for the grouped operations.
poplar::Tensor createGroupedSliceableTensor(poplar::Graph &graph, const poplar::Type &type, std::size_t groupSize,
                                            const std::vector<std::size_t> &shape,
                                            const std::vector<std::size_t> &dims,
                                            const std::vector<std::size_t> &sizes, const SlicePlan &plan,
                                            const poplar::OptionFlags &options,
                                            const poplar::DebugContext &debugContext = {});
/// A tensor for numIndices slices per group of a tensor made by createGroupedSliceableTensor: [groupSize,
/// numIndices] + shape with dims of the sizes.
poplar::Tensor createGroupedSliceTensor(poplar::Graph &graph, const poplar::Type &type, std::size_t groupSize,
                                        const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                                        const std::vector<std::size_t> &sizes, std::size_t numIndices,
                                        const SlicePlan &plan, const poplar::OptionFlags &options,
                                        const poplar::DebugContext &debugContext = {});
/// An offsets tensor [groupSize, numIndices, dims.size()].
poplar::Tensor createGroupedIndicesTensor(poplar::Graph &graph, std::size_t groupSize,
                                          const std::vector<std::size_t> &dims, std::size_t numIndices,
                                          const SlicePlan &plan, const poplar::OptionFlags &options,
                                          const poplar::DebugContext &debugContext = {});
/// multiSlice of each group: result[g] = multiSlice(t[g], offsets[g]). A QUARTER result has one metadata for all
/// its groups, a copy of t's (t's groups must share one, as createGroupedSliceableTensor's do).
poplar::Tensor groupedMultiSlice(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &offsets,
                                 const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                                 poplar::program::Sequence &prog, const SlicePlan &plan,
                                 const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});
/// multiUpdate of each group.
void groupedMultiUpdate(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                        const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                        const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                        const SlicePlan &plan, const poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext = {});
/// multiUpdateAdd of each group, all with the one-element `scale`.
void groupedMultiUpdateAdd(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const poplar::Tensor &scale,
                           const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog, const SlicePlan &plan,
                           const poplar::OptionFlags &options, const poplar::DebugContext &debugContext = {});
/// multiUpdateMax of each group.
void groupedMultiUpdateMax(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext = {});
/// multiUpdateMul of each group.
void groupedMultiUpdateMul(poplar::Graph &graph, const poplar::Tensor &t, const poplar::Tensor &s,
                           const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext = {});

namespace embedding {

/// A plan for slicing and updating an embedding of numEntries rows of outputSize elements with numLookups
/// indices. Options (unknown names or values are poplar::invalid_option): usedForSlice, usedForUpdate (true,
/// false; not both false), operationForUpdate (none, add, max), availableMemoryProportion (a positive number),
/// indicesDistribution (uniform, onePoint), planMinimisationTarget (memory, cycles), indicesAreSorted (true,
/// false), partialType (float, half), planConstraints (a JSON object of the planner's split variables: checked,
/// no effect on this library's plans).
SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options);

/// The same for groupSize embeddings used by the grouped operations.
SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType, std::size_t groupSize,
               std::size_t numEntries, std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options);

/// The arguments of one call of plan, for planMultiple.
struct SlicePlanningParameters {
  /// The graph the operation will be added to.
  const poplar::Graph &graph;
  /// The type of the embedding's elements.
  const poplar::Type dataType;
  /// The number of groups (1: not grouped).
  const std::size_t groupSize;
  /// Rows of the embedding.
  const std::size_t numEntries;
  /// Elements of one row.
  const std::size_t outputSize;
  /// The numbers of indices looked up.
  const std::vector<std::size_t> numLookups;
  /// The options of plan.
  const poplar::OptionFlags optionFlags;

  // (The parameter names differ from the members' so that -Wshadow stays quiet.)
  SlicePlanningParameters(const poplar::Graph &g, const poplar::Type &type, std::size_t groups, std::size_t entries,
                          std::size_t outSize, const std::vector<std::size_t> &lookups,
                          const poplar::OptionFlags &options)
      : graph(g), dataType(type), groupSize(groups), numEntries(entries), outputSize(outSize), numLookups(lookups),
        optionFlags(options) {}
  SlicePlanningParameters(const poplar::Graph &g, const poplar::Type &type, std::size_t entries, std::size_t outSize,
                          const std::vector<std::size_t> &lookups, const poplar::OptionFlags &options)
      : graph(g), dataType(type), groupSize(1), numEntries(entries), outputSize(outSize), numLookups(lookups),
        optionFlags(options) {}
};

/// One plan per entry, each the same as plan() with its parameters gives.
std::vector<SlicePlan> planMultiple(const std::vector<SlicePlanningParameters> &spds);

} // namespace embedding

} // namespace popops

#endif // POPOPS_DYNAMIC_SLICE_HPP
