// JSON string literals (RFC 8259), shared by every JSON reader and writer of libpoplar (option flags, profiles),
// so that whatever one writes the other reads back byte for byte.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

namespace poplar::detail {

/// Writes `text` as a JSON string literal: '"', '\\' and the control characters below 0x20 escaped (\n, \t, \r,
/// \b, \f by name, the rest as \u00XX); every other byte as it is, so UTF-8 passes through.
void writeJsonString(std::ostream &out, const std::string &text);

/// Reads the JSON string literal that starts at text[pos] (a '"') into `out` and moves `pos` past its closing
/// quote. Every escape is decoded: \" \\ \/ \b \f \n \r \t and \uXXXX, a surrogate pair as one code point, all
/// to UTF-8. Returns an empty string, or what is wrong (pos then points at the problem).
std::string readJsonString(const std::string &text, std::size_t &pos, std::string &out);

} // namespace poplar::detail
