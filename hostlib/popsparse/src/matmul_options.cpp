// Checks the sparse products' documented options and passes poplin the ones its planner uses.
#include "matmul_options.hpp"

#include <cstdlib>

#include <poplar/exceptions.hpp>

namespace popsparse {
namespace detail {

namespace {

void checkProportion(const std::string &name, const std::string &key, const std::string &value) {
  char *end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !(v >= 0.0 && v <= 1.0))
    throw poplar::invalid_option(name + ": option " + key + "='" + value + "' is not a number from 0 to 1");
}

} // namespace

poplar::OptionFlags poplinMatMulOptions(const poplar::OptionFlags &options, MatMulOptionSet set,
                                        const std::string &name) {
  const bool dynamic = set == MatMulOptionSet::Dynamic;
  poplar::OptionFlags out;
  for (const auto &kv : options) {
    const std::string &key = kv.first, &value = kv.second;
    if (key == "availableMemoryProportion" || (dynamic && key == "partialsType")) {
      out.set(key, value);
    } else if (dynamic && key == "metaInfoBucketOversizeProportion") {
      checkProportion(name, key, value);
    } else if (dynamic && key == "sharedBuckets") {
      if (value != "true" && value != "false")
        throw poplar::invalid_option(name + ": option sharedBuckets='" + value + "' is not true or false");
    } else {
      throw poplar::invalid_option(name + ": unknown option '" + key + "' (known: availableMemoryProportion" +
                                   (dynamic ? ", partialsType, metaInfoBucketOversizeProportion, sharedBuckets)"
                                            : ")"));
    }
  }
  return out;
}

} // namespace detail
} // namespace popsparse
