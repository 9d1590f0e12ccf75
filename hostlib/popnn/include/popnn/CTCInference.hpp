// CTC inference (decoding): its plan, its data layout and the beam-search decoders. A decoder runs a prefix beam
// search per sequence on the sequence's planned tile (one vertex each, as a sequence's search is sequential in
// time) and returns the best paths with their probabilities.
#ifndef POPNN_CTCINFERENCE_HPP
#define POPNN_CTCINFERENCE_HPP

#include <cstddef>
#include <tuple>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/CTCPlan.hpp>

namespace popnn {
namespace ctc_infer {

/// A plan for decoding `batchSize` sequences of up to `maxTime` steps over `numClasses` classes with `beamwidth`
/// beams; `inType` is FLOAT or HALF. The sequences are spread over the tiles, one per tile while tiles last.
/// Options: `partialsType` (float), `availableMemoryProportion` (0 to 1, default 0.6). Throws
/// poputil::poplibs_error when nothing fits or a size is 0; poplar::invalid_option on an unknown option.
ctc::Plan plan(const poplar::Graph &graph, const poplar::Type &inType, unsigned batchSize, unsigned maxTime,
               unsigned numClasses, unsigned beamwidth, const poplar::OptionFlags &options = {});

/// A new data tensor [maxTime, batchSize, numClasses] of `type`, each sequence on its planned tile. Throws
/// poputil::poplibs_error when `plan` is not an inference plan or the sizes differ from it.
poplar::Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                               const std::size_t maxTime, const std::size_t numClasses, const ctc::Plan &plan,
                               const poplar::DebugContext &debugContext = {});

/// The topPaths most likely label sequences of each batch entry of logProbs [maxTime, batchSize, numClasses] (log
/// probabilities, FLOAT or HALF, shaped as the plan says) over its first dataLengths[b] steps (UNSIGNED_INT or
/// INT [batchSize]), by a prefix beam search of beamwidth beams; class blankClass is the blank. Returns
/// {labelProbs [batchSize, topPaths]: each path's negative log probability, of logProbs' type, best first;
/// labelLengths [batchSize, topPaths] and decodedLabels [batchSize, topPaths, maxTime] (UNSIGNED_INT, 0 after a
/// path's end)}. When fewer paths exist than topPaths, the rest have length 0 and probability 65504. Throws
/// poputil::poplibs_error when the plan is not an inference plan, a shape or type does not fit, blankClass is not
/// a class, or topPaths is 0 or above beamwidth; poplar::invalid_option for any option (none is known).
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogProbabilities(poplar::Graph &graph, const poplar::Tensor &logProbs,
                                  const poplar::Tensor &dataLengths, poplar::program::Sequence &prog,
                                  unsigned blankClass, unsigned beamwidth, unsigned topPaths, const ctc::Plan &plan,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = {});

/// As beamSearchDecoderLogProbabilities from logits: a log-softmax over the classes first (the logits are left
/// alone).
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogits(poplar::Graph &graph, const poplar::Tensor &logits, const poplar::Tensor &dataLengths,
                        poplar::program::Sequence &prog, unsigned blankClass, unsigned beamwidth, unsigned topPaths,
                        const ctc::Plan &plan, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {});

} // namespace ctc_infer
} // namespace popnn

#endif // POPNN_CTCINFERENCE_HPP
