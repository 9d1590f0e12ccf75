// popnn::rnn: the recurrence driver. Sequence tensors map every step alike (the step's batch × size elements in
// 16-element grains over the tiles), so slicing a step with the loop counter stays on each tile. Rnn() builds the
// user's cell once and runs it in one device loop: a Repeat for a fixed step count, a RepeatWhileTrue whose
// condition advances the counter when the count is read at run time.
#include "popnn/Rnn.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace rnn {

using poplar::Tensor;
using poplar::UNSIGNED_INT;
using poplar::program::Copy;
using poplar::program::Sequence;
using poputil::poplibs_error;
namespace pe = popops::expr;

namespace {

std::string nameOf(const poplar::DebugContext &dc, const char *fn) {
  return poplibs_support::debugName(dc, "popnn::rnn::", fn);
}

// PopLibs spreads a step in grains of gcd(16, size) elements; the byte and shard figures follow the same grains.
std::size_t grainOf(std::size_t size) { return std::gcd<std::size_t, std::size_t>(16, size); }

std::size_t tilesUsed(std::size_t numTiles, std::size_t batch, std::size_t size) {
  const std::size_t grains = batch * (size / grainOf(size));
  const std::size_t perTile = (grains + numTiles - 1) / numTiles;
  return perTile ? (grains + perTile - 1) / perTile : 1;
}

void checkParams(const RnnParams &p, unsigned numShards, const std::string &name) {
  if (p.layerSizes.size() != 2)
    throw poplibs_error(name + ": layerSizes has " + std::to_string(p.layerSizes.size()) +
                        " entries; pass {input size, output size}");
  if (p.batchSize == 0 || p.maxTimeSteps == 0 || p.layerSizes[0] == 0 || p.layerSizes[1] == 0)
    throw poplibs_error(name + ": the batch size, the time steps and the layer sizes must be non-zero");
  if (numShards == 0)
    throw poplibs_error(name + ": numShards is 0; pass at least 1");
}

// A tensor [rows, batchSize, size] whose every row is mapped alike.
Tensor stepRows(poplar::Graph &graph, const RnnParams &p, std::size_t rows, std::size_t size,
                const std::string &name) {
  Tensor t = graph.addVariable(p.dataType, {rows, p.batchSize, size}, name);
  for (std::size_t r = 0; r < rows; ++r)
    poputil::mapTensorLinearly(graph, t[r], 1, unsigned(grainOf(size)));
  return t;
}

// Rows per step of a sequence tensor [maxTimeSteps * rows, ...]; throws when dim 0 is not a multiple of the steps.
std::size_t rowsPerStep(const Tensor &t, const RnnParams &p, const std::string &name, const char *what) {
  if (t.rank() < 2 || t.dim(0) % p.maxTimeSteps != 0 || t.dim(0) == 0)
    throw poplibs_error(name + ": " + what + " has shape " + t.shapeToString() + "; its first dimension must be " +
                        std::to_string(p.maxTimeSteps) + " steps (times the rows per step)");
  return t.dim(0) / p.maxTimeSteps;
}

// Stores `s` (one step: [rows, ...], or [...] for a sequence of one more dimension) into sequence `t` at `step`.
void storeStep(poplar::Graph &graph, const RnnParams &p, const Tensor &t, const Tensor &s, const Tensor &step,
               Sequence &prog, const std::string &name, const char *what) {
  if (!s.valid())
    throw poplibs_error(name + ": the loop body left the step's " + std::string(what) + " unset");
  Tensor seq = t;
  if (t.rank() == s.rank()) // rows of one step: [maxTimeSteps * rows, ...] seen as [maxTimeSteps, rows, ...]
    seq = t.reshapePartial(0, 1, {p.maxTimeSteps, rowsPerStep(t, p, name, what)});
  if (seq.rank() != s.rank() + 1 || seq.numElements() != p.maxTimeSteps * s.numElements())
    throw poplibs_error(name + ": the step's " + std::string(what) + " has shape " + s.shapeToString() +
                        " which is not one step of " + t.shapeToString());
  popops::dynamicUpdate(graph, seq, s.expand({0}), step, {0}, {1}, prog, name + "/store");
}

// The step `step` of sequence `t` ([maxTimeSteps, ...]) as [...]; `steps` steps flattened over dims 0 and 1.
Tensor loadSteps(poplar::Graph &graph, const Tensor &t, const Tensor &step, std::size_t steps, Sequence &prog,
                 const std::string &name) {
  Tensor s = popops::dynamicSlice(graph, t, step, {0}, {steps}, prog, name + "/load");
  return steps == 1 ? s.squeeze({0}) : s.flatten(0, 2);
}

bool parseCodeReuse(const poplar::OptionFlags &options) {
  bool reuse = false;
  for (const auto &o : options) {
    if (o.first != "codeReuse")
      throw poplar::invalid_option("popnn::rnn::Rnn: unknown option '" + o.first + "'; the option is codeReuse");
    if (o.second != "true" && o.second != "false")
      throw poplar::invalid_option("popnn::rnn::Rnn: codeReuse is '" + o.second + "'; pass true or false");
    reuse = o.second == "true";
  }
  return reuse;
}

Tensor scalarU(poplar::Graph &graph, unsigned v, const std::string &name) {
  Tensor t = graph.addConstant(UNSIGNED_INT, {1}, v, name);
  graph.setTileMapping(t, 0);
  return t;
}

// What one call of Rnn() asks for; the gather fields are set by the second overload only.
struct Request {
  bool reverse;
  const std::vector<Tensor> *initState;
  const StateSequence *stateSequence;
  const std::vector<Tensor> *inputs;
  const Tensor *interimIn;
  Tensor *interimOut;
  std::size_t numTemps;
  const std::vector<Tensor> *outputs;
  const std::vector<Tensor> *created;
  const LoopBodyType *loopFn;
  const std::vector<Tensor> *gatherInputs;
  const GatherBodyType *gatherFn;
  unsigned stepsPerGather;
};

// The step program around the user's cell: slice, cell, store. The counter is advanced by the caller's loop.
class Driver {
public:
  Driver(poplar::Graph &g, const RnnParams &params, const Request &req, Sequence &init, const std::string &n)
      : graph(g), p(params), r(req), prog(init), name(n) {
    counter = graph.addVariable(UNSIGNED_INT, {1}, name + "/counter");
    graph.setTileMapping(counter, 0);
    begin = scalarU(graph, 0, name + "/begin");
    for (const Tensor &s : *r.initState) {
      if (!s.valid()) {
        state.push_back(s);
        continue;
      }
      Tensor copy = graph.clone(s, name + "/state");
      prog.add(Copy(s, copy, false, name + "/initState"));
      state.push_back(copy);
    }
    if (r.stateSequence->output.valid() &&
        (r.stateSequence->stateIndex >= state.size() || !state[r.stateSequence->stateIndex].valid()))
      throw poplibs_error(name + ": stateSequence.stateIndex " + std::to_string(r.stateSequence->stateIndex) +
                          " names no valid state tensor");
    if (r.numTemps)
      temps = stepRows(graph, p, r.numTemps, p.layerSizes[1], name + "/interimOutStep");
    if (r.gatherFn)
      tempSeq = stepRows(graph, p, p.maxTimeSteps * r.numTemps, p.layerSizes[1], name + "/gatherTemps");
  }

