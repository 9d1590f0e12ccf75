// Host-side conversion between sparse matrices and the device's sparse operand (Graphcore's
// popsparse/SparsePartitioner.hpp): a dynamic::Partitioner turns a COO, CSR or CSC matrix into the meta-information
// and non-zero values a dynamic::SparseTensor holds, and back; a static_::Partitioner orders a matrix's non-zero
// values as a static_::SparseTensor holds them, and back.
#ifndef POPSPARSE_SPARSE_PARTITIONER_HPP
#define POPSPARSE_SPARSE_PARTITIONER_HPP

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseStorageFormats.hpp>

namespace popsparse {
namespace dynamic {

class PartitionerImpl;

/// The contents of a SparseTensor's two tensors, to write with Engine::writeTensor (metaInfo as UNSIGNED_INT).
template <typename T> struct SparsityDataImpl {
  std::vector<std::size_t> metaInfo;
  std::vector<T> nzValues;
};

/// The matrix is [getOutputChannels(), getInputChannelsPerGroup()]: the weights of group g are its rows
/// g * outputChannelsPerGroup onwards. Block formats must use the parameters' block shape. A matrix with more
/// non-zero blocks than the parameters have room for is refused; unused room is written as empty slots.
template <typename T> class Partitioner {
  std::string name;

public:
  const PartitionerImpl &getImpl() const { return *impl; }
  Partitioner(const FullyConnectedParams &params, const poplar::Type &dataType, const poplar::Target &target,
              const poplar::OptionFlags &options, PlanningCache *cache = {}, std::string name = "");
  /// For the sparse operand [groups x m, k] of a sparse x dense product (groups stacked by rows).
  Partitioner(const MatMulParams &params, const poplar::Type &dataType, const poplar::Target &target,
              const poplar::OptionFlags &options, PlanningCache *cache = {}, std::string name = "");
  ~Partitioner();

  SparsityDataImpl<T> createSparsityDataImpl(const CSCMatrix<T> &matrix_) const;
  SparsityDataImpl<T> createSparsityDataImpl(const CSRMatrix<T> &matrix_) const;
  SparsityDataImpl<T> createSparsityDataImpl(const COOMatrix<T> &matrix_) const;
  /// The matrix back, its blocks in row-major order of the grid.
  COOMatrix<T> sparsityDataImplToCOOMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;
  CSRMatrix<T> sparsityDataImplToCSRMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;
  CSCMatrix<T> sparsityDataImplToCSCMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;
  /// How the operation is split over tiles in the X, Y and Z dimensions: one partition each (ipu-emu leaves the
  /// split to poplin's matmul planner).
  std::array<std::vector<std::size_t>, 3> getPlanPartitions(void) const;
  /// Elements of the meta-information tensor.
  std::size_t getmetaInfoBucketElements(void) const;

private:
  std::unique_ptr<PartitionerImpl> impl;
};

} // namespace dynamic

namespace static_ {

/// The contents of a static_::SparseTensor's values, to write with Engine::writeTensor.
template <typename T> struct SparsityDataImpl {
  std::vector<T> nzValues;
  SparsityDataImpl(std::vector<T> nzValues_) : nzValues(std::move(nzValues_)) {}
};

class PartitionerImpl;

/// The values of a static sparse operand in the order its tensor holds them: the non-zero blocks in row-major
/// order of the matrix, each block row-major. The matrix is [groups x m, k] for a sparse x dense product and
/// [groups x k, m] for a dense x sparse one (groups stacked by rows). The way back uses the pattern of the last
/// matrix given to createSparsityDataImpl.
template <typename T> class Partitioner {
  std::string name;

public:
  const PartitionerImpl &getImpl() const { return *impl; }
  Partitioner(const MatMulParams &params, const poplar::Type &dataType, const poplar::Target &target,
              const poplar::OptionFlags &options, PlanningCache *cache = {}, std::string name = "");
  ~Partitioner();

  SparsityDataImpl<T> createSparsityDataImpl(const CSCMatrix<T> &matrix) const;
  SparsityDataImpl<T> createSparsityDataImpl(const CSRMatrix<T> &matrix) const;
  SparsityDataImpl<T> createSparsityDataImpl(const COOMatrix<T> &matrix) const;
  /// The matrix back, its blocks in row-major order.
  COOMatrix<T> sparsityDataImplToCOOMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;
  CSRMatrix<T> sparsityDataImplToCSRMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;
  CSCMatrix<T> sparsityDataImplToCSCMatrix(const SparsityDataImpl<T> &sparsityDataImpl) const;

private:
  std::unique_ptr<PartitionerImpl> impl;
};

} // namespace static_
} // namespace popsparse

#endif
