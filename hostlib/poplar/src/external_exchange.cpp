// The graph rules of external exchange vertices (see external_exchange.hpp).
#include "external_exchange.hpp"

#include <map>

#include "poplar/exceptions.hpp"

namespace poplar::detail {

void checkExternalExchangeMix(const GraphImpl &g, unsigned cs, bool external, const std::string &vertexType) {
  const ComputeSetInfo &info = g.computeSets.at(cs);
  if (info.vertices.empty() || g.vertices[info.vertices.front()].externalExchange == external)
    return;
  throw graph_object_creation_error(
      std::string(external ? "addExternalExchangeVertex(" : "addVertex(") + vertexType + "): compute set '" +
      info.name + "' already holds " + (external ? "ordinary" : "external exchange") +
      " vertices, and a compute set cannot mix the two kinds; add this vertex to a compute set of its own");
}

void checkExternalExchange(const GraphImpl &g, const std::set<unsigned> &used) {
  const unsigned none = ~0u;
  unsigned xreqTile = none;
  std::string xreqSet;
  for (unsigned cs : used) {
    const ComputeSetInfo &info = g.computeSets[cs];
    std::map<unsigned, unsigned> perTile;
    unsigned sender = none;
    for (unsigned v : info.vertices) {
      const Vertex &vx = g.vertices[v];
      if (!vx.externalExchange)
        continue;
      if (++perTile[vx.tile] > 1)
        throw graph_program_compilation_error("compute set '" + info.name + "' has two external exchange vertices on tile " +
                                              std::to_string(vx.tile) +
                                              "; a compute set may hold one per tile: map the second to another tile");
      if (!vx.sendsXReq)
        continue;
      if (sender != none)
        throw graph_program_compilation_error("compute set '" + info.name + "' has XREQ senders on tiles " +
                                              std::to_string(sender) + " and " + std::to_string(vx.tile) +
                                              "; pass sendsXReq = true for one vertex only");
      sender = vx.tile;
      if (xreqTile != none && xreqTile != sender)
        throw graph_program_compilation_error("the XREQ sender is tile " + std::to_string(xreqTile) +
                                              " in compute set '" + xreqSet + "' but tile " +
                                              std::to_string(sender) + " in '" + info.name +
                                              "'; every compute set must send XREQ from the same tile");
      xreqTile = sender;
      xreqSet = info.name;
    }
  }
}

} // namespace poplar::detail
