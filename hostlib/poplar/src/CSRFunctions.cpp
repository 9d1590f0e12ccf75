// poplar/CSRFunctions.hpp: the tiles' floating-point behaviour. The emulated tiles' arithmetic is fixed (see the
// header); the one field modelled is nanoo, held in a control word of the graph that these functions write in
// program order and PopLibs' QUARTER conversions read (getFloatingPointControlTensor).
#include "poplar/CSRFunctions.hpp"

#include <memory>
#include <string>

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {
unsigned controlWord(const FloatingPointBehaviour &b) { return b.nanoo ? unsigned(FP_CONTROL_NANOO) : 0u; }

/// Appends the writing of `word` into the control word.
void writeControl(Graph &graph, program::Sequence &prog, unsigned word, const DebugContext &debugContext) {
  Tensor value = graph.addConstant(UNSIGNED_INT, {1}, word, {debugContext, "fpBehaviour/value"});
  graph.setTileMapping(value, 0);
  prog.add(program::Copy(value, getFloatingPointControlTensor(graph), false, {debugContext, "fpBehaviour/set"}));
}
} // namespace

Tensor getFloatingPointControlTensor(Graph &graph) {
  auto &slot = graph.impl().fpControl;
  if (!slot) {
    Tensor t = graph.addVariable(UNSIGNED_INT, {1}, "fpControl");
    graph.setTileMapping(t, 0);
    graph.setInitialValue(t, 0u);
    slot = std::make_shared<Tensor>(t);
  }
  return *slot;
}

void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &behaviour,
                               const DebugContext &debugContext) {
  writeControl(graph, prog, controlWord(behaviour), debugContext);
}

void setFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const Tensor &behaviour,
                               const DebugContext &debugContext) {
  if (!behaviour.valid() || behaviour.numElements() != 1 || behaviour.elementType() != UNSIGNED_INT)
    throw poplar_error("setFloatingPointBehaviour(graph, prog, behaviour): behaviour must be the one-element "
                       "UNSIGNED_INT tensor that getAndModifyFloatingPointBehaviour returned; got " +
                       (behaviour.valid() ? std::to_string(behaviour.numElements()) + " elements of " +
                                                behaviour.elementType().toString()
                                          : std::string("an empty tensor")));
  prog.add(program::Copy(behaviour.flatten(), getFloatingPointControlTensor(graph), false,
                         {debugContext, "fpBehaviour/restore"}));
}

void setStochasticRounding(Graph &, program::Sequence &, bool, const DebugContext &) {
  // The emulated tiles always round to nearest even.
}

Tensor getAndModifyFloatingPointBehaviour(Graph &graph, program::Sequence &prog, const FloatingPointBehaviour &clear,
                                          const FloatingPointBehaviour &set, const DebugContext &debugContext) {
  Tensor state = graph.addVariable(UNSIGNED_INT, {1}, {debugContext, "fpBehaviour/state"});
  graph.setTileMapping(state, 0);
  prog.add(program::Copy(getFloatingPointControlTensor(graph), state, false, {debugContext, "fpBehaviour/read"}));
  // The word holds nanoo only, so the modified state is known on the host unless nanoo is left as it was.
  if (set.nanoo || clear.nanoo)
    writeControl(graph, prog, set.nanoo ? unsigned(FP_CONTROL_NANOO) : 0u, debugContext);
  return state;
}

} // namespace poplar
