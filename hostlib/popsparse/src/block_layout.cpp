// The block-sparse layout helpers of block_layout.hpp.
#include "block_layout.hpp"

#include "poputil/exceptions.hpp"

namespace popsparse {
namespace experimental {
namespace detail {

BlockIndex indexBlocks(const std::vector<unsigned char> &mask, std::size_t expected, const std::string &what) {
  if (mask.size() != expected)
    throw poputil::poplibs_error(what + ": the sparsity mask has " + std::to_string(mask.size()) +
                                 " entries; the shape and block size give " + std::to_string(expected));
  BlockIndex b;
  b.index.reserve(mask.size());
  for (unsigned char m : mask)
    b.index.push_back(m ? static_cast<long>(b.nonZero++) : -1L);
  return b;
}

MaskedBlocks maskedBlocks(SubBlockMask mask, const std::vector<unsigned char> &sparsity, std::size_t blockRows,
                          std::size_t blockCols, std::size_t rows, std::size_t cols, std::size_t rowsPerGroup) {
  MaskedBlocks out;
  if (mask == SubBlockMask::None)
    return out;
  const std::size_t gridCols = cols / blockCols;
  std::size_t stored = 0;
  std::vector<float> flags(blockRows * blockCols);
  for (std::size_t pos = 0; pos < sparsity.size(); ++pos) {
    if (!sparsity[pos])
      continue;
    const std::size_t r0 = (pos / gridCols) * blockRows, c0 = (pos % gridCols) * blockCols;
    bool any = false;
    for (std::size_t i = 0; i < blockRows; ++i)
      for (std::size_t j = 0; j < blockCols; ++j) {
        const bool masked = isMasked(mask, (r0 + i) % rowsPerGroup, c0 + j);
        flags[i * blockCols + j] = masked ? 0.0f : 1.0f;
        any = any || masked;
      }
    if (any) {
      out.blocks.push_back(stored);
      out.keep.insert(out.keep.end(), flags.begin(), flags.end());
    }
    ++stored;
  }
  (void)rows;
  return out;
}

void checkBlocksShape(const poplar::Tensor &t, std::size_t nz, std::size_t elems, const std::string &what) {
  if (t.rank() != 2 || t.dim(0) != nz || t.dim(1) != elems)
    throw poputil::poplibs_error(what + ": expected the non-zero blocks as a [" + std::to_string(nz) + ", " +
                                 std::to_string(elems) + "] tensor, got rank " + std::to_string(t.rank()) +
                                 (t.rank() ? " with " + std::to_string(t.numElements()) + " elements" : ""));
}

} // namespace detail
} // namespace experimental
} // namespace popsparse
