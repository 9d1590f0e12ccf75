// JSON string literals: the one escaping and unescaping of libpoplar's JSON (json_string.hpp).
#include "json_string.hpp"

#include <cstdint>

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

namespace {

/// Four hex digits at text[pos]; false if there are not four.
bool hex4(const std::string &text, std::size_t pos, std::uint32_t &v) {
  if (text.size() < 4 || pos > text.size() - 4)
    return false;
  v = 0;
  for (std::size_t i = pos; i < pos + 4; ++i) {
    char c = text[i];
    unsigned d = c >= '0' && c <= '9' ? unsigned(c - '0')
                 : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                        : 16u;
    if (d == 16)
      return false;
    v = v * 16 + d;
  }
  return true;
}

void appendUtf8(std::string &out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

} // namespace

std::string readJsonString(const std::string &text, std::size_t &pos, std::string &out) {
  out.clear();
  if (pos >= text.size() || text[pos] != '"')
    return "expected '\"'";
  ++pos;
  while (pos < text.size() && text[pos] != '"') {
    char c = text[pos];
    if (c != '\\') {
      out += c;
      ++pos;
      continue;
    }
    if (pos + 1 >= text.size())
      break;
    char e = text[pos + 1];
    switch (e) {
    case '"':
    case '\\':
    case '/':
      out += e;
      break;
    case 'b':
      out += '\b';
      break;
    case 'f':
      out += '\f';
      break;
    case 'n':
      out += '\n';
      break;
    case 'r':
      out += '\r';
      break;
    case 't':
      out += '\t';
      break;
    case 'u': {
      std::uint32_t cp;
      if (!hex4(text, pos + 2, cp))
        return "a \\u escape without four hex digits";
      if (cp >= 0xDC00 && cp <= 0xDFFF)
        return "a UTF-16 low surrogate (\\u" + text.substr(pos + 2, 4) + ") without a high one before it";
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        std::uint32_t low;
        if (text.compare(pos + 6, 2, "\\u") != 0 || !hex4(text, pos + 8, low) || low < 0xDC00 || low > 0xDFFF)
          return "a UTF-16 high surrogate (\\u" + text.substr(pos + 2, 4) + ") not followed by a low one";
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        pos += 6;
      }
      appendUtf8(out, cp);
      pos += 4;
      break;
    }
    default:
      return std::string("an unknown escape '\\") + e + "'";
    }
    pos += 2;
  }
  if (pos >= text.size())
    return "an unterminated string";
  ++pos;
  return "";
}

} // namespace poplar::detail
