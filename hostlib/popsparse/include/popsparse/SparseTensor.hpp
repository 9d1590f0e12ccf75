// A sparse operand on the device (Graphcore's popsparse/SparseTensor.hpp): its non-zero values and, for dynamic
// sparsity, the meta-information saying where they are, which the host fills in when the program runs.
#ifndef POPSPARSE_SPARSE_TENSOR_HPP
#define POPSPARSE_SPARSE_TENSOR_HPP

#include <poplar/Tensor.hpp>
#include <poputil/TensorMetaData.hpp>

namespace popsparse {
namespace dynamic {

/// Dynamic sparsity: the pattern is data. In ipu-emu the meta-information is one UNSIGNED_INT per non-zero block
/// (the block's index in the row-major grid of blocks of all groups, or the grid's size for an unused slot) and
/// the values are the blocks one after another, each row-major; Partitioner writes both from host matrices.
class SparseTensor {
  poplar::Tensor metaInfo;
  poplar::Tensor nzValues;
  poputil::TensorMetaData opMetaData;

public:
  SparseTensor() = default;
  SparseTensor(const SparseTensor &t) = default;
  SparseTensor(const poplar::Tensor &metaInfo_, const poplar::Tensor &nzValues_,
               const poputil::TensorMetaData &opMetaData_ = {})
      : metaInfo(metaInfo_), nzValues(nzValues_), opMetaData(opMetaData_) {}
  const poplar::Tensor &getMetaInfoTensor() const { return metaInfo; }
  const poplar::Tensor &getNzValuesTensor() const { return nzValues; }
  const poputil::TensorMetaData &getOpMetaData() const { return opMetaData; }
};

} // namespace dynamic

namespace static_ {

/// Static sparsity: the pattern is fixed when the graph is built, so only the values are on the device.
class SparseTensor {
  poplar::Tensor nzValues;
  poputil::TensorMetaData opMetaData;

public:
  SparseTensor() = default;
  SparseTensor(const SparseTensor &t) = default;
  SparseTensor(const poplar::Tensor &nzValues_, const poputil::TensorMetaData &opMetaData_ = {})
      : nzValues(nzValues_), opMetaData(opMetaData_) {}
  const poplar::Tensor &getNzValuesTensor() const { return nzValues; }
  const poputil::TensorMetaData &getOpMetaData() const { return opMetaData; }
};

} // namespace static_
} // namespace popsparse

#endif
