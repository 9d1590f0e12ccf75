// Internal: see optimization_info.hpp.
#include "optimization_info.hpp"

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"
#include "profiling/profiles.hpp"

namespace poplar::detail {

std::string addOptimizationInfo(const Graph &graph, const std::string &key, double value) {
  if (key.empty())
    throw poplar_error("optimizationInfo: an entry needs a name (e.g. \"poplin::matMul/<debug name>\")");
  for (const char *own : kOwnOptimizationInfo)
    if (key == own)
      throw poplar_error("optimizationInfo: '" + key + "' is one of libpoplar's own entries; name the library's "
                         "entries after the library (\"<library>::<operation>/...\")");
  auto &entries = graph.impl().optimizationInfo;
  std::string unique = key;
  for (unsigned n = 2; entries.count(unique); ++n)
    unique = key + " (" + std::to_string(n) + ")";
  entries.emplace(unique, value);
  return unique;
}

} // namespace poplar::detail
