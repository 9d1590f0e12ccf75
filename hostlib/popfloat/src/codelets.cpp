// popfloat::experimental::addCodelets: popfloat has no tile code of its own here, so it loads popops', which the
// programs that use popfloat's helpers compute with.
#include "popfloat/experimental/codelets.hpp"

#include "popops/codelets.hpp"

namespace popfloat {
namespace experimental {

void addCodelets(poplar::Graph &graph) { popops::addCodelets(graph); }

} // namespace experimental
} // namespace popfloat
