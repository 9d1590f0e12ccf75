// gcl's options: the SDK's names are accepted so that programs written for it build unchanged; they steer the
// hardware's collective schedule, which the emulated collectives do not have, so after the check they have no
// effect (gcl/Collectives.hpp says so).
#include "options.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include <poplar/exceptions.hpp>

namespace gcl::detail {

namespace {

bool isPositiveWholeNumber(const std::string &v) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  const unsigned long long n = std::strtoull(v.c_str(), nullptr, 10);
  return errno == 0 && n >= 1;
}

} // namespace

void checkOptions(const poplar::OptionFlags &options, const char *what) {
  const std::string where = std::string("gcl::") + what + ": option '";
  for (const auto &kv : options) {
    const std::string &key = kv.first, &value = kv.second;
    if (key == "useSynclessCollectives") {
      if (value != "auto" && value != "true" && value != "false" && value != "hybrid")
        throw poplar::invalid_option(where + key + "' cannot be '" + value +
                                     "'; give auto, true, false or hybrid");
    } else if (key == "maxBytesPerTile") {
      if (!isPositiveWholeNumber(value))
        throw poplar::invalid_option(where + key + "' cannot be '" + value + "'; give a whole number of bytes >= 1");
    } else if (key == "collectiveImplementation" || key == "topology") {
      if (value.empty())
        throw poplar::invalid_option(where + key + "' is empty; give a name or leave the option out");
    } else {
      throw poplar::invalid_option(where + key + "' is unknown; gcl knows useSynclessCollectives, maxBytesPerTile, "
                                                 "collectiveImplementation and topology");
    }
  }
}

} // namespace gcl::detail
