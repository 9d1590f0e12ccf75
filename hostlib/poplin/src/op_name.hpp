// The debug name every poplin operation gives its programs, tensors and errors: the caller's debug path with the
// function's name appended, or "poplin::<function>" ("poplin::experimental::<function>" for the experimental
// factorisations) when the caller gave none. One definition for the whole library instead of one per file.
#pragma once

#include <string>

#include "poplibs_support.hpp"

namespace poplin {

inline std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::debugName(debugContext, "poplin::", fn);
}

namespace experimental {

inline std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::debugName(debugContext, "poplin::experimental::", fn);
}

} // namespace experimental
} // namespace poplin
