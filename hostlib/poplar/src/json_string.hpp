// JSON string literals (RFC 8259) as libpoplar's JSON writers write them (option flags, profiles, program dumps):
// nlohmann-json escapes them and reads them back (json_read.hpp). The documents' layout is the writers' own (the
// files keep their shape); only the strings go through this function.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

namespace poplar::detail {

/// Writes `text` as a JSON string literal: '"', '\\' and the control characters below 0x20 escaped (\n, \t, \r,
/// \b, \f by name, the rest as \u00xx); well-formed UTF-8 as it is; each maximal ill-formed UTF-8 subpart as
/// U+FFFD (its three UTF-8 bytes), so that every file written is JSON a reader accepts.
void writeJsonString(std::ostream &out, const std::string &text);

} // namespace poplar::detail
