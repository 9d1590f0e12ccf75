// JSON string literals (RFC 8259) as libpoplar's JSON writers write them (option flags, profiles, program dumps);
// nlohmann-json reads them back (json_read.hpp). The writers are ours: nlohmann's dump refuses a name that is not
// UTF-8, and its layout is not the files'.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

namespace poplar::detail {

/// Writes `text` as a JSON string literal: '"', '\\' and the control characters below 0x20 escaped (\n, \t, \r,
/// \b, \f by name, the rest as \u00XX); well-formed UTF-8 as it is; a byte that does not start a well-formed
/// UTF-8 sequence as \ufffd (U+FFFD), so that every file written is JSON a reader accepts.
void writeJsonString(std::ostream &out, const std::string &text);

} // namespace poplar::detail
