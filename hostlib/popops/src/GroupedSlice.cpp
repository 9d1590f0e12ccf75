// The grouped slicing operations of popops/DynamicSlice.hpp. A group is an independent embedding of the same
// size; each grouped operation is the ungrouped one applied to every group's part of the tensor, the slices and
// the offsets (their first dimension), so the groups share the ungrouped layout, checks and vertices.
#include <string>

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/DynamicSlice.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "slice_util.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

std::string groupName(const std::string &name, std::size_t g) { return name + "/group" + std::to_string(g); }

/// Checks that t, the offsets and (when given) the slices agree on the group size, naming what differs.
std::size_t groupsOf(const Tensor &t, const Tensor &offsets, const Tensor *s, const std::string &name) {
  if (!t.valid() || !offsets.valid() || (s && !s->valid()))
    throw poplibs_error(name + ": an argument is an invalid (default-constructed) tensor");
  if (t.rank() < 2)
    throw poplibs_error(name + ": the tensor has rank " + std::to_string(t.rank()) +
                        "; a grouped tensor is [groupSize, ...] with at least one dimension per group");
  if (offsets.rank() != 3)
    throw poplibs_error(name + ": the offsets have rank " + std::to_string(offsets.rank()) +
                        "; they must be [groupSize, numIndices, dims.size()]");
  const std::size_t g = t.dim(0);
  if (offsets.dim(0) != g || (s && (s->rank() < 2 || s->dim(0) != g)))
    throw poplibs_error(name + ": the tensor has " + std::to_string(g) + " groups but the offsets" +
                        (s ? " or the slices" : "") + " do not; give every argument the same first dimension");
  return g;
}

template <typename F> void eachGroup(std::size_t groups, F f) {
  for (std::size_t g = 0; g < groups; ++g)
    f(unsigned(g));
}

} // namespace

Tensor createGroupedSliceableTensor(poplar::Graph &graph, const poplar::Type &type, std::size_t groupSize,
                                    const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                                    const std::vector<std::size_t> &sizes, const SlicePlan &plan,
                                    const poplar::OptionFlags &options, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createGroupedSliceableTensor");
  if (groupSize == 0)
    throw poplibs_error(name + ": the group size is 0; pass at least one group");
  detail::checkOptions(options, detail::planOptionRules(), name);
  detail::checkDims(shape, dims, sizes, name);
  (void)plan;
  // The groups are one tensor, so a QUARTER one has one metadata, which every group's variable shares.
  const Tensor md = detail::groupMetadata(graph, type, name);
  std::vector<Tensor> parts;
  eachGroup(groupSize, [&](unsigned g) {
    parts.push_back(detail::sliceableTensor(graph, type, shape, dims, 0, groupName(name, g), md).expand({0}));
  });
  return poplar::concat(parts, 0);
}

Tensor createGroupedSliceTensor(poplar::Graph &graph, const poplar::Type &type, std::size_t groupSize,
                                const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims,
                                const std::vector<std::size_t> &sizes, std::size_t numIndices, const SlicePlan &plan,
                                const poplar::OptionFlags &options, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createGroupedSliceTensor");
  if (groupSize == 0)
    throw poplibs_error(name + ": the group size is 0; pass at least one group");
  detail::checkOptions(options, detail::planOptionRules(), name);
  detail::checkDims(shape, dims, sizes, name);
  (void)plan;
  const Tensor md = detail::groupMetadata(graph, type, name);
  std::vector<Tensor> parts;
  eachGroup(groupSize, [&](unsigned g) {
    parts.push_back(detail::sliceTensorOf(graph, type, shape, dims, sizes, numIndices, groupName(name, g), md)
                        .expand({0}));
  });
  return poplar::concat(parts, 0);
}

