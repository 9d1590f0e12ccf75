// The operations of a reduction, and their names on streams ("ADD", "LOG_ADD", ...).
#ifndef POPOPS_OPERATION_HPP
#define POPOPS_OPERATION_HPP

#include <iosfwd>

#include "popops/OperationDef.hpp"

namespace popops {

/// Reads an operation's name ("ADD", "MUL", ...); throws poputil::poplibs_error for another word.
std::istream &operator>>(std::istream &is, Operation &op);

/// Writes the operation's name ("ADD", "MUL", ...).
std::ostream &operator<<(std::ostream &os, const Operation &op);

} // namespace popops

#endif // POPOPS_OPERATION_HPP
