// Names of the reduction operations on streams.
#include "popops/Operation.hpp"

#include <istream>
#include <ostream>
#include <string>

#include "poputil/exceptions.hpp"

namespace popops {

namespace {

const char *const kNames[] = {"ADD", "MUL", "MIN", "MAX", "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOG_ADD"};
const unsigned kCount = sizeof(kNames) / sizeof(kNames[0]);

} // namespace

std::istream &operator>>(std::istream &is, Operation &op) {
  std::string word;
  if (!(is >> word))
    return is;
  for (unsigned i = 0; i < kCount; ++i)
    if (word == kNames[i]) {
      op = Operation(i);
      return is;
    }
  std::string known;
  for (unsigned i = 0; i < kCount; ++i)
    known += std::string(i ? ", " : "") + kNames[i];
  throw poputil::poplibs_error("popops::Operation: unknown operation '" + word + "'; use one of " + known);
}

std::ostream &operator<<(std::ostream &os, const Operation &op) {
  const unsigned i = unsigned(op);
  return i < kCount ? os << kNames[i] : os << "Operation(" << i << ")";
}

} // namespace popops