  // Builds the step program; `flagsProg` computes the per-step flags of a run-time step count.
  Sequence step(const Tensor &minSteps, const Tensor &varSteps) {
    Sequence s({}, name + "/step");
    TimeStepState time{begin, counter, Tensor()};
    if (minSteps.valid())
      time.variableSeqFlag = popops::gteq(graph, counter, minSteps, s, name + "/padding").reshape({});
    RnnBatchwiseFlags flags;
    if (varSteps.valid() && varSteps.numElements() > 1) {
      const Tensor now = counter.broadcast(unsigned(p.batchSize), 0);
      flags.mask = popops::map(graph, pe::Cast(pe::Gt(pe::_1, pe::_2), p.dataType), {varSteps, now}, s,
                               name + "/mask");
      flags.inverse = popops::map(graph, pe::Cast(pe::Lte(pe::_1, pe::_2), p.dataType), {varSteps, now}, s,
                                  name + "/inverse");
    }
    RnnSlice slice;
    for (const Tensor &in : *r.inputs)
      slice.inputs.push_back(in.valid() ? loadSteps(graph, checkedSeq(in, "an input"), counter, 1, s, name)
                                        : in);
    if (r.interimIn && r.interimIn->valid())
      slice.interimIn = loadSteps(graph, checkedSeq(*r.interimIn, "interimIn"), counter, 1, s, name);
    slice.interimOut = temps;
    for (const Tensor &out : *r.outputs)
      slice.outputs.push_back(
          stepRows(graph, p, rowsPerStep(out, p, name, "an output"), out.dim(out.rank() - 1), name + "/output"));
    std::vector<Tensor> createdSlices(r.created->size());
    s.add((*r.loopFn)(graph, time, flags, state, slice, createdSlices, &prog, name + "/cell"));
    if (r.interimOut)
      storeStep(graph, p, *r.interimOut, temps, counter, s, name, "interimOut");
    if (r.gatherFn)
      storeStep(graph, p, tempSeq, temps, counter, s, name, "temporaries");
    for (std::size_t i = 0; i < r.outputs->size(); ++i)
      storeStep(graph, p, (*r.outputs)[i], slice.outputs[i], counter, s, name, "output");
    for (std::size_t i = 0; i < r.created->size(); ++i)
      storeStep(graph, p, (*r.created)[i], createdSlices[i], counter, s, name, "created tensor");
    if (r.stateSequence->output.valid())
      storeStep(graph, p, r.stateSequence->output, state[r.stateSequence->stateIndex], counter, s, name,
                "state sequence");
    return s;
  }

