// The host side of static sparsity: a matrix's blocks in row-major order of the matrix are the order the static
// sparse operand holds its values in (static_layout.hpp). The pattern of the last matrix read is kept for the way
// back, as the values alone do not say where they belong.
#include "popsparse/SparsePartitioner.hpp"

#include <string>

#include "host_blocks.hpp"
#include "poputil/exceptions.hpp"
#include "static_layout.hpp"

namespace popsparse {
namespace static_ {

class PartitionerImpl {
public:
  MatMulParams params;
  // The pattern of the last matrix given: its shape and its blocks (row, column), in row-major order.
  bool havePattern = false;
  popsparse::detail::HostShape shape{0, 0, 0, 0};
  std::vector<std::pair<std::size_t, std::size_t> > blocks;
};

namespace {

template <typename T>
SparsityDataImpl<T> toValues(PartitionerImpl &impl, const Block &m,
                             const std::vector<popsparse::detail::HostBlock<T> > &blocks, const std::string &name) {
  const popsparse::detail::HostShape s =
      detail::shapeOf(impl.params, m.getNumRowsInBlock(), m.getNumColumnsInBlock(), name);
  std::vector<T> values;
  std::vector<std::pair<std::size_t, std::size_t> > pattern;
  for (const auto &numbered : popsparse::detail::numberBlocks(blocks, s, name)) {
    pattern.emplace_back(numbered.second->row, numbered.second->col);
    values.insert(values.end(), numbered.second->values.begin(), numbered.second->values.end());
  }
  impl.havePattern = true;
  impl.shape = s;
  impl.blocks = pattern;
  return SparsityDataImpl<T>(values);
}

template <typename T>
std::vector<popsparse::detail::HostBlock<T> > fromValues(const PartitionerImpl &impl, const SparsityDataImpl<T> &d,
                                                         const std::string &name) {
  if (!impl.havePattern)
    throw poputil::poplibs_error(name + ": no matrix has been given; call createSparsityDataImpl first, as the "
                                        "values alone do not say where they belong");
  const std::size_t area = impl.shape.br * impl.shape.bc;
  if (d.nzValues.size() != impl.blocks.size() * area)
    throw poputil::poplibs_error(name + ": the sparsity data has " + std::to_string(d.nzValues.size()) +
                                 " values; the last matrix given has " + std::to_string(impl.blocks.size() * area));
  std::vector<popsparse::detail::HostBlock<T> > out;
  for (std::size_t i = 0; i < impl.blocks.size(); ++i) {
    const auto first = d.nzValues.begin() + long(i * area);
    out.push_back({impl.blocks[i].first, impl.blocks[i].second, std::vector<T>(first, first + long(area))});
  }
  return out;
}

} // namespace

template <typename T>
Partitioner<T>::Partitioner(const MatMulParams &params, const poplar::Type &, const poplar::Target &,
                            const poplar::OptionFlags &, PlanningCache *, std::string name_)
    : name(name_.empty() ? std::string("popsparse::static_::Partitioner") : name_), impl(new PartitionerImpl) {
  impl->params = params;
}

template <typename T> Partitioner<T>::~Partitioner() = default;

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSCMatrix<T> &m) const {
  return toValues(*impl, m, popsparse::detail::readBlocks(m, name), name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const CSRMatrix<T> &m) const {
  return toValues(*impl, m, popsparse::detail::readBlocks(m, name), name);
}

template <typename T> SparsityDataImpl<T> Partitioner<T>::createSparsityDataImpl(const COOMatrix<T> &m) const {
  return toValues(*impl, m, popsparse::detail::readBlocks(m, name), name);
}

template <typename T>
COOMatrix<T> Partitioner<T>::sparsityDataImplToCOOMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCOO(fromValues(*impl, d, name), impl->shape);
}

template <typename T>
CSRMatrix<T> Partitioner<T>::sparsityDataImplToCSRMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCSR(fromValues(*impl, d, name), impl->shape);
}

template <typename T>
CSCMatrix<T> Partitioner<T>::sparsityDataImplToCSCMatrix(const SparsityDataImpl<T> &d) const {
  return popsparse::detail::toCSC(fromValues(*impl, d, name), impl->shape);
}

template class Partitioner<float>;
template class Partitioner<double>;

} // namespace static_
} // namespace popsparse
