// BSMatMulParams: checks and records the structure of a block-sparse product (bs_matmul_impl.hpp).
#include <string>

#include "bs_matmul_impl.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace experimental {

namespace {
void checkType(const poplar::Type &t, const char *role) {
  if (t != poplar::HALF && t != poplar::FLOAT)
    throw poputil::poplibs_error(std::string("BSMatMulParams: the ") + role + " type must be HALF or FLOAT");
}
} // namespace

BSMatMulImpl::BSMatMulImpl(Kind kindIn, const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
                           const std::vector<unsigned char> &mask, bool transposed, poplar::Type in,
                           poplar::Type out, poplar::Type partial, SubBlockMask sub, unsigned numGroups)
    : kind(kindIn), sparsity(mask), rhsTransposed(transposed), inType(in), outType(out), partialType(partial),
      subBlockMask(sub), groups(numGroups) {
  for (int i = 0; i < 3; ++i)
    if (dim[i] <= 0 || blockSize[i] <= 0 || dim[i] % blockSize[i] != 0)
      throw poputil::poplibs_error("BSMatMulParams: dimension " + std::to_string(i) + " (" +
                                   std::to_string(dim[i]) + ") must be a positive multiple of its block size (" +
                                   std::to_string(blockSize[i]) + ")");
  if (numGroups == 0)
    throw poputil::poplibs_error("BSMatMulParams: the number of groups must be at least 1");
  checkType(in, "input");
  checkType(out, "output");
  checkType(partial, "partials");
  m = std::size_t(dim[0]), k = std::size_t(dim[1]), n = std::size_t(dim[2]);
  bm = std::size_t(blockSize[0]), bk = std::size_t(blockSize[1]), bn = std::size_t(blockSize[2]);
  blocks = detail::indexBlocks(sparsity, groups * maskPerGroup(), "BSMatMulParams");
}

BSMatMulParams::BSMatMulParams(const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
                               const std::vector<unsigned char> &rhsSparsity, bool rhsNeedTranspose,
                               poplar::Type inDataType, poplar::Type outDataType, poplar::Type partialDataType,
                               unsigned numGroupsIn)
    : impl(new BSMatMulImpl(BSMatMulImpl::Kind::DenseSparse, dim, blockSize, rhsSparsity, rhsNeedTranspose,
                            inDataType, outDataType, partialDataType, SubBlockMask::None, numGroupsIn)) {}

BSMatMulParams::BSMatMulParams(const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
                               const std::vector<unsigned char> &resSparsity, poplar::Type inDataType,
                               poplar::Type outDataType, poplar::Type partialDataType, SubBlockMask subBlockMask,
                               unsigned numGroupsIn)
    : impl(new BSMatMulImpl(BSMatMulImpl::Kind::DenseDenseSparseResult, dim, blockSize, resSparsity, false,
                            inDataType, outDataType, partialDataType, subBlockMask, numGroupsIn)) {}

BSMatMulParams::BSMatMulParams(BSMatMulParams &&other) = default;

BSMatMulParams::~BSMatMulParams() = default;

} // namespace experimental
} // namespace popsparse