  // The gather of `steps` steps from `first`, with the initialisation sequence on the first call only.
  Sequence gather(const Tensor &first, std::size_t steps) {
    Sequence g({}, name + "/gather");
    RnnSlice slice;
    for (const Tensor &in : *r.gatherInputs)
      slice.inputs.push_back(in.valid() ? loadSteps(graph, checkedSeq(in, "a gather input"), first, steps, g, name)
                                        : in);
    const Tensor bySteps = tempSeq.reshapePartial(0, 1, {p.maxTimeSteps, r.numTemps});
    slice.interimIn = popops::dynamicSlice(graph, bySteps, first, {0}, {steps}, g, name + "/gatherTemps").flatten(0, 2);
    g.add((*r.gatherFn)(graph, slice, unsigned(steps), gathered ? nullptr : &prog, name + "/gatherFn"));
    gathered = true;
    return g;
  }

  Tensor counter, begin;
  std::vector<Tensor> state;

private:
  const Tensor &checkedSeq(const Tensor &t, const char *what) const {
    if (t.rank() < 2 || t.dim(0) != p.maxTimeSteps)
      throw poplibs_error(name + ": " + what + " has shape " + t.shapeToString() + "; its first dimension must be " +
                          std::to_string(p.maxTimeSteps) + " steps");
    return t;
  }

