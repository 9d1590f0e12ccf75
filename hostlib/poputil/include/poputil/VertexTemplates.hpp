// The name of a vertex class template instance, as poplar::Graph::addVertex takes it: templateVertex("ns::V",
// poplar::FLOAT, 4, true) is "ns::V<float,4,true>". Element types are spelled by poplar::Type::toString(), other
// arguments by VertexTemplateToString (std::to_string unless specialised), strings as given, bools as true/false.
#ifndef POPUTIL_VERTEXTEMPLATES_HPP
#define POPUTIL_VERTEXTEMPLATES_HPP

#include <string>
#include <utility>

#include <poplar/Type.hpp>

namespace poputil {

/// How a template argument of type T is written; specialise it for enumerations and other types of your own.
template <typename T> struct VertexTemplateToString {
  static std::string to_string(const T &x) { return std::to_string(x); }
};

/// The end of the argument list: "" when there were no arguments, else the closing ">".
inline std::string templateVertexParams(bool first) { return first ? "" : ">"; }

template <typename... Args>
inline std::string templateVertexParams(bool first, const std::string &val, Args &&...args);
template <typename... Args> inline std::string templateVertexParams(bool first, const char *val, Args &&...args);
template <typename... Args>
inline std::string templateVertexParams(bool first, const poplar::Type &type, Args &&...args);
template <typename... Args> inline std::string templateVertexParams(bool first, bool b, Args &&...args);

/// The template argument list from `val` on: "<" before the first argument, "," between them, ">" at the end.
template <typename T, typename... Args>
inline std::string templateVertexParams(bool first, const T &val, Args &&...args) {
  return (first ? "<" : ",") + VertexTemplateToString<T>::to_string(val) +
         templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, const poplar::Type &type, Args &&...args) {
  return (first ? "<" : ",") + type.toString() + templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, const std::string &val, Args &&...args) {
  return (first ? "<" : ",") + val + templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args> inline std::string templateVertexParams(bool first, const char *val, Args &&...args) {
  return (first ? "<" : ",") + std::string(val) + templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args> inline std::string templateVertexParams(bool first, bool b, Args &&...args) {
  return (first ? "<" : ",") + std::string(b ? "true" : "false") +
         templateVertexParams(false, std::forward<Args>(args)...);
}

/// The vertex class `name` instantiated with `args` (see the top of this header).
template <typename... Args> inline std::string templateVertex(const std::string &name, Args &&...args) {
  return name + templateVertexParams(true, std::forward<Args>(args)...);
}

} // namespace poputil

#endif // POPUTIL_VERTEXTEMPLATES_HPP
