// popvis: text placed in the HTML page (names from the profile and the trace) escaped once, in one place, so that a
// name holding markup characters shows as text and cannot break the page.
#ifndef POPVIS_HTML_ESCAPE_HPP
#define POPVIS_HTML_ESCAPE_HPP

#include <string>

namespace popvis {

/// `s` with <, >, & and " written as entities (safe in element text and in double-quoted attributes).
inline std::string escape(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return out;
}

} // namespace popvis

#endif // POPVIS_HTML_ESCAPE_HPP