  poplar::Graph &graph;
  const RnnParams &p;
  const Request &r;
  Sequence &prog;
  const std::string name;
  Tensor temps, tempSeq;
  bool gathered = false;
};

// Appends `count` passes of `body` to `prog` with `counter` stepping by `dir` after each (from its value on entry).
void repeatSteps(poplar::Graph &graph, Driver &d, std::size_t count, const Sequence &body, int dir,
                 Sequence &prog, const std::string &name) {
  Sequence pass({body}, name + "/pass");
  // The vertex's "more" flag is not needed: Repeat counts the passes. The limit is never reached.
  popops::addForLoopCounterVertex(graph, d.counter, scalarU(graph, 0xfffffffeu, name + "/never"), dir, 0, pass,
                                  name + "/advance");
  prog.add(poplar::program::Repeat(unsigned(count), pass, name + "/loop"));
}

std::vector<Tensor> run(poplar::Graph &graph, const RnnParams &p, const Request &r, unsigned numShards,
                        Sequence &prog, const poplar::OptionFlags &options, const poplar::DebugContext &dc) {
  const std::string name = nameOf(dc, "Rnn");
  checkParams(p, numShards, name);
  (void)parseCodeReuse(options); // one body serves every step either way
  if (!*r.loopFn)
    throw poplibs_error(name + ": loopFn is empty; pass the cell's loop body");
  Driver d(graph, p, r, prog, name);
  const unsigned T = unsigned(p.maxTimeSteps);
  if (!p.variableTimeSteps()) {
    const Sequence body = d.step(Tensor(), Tensor());
    if (!r.gatherFn) {
      prog.add(Copy(scalarU(graph, r.reverse ? T - 1 : 0, name + "/first"), d.counter, false, name));
      repeatSteps(graph, d, T, body, r.reverse ? -1 : 1, prog, name);
      return d.state;
    }
    // Reverse with gathers: groups of g steps from the end, each followed by its gather, then the first T % g.
    const std::size_t g = std::min<std::size_t>(r.stepsPerGather, T), groups = T / g, rest = T % g;
    prog.add(Copy(scalarU(graph, T - 1, name + "/first"), d.counter, false, name));
    Sequence group({}, name + "/group");
    repeatSteps(graph, d, g, body, -1, group, name);
    const Tensor groupStart = popops::map(graph, pe::_1 + pe::Const(1u), {d.counter}, group, name + "/groupStart");
    group.add(d.gather(groupStart, g));
    prog.add(poplar::program::Repeat(unsigned(groups), group, name + "/groups"));
    if (rest) {
      repeatSteps(graph, d, rest, body, -1, prog, name);
      prog.add(d.gather(scalarU(graph, 0, name + "/restStart"), rest));
    }
    return d.state;
  }
  // A run-time count: the loop runs to the longest sequence; the condition moves the counter first, so it starts
  // one step outside the range (the all-ones value going forward, the count going back).
  const Tensor steps = popops::cast(graph, p.varTimeSteps, poplar::INT, prog, name + "/steps");
  const auto limit = [&](popops::Operation op, const char *what) {
    const Tensor l = popops::reduce(graph, steps, {0}, {op, false}, prog, name + what);
    return popops::cast(graph, l.expand({0}), UNSIGNED_INT, prog, name + what);
  };
  const Tensor maxSteps = limit(popops::Operation::MAX, "/maxSteps"), minSteps = limit(popops::Operation::MIN, "/minSteps");
  const Tensor perBatch = popops::cast(graph, p.varTimeSteps, UNSIGNED_INT, prog, name + "/perBatch");
  const Sequence stepProg = d.step(minSteps, perBatch);
  const Tensor allOnes = scalarU(graph, 0xffffffffu, name + "/outside");
  Sequence cond({}, name + "/advance");
  Tensor more;
  if (r.reverse) {
    prog.add(Copy(maxSteps, d.counter, false, name));
    more = popops::addForLoopCounterVertex(graph, d.counter, allOnes, -1, 0, cond, name + "/advance");
  } else {
    prog.add(Copy(allOnes, d.counter, false, name));
    more = popops::addForLoopCounterVertex(graph, d.counter, maxSteps, 1, 0, cond, name + "/advance");
  }
  prog.add(poplar::program::RepeatWhileTrue(cond, more.reshape({}), stepProg, name + "/loop"));
  return d.state;
}

} // namespace

RnnParams::RnnParams(poplar::Type type, std::size_t batch, std::size_t steps, std::vector<std::size_t> sizes)
    : dataType(type), batchSize(batch), maxTimeSteps(steps), timeSteps(steps), layerSizes(sizes) {}

