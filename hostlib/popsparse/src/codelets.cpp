// popsparse::addCodelets: popsparse's graphs are made of poplin's matmul and popops' element-wise operations and
// reductions, so its codelets are theirs (loading a codelet file twice is a no-op in Graph::addCodelets).
#include "popsparse/codelets.hpp"

#include "poplin/codelets.hpp"
#include "popops/codelets.hpp"

namespace popsparse {

void addCodelets(poplar::Graph &graph) {
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
}

} // namespace popsparse
