// Names of the reduction operations for people and for vertex templates: poputil::asString gives the readable
// name ("Square Add"), and VertexTemplateToString<popops::Operation> the qualified enumerator that a vertex
// template argument is spelled with ("popops::Operation::SQUARE_ADD"). Header-only.
#ifndef POPOPS_OPERATIONDEFUTIL_HPP
#define POPOPS_OPERATIONDEFUTIL_HPP

#include <string>

#include "popops/Operation.hpp"
#include "poputil/VertexTemplates.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

/// The operation's readable name; throws poplibs_error for a value outside the enumeration.
inline const char *asString(const popops::Operation &op) {
  switch (op) {
  case popops::Operation::ADD:
    return "Add";
  case popops::Operation::MUL:
    return "Mul";
  case popops::Operation::MIN:
    return "Min";
  case popops::Operation::MAX:
    return "Max";
  case popops::Operation::LOGICAL_AND:
    return "Logical And";
  case popops::Operation::LOGICAL_OR:
    return "Logical Or";
  case popops::Operation::SQUARE_ADD:
    return "Square Add";
  case popops::Operation::LOG_ADD:
    return "Log Add";
  }
  throw poplibs_error("poputil::asString: " + std::to_string(int(op)) +
                      " is not a popops::Operation; pass one of its enumerators");
}

/// A vertex template argument of type popops::Operation, spelled as the qualified enumerator.
template <> struct VertexTemplateToString<popops::Operation> {
  static std::string to_string(const popops::Operation &op) {
    // asString's words, upper-cased and joined by '_', are the enumerator names.
    std::string name = asString(op);
    for (char &c : name)
      c = c == ' ' ? '_' : char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return "popops::Operation::" + name;
  }
};

} // namespace poputil

#endif // POPOPS_OPERATIONDEFUTIL_HPP
