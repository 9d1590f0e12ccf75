// Internal: the debug names of the tensors and programs gcl's collectives add.
#pragma once

#include <string>

namespace gcl::detail {

/// `what` under the caller's debug path `prefix`, or under "gcl" when the caller gave none.
inline std::string debugName(const std::string &prefix, const std::string &what) {
  return prefix.empty() ? "gcl/" + what : prefix + "/" + what;
}

} // namespace gcl::detail