Tensor createGroupedIndicesTensor(poplar::Graph &graph, std::size_t groupSize, const std::vector<std::size_t> &dims,
                                  std::size_t numIndices, const SlicePlan &plan, const poplar::OptionFlags &options,
                                  const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createGroupedIndicesTensor");
  if (groupSize == 0)
    throw poplibs_error(name + ": the group size is 0; pass at least one group");
  // Check the arguments as the ungrouped form does, then lay all groups' indices out together.
  createIndicesTensor(graph, dims, 0, plan, options, name + "/check");
  Tensor t = graph.addVariable(poplar::UNSIGNED_INT, {groupSize, numIndices, dims.size()}, name);
  if (t.numElements() != 0)
    poputil::mapTensorLinearly(graph, t, 1, unsigned(dims.size()));
  return t;
}

Tensor groupedMultiSlice(poplar::Graph &graph, const Tensor &t, const Tensor &offsets,
                         const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                         poplar::program::Sequence &prog, const SlicePlan &plan, const poplar::OptionFlags &options,
                         const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "groupedMultiSlice");
  const std::size_t groups = groupsOf(t, offsets, nullptr, name);
  std::vector<Tensor> parts;
  eachGroup(groups, [&](unsigned g) {
    parts.push_back(multiSlice(graph, t[g], offsets[g], dims, sizes, prog, plan, options, groupName(name, g))
                        .expand({0}));
  });
  Tensor joined = poplar::concat(parts, 0);
  if (t.elementType() != poplar::QUARTER)
    return joined;
  // Each group's multiSlice result has a metadata variable of its own; the grouped result is one tensor, so (as
  // createGroupedSliceTensor's) it gets one metadata, a copy of t's, and the groups' results are copied into it.
  if (!t.hasMetadata())
    throw poplibs_error(name + ": the QUARTER tensor sliced has no metadata; create it with "
                               "createGroupedSliceableTensor or Graph::addVariable(QUARTER, metadata, shape)");
  Tensor tMd;
  try {
    tMd = t.getMetadata();
  } catch (const poplar::poplar_error &) {
    throw poplibs_error(name + ": the groups of the QUARTER tensor sliced have different metadata; a grouped "
                               "tensor has one (create it with createGroupedSliceableTensor)");
  }
  const Tensor md = detail::groupMetadata(graph, poplar::QUARTER, name);
  Tensor out = graph.addVariable(poplar::QUARTER, md, joined.shape(), name + "/out");
  graph.setTileMapping(out, graph.getTileMapping(joined, false));
  prog.add(poplar::program::Copy(tMd, md, false, name + "/metadata"));
  prog.add(poplar::program::Copy(joined, out, false, name + "/join"));
  return out;
}

void groupedMultiUpdate(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                        const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                        poplar::program::Sequence &prog, const SlicePlan &plan, const poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "groupedMultiUpdate");
  eachGroup(groupsOf(t, offsets, &s, name), [&](unsigned g) {
    multiUpdate(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, groupName(name, g));
  });
}

void groupedMultiUpdateAdd(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const Tensor &scale, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes, poplar::program::Sequence &prog,
                           const SlicePlan &plan, const poplar::OptionFlags &options,
                           const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "groupedMultiUpdateAdd");
  eachGroup(groupsOf(t, offsets, &s, name), [&](unsigned g) {
    multiUpdateAdd(graph, t[g], s[g], offsets[g], scale, dims, sizes, prog, plan, options, groupName(name, g));
  });
}

void groupedMultiUpdateMax(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog, const SlicePlan &plan,
                           const poplar::OptionFlags &options, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "groupedMultiUpdateMax");
  eachGroup(groupsOf(t, offsets, &s, name), [&](unsigned g) {
    multiUpdateMax(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, groupName(name, g));
  });
}

void groupedMultiUpdateMul(poplar::Graph &graph, const Tensor &t, const Tensor &s, const Tensor &offsets,
                           const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                           poplar::program::Sequence &prog, const SlicePlan &plan,
                           const poplar::OptionFlags &options, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "groupedMultiUpdateMul");
  eachGroup(groupsOf(t, offsets, &s, name), [&](unsigned g) {
    multiUpdateMul(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, groupName(name, g));
  });
}

} // namespace popops
