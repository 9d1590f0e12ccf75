// Internal: a vertex's type name, interned for the whole process.
#pragma once

#include <string>

namespace poplar::detail {

/// The type name of a vertex. Every vertex of a type shares one interned string, so a vertex holds a pointer (no
/// allocation per vertex: tutorial 7 adds 80,000 vertices of two types) and the compiler's and the profile's lookups
/// by type read one string that stays in the cache, or compare ids. Interned names live until the process ends, so
/// a name outlives every graph (vertices are copied between graphs) and is never freed while in use.
class VertexTypeName {
public:
  VertexTypeName();
  explicit VertexTypeName(const std::string &name);
  VertexTypeName &operator=(const std::string &name) { return *this = VertexTypeName(name); }
  operator const std::string &() const { return *s_; }
  const std::string &str() const { return *s_; }
  /// Equal names have equal ids.
  const std::string *id() const { return s_; }
  bool operator==(const VertexTypeName &o) const { return s_ == o.s_; }
  bool operator!=(const VertexTypeName &o) const { return s_ != o.s_; }

private:
  const std::string *s_;
};

inline std::string operator+(const VertexTypeName &a, const std::string &b) { return a.str() + b; }
inline std::string operator+(const VertexTypeName &a, const char *b) { return a.str() + b; }
inline std::string operator+(const std::string &a, const VertexTypeName &b) { return a + b.str(); }
inline std::string operator+(const char *a, const VertexTypeName &b) { return a + b.str(); }

} // namespace poplar::detail
