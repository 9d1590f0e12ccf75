// Internal: the graph variables each compute set's vertices are connected to, for the graph profile (its liveness
// table and the vars() of each OnTileExecute program).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <vector>

#include "poplar/ProfileValue.hpp"

namespace poplar::detail {

struct GraphImpl;

/// Each compute set's variables, found once per compute set and kept: their ids for the liveness table and their
/// names (each once, sorted) for the program list. A large compute set's walk over every vertex's edges is one of
/// the compile's larger costs, and a graph can have many compute sets and many variables, so a compute set costs
/// its own edges only, never a pass over all of the graph's variables.
class ComputeSetVariables {
public:
  explicit ComputeSetVariables(const GraphImpl &graph);
  const std::set<std::size_t> &ids(unsigned cs) { return entry(cs).ids; }
  const ProfileValue &names(unsigned cs);

private:
  struct Entry {
    std::set<std::size_t> ids;
    ProfileValue names; ///< made on first ask (named): the liveness table needs only the ids
    bool named = false;
  };
  Entry &entry(unsigned cs);
  std::set<std::size_t> variableIds(unsigned cs);

  const GraphImpl &graph_;
  /// A flag per graph variable, all clear between calls of variableIds: it sets a flag per variable it meets and
  /// clears just those before returning (tutorial 7's multiply compute set has 210,000 edges over three variables).
  std::vector<char> seen_;
  std::map<unsigned, Entry> entries_;
};

} // namespace poplar::detail
