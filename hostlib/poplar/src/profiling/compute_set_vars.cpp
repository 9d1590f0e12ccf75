// Internal: the graph variables of each compute set (compute_set_vars.hpp).
#include "compute_set_vars.hpp"

#include <string>

#include "../graph_impl.hpp"

namespace poplar::detail {

ComputeSetVariables::ComputeSetVariables(const GraphImpl &graph) : graph_(graph), seen_(graph.vars.size(), 0) {}

const ProfileValue &ComputeSetVariables::names(unsigned cs) {
  Entry &e = entry(cs);
  if (!e.named) {
    std::set<std::string> sorted;
    for (std::size_t id : e.ids)
      sorted.insert(graph_.vars[id].name);
    ProfileValue list{ProfileValue::Vector{}};
    list.asVector().assign(sorted.begin(), sorted.end());
    e.names = std::move(list);
    e.named = true;
  }
  return e.names;
}

ComputeSetVariables::Entry &ComputeSetVariables::entry(unsigned cs) {
  auto it = entries_.find(cs);
  if (it == entries_.end())
    it = entries_.emplace(cs, Entry{variableIds(cs), {}, false}).first;
  return it->second;
}

std::set<std::size_t> ComputeSetVariables::variableIds(unsigned cs) {
  std::vector<std::size_t> found;
  auto add = [&](const Tensor &t) {
    for (const auto &r : t.regions())
      if (r.var < seen_.size() && !seen_[r.var]) {
        seen_[r.var] = 1;
        found.push_back(r.var);
      }
  };
  if (cs < graph_.computeSets.size())
    for (unsigned v : graph_.computeSets[cs].vertices) {
      for (const auto &[field, t] : graph_.vertices[v].edges)
        add(t);
      for (const auto &[field, ts] : graph_.vertices[v].lists)
        for (const Tensor &t : ts)
          add(t);
    }
  for (std::size_t id : found)
    seen_[id] = 0;
  return std::set<std::size_t>(found.begin(), found.end());
}

} // namespace poplar::detail
