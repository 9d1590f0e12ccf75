// Element types: sizes and names of the nine DTYPE codes.
#include "poplar/Type.hpp"

#include "ipu_card/hw.h"
#include "poplar/exceptions.hpp"

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

namespace {
struct TypeRow {
  const char *name;
  std::size_t size;
};
constexpr TypeRow kTypes[] = {{"float", 4}, {"half", 2},           {"int", 4},  {"unsigned int", 4},  {"short", 2},
                              {"unsigned short", 2}, {"char", 1}, {"unsigned char", 1}, {"bool", 1}};
} // namespace

bool Type::isValid() const { return id_ < sizeof kTypes / sizeof kTypes[0]; }

std::size_t Type::getSize() const {
  if (!isValid())
    throw poplar_error("Type::getSize: invalid type (use one of FLOAT, HALF, INT, ...)");
  return kTypes[id_].size;
}

std::string Type::toString() const { return isValid() ? kTypes[id_].name : "<invalid type>"; }

bool Type::isFloatingPoint() const { return id_ == IPU_DTYPE_FLOAT || id_ == IPU_DTYPE_HALF; }

Type typeFromString(const std::string &name) {
  for (unsigned i = 0; i < sizeof kTypes / sizeof kTypes[0]; ++i)
    if (name == kTypes[i].name)
      return Type(i);
  throw poplar_error("unknown type name '" + name + "': use float, half, int, unsigned int, short, unsigned short, "
                     "char, unsigned char or bool");
}

std::ostream &operator<<(std::ostream &os, const Type &t) { return os << t.toString(); }

} // namespace poplar
