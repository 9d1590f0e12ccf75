// Internal: the graph rules of external exchange vertices (Graph::addExternalExchangeVertex). The emulated card
// has no exchange blocks at its edges, so such a vertex runs as an ordinary vertex; the rules the SDK documents
// for where these vertices may go are still enforced, so that a graph built here is valid for the SDK too.
#pragma once

#include <set>
#include <string>

#include "graph_impl.hpp"

namespace poplar::detail {

/// Refuses (graph_object_creation_error) adding a vertex of the other kind to compute set `cs`: a compute set holds
/// external exchange vertices only, or none. `external` is the kind of the vertex being added.
void checkExternalExchangeMix(const GraphImpl &g, unsigned cs, bool external, const std::string &vertexType);

/// Checks the compute sets `used` of a program at compile time (graph_program_compilation_error): at most one
/// external exchange vertex per tile in a compute set, and the tile that sends XREQ is the same in every compute
/// set with external exchange vertices (at most one sender per compute set).
void checkExternalExchange(const GraphImpl &g, const std::set<unsigned> &used);

} // namespace poplar::detail
