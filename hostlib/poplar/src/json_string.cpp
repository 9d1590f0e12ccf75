// JSON string literals: the one escaping of libpoplar's JSON writers (json_string.hpp).
#include "json_string.hpp"

namespace poplar::detail {

namespace {

/// The length of the well-formed UTF-8 sequence at `text[i]` (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8SequenceAt(const std::string &text, std::size_t i) {
  auto byte = [&](std::size_t k) { return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u; };
  auto continuation = [&](std::size_t k) { return (byte(k) & 0xC0) == 0x80; };
  unsigned lead = byte(i);
  if (lead >= 0xC2 && lead <= 0xDF)
    return continuation(i + 1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    unsigned second = byte(i + 1);
    bool ok = continuation(i + 1) && continuation(i + 2) && !(lead == 0xE0 && second < 0xA0) &&
              !(lead == 0xED && second >= 0xA0);
    return ok ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    unsigned second = byte(i + 1);
    bool ok = continuation(i + 1) && continuation(i + 2) && continuation(i + 3) &&
              !(lead == 0xF0 && second < 0x90) && !(lead == 0xF4 && second >= 0x90);
    return ok ? 4 : 0;
  }
  return 0;
}

} // namespace

void writeJsonString(std::ostream &out, const std::string &text) {
  out << '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      // JSON text is UTF-8, and the readers (ours among them) refuse a file that is not: a byte that does not
      // start a well-formed sequence is written as U+FFFD, the replacement character, rather than as itself.
      std::size_t n = utf8SequenceAt(text, i);
      if (n == 0) {
        out << "\\ufffd";
      } else {
        out.write(text.data() + i, static_cast<std::streamsize>(n));
        i += n - 1;
      }
      continue;
    }
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
