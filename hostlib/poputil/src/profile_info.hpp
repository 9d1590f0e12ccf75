// Internal: what a PopLibs library records in the graph profile's optimizationInfo (poplin: its planner's
// estimate of each product). libpoplar holds the entries and writes them into the profile; PopLibs adds them
// through here, as it logs through log.hpp.
#pragma once

#include <string>

#include <poplar/Graph.hpp>

namespace poputil::detail {

/// Adds `value` under `key` ("<library>::<operation>/<debug name>") to the optimizationInfo of `graph`'s profile;
/// a repeated key gets " (2)", " (3)", ... appended. Returns the key used.
std::string addOptimizationInfo(const poplar::Graph &graph, const std::string &key, double value);

} // namespace poputil::detail
