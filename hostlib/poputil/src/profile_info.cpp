// Internal: see profile_info.hpp; the one implementation is libpoplar's.
#include "profile_info.hpp"

#include "../../poplar/src/optimization_info.hpp"

namespace poputil::detail {

std::string addOptimizationInfo(const poplar::Graph &graph, const std::string &key, double value) {
  return poplar::detail::addOptimizationInfo(graph, key, value);
}

} // namespace poputil::detail
