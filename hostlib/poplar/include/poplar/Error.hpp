// The error codes a device reports (tile exceptions, link and host-sync failures), and their names, in the header of
// the same path as the SDK's.
#ifndef POPLAR_ERROR_HPP
#define POPLAR_ERROR_HPP

#include <string>

#include "poplar/StringRef.hpp"

namespace poplar {

/// One code per kind of device error; NONE is 0.
enum class ErrorCode : unsigned {
  NONE = 0,
  UNKNOWN,                          ///< an error with no code of its own yet
  TRAP,                             ///< a tile raised a debug exception
  FLOATING_POINT_INVALID_OPERATION, ///< an invalid floating-point operation (e.g. with a NaN operand)
  FLOATING_POINT_DIVIDE_BY_ZERO,    ///< a floating-point division by zero
  FLOATING_POINT_OVERFLOW,          ///< a floating-point result too large for its type
  TILE_MEMORY_BANK_CONFLICT,        ///< threads of a tile accessed one memory bank at once
  INVALID_EXCHANGE_CONFIGURATION,   ///< a tile set up its exchange wrongly
  INVALID_ADDRESS,                  ///< a tile accessed memory it cannot reach
  INVALID_OPERAND,                  ///< an instruction with an invalid operand
  INVALID_PROGRAM_COUNTER,          ///< a tile's program counter left its code
  INVALID_INSTRUCTION,              ///< a tile met an instruction that does not exist
  EXCHANGE_ERROR,                   ///< an exchange between tiles failed
  MEMORY_ERROR,                     ///< a tile found a memory parity error
  IPUSOFTERR,                       ///< a memory error reported by the chip rather than a tile
  LINK_DOWN,                        ///< an IPU-Link between IPUs failed
  HOST_LINK_DOWN,                   ///< the link to the host failed
  HOST_SYNC_TIMEOUT,                ///< the host heard nothing from the device within its sync timeout
  IPU_MEMORY_FAILURE                ///< the IPU's memory failed
};

class Engine;

/// Where a simulated error happens (Engine::getSimulatedErrorLocations, insertSimulatedError): here, the code one
/// compute set runs on one tile. Only an Engine makes locations.
class ErrorLocation {
public:
  /// The tile the error happens on.
  unsigned getTile() const { return tile_; }
  bool operator==(const ErrorLocation &o) const { return tile_ == o.tile_ && computeSet_ == o.computeSet_; }
  bool operator!=(const ErrorLocation &o) const { return !(*this == o); }
  bool operator<(const ErrorLocation &o) const {
    return tile_ != o.tile_ ? tile_ < o.tile_ : computeSet_ < o.computeSet_;
  }

private:
  friend class Engine;
  ErrorLocation(unsigned tile, unsigned computeSet) : tile_(tile), computeSet_(computeSet) {}
  unsigned tile_;
  unsigned computeSet_;
};

/// The code's enumerator name ("FLOATING_POINT_OVERFLOW"). Throws poplar_error for a value outside the enum.
std::string errorCodeToString(ErrorCode code);
/// The code whose enumerator name is `name` (as errorCodeToString writes it). Throws poplar_error naming `name`
/// and the known names when it is none of them.
ErrorCode errorCodeFromString(StringRef name);

} // namespace poplar

#endif // POPLAR_ERROR_HPP
