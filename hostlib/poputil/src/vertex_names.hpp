// Internal: the names of templated vertex classes, shared by the PopLibs libraries whose codelets define vertices
// as class templates (popops' Reduce, sort and slice vertices, poplin's MatMul and ReducePartials).
//
// popc records each vertex class under the name the tile compiler gives it in the debug information: for an
// instantiation of a class template that is "ns::Name<float, half>" (the C++ names of the arguments, ", " between
// them). Graph::addVertex takes that exact name, so the host side spells it the same way here.
#pragma once

#include <initializer_list>
#include <string>

#include <poplar/Type.hpp>

#include "poputil/exceptions.hpp"

namespace poputil::detail {

/// The C++ name of element type `t` as the tile compiler spells a template argument (g++: "unsigned int",
/// "short unsigned int", "unsigned char").
inline std::string vertexTypeName(const poplar::Type &t) {
  if (t == poplar::FLOAT)
    return "float";
  if (t == poplar::HALF)
    return "half";
  if (t == poplar::INT)
    return "int";
  if (t == poplar::UNSIGNED_INT)
    return "unsigned int";
  if (t == poplar::UNSIGNED_SHORT)
    return "short unsigned int";
  if (t == poplar::SHORT)
    return "short int";
  if (t == poplar::UNSIGNED_CHAR)
    return "unsigned char";
  if (t == poplar::CHAR)
    return "char";
  if (t == poplar::SIGNED_CHAR)
    return "signed char";
  if (t == poplar::UNSIGNED_LONGLONG)
    return "long long unsigned int";
  if (t == poplar::BOOL)
    return "bool";
  throw poputil::poplibs_error("vertex template argument: element type " + t.toString() +
                               " has no vertex instantiation (FLOAT, HALF, INT, UNSIGNED_INT, SHORT, "
                               "UNSIGNED_SHORT, UNSIGNED_CHAR, CHAR, SIGNED_CHAR, UNSIGNED_LONGLONG and BOOL have)");
}

/// The vertex class `name` (namespace-qualified class template) instantiated with `types`, as popc records it.
inline std::string templateVertex(const std::string &name, std::initializer_list<poplar::Type> types) {
  std::string s = name + "<";
  const char *sep = "";
  for (const poplar::Type &t : types) {
    s += sep + vertexTypeName(t);
    sep = ", ";
  }
  return s + ">";
}

} // namespace poputil::detail
