// JSON string literals: the one escaping of libpoplar's JSON writers (json_string.hpp).
#include "json_string.hpp"

namespace poplar::detail {

void writeJsonString(std::ostream &out, const std::string &text) {
  out << '"';
  for (unsigned char c : text) {
    switch (c) {
    case '"':
      out << "\\\"";
      break;
    case '\\':
      out << "\\\\";
      break;
    case '\n':
      out << "\\n";
      break;
    case '\t':
      out << "\\t";
      break;
    case '\r':
      out << "\\r";
      break;
    case '\b':
      out << "\\b";
      break;
    case '\f':
      out << "\\f";
      break;
    default:
      if (c < 0x20) {
        const char *hex = "0123456789abcdef";
        out << "\\u00" << hex[c >> 4] << hex[c & 0xf];
      } else {
        out << char(c);
      }
    }
  }
  out << '"';
}

} // namespace poplar::detail
