// The options of popsparse's sparse x dense products, turned into poplin's matmul options (the products run as
// poplin matmuls, so the options that mean something to them are passed on and the rest only checked).
#pragma once

#include <string>

#include <poplar/OptionFlags.hpp>

namespace popsparse {
namespace detail {

/// Which options an entry point documents.
enum class MatMulOptionSet {
  Dynamic, // availableMemoryProportion, partialsType, metaInfoBucketOversizeProportion, sharedBuckets
  Static   // availableMemoryProportion (partial sums are of the data's type)
};

/// poplin's options for `options` of entry point `name`; an unknown option or a bad value of an option only checked
/// here throws poplar::invalid_option naming it (poplin checks the values it is passed).
poplar::OptionFlags poplinMatMulOptions(const poplar::OptionFlags &options, MatMulOptionSet set,
                                        const std::string &name);

} // namespace detail
} // namespace popsparse
