// popops::expr::Const's type and printed value (popops/Expr.hpp), out of line so that the header need not pull in
// the stream headers.
#include <cstdio>
#include <string>

#include "popops/Expr.hpp"

namespace popops::expr {

poplar::Type Const::getType() const {
  switch (kind_) {
  case INT_KIND:
    return poplar::INT;
  case UNSIGNED_KIND:
    return poplar::UNSIGNED_INT;
  case BOOL_KIND:
    return poplar::BOOL;
  case HALF_KIND:
    return poplar::HALF;
  case FLOAT_KIND:
    break;
  }
  return poplar::FLOAT;
}

std::string Const::printValue() const {
  char buf[64];
  if (kind_ == INT_KIND || kind_ == UNSIGNED_KIND || kind_ == BOOL_KIND)
    std::snprintf(buf, sizeof buf, "%.0f", value_);
  else
    std::snprintf(buf, sizeof buf, "%.17g", value_); // 17 digits: any double (and so any float) reads back exactly
  return buf;
}

} // namespace popops::expr
