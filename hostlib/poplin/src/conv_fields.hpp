// Internal: the one walk over the named fields of ConvParams' transforms, in the order operator<< prints them, so
// that printing, reading (operator>>) and hashing (hash_value) cannot disagree about which fields there are.
#pragma once

#include "poplin/ConvParams.hpp"

namespace poplin::detail {

/// Calls f(name, field) for each field of an input (or kernel) transform; T is InputTransform, const or not.
template <typename T, typename F> void forEachInputTransformField(T &t, F &&f) {
  f("truncationLower", t.truncationLower);
  f("truncationUpper", t.truncationUpper);
  f("dilation", t.dilation);
  f("paddingLower", t.paddingLower);
  f("paddingUpper", t.paddingUpper);
  f("flip", t.flip);
}

/// The same for an output transform.
template <typename T, typename F> void forEachOutputTransformField(T &t, F &&f) {
  f("truncationLower", t.truncationLower);
  f("truncationUpper", t.truncationUpper);
  f("stride", t.stride);
  f("paddingLower", t.paddingLower);
  f("paddingUpper", t.paddingUpper);
}

} // namespace poplin::detail
