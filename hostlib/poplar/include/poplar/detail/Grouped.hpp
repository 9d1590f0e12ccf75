// Internal, shared by libpoplar's profile summaries and popvis (libpva's report page): how a count is printed, so
// that the text summary and the HTML page show the same number the same way. Not part of the SDK's API.
#ifndef POPLAR_DETAIL_GROUPED_HPP
#define POPLAR_DETAIL_GROUPED_HPP

#include <cstdint>
#include <string>

namespace poplar {
namespace detail {

/// 1234567 -> "1,234,567": the count in decimal, its digits grouped in threes by commas.
std::string grouped(std::uint64_t v);

} // namespace detail
} // namespace poplar

#endif // POPLAR_DETAIL_GROUPED_HPP
