// The one profile reader behind parseProfileJSON and parseProfileCBOR: nlohmann-json parses either format and
// this SAX handler builds the ProfileValue, refusing what a profile never holds and any nesting beyond
// kProfileMaxDepth.
#pragma once
#include <string>

#include "poplar/ProfileValue.hpp"

namespace poplar::detail {

enum class ProfileFormat { JSON, CBOR };

/// Reads a whole profile document. Throws poplar::profiling_error "<reader>: <what> [at offset <n>]", where
/// reader is parseProfileJSON or parseProfileCBOR.
ProfileValue readProfile(const std::string &document, ProfileFormat format);

} // namespace poplar::detail
