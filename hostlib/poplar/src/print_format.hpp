// Internal: how PrintTensor and ErrorProgram show a tensor's values on the host, in the SDK's format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "poplar/PrintTensor.hpp"
#include "poplar/Type.hpp"

namespace poplar::detail {

/// One element as the SDK prints it: FLOAT and HALF with seven decimals ("1.5000000"), integers as they are,
/// BOOL as 0 or 1. `text` is the element as the tile printed it (a number in C printf form).
std::string formatElementText(const std::string &text, const Type &type);
/// Element `i` of device bytes `data` of `type`, formatted as above.
std::string formatElementBytes(const std::uint8_t *data, std::size_t i, const Type &type);
/// The values (row-major) as "[a b c]" for rank 0 and 1; for rank 2 and up one bracketed line per innermost row,
/// each level indented by one more space:
///   [
///    [1 2]
///    [3 4]
///   ]
std::string formatTensor(const std::vector<std::string> &values, const std::vector<std::size_t> &shape);
/// As above, laid out as `fmt` says: its brackets and separator, a summary ("...") past its threshold, and
/// floating-point `values` (as the tile printed them) rewritten with its digits and float format.
std::string formatTensor(const std::vector<std::string> &values, const std::vector<std::size_t> &shape,
                         const Type &type, const PrintTensorFmt &fmt);

} // namespace poplar::detail
