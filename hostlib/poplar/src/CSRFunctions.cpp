// poplar/CSRFunctions.hpp: the tiles' floating-point behaviour. The emulated tiles' behaviour is fixed (quiet IEEE
// exceptions, round to nearest even, half overflow to infinity; see the header), so these functions validate their
// arguments and add only what a caller can observe: the state tensor getAndModifyFloatingPointBehaviour returns.
#include "poplar/CSRFunctions.hpp"

#include <string>

#include "poplar/exceptions.hpp"

namespace poplar {

void setFloatingPointBehaviour(Graph &, program::Sequence &, const FloatingPointBehaviour &, const DebugContext &) {
  // Every FloatingPointBehaviour is valid; the emulated tiles keep their fixed behaviour.
}

void setFloatingPointBehaviour(Graph &graph, program::Sequence &, const Tensor &behaviour, const DebugContext &) {
  if (!behaviour.valid() || behaviour.numElements() != 1 || behaviour.elementType() != UNSIGNED_INT)
    throw poplar_error("setFloatingPointBehaviour(graph, prog, behaviour): behaviour must be the one-element "
                       "UNSIGNED_INT tensor that getAndModifyFloatingPointBehaviour returned; got " +
                       (behaviour.valid() ? std::to_string(behaviour.numElements()) + " elements of " +
                                                behaviour.elementType().toString()
                                          : std::string("an empty tensor")));
  (void)graph;
}

void setStochasticRounding(Graph &, program::Sequence &, bool, const DebugContext &) {
  // The emulated tiles always round to nearest even.
}

Tensor getAndModifyFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &,
                                          const FloatingPointBehaviour &, const DebugContext &debugContext) {
  // The state read is the tiles' fixed one: no exception traps, no stochastic rounding, no NaN on overflow (0).
  Tensor fixed = graph.addConstant(UNSIGNED_INT, {1}, 0u, {debugContext, "fpBehaviour/fixed"});
  graph.setTileMapping(fixed, 0);
  Tensor state = graph.addVariable(UNSIGNED_INT, {1}, {debugContext, "fpBehaviour/state"});
  graph.setTileMapping(state, 0);
  prog.add(program::Copy(fixed, state, false, {debugContext, "fpBehaviour/read"}));
  return state;
}

} // namespace poplar