RnnParams::RnnParams(poplar::Type type, std::size_t batch, std::size_t steps, const poplar::Tensor &varSteps,
                     std::vector<std::size_t> sizes)
    : dataType(type), batchSize(batch), maxTimeSteps(steps), timeSteps(steps), varTimeSteps(varSteps),
      layerSizes(sizes) {
  if (varSteps.valid() && (varSteps.rank() != 1 || (varSteps.dim(0) != 1 && varSteps.dim(0) != batch)))
    throw poplibs_error("popnn::rnn::RnnParams: varTimeSteps has shape " + varSteps.shapeToString() +
                        "; pass shape [1] or [batchSize]");
}

bool RnnParams::variableTimeSteps() const { return varTimeSteps.valid(); }
bool RnnParams::batchVariableTimeSteps() const { return varTimeSteps.valid() && varTimeSteps.numElements() > 1; }

std::size_t RnnParams::getMaxShards(const poplar::Graph &graph) const {
  const std::size_t numTiles = graph.getTarget().getNumTiles();
  const std::size_t perShard = std::max(tilesUsed(numTiles, batchSize, layerSizes.at(0)),
                                        tilesUsed(numTiles, batchSize, layerSizes.at(1)));
  const std::size_t shards = std::max<std::size_t>(1, numTiles / perShard);
  if (maxTimeSteps == 0)
    return 0;
  const std::size_t stepsPerShard = (maxTimeSteps + shards - 1) / shards;
  return (maxTimeSteps + stepsPerShard - 1) / stepsPerShard;
}

namespace {
std::size_t bytesPerTile(const poplar::Graph &graph, const RnnParams &p, std::size_t size) {
  const std::size_t numTiles = graph.getTarget().getNumTiles(), grain = grainOf(size);
  const std::size_t grains = p.batchSize * (size / grain);
  return (grains + numTiles - 1) / numTiles * grain * graph.getTarget().getTypeSize(p.dataType);
}
} // namespace

std::size_t RnnParams::getInputBytesPerTile(const poplar::Graph &graph) const {
  return bytesPerTile(graph, *this, layerSizes.at(0));
}
std::size_t RnnParams::getOutputBytesPerTile(const poplar::Graph &graph) const {
  return bytesPerTile(graph, *this, layerSizes.at(1));
}

namespace {
// What the create functions share: the checks, then `multiple` × `steps` rows of [batchSize, size].
Tensor createRows(poplar::Graph &graph, const RnnParams &params, unsigned numShards, std::size_t multiple,
                  std::size_t steps, std::size_t size, const poplar::DebugContext &debugContext, const char *fn) {
  const std::string name = nameOf(debugContext, fn);
  checkParams(params, numShards, name);
  if (multiple == 0 || size == 0)
    throw poplibs_error(name + ": multiple and size must be non-zero");
  return stepRows(graph, params, multiple * steps, size, name);
}
} // namespace

Tensor createInitialState(poplar::Graph &graph, const RnnParams &params, bool isOutput, unsigned multiple,
                          unsigned numShards, const poplar::DebugContext &debugContext) {
  const std::size_t size = params.layerSizes.size() == 2 ? params.layerSizes[isOutput ? 1 : 0] : 1;
  return createRows(graph, params, numShards, multiple, 1, size, debugContext, "createInitialState");
}

Tensor createRecurrentTensor(poplar::Graph &graph, const RnnParams &params, unsigned size, unsigned numShards,
                             const poplar::DebugContext &debugContext) {
  return createRows(graph, params, numShards, 1, params.maxTimeSteps, size, debugContext, "createRecurrentTensor");
}

Tensor createInputTensor(poplar::Graph &graph, const RnnParams &params, unsigned numShards,
                         const poplar::DebugContext &debugContext) {
  const std::size_t size = params.layerSizes.size() == 2 ? params.layerSizes[0] : 1;
  return createRows(graph, params, numShards, 1, params.maxTimeSteps, size, debugContext, "createInputTensor");
}

