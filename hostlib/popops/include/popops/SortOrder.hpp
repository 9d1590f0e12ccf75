// The order a sorting operation must give its results (popops::topK).
#ifndef POPOPS_SORTORDER_HPP
#define POPOPS_SORTORDER_HPP

#include <iosfwd>

namespace popops {

/// A required order of results.
enum class SortOrder {
  NONE,      ///< any order
  ASCENDING, ///< smallest first
  DESCENDING ///< largest first
};

/// Prints the name of `o` ("none", "ascending", "descending").
std::ostream &operator<<(std::ostream &os, const SortOrder &o);

} // namespace popops

#endif // POPOPS_SORTORDER_HPP
