// CTC inference (decoding): its plan and data layout. The beam-search decoders of PopLibs
// (beamSearchDecoderLogProbabilities, beamSearchDecoderLogits) are not provided yet.
#ifndef POPNN_CTCINFERENCE_HPP
#define POPNN_CTCINFERENCE_HPP

#include <cstddef>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
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

} // namespace ctc_infer
} // namespace popnn

#endif // POPNN_CTCINFERENCE_HPP
