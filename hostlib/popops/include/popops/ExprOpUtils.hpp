// Stream output of the expression operation types, by their enumerator names ("ADD", "SQRT", "SELECT"). The
// operators sit in namespace popops::expr::ostream_ext so that a program opts in with a using-directive, as
// Graphcore's PopLibs has them.
#ifndef POPOPS_EXPROPUTILS_HPP
#define POPOPS_EXPROPUTILS_HPP

#include <iosfwd>

#include "popops/ExprOp.hpp"

namespace popops {
namespace expr {
namespace ostream_ext {

std::ostream &operator<<(std::ostream &os, const UnaryOpType &t);
std::ostream &operator<<(std::ostream &os, const BinaryOpType &t);
std::ostream &operator<<(std::ostream &os, const TernaryOpType &t);

} // namespace ostream_ext
} // namespace expr
} // namespace popops

#endif // POPOPS_EXPROPUTILS_HPP
