// Error code names (poplar/Error.hpp): one table read both ways.
#include "poplar/Error.hpp"

#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

// Indexed by the code's value, which runs 0 .. IPU_MEMORY_FAILURE without gaps.
const char *const names[] = {"NONE",
                             "UNKNOWN",
                             "TRAP",
                             "FLOATING_POINT_INVALID_OPERATION",
                             "FLOATING_POINT_DIVIDE_BY_ZERO",
                             "FLOATING_POINT_OVERFLOW",
                             "TILE_MEMORY_BANK_CONFLICT",
                             "INVALID_EXCHANGE_CONFIGURATION",
                             "INVALID_ADDRESS",
                             "INVALID_OPERAND",
                             "INVALID_PROGRAM_COUNTER",
                             "INVALID_INSTRUCTION",
                             "EXCHANGE_ERROR",
                             "MEMORY_ERROR",
                             "IPUSOFTERR",
                             "LINK_DOWN",
                             "HOST_LINK_DOWN",
                             "HOST_SYNC_TIMEOUT",
                             "IPU_MEMORY_FAILURE"};
const unsigned numCodes = sizeof names / sizeof names[0];
static_assert(sizeof names / sizeof names[0] == unsigned(ErrorCode::IPU_MEMORY_FAILURE) + 1,
              "one name per ErrorCode");
// The runtime fills runtime_error::ErrorInfo::code with these values as numbers (src/device_error_info.hpp of
// hostlib/runtime, which does not include this library's headers).
static_assert(unsigned(ErrorCode::UNKNOWN) == 1 && unsigned(ErrorCode::TRAP) == 2 &&
                  unsigned(ErrorCode::INVALID_ADDRESS) == 8 && unsigned(ErrorCode::INVALID_PROGRAM_COUNTER) == 10 &&
                  unsigned(ErrorCode::INVALID_INSTRUCTION) == 11 && unsigned(ErrorCode::EXCHANGE_ERROR) == 12,
              "the runtime's DeviceErrorCode values match ErrorCode");

} // namespace

std::string errorCodeToString(ErrorCode code) {
  const unsigned v = static_cast<unsigned>(code);
  if (v >= numCodes)
    throw poplar_error("errorCodeToString: " + std::to_string(v) + " is not an ErrorCode (the codes run 0 to " +
                       std::to_string(numCodes - 1) + "); pass one of the ErrorCode enumerators");
  return names[v];
}

ErrorCode errorCodeFromString(StringRef name) {
  const std::string text = name.cloneAsString();
  std::string known;
  for (unsigned v = 0; v < numCodes; ++v) {
    if (text == names[v])
      return static_cast<ErrorCode>(v);
    known += (v ? ", " : "") + std::string(names[v]);
  }
  throw poplar_error("errorCodeFromString: '" + text + "' is not an error code name; pass one of " + known);
}

} // namespace poplar
