// Internal (for PopLibs, through libpoputil): entries a library attaches to the graph profile's optimizationInfo,
// the map of named figures the profile's JSON/CBOR output and printProfileSummary's "showOptimizations" section
// list beside libpoplar's own (tilesInUse, exchangeBytes, ...). poplin records its planner's estimate there.
#pragma once

#include <string>

#include "poplar/Graph.hpp"

namespace poplar::detail {

/// Adds `value` under `key` to the optimizationInfo of the profile of `graph` (of its top-level graph: virtual
/// and replicated graphs share it). A key already present gets " (2)", " (3)", ... appended, so that two
/// operations of the same debug name both appear. Returns the key used. Throws poplar_error for an empty key or
/// one of libpoplar's own entries.
std::string addOptimizationInfo(const Graph &graph, const std::string &key, double value);

} // namespace poplar::detail
