// Internal to libpopsparse: how a block-sparse matrix is laid out (its non-zero blocks in the row-major order of
// the mask) and the sub-block mask, shared by the matmul and the softmax.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <poplar/Tensor.hpp>

#include "popsparse/experimental/BlockSparse.hpp"

namespace popsparse {
namespace experimental {
namespace detail {

/// The index of each mask position's block among the stored blocks (-1 for a zero block), and their count.
struct BlockIndex {
  std::vector<long> index;
  std::size_t nonZero = 0;
};
/// Numbers the non-zero entries of `mask` in order. Throws poputil::poplibs_error if `mask` does not have
/// `expected` entries (`what` names the caller).
BlockIndex indexBlocks(const std::vector<unsigned char> &mask, std::size_t expected, const std::string &what);

/// Block `i` of `blocks` ([nz, rows * cols]) as a rows x cols view.
inline poplar::Tensor blockView(const poplar::Tensor &blocks, std::size_t i, std::size_t rows, std::size_t cols) {
  return blocks[i].reshape({rows, cols});
}

/// Whether dense element (row, col) of a group's matrix is masked by `mask`.
inline bool isMasked(SubBlockMask mask, std::size_t row, std::size_t col) {
  return (mask == SubBlockMask::ZeroUpperTriangle && col > row) ||
         (mask == SubBlockMask::ZeroLowerTriangle && col < row);
}

/// The sub-block mask over the stored blocks: for each block with a masked element, its position among the stored
/// blocks and its rows * cols flags (1 = kept, 0 = masked), row-major. The dense rows are split into `groups`
/// equal groups; each group's rows restart at 0 (`rowsPerGroup` rows each).
struct MaskedBlocks {
  std::vector<std::size_t> blocks;
  std::vector<float> keep; // blocks.size() * rows * cols flags
};
MaskedBlocks maskedBlocks(SubBlockMask mask, const std::vector<unsigned char> &sparsity, std::size_t blockRows,
                          std::size_t blockCols, std::size_t rows, std::size_t cols, std::size_t rowsPerGroup);

/// Checks that `t` is a 2-D tensor of `nz` blocks of `elems` elements (poputil::poplibs_error naming `what`).
void checkBlocksShape(const poplar::Tensor &t, std::size_t nz, std::size_t elems, const std::string &what);

} // namespace detail
} // namespace experimental
} // namespace popsparse
