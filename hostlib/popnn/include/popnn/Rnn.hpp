// popnn::rnn: the recurrence driver under popnn's recurrent layers, usable with a custom cell. RnnParams holds a
// layer's shape; the create functions make sequence tensors laid out so that one time step slices cheaply; Rnn()
// runs a user cell (a loop-body callback) over the time steps in a device loop, slicing the inputs of the current
// step and storing its outputs. Here the steps run as one loop whatever the shard count (numShards only shapes the
// checks and getMaxShards), and a run-time step count (varTimeSteps) is supported with one shard's layout.
#ifndef POPNN_RNN_HPP
#define POPNN_RNN_HPP

#include <cstddef>
#include <functional>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popnn {
namespace rnn {

/// A recurrent layer's shape: the data type, the batch size, the time steps and the layer sizes
/// ({input size, output size}).
struct RnnParams {
  poplar::Type dataType;
  std::size_t batchSize;
  /// The most time steps a sequence may have.
  std::size_t maxTimeSteps;
  /// Deprecated by PopLibs: equal to maxTimeSteps.
  std::size_t timeSteps;
  /// The run-time number of steps: invalid (every sequence runs maxTimeSteps), or an unsigned tensor of shape
  /// [1] or [batchSize] with each entry at most maxTimeSteps.
  poplar::Tensor varTimeSteps;
  std::vector<std::size_t> layerSizes;

  /// A layer of `timeSteps` steps.
  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes);
  /// A layer of up to `maxTimeSteps` steps, the count read at run time from `varTimeSteps` (shape [1] or
  /// [batchSize]). Throws poputil::poplibs_error for another shape.
  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps,
            const poplar::Tensor &varTimeSteps, std::vector<std::size_t> layerSizes);
  /// The most shards the steps could be split into on `graph`'s target: the tiles one step's input or output
  /// spreads over (16-element grains of batch × size), into the target's tiles, capped by the step count.
  std::size_t getMaxShards(const poplar::Graph &graph) const;
  /// Bytes per tile of one step's input [batchSize, layerSizes[0]] when spread over every tile in grains.
  std::size_t getInputBytesPerTile(const poplar::Graph &graph) const;
  /// The same for one step's output [batchSize, layerSizes[1]].
  std::size_t getOutputBytesPerTile(const poplar::Graph &graph) const;
  /// True when the step count is read at run time (varTimeSteps is valid).
  bool variableTimeSteps() const;
  /// True when each batch entry has its own step count (varTimeSteps has more than one element).
  bool batchVariableTimeSteps() const;
};

/// A state tensor [multiple, batchSize, size] with size layerSizes[1] when `isOutput`, else layerSizes[0], mapped
/// like one step of the sequence tensors. Throws poputil::poplibs_error when numShards or multiple is 0.
poplar::Tensor createInitialState(poplar::Graph &graph, const RnnParams &params, bool isOutput, unsigned multiple,
                                  unsigned numShards, const poplar::DebugContext &debugContext = {});

/// A sequence tensor [maxTimeSteps, batchSize, size], every step mapped alike so a step slices tile-locally.
poplar::Tensor createRecurrentTensor(poplar::Graph &graph, const RnnParams &params, unsigned size,
                                     unsigned numShards, const poplar::DebugContext &debugContext = {});

/// The input sequence [maxTimeSteps, batchSize, layerSizes[0]].
poplar::Tensor createInputTensor(poplar::Graph &graph, const RnnParams &params, unsigned numShards,
                                 const poplar::DebugContext &debugContext = {});

/// The output sequence [maxTimeSteps, batchSize, layerSizes[1]].
poplar::Tensor createOutputTensor(poplar::Graph &graph, const RnnParams &params, unsigned numShards,
                                  const poplar::DebugContext &debugContext = {});

/// `multiple` output sequences in one tensor [multiple * maxTimeSteps, batchSize, layerSizes[1]]: time major,
/// so rows t * multiple ... t * multiple + multiple - 1 belong to step t.
poplar::Tensor createOutputTensor(poplar::Graph &graph, const RnnParams &params, unsigned multiple,
                                  unsigned numShards, const poplar::DebugContext &debugContext = {});

/// A copy of `tBase` shifted one step later: step 0 holds `tSingle` (one step, `multiple` rows where tBase has
/// multiple * maxTimeSteps rows) and step n holds tBase's step n - 1. The copies are appended to `prog`.
poplar::Tensor shiftRnnTensor(poplar::Graph &graph, const RnnParams &params, const poplar::Tensor &tBase,
                              const poplar::Tensor &tSingle, poplar::program::Sequence &prog, unsigned numShards,
                              const poplar::DebugContext &debugContext = {});

/// The tensors of one time step handed to the loop body: each input sequence's current step, the intermediate
/// input's step, a buffer for the intermediate outputs of the step and a buffer per output sequence.
struct RnnSlice {
  std::vector<poplar::Tensor> inputs;
  poplar::Tensor interimIn;
  poplar::Tensor interimOut;
  std::vector<poplar::Tensor> outputs;
};

