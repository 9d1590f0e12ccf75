// The host side of dynamic sparsity: every storage format is read as a list of blocks (host_blocks.hpp), each
// block is given its number in the grid (dynamic_layout.hpp) and a slot; the way back lists the used slots in grid
// order and writes the format asked for.
#include "popsparse/SparsePartitioner.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "dynamic_layout.hpp"
#include "host_blocks.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

class PartitionerImpl {
public:
  detail::Grid grid;
  std::string name;
};

namespace {

using popsparse::detail::HostBlock;

// The whole matrix the grid describes: the groups stacked by rows.
popsparse::detail::HostShape shapeOf(const detail::Grid &g) {
  return {g.groups * g.outPerGroup, g.inPerGroup, g.br, g.bc};
}

// Blocks into slots in grid order (so the way back is in order).
template <typename T>
SparsityDataImpl<T> toSlots(const std::vector<HostBlock<T> > &blocks, const detail::Grid &g, const std::string &name) {
  const auto numbered = popsparse::detail::numberBlocks(blocks, shapeOf(g), name);
  if (numbered.size() > g.slots)
    throw poputil::poplibs_error(name + ": the matrix has " + std::to_string(numbered.size()) +
                                 " non-zero blocks; the parameters have room for " + std::to_string(g.slots));
  SparsityDataImpl<T> out;
  out.metaInfo.assign(g.slots, g.blocks());
  out.nzValues.assign(g.slots * g.area(), T(0));
  for (std::size_t slot = 0; slot < numbered.size(); ++slot) {
    out.metaInfo[slot] = numbered[slot].first;
    const std::vector<T> &v = numbered[slot].second->values;
    std::copy(v.begin(), v.end(), out.nzValues.begin() + long(slot * g.area()));
  }
  return out;
}

// The used slots, in grid order.
template <typename T>
std::vector<HostBlock<T> > fromSlots(const SparsityDataImpl<T> &d, const detail::Grid &g, const std::string &name) {
  if (d.metaInfo.size() != g.slots || d.nzValues.size() != g.slots * g.area())
    throw poputil::poplibs_error(name + ": the sparsity data has " + std::to_string(d.metaInfo.size()) +
                                 " meta-information and " + std::to_string(d.nzValues.size()) + " values; want " +
                                 std::to_string(g.slots) + " and " + std::to_string(g.slots * g.area()));
  std::map<std::size_t, std::size_t> slotOf;
  for (std::size_t s = 0; s < g.slots; ++s)
    if (d.metaInfo[s] < g.blocks())
      slotOf[d.metaInfo[s]] = s;
  std::vector<HostBlock<T> > out;
  for (const auto &kv : slotOf) {
    const auto first = d.nzValues.begin() + long(kv.second * g.area());
    out.push_back({(kv.first / g.blockCols()) * g.br, (kv.first % g.blockCols()) * g.bc,
                   std::vector<T>(first, first + long(g.area()))});
  }
  return out;
}

} // namespace

namespace {

// A Partitioner's name: the caller's, or the class's.
std::string partitionerName(const std::string &name) {
  return name.empty() ? std::string("popsparse::dynamic::Partitioner") : name;
}

PartitionerImpl *newImpl(const detail::Grid &grid, const std::string &name) {
  return new PartitionerImpl{grid, name};
}

} // namespace

// The layer's weights and a product's sparse operand are the same grid (dynamic_layout.hpp).
template <typename T>
Partitioner<T>::Partitioner(const FullyConnectedParams &params, const poplar::Type &, const poplar::Target &,
                            const poplar::OptionFlags &, PlanningCache *, std::string name_)
    : name(partitionerName(name_)), impl(newImpl(detail::gridOf(params), name)) {}

template <typename T>
Partitioner<T>::Partitioner(const MatMulParams &params, const poplar::Type &, const poplar::Target &,
                            const poplar::OptionFlags &, PlanningCache *, std::string name_)
    : name(partitionerName(name_)), impl(newImpl(detail::gridOf(params), name)) {}

template <typename T> Partitioner<T>::~Partitioner() = default;

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const COOMatrix<T> &m) const {
  popsparse::detail::checkBlockShape(m, impl->grid.br, impl->grid.bc, name);
  return toSlots(popsparse::detail::readBlocks(m, name), impl->grid, name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSRMatrix<T> &m) const {
  popsparse::detail::checkBlockShape(m, impl->grid.br, impl->grid.bc, name);
  return toSlots(popsparse::detail::readBlocks(m, name), impl->grid, name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSCMatrix<T> &m) const {
  popsparse::detail::checkBlockShape(m, impl->grid.br, impl->grid.bc, name);
  return toSlots(popsparse::detail::readBlocks(m, name), impl->grid, name);
}

template <typename T>
COOMatrix<T> Partitioner<T>::sparsityDataImplToCOOMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCOO(fromSlots(d, impl->grid, name), shapeOf(impl->grid));
}

template <typename T>
CSRMatrix<T> Partitioner<T>::sparsityDataImplToCSRMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCSR(fromSlots(d, impl->grid, name), shapeOf(impl->grid));
}

template <typename T>
CSCMatrix<T> Partitioner<T>::sparsityDataImplToCSCMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCSC(fromSlots(d, impl->grid, name), shapeOf(impl->grid));
}

template <typename T> std::array<std::vector<std::size_t>, 3> Partitioner<T>::getPlanPartitions(void) const {
  return {{{1}, {1}, {1}}};
}

template <typename T> std::size_t Partitioner<T>::getmetaInfoBucketElements(void) const { return impl->grid.slots; }

template class Partitioner<float>;
template class Partitioner<double>;

} // namespace dynamic
} // namespace popsparse
