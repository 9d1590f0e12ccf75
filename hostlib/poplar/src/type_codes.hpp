// Internal: the ids of the types beyond the card's nine DTYPE codes, and the tile's code for each type.
#pragma once

#include "poplar/Type.hpp"

namespace poplar::detail {

// Host-side ids after the contract's DTYPE codes (0 .. 8, ipu_card/hw.h).
constexpr unsigned kTypeSignedChar = 9;
constexpr unsigned kTypeLong = 10;
constexpr unsigned kTypeUnsignedLong = 11;
constexpr unsigned kTypeLongLong = 12;
constexpr unsigned kTypeUnsignedLongLong = 13;
constexpr unsigned kTypeQuarter = 14;
constexpr unsigned kTypeQuarterMetadata = 15;
constexpr unsigned kNumTypes = 16;

/// The DTYPE code the tile runtime knows for `t`: its own for the nine, CHAR's for signed char (the same
/// representation), ~0u for the types the tiles cannot interpret (the 8-byte integers, quarter and its metadata).
unsigned deviceTypeCode(const Type &t);

} // namespace poplar::detail
