// The checks and counts FullyConnectedParams and dynamic::MatMulParams share: both describe per group a sparse
// rows x cols matrix of blocks times a dense operand, with room for a fraction of the blocks.
#pragma once

#include <cstddef>

#include <popsparse/SparsityParams.hpp>

namespace popsparse {
namespace dynamic {
namespace detail {

/// The blocks of all groups; `who` (e.g. "popsparse::MatMulParams") starts the error when a size is 0 or rows and
/// cols are not whole blocks.
std::size_t checkedGridBlocks(const char *who, const SparsityParams &sp, std::size_t dense, std::size_t groups,
                              std::size_t rows, std::size_t cols);

/// The ratio that gives room for numNonZeroElems values, which must be a whole number of blocks of at most `blocks`.
double nzRatioFromCount(const char *who, const SparsityParams &sp, std::size_t numNonZeroElems, std::size_t blocks);

/// Refuses a ratio outside [0, 1].
void checkNzRatio(const char *who, double nzRatio);

/// The non-zero values a ratio makes room for: ceil(nzRatio x blocks) whole blocks.
std::size_t nzValuesFromRatio(const SparsityParams &sp, double nzRatio, std::size_t blocks);

} // namespace detail
} // namespace dynamic
} // namespace popsparse
