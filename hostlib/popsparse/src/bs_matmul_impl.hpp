// Internal to libpopsparse: what a BSMatMulParams describes (the definition of its pimpl).
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include <poplar/Type.hpp>

#include "block_layout.hpp"
#include "popsparse/experimental/BlockSparseMatMul.hpp"

namespace popsparse {
namespace experimental {

class BSMatMulImpl {
public:
  /// Which operand or result is sparse.
  enum class Kind { DenseSparse, DenseDenseSparseResult };
  Kind kind = Kind::DenseSparse;
  std::size_t m = 0, k = 0, n = 0;    // the product of one group: [m, k] x [k, n]
  std::size_t bm = 0, bk = 0, bn = 0; // block sizes along m, k, n
  std::vector<unsigned char> sparsity;
  bool rhsTransposed = false;
  poplar::Type inType, outType, partialType;
  SubBlockMask subBlockMask = SubBlockMask::None;
  std::size_t groups = 1;
  detail::BlockIndex blocks; // the stored blocks of the sparse operand or result, over all groups

  /// Validates the arguments (poputil::poplibs_error naming the problem) and numbers the blocks.
  BSMatMulImpl(Kind kind, const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
               const std::vector<unsigned char> &sparsity, bool rhsTransposed, poplar::Type inType,
               poplar::Type outType, poplar::Type partialType, SubBlockMask mask, unsigned groups);
  /// Mask entries of one group.
  std::size_t maskPerGroup() const {
    return kind == Kind::DenseSparse ? (k / bk) * (n / bn) : (m / bm) * (n / bn);
  }
};

} // namespace experimental
} // namespace popsparse