Tensor createOutputTensor(poplar::Graph &graph, const RnnParams &params, unsigned numShards,
                          const poplar::DebugContext &debugContext) {
  return createOutputTensor(graph, params, 1, numShards, debugContext);
}

Tensor createOutputTensor(poplar::Graph &graph, const RnnParams &params, unsigned multiple, unsigned numShards,
                          const poplar::DebugContext &debugContext) {
  const std::size_t size = params.layerSizes.size() == 2 ? params.layerSizes[1] : 1;
  return createRows(graph, params, numShards, multiple, params.maxTimeSteps, size, debugContext,
                    "createOutputTensor");
}

Tensor shiftRnnTensor(poplar::Graph &graph, const RnnParams &params, const Tensor &tBase, const Tensor &tSingle,
                      Sequence &prog, unsigned numShards, const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, "shiftRnnTensor");
  checkParams(params, numShards, name);
  const std::size_t rows = rowsPerStep(tBase, params, name, "tBase");
  if (tSingle.rank() != tBase.rank() || tSingle.dim(0) != rows ||
      tSingle.numElements() != tBase.numElements() / params.maxTimeSteps)
    throw poplibs_error(name + ": tSingle has shape " + tSingle.shapeToString() + "; pass one step of tBase " +
                        tBase.shapeToString());
  Tensor out = graph.clone(tBase, name);
  prog.add(Copy(tSingle, out.slice(0, rows), false, name));
  if (params.maxTimeSteps > 1)
    prog.add(Copy(tBase.slice(0, tBase.dim(0) - rows), out.slice(rows, tBase.dim(0)), false, name));
  return out;
}

std::vector<Tensor> Rnn(poplar::Graph &graph, const RnnParams &params, bool reverse,
                        const std::vector<Tensor> &initState, const StateSequence &stateSequence,
                        const std::vector<Tensor> &inputs, const Tensor *interimIn, Tensor *interimOut,
                        const std::vector<Tensor> &outputs, const std::vector<Tensor> &created, Sequence &prog,
                        const LoopBodyType &loopFn, unsigned numShards, poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext) {
  std::size_t numTemps = 0;
  if (interimOut) {
    if (interimOut->rank() != 4 || interimOut->dim(0) != params.maxTimeSteps)
      throw poplibs_error(nameOf(debugContext, "Rnn") + ": interimOut has shape " + interimOut->shapeToString() +
                          "; pass [maxTimeSteps, numTemps, batchSize, outputSize]");
    numTemps = interimOut->dim(1);
  }
  const std::vector<Tensor> none;
  const Request r{reverse, &initState, &stateSequence, &inputs, interimIn, interimOut, numTemps, &outputs,
                  &created, &loopFn, &none, nullptr, 0};
  return run(graph, params, r, numShards, prog, options, debugContext);
}

std::vector<Tensor> Rnn(poplar::Graph &graph, const RnnParams &params, const std::vector<Tensor> &initState,
                        const StateSequence &stateSequence, const std::vector<Tensor> &inputs,
                        const Tensor &interimIn, const unsigned numTemps, Sequence &prog, const LoopBodyType &loopFn,
                        const std::vector<Tensor> &gatherInputs, const GatherBodyType &gatherFn, unsigned numShards,
                        unsigned stepsPerGather, poplar::OptionFlags &options,
                        const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, "Rnn");
  if (!gatherFn)
    throw poplibs_error(name + ": gatherFn is empty; pass the gather body");
  if (stepsPerGather == 0 || numTemps == 0)
    throw poplibs_error(name + ": stepsPerGather and numTemps must be non-zero");
  if (params.variableTimeSteps())
    throw poplibs_error(name + ": gathering with a run-time step count is not supported; use fixed steps");
  const std::vector<Tensor> none;
  const Request r{true,    &initState, &stateSequence, &inputs,       &interimIn, nullptr,       numTemps,
                  &none,   &none,      &loopFn,        &gatherInputs, &gatherFn,  stepsPerGather};
  return run(graph, params, r, numShards, prog, options, debugContext);
}

} // namespace rnn
} // namespace popnn
