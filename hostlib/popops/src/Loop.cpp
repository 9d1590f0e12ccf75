// popops/Loop.hpp: counted loops. The count is a device tensor on tile 0; countedLoop repeats a fixed number of
// times and advances the count with a map, countedForLoop tests the count against a limit tensor each pass with a
// ForLoopCounter vertex (the predicate of a RepeatWhileTrue), so the number of passes is known only at run time.
#include "popops/Loop.hpp"

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;

namespace {

void checkCounter(const Tensor &t, const char *role, const std::string &name) {
  if (!t.valid())
    throw poplibs_error(name + ": " + role + " is an invalid (default-constructed) tensor");
  if (t.elementType() != poplar::INT && t.elementType() != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": " + role + " holds " + t.elementType().toString() +
                        "; pass an INT or UNSIGNED_INT tensor");
  if (t.numElements() != 1)
    throw poplibs_error(name + ": " + role + " has shape " + t.shapeToString() + "; pass a one-element tensor");
}

} // namespace

Sequence countedLoop(poplar::Graph &graph, std::size_t begin, std::size_t end, std::size_t step,
                     const CountedLoopBodyType &body, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "countedLoop");
  if (step == 0)
    throw poplibs_error(name + ": step is 0; pass a step greater than zero");
  if (begin >= end)
    throw poplibs_error(name + ": begin (" + std::to_string(begin) + ") is not below end (" + std::to_string(end) +
                        "); pass begin < end");
  if (end > 0xffffffffu)
    throw poplibs_error(name + ": end " + std::to_string(end) +
                        " does not fit the UNSIGNED_INT count; loop over at most 2^32 - 1");
  if (!body)
    throw poplibs_error(name + ": the body function is empty; pass a function returning the loop body");
  Tensor count = graph.addVariable(poplar::UNSIGNED_INT, {1}, name + "/count");
  graph.setTileMapping(count, 0);
  Tensor first = graph.addConstant(poplar::UNSIGNED_INT, {1}, unsigned(begin), name + "/begin");
  graph.setTileMapping(first, 0);
  Sequence prog;
  prog.add(poplar::program::Copy(first, count));
  Sequence pass;
  pass.add(body(count));
  mapInPlace(graph, expr::_1 + expr::Const(unsigned(step)), {count}, pass, name + "/advance");
  prog.add(poplar::program::Repeat(unsigned((end - begin + step - 1) / step), pass, name));
  return prog;
}

Sequence countedLoop(poplar::Graph &graph, std::size_t count, const CountedLoopBodyType &body,
                     const poplar::DebugContext &debugContext) {
  return countedLoop(graph, 0, count, 1, body, opName(debugContext, "countedLoop"));
}

Tensor addForLoopCounterVertex(poplar::Graph &graph, const Tensor &count, const Tensor &countLimit, int countStep,
                               unsigned tile, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "addForLoopCounterVertex");
  checkCounter(count, "count", name);
  checkCounter(countLimit, "countLimit", name);
  if (count.elementType() != countLimit.elementType())
    throw poplibs_error(name + ": count holds " + count.elementType().toString() + " but countLimit holds " +
                        countLimit.elementType().toString() + "; pass tensors of one type");
  if (tile >= graph.getTarget().getNumTiles())
    throw poplibs_error(name + ": tile " + std::to_string(tile) + " is out of range; the graph has " +
                        std::to_string(graph.getTarget().getNumTiles()) + " tiles");
  Tensor predicate = graph.addVariable(poplar::UNSIGNED_INT, {}, name + "/predicate");
  graph.setTileMapping(predicate, tile);
  poplar::ComputeSet cs = graph.addComputeSet(name);
  poplar::VertexRef v =
      graph.addVertex(cs, poputil::detail::templateVertex("popops::ForLoopCounter", {count.elementType()}));
  graph.setTileMapping(v, tile);
  graph.connect(v["count"], count.reshape({}));
  graph.connect(v["limit"], countLimit.reshape({}));
  graph.connect(v["comparisonResult"], predicate);
  if (count.elementType() == poplar::INT)
    graph.setInitialValue(v["increment"], countStep);
  else
    graph.setInitialValue(v["increment"], unsigned(countStep)); // a negative step wraps, as unsigned counts do
  prog.add(poplar::program::Execute(cs, name));
  return predicate;
}

Sequence countedForLoop(poplar::Graph &graph, const Tensor &count, int initialCount, const Tensor &countLimit,
                        int countStep, const poplar::program::Program &body, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "countedForLoop");
  checkCounter(count, "count", name);
  checkCounter(countLimit, "countLimit", name);
  if (count.elementType() != countLimit.elementType())
    throw poplibs_error(name + ": count holds " + count.elementType().toString() + " but countLimit holds " +
                        countLimit.elementType().toString() + "; pass tensors of one type");
  // The test advances the count before each pass, so it starts one step early: the body sees initialCount,
  // initialCount + countStep, ... and the loop ends when the advanced count reaches the limit.
  const int start = int(unsigned(initialCount) - unsigned(countStep));
  Tensor init = count.elementType() == poplar::INT
                    ? graph.addConstant(poplar::INT, {}, start, name + "/initial")
                    : graph.addConstant(poplar::UNSIGNED_INT, {}, unsigned(start), name + "/initial");
  graph.setTileMapping(init, 0);
  Sequence prog;
  prog.add(poplar::program::Copy(init, count.reshape({})));
  Sequence cond;
  Tensor predicate = addForLoopCounterVertex(graph, count, countLimit, countStep, 0, cond, name + "/test");
  prog.add(poplar::program::RepeatWhileTrue(cond, predicate, body, name));
  return prog;
}

Sequence countedForLoop(poplar::Graph &graph, int initialCount, const Tensor &countLimit, int countStep,
                        const poplar::program::Program &body, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "countedForLoop");
  checkCounter(countLimit, "countLimit", name);
  Tensor count = graph.addVariable(countLimit.elementType(), {}, name + "/count");
  graph.setTileMapping(count, 0);
  return countedForLoop(graph, count, initialCount, countLimit, countStep, body, name);
}

} // namespace popops
