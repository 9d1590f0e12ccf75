// The host side of dynamic sparsity: every storage format is read as a list of blocks (row, column, values), each
// block is given its number in the grid (dynamic_layout.hpp) and a slot; the way back lists the used slots in grid
// order and writes the format asked for.
#include "popsparse/SparsePartitioner.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "dynamic_layout.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

class PartitionerImpl {
public:
  detail::Grid grid;
  std::string name;
};

namespace {

// One block of a host matrix: its first element's row and column and its values, row-major.
template <typename T> struct HostBlock {
  std::size_t row, col;
  std::vector<T> values;
};

void checkBlockShape(const Block &m, const detail::Grid &g, const std::string &name) {
  if (m.getNumRowsInBlock() != g.br || m.getNumColumnsInBlock() != g.bc)
    throw poputil::poplibs_error(name + ": the matrix has " + std::to_string(m.getNumRowsInBlock()) + "x" +
                                 std::to_string(m.getNumColumnsInBlock()) + " blocks; the parameters " +
                                 std::to_string(g.br) + "x" + std::to_string(g.bc));
}

// Blocks by grid number (so duplicates are found and the way back is in order) into slots.
template <typename T>
SparsityDataImpl<T> toSlots(const std::vector<HostBlock<T> > &blocks, const detail::Grid &g, const std::string &name) {
  std::map<std::size_t, const HostBlock<T> *> byNumber;
  for (const HostBlock<T> &b : blocks) {
    if (b.row % g.br || b.col % g.bc || b.row >= g.groups * g.outPerGroup || b.col >= g.inPerGroup ||
        b.values.size() != g.area())
      throw poputil::poplibs_error(name + ": a block at (" + std::to_string(b.row) + ", " + std::to_string(b.col) +
                                   ") is not on the grid of the " + std::to_string(g.groups * g.outPerGroup) +
                                   " x " + std::to_string(g.inPerGroup) + " weights");
    const std::size_t number = (b.row / g.br) * g.blockCols() + b.col / g.bc; // groups stack as block rows
    if (!byNumber.emplace(number, &b).second)
      throw poputil::poplibs_error(name + ": two blocks at (" + std::to_string(b.row) + ", " +
                                   std::to_string(b.col) + ")");
  }
  if (byNumber.size() > g.slots)
    throw poputil::poplibs_error(name + ": the matrix has " + std::to_string(byNumber.size()) +
                                 " non-zero blocks; the parameters have room for " + std::to_string(g.slots));
  SparsityDataImpl<T> out;
  out.metaInfo.assign(g.slots, g.blocks());
  out.nzValues.assign(g.slots * g.area(), T(0));
  std::size_t slot = 0;
  for (const auto &kv : byNumber) {
    out.metaInfo[slot] = kv.first;
    std::copy(kv.second->values.begin(), kv.second->values.end(), out.nzValues.begin() + long(slot * g.area()));
    ++slot;
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

// The blocks of entries [begin, end) of a compressed format: values at element offsets, one index per block.
template <typename T>
void addRange(std::vector<HostBlock<T> > &out, const std::vector<T> &nz, const std::vector<std::size_t> &other,
              std::size_t begin, std::size_t end, std::size_t fixed, bool fixedIsRow, std::size_t area,
              const std::string &name) {
  if (begin % area || end % area || end > nz.size() || begin > end || end / area > other.size())
    throw poputil::poplibs_error(name + ": the compressed offsets do not match the values");
  for (std::size_t k = begin / area; k < end / area; ++k) {
    const auto first = nz.begin() + long(k * area);
    out.push_back({fixedIsRow ? fixed : other[k], fixedIsRow ? other[k] : fixed,
                   std::vector<T>(first, first + long(area))});
  }
}

} // namespace

template <typename T>
Partitioner<T>::Partitioner(const FullyConnectedParams &params, const poplar::Type &, const poplar::Target &,
                            const poplar::OptionFlags &, PlanningCache *, std::string name_)
    : name(name_.empty() ? std::string("popsparse::dynamic::Partitioner") : name_), impl(new PartitionerImpl) {
  impl->grid = detail::gridOf(params);
  impl->name = name;
}

template <typename T> Partitioner<T>::~Partitioner() = default;

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const COOMatrix<T> &m) const {
  const detail::Grid &g = impl->grid;
  checkBlockShape(m, g, name);
  if (m.rowIndices.size() != m.columnIndices.size() || m.nzValues.size() != m.rowIndices.size() * g.area())
    throw poputil::poplibs_error(name + ": the COO matrix's indices and values differ in number");
  std::vector<HostBlock<T> > blocks;
  for (std::size_t k = 0; k < m.rowIndices.size(); ++k) {
    const auto first = m.nzValues.begin() + long(k * g.area());
    blocks.push_back({m.rowIndices[k], m.columnIndices[k], std::vector<T>(first, first + long(g.area()))});
  }
  return toSlots(blocks, g, name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSRMatrix<T> &m) const {
  const detail::Grid &g = impl->grid;
  checkBlockShape(m, g, name);
  std::vector<HostBlock<T> > blocks;
  for (std::size_t r = 0; r + 1 < m.rowIndices.size(); ++r)
    addRange(blocks, m.nzValues, m.columnIndices, m.rowIndices[r], m.rowIndices[r + 1], r * g.br, true, g.area(),
             name);
  return toSlots(blocks, g, name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSCMatrix<T> &m) const {
  const detail::Grid &g = impl->grid;
  checkBlockShape(m, g, name);
  std::vector<HostBlock<T> > blocks;
  for (std::size_t c = 0; c + 1 < m.columnIndices.size(); ++c)
    addRange(blocks, m.nzValues, m.rowIndices, m.columnIndices[c], m.columnIndices[c + 1], c * g.bc, false,
             g.area(), name);
  return toSlots(blocks, g, name);
}

template <typename T>
COOMatrix<T> Partitioner<T>::sparsityDataImplToCOOMatrix(const SparsityDataImpl<T> &d) const {
  const detail::Grid &g = impl->grid;
  std::vector<T> nz;
  std::vector<std::size_t> rows, cols;
  for (const HostBlock<T> &b : fromSlots(d, g, name)) {
    rows.push_back(b.row);
    cols.push_back(b.col);
    nz.insert(nz.end(), b.values.begin(), b.values.end());
  }
  return COOMatrix<T>(g.groups * g.outPerGroup, g.inPerGroup, nz, cols, rows, {{g.br, g.bc}});
}

template <typename T>
CSRMatrix<T> Partitioner<T>::sparsityDataImplToCSRMatrix(const SparsityDataImpl<T> &d) const {
  const detail::Grid &g = impl->grid;
  const std::size_t blockRows = g.groups * g.blockRows();
  std::vector<T> nz;
  std::vector<std::size_t> cols, rowStarts(blockRows + 1, 0);
  for (const HostBlock<T> &b : fromSlots(d, g, name)) { // grid order is row-major
    cols.push_back(b.col);
    nz.insert(nz.end(), b.values.begin(), b.values.end());
    rowStarts[b.row / g.br + 1] += g.area();
  }
  for (std::size_t r = 0; r < blockRows; ++r)
    rowStarts[r + 1] += rowStarts[r];
  return CSRMatrix<T>(g.groups * g.outPerGroup, g.inPerGroup, nz, cols, rowStarts, {{g.br, g.bc}});
}

template <typename T>
CSCMatrix<T> Partitioner<T>::sparsityDataImplToCSCMatrix(const SparsityDataImpl<T> &d) const {
  const detail::Grid &g = impl->grid;
  std::vector<HostBlock<T> > blocks = fromSlots(d, g, name);
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const HostBlock<T> &a, const HostBlock<T> &b) { return a.col < b.col; });
  std::vector<T> nz;
  std::vector<std::size_t> rows, colStarts(g.blockCols() + 1, 0);
  for (const HostBlock<T> &b : blocks) {
    rows.push_back(b.row);
    nz.insert(nz.end(), b.values.begin(), b.values.end());
    colStarts[b.col / g.bc + 1] += g.area();
  }
  for (std::size_t c = 0; c < g.blockCols(); ++c)
    colStarts[c + 1] += colStarts[c];
  return CSCMatrix<T>(g.groups * g.outPerGroup, g.inPerGroup, nz, colStarts, rows, {{g.br, g.bc}});
}

template <typename T> std::array<std::vector<std::size_t>, 3> Partitioner<T>::getPlanPartitions(void) const {
  return {{{1}, {1}, {1}}};
}

template <typename T> std::size_t Partitioner<T>::getmetaInfoBucketElements(void) const { return impl->grid.slots; }

template class Partitioner<float>;
template class Partitioner<double>;

} // namespace dynamic
} // namespace popsparse
