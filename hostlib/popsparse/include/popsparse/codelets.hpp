// popsparse::addCodelets, as in Graphcore's PopLibs.
#ifndef POPSPARSE_CODELETS_HPP
#define POPSPARSE_CODELETS_HPP

#include <poplar/Graph.hpp>

/// Sparse matrix operations.
namespace popsparse {

/// Adds to `graph` the codelets that popsparse's operations run on the tiles (call once per graph, before building
/// popsparse operations; the poplin and popops codelets it loads need not be added again).
void addCodelets(poplar::Graph &graph);

} // namespace popsparse

#endif // POPSPARSE_CODELETS_HPP
