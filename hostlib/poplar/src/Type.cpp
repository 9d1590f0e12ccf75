// Element types: sizes and names. The first nine are the card's DTYPE codes; the rest are the SDK's other types,
// which the host side knows (memory, copies, host transfers) and which reach the tile only as one of the nine.
#include "poplar/Type.hpp"

#include "ipu_card/hw.h"
#include "poplar/exceptions.hpp"
#include "type_codes.hpp"

namespace poplar {

const Type FLOAT(IPU_DTYPE_FLOAT);
const Type HALF(IPU_DTYPE_HALF);
const Type INT(IPU_DTYPE_INT);
const Type UNSIGNED_INT(IPU_DTYPE_UNSIGNED_INT);
const Type SHORT(IPU_DTYPE_SHORT);
const Type UNSIGNED_SHORT(IPU_DTYPE_UNSIGNED_SHORT);
const Type CHAR(IPU_DTYPE_CHAR);
const Type UNSIGNED_CHAR(IPU_DTYPE_UNSIGNED_CHAR);
const Type BOOL(IPU_DTYPE_BOOL);
const Type SIGNED_CHAR(detail::kTypeSignedChar);
const Type LONG(detail::kTypeLong);
const Type UNSIGNED_LONG(detail::kTypeUnsignedLong);
const Type LONGLONG(detail::kTypeLongLong);
const Type UNSIGNED_LONGLONG(detail::kTypeUnsignedLongLong);
const Type QUARTER(detail::kTypeQuarter);
const Type QUARTER_METADATA(detail::kTypeQuarterMetadata);

namespace {
struct TypeRow {
  const char *name;
  std::size_t size;
};
// Indexed by id. long is 8 bytes, as the host's (equivalent_device_type<long> is LONG and streams copy bytes);
// quarter is the 8-bit float of IPU21.
constexpr TypeRow kTypes[] = {{"float", 4},         {"half", 2},          {"int", 4},
                              {"unsigned int", 4},  {"short", 2},         {"unsigned short", 2},
                              {"char", 1},          {"unsigned char", 1}, {"bool", 1},
                              {"signed char", 1},   {"long", 8},          {"unsigned long", 8},
                              {"long long", 8},     {"unsigned long long", 8}, {"quarter", 1},
                              {"quarter_metadata", 1}};
static_assert(sizeof kTypes / sizeof kTypes[0] == detail::kNumTypes, "one row per type id");
} // namespace

bool Type::isValid() const { return id_ < sizeof kTypes / sizeof kTypes[0]; }
bool Type::requiresMetadata() const { return *this == QUARTER; }

std::size_t Type::getSize() const {
  if (!isValid())
    throw poplar_error("Type::getSize: invalid type (use one of FLOAT, HALF, INT, ...)");
  return kTypes[id_].size;
}

std::string Type::toString() const { return isValid() ? kTypes[id_].name : "<invalid type>"; }

bool Type::isFloatingPoint() const {
  return id_ == IPU_DTYPE_FLOAT || id_ == IPU_DTYPE_HALF || id_ == detail::kTypeQuarter;
}

namespace detail {
unsigned deviceTypeCode(const Type &t) {
  switch (t.id()) {
  case kTypeSignedChar: return IPU_DTYPE_CHAR;
  default: return t.id() < kTypeSignedChar ? t.id() : ~0u;
  }
}
} // namespace detail

Type typeFromString(const std::string &name) {
  for (unsigned i = 0; i < sizeof kTypes / sizeof kTypes[0]; ++i)
    if (name == kTypes[i].name)
      return Type(i);
  throw poplar_error("unknown type name '" + name + "': use float, half, int, unsigned int, short, unsigned short, "
                     "char, unsigned char, bool, signed char, long, unsigned long, long long, unsigned long long, "
                     "quarter or quarter_metadata");
}

std::ostream &operator<<(std::ostream &os, const Type &t) { return os << t.toString(); }

} // namespace poplar
