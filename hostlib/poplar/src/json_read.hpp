// Why nlohmann-json refused a document, in the words libpoplar's readers use (option flags, profiles): one
// translation, so that every JSON reader names a bad escape or an overflowing number the same way.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace poplar::detail {

/// The problem a SAX handler's parse_error reports, as "<what> at offset <n>" (n counts bytes from 0, the byte
/// at which the parser gave up). `lastToken` is the text the parser read last, as nlohmann gives it.
std::string jsonParseProblem(std::size_t position, const std::string &lastToken,
                             const nlohmann::json::exception &error);

} // namespace poplar::detail
