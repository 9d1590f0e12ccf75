// The name every popops operation gives its programs, tensors and errors: the caller's debug path, or
// "popops::<function>" when the caller gave none. One definition for the whole library.
#pragma once

#include <string>

#include "poplibs_support.hpp"

namespace popops {

inline std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::operationName(debugContext, "popops::", fn);
}

} // namespace popops
