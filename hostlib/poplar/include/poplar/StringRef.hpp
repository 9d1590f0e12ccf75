// StringRef: a non-owning view of characters, the type Poplar's SDK passes option values and names as.
#ifndef POPLAR_STRING_REF_HPP
#define POPLAR_STRING_REF_HPP

#include <cstddef>
#include <cstring>
#include <ostream>
#include <string>

#include "poplar/ArrayRef.hpp"

namespace poplar {

/// A view of `size()` characters (not NUL-terminated) owned elsewhere: the string, array or literal it was made
/// from must outlive it. Convert to std::string (cloneAsString or the conversion) to keep the text.
class StringRef : public ArrayRef<char> {
public:
  /// An empty view.
  StringRef() : ArrayRef<char>() {}
  /// The characters of `s`.
  StringRef(const std::string &s) : ArrayRef<char>(s.data(), s.size()) {}
  /// The characters of the NUL-terminated `s` (empty for a null pointer).
  StringRef(const char *s) : ArrayRef<char>(s, s ? std::strlen(s) : 0) {}
  /// The `size` characters from `s`.
  StringRef(const char *s, std::size_t size) : ArrayRef<char>(s, size) {}

  /// A copy of the characters.
  std::string cloneAsString() const { return size() ? std::string(data(), size()) : std::string(); }
  /// A copy of the characters.
  operator std::string() const { return cloneAsString(); }
  /// Whether there are no characters.
  bool empty() const { return size() == 0; }

  /// Negative, zero or positive as this view sorts before, with or after `o` (byte-wise, a prefix first).
  int compare(const StringRef &o) const {
    const std::size_t n = size() < o.size() ? size() : o.size();
    const int c = n ? std::memcmp(data(), o.data(), n) : 0;
    if (c != 0)
      return c;
    return size() < o.size() ? -1 : size() > o.size() ? 1 : 0;
  }
};

inline bool operator==(const StringRef &a, const StringRef &b) { return a.compare(b) == 0; }
inline bool operator!=(const StringRef &a, const StringRef &b) { return a.compare(b) != 0; }
inline bool operator<(const StringRef &a, const StringRef &b) { return a.compare(b) < 0; }
inline bool operator<=(const StringRef &a, const StringRef &b) { return a.compare(b) <= 0; }
inline bool operator>(const StringRef &a, const StringRef &b) { return a.compare(b) > 0; }
inline bool operator>=(const StringRef &a, const StringRef &b) { return a.compare(b) >= 0; }

/// `a` followed by the characters of `b`.
inline std::string operator+(const std::string &a, const StringRef &b) {
  std::string s(a);
  s.append(b.data(), b.size());
  return s;
}
/// The characters of `a` followed by `b`.
inline std::string operator+(const StringRef &a, const std::string &b) { return a.cloneAsString() + b; }
/// The characters of `a` followed by those of `b`.
inline std::string operator+(const StringRef &a, const StringRef &b) { return a.cloneAsString() + b; }
/// Appends the characters of `b` to `a`.
inline std::string &operator+=(std::string &a, const StringRef &b) { return a.append(b.data(), b.size()); }

/// Writes the characters.
inline std::ostream &operator<<(std::ostream &os, const StringRef &s) { return os.write(s.data(), long(s.size())); }

} // namespace poplar

#endif
