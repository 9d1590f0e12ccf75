// JSON string literals: the one escaping of libpoplar's JSON writers (json_string.hpp), done by nlohmann-json.
#include "json_string.hpp"

#include <nlohmann/json.hpp>

namespace poplar::detail {

void writeJsonString(std::ostream &out, const std::string &text) {
  // nlohmann's serializer escapes '"', '\\' and the control characters (\b \f \n \r \t by name, the rest as
  // \u00xx) and keeps well-formed UTF-8 as it is (ensure_ascii off). A file must be UTF-8 for its readers (ours
  // among them) to accept it, so ill-formed bytes are written as U+FFFD ("replace") rather than refused: one per
  // maximal ill-formed subpart, as Unicode's "U+FFFD substitution of maximal subparts" (chapter 3) recommends,
  // so a cut sequence (a lead byte and its continuations, then no more) is one replacement and a byte that can
  // start no sequence (an overlong lead, a stray continuation) is one each.
  out << nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace poplar::detail