/// With a per-batch step count: mask[b] is 1 (of dataType) while the current step is below batch entry b's count,
/// else 0; inverse is 1 - mask. Invalid otherwise.
struct RnnBatchwiseFlags {
  poplar::Tensor mask;
  poplar::Tensor inverse;
  bool valid() const { return mask.valid(); }
};

/// The loop's position: begin is the first step of the shard (a one-element UNSIGNED_INT constant, 0 here),
/// counter the current step within it (one-element UNSIGNED_INT); with a run-time step count, variableSeqFlag is
/// a scalar UNSIGNED_INT that is 1 when the step is at or beyond the shortest sequence's count.
struct TimeStepState {
  poplar::Tensor begin;
  poplar::Tensor counter;
  poplar::Tensor variableSeqFlag;
};

/// The cell: given the graph, the time, the flags, the state tensors (updated in place by the returned program),
/// the current slice and `created` (one entry per sequence passed as `created` to Rnn(), which the body sets to
/// a new [..., batchSize, size] tensor for the step), and an initialisation sequence (non-null on the first call
/// only: programs to run once before the loop), returns the program of one step.
using LoopBodyType = std::function<poplar::program::Sequence(
    poplar::Graph &graph, const TimeStepState &time, const RnnBatchwiseFlags &, std::vector<poplar::Tensor> &,
    const RnnSlice &slice, std::vector<poplar::Tensor> &, poplar::program::Sequence *,
    const poplar::DebugNameAndId &)>;

/// The gather step of the second Rnn(): given a slice of `stepsPerGather` steps (inputs: the gather inputs of those
/// steps flattened over steps and batch; interimIn: the temporaries [steps * numTemps, batchSize, size]), returns
/// the program that consumes them.
using GatherBodyType = std::function<poplar::program::Sequence(
    poplar::Graph &graph, const RnnSlice &slice, unsigned stepsPerGather, poplar::program::Sequence *,
    const poplar::DebugNameAndId &)>;

/// Asks Rnn() to store state tensor `stateIndex` after every step into `output` (a sequence tensor with the
/// state's rows per step). An invalid output asks for nothing.
struct StateSequence {
  poplar::Tensor output;
  std::size_t stateIndex;
};

/// Runs `loopFn` over the steps 0 .. maxTimeSteps - 1 (the reverse order when `reverse`) in a device loop appended
/// to `prog`, and returns the state tensors after the last step. Each state starts as a copy of `initState`
/// (entries [multiple, batchSize, size]; invalid entries stay invalid). Each step sees the step of `inputs` and of
/// `*interimIn` (sequences [maxTimeSteps, ...]); after the body, the step's `interimOut` buffer is stored into
/// `*interimOut` ([maxTimeSteps, numTemps, batchSize, size]), each output buffer into `outputs`, each created
/// tensor into `created` and the chosen state into stateSequence.output. Options: `codeReuse` (true, false),
/// accepted; the body is built once either way. Throws poputil::poplibs_error on a step count, batch or shape
/// mismatch, numShards of 0, or an empty loopFn; poplar::invalid_option on an unknown option.
std::vector<poplar::Tensor> Rnn(poplar::Graph &graph, const RnnParams &params, bool reverse,
                                const std::vector<poplar::Tensor> &initState, const StateSequence &stateSequence,
                                const std::vector<poplar::Tensor> &inputs, const poplar::Tensor *interimIn,
                                poplar::Tensor *interimOut, const std::vector<poplar::Tensor> &outputs,
                                const std::vector<poplar::Tensor> &created, poplar::program::Sequence &prog,
                                const LoopBodyType &loopFn, unsigned numShards, poplar::OptionFlags &options,
                                const poplar::DebugContext &debugContext = {});

/// Runs `loopFn` in reverse step order like the first Rnn() with `numTemps` temporaries [batchSize,
/// layerSizes[1]] per step (the slice's interimOut), and calls `gatherFn` after every `stepsPerGather` steps
/// with those steps of `gatherInputs` and of the temporaries (the first steps left over when stepsPerGather does
/// not divide the count are gathered after the loop). Fixed step counts only. Returns the final states. Throws
/// as the first Rnn(), and when stepsPerGather or numTemps is 0 or the steps are counted at run time.
std::vector<poplar::Tensor> Rnn(poplar::Graph &graph, const RnnParams &params,
                                const std::vector<poplar::Tensor> &initState, const StateSequence &stateSequence,
                                const std::vector<poplar::Tensor> &inputs, const poplar::Tensor &interimIn,
                                const unsigned numTemps, poplar::program::Sequence &prog, const LoopBodyType &loopFn,
                                const std::vector<poplar::Tensor> &gatherInputs, const GatherBodyType &gatherFn,
                                unsigned numShards, unsigned stepsPerGather, poplar::OptionFlags &options,
                                const poplar::DebugContext &debugContext = {});

} // namespace rnn
} // namespace popnn

#endif // POPNN_RNN_HPP
