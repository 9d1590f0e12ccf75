// popops/GatherStatistics.hpp: every tile that holds input elements counts them into bins with one
// popops::Histogram vertex per worker (each writing its own partial counts, on that tile); one reduction over the
// partials then gives the histogram. Counting is in unsigned integers unless the caller asks for float (the
// useFloatArithmetic option, or a FLOAT output), so the default result is exact for any input size.
#include "popops/GatherStatistics.hpp"

#include <poplar/exceptions.hpp>

#include "popops/Reduce.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/VertexTemplates.hpp"
#include "poputil/exceptions.hpp"
#include "op_name.hpp"
#include "poplibs_support.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void checkArgs(const Tensor &input, const Tensor &levels, const std::string &name) {
  if (!input.valid() || !levels.valid())
    throw poplibs_error(name + ": the input or the levels tensor is invalid (default-constructed)");
  const poplar::Type &t = input.elementType();
  if (t != poplar::FLOAT && t != poplar::HALF)
    throw poplibs_error(name + ": the input holds " + t.toString() + "; pass a FLOAT or HALF tensor");
  if (levels.elementType() != t)
    throw poplibs_error(name + ": the levels hold " + levels.elementType().toString() + " but the input holds " +
                        t.toString() + "; give the levels the input's element type");
}

// The partial counts [vertices, bins] of `countType` (FLOAT or UNSIGNED_INT), one row per vertex on its tile;
// an invalid tensor when the input has no elements.
Tensor partialCounts(poplar::Graph &graph, const Tensor &input, const Tensor &levels, bool absolute,
                     const poplar::Type &countType, poplar::program::Sequence &prog, const std::string &name) {
  const std::size_t bins = levels.numElements() + 1;
  const Tensor flat = input.flatten();
  const Tensor edges = levels.flatten();
  const std::string vertex = poputil::templateVertex("popops::Histogram", input.elementType(), countType);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  poplar::ComputeSet cs = graph.addComputeSet(name + "/count");
  std::vector<Tensor> rows;
  const auto mapping = graph.getTileMapping(flat);
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto &runs : poplibs_support::splitForWorkers(mapping[tile], workers)) {
      Tensor counts = graph.addVariable(countType, {1, bins}, name + "/partial");
      graph.setTileMapping(counts, tile);
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, tile);
      graph.setFieldSize(v["data"], runs.size());
      for (std::size_t i = 0; i < runs.size(); ++i)
        graph.connect(v["data"][i], flat.slice(runs[i]));
      graph.connect(v["levels"], edges);
      graph.connect(v["counts"], counts.flatten());
      graph.setInitialValue(v["absolute"], absolute);
      rows.push_back(counts);
    }
  }
  if (rows.empty())
    return Tensor();
  prog.add(poplar::program::Execute(cs));
  return poplar::concat(rows, 0);
}

// Sums the partials into `out` (adding to it with `update`); with no partials, zeroes `out` unless updating.
void sumInto(poplar::Graph &graph, const Tensor &partials, const Tensor &out, bool update,
             poplar::program::Sequence &prog, const std::string &name) {
  if (partials.valid()) {
    reduceWithOutput(graph, partials, out, {0}, ReduceParams(Operation::ADD, update), prog, name + "/sum");
    return;
  }
  if (update)
    return;
  Tensor zero = graph.addConstant(out.elementType(), {out.numElements()}, 0, name + "/zero");
  graph.setTileMapping(zero, 0);
  prog.add(poplar::program::Copy(zero, out.flatten(), false, name + "/zero"));
}

bool useFloat(const poplar::OptionFlags &options, const std::string &name) {
  bool result = false;
  for (const auto &[key, value] : options) {
    if (key != "useFloatArithmetic")
      throw poplar::invalid_option(name + ": unknown option '" + key + "' (known: useFloatArithmetic)");
    if (value != "true" && value != "false")
      throw poplar::invalid_option(name + ": option 'useFloatArithmetic' cannot be '" + value +
                                   "' (allowed: true, false)");
    result = value == "true";
  }
  return result;
}

} // namespace

Tensor histogram(poplar::Graph &graph, const Tensor &input, const Tensor &levels, bool absoluteOfInput,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "histogram");
  const poplar::Type countType = useFloat(options, name) ? poplar::FLOAT : poplar::UNSIGNED_INT;
  checkArgs(input, levels, name);
  Tensor out = graph.addVariable(countType, {levels.numElements() + 1}, name + "/histogram");
  poputil::mapTensorLinearly(graph, out);
  sumInto(graph, partialCounts(graph, input, levels, absoluteOfInput, countType, prog, name), out, false, prog,
          name);
  return out;
}

void histogram(poplar::Graph &graph, const Tensor &input, Tensor &output, bool updateOutput, const Tensor &levels,
               bool absoluteOfInput, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "histogram");
  checkArgs(input, levels, name);
  if (!output.valid())
    throw poplibs_error(name + ": the output tensor is invalid (default-constructed)");
  const poplar::Type countType = output.elementType();
  if (countType != poplar::FLOAT && countType != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": the output holds " + countType.toString() +
                        "; it must be FLOAT or UNSIGNED_INT (which selects the arithmetic)");
  if (output.numElements() != levels.numElements() + 1)
    throw poplibs_error(name + ": the output has " + std::to_string(output.numElements()) + " elements; give it " +
                        std::to_string(levels.numElements() + 1) + " (one more than the levels)");
  sumInto(graph, partialCounts(graph, input, levels, absoluteOfInput, countType, prog, name), output.flatten(),
          updateOutput, prog, name);
}

} // namespace popops
