// Internal: see hw_state.hpp. The state lives in libpoplar (poplar/detail/HwSeedState.hpp), so that
// poplar::getHwSeeds and setHwSeeds reach the same state poprand's generators read and advance.
#include "hw_state.hpp"

#include <poplar/detail/HwSeedState.hpp>

#include "poputil/exceptions.hpp"

namespace poprand::detail {

unsigned modifierMix(unsigned seedModifier) { return poplar::detail::hwSeedModifierMix(seedModifier); }

// Kept when present: poplar::getHwSeeds may have made it already, and its copies must read the state in use.
void createHwState(poplar::Graph &graph) { poplar::detail::hwSeedState(graph, true); }

poplar::Tensor hwState(poplar::Graph &graph, const std::string &name) {
  poplar::Tensor state = poplar::detail::hwSeedState(graph, false);
  if (!state.valid())
    throw poputil::poplibs_error(name + ": this graph has no generator state; call poprand::addCodelets(graph) "
                                        "on it (a virtual graph needs its own call) before poprand functions");
  return state;
}

} // namespace poprand::detail
