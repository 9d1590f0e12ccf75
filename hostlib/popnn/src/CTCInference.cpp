// popnn::ctc_infer's beam-search decoders: the inputs checked here, the search on the device, one CtcBeamSearch
// vertex per sequence on the tile the plan gives it with its scratch (candidate scores and the prefix tree, sized
// by codelets/ctc_beam_codelets.h's layout) beside it. Path probabilities come out in float and are cast to the
// input's type.
#include <popnn/CTCInference.hpp>

#include <popops/Cast.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include "ctc_plan.hpp"
#include "poplibs_support.hpp"
#include "vertices.hpp"

namespace popnn {
namespace ctc_infer {
namespace {

void checkDecoderInputs(const ctc::Plan::Impl &p, const poplar::Tensor &data, const poplar::Tensor &dataLengths,
                        unsigned blankClass, unsigned beamwidth, unsigned topPaths,
                        const poplar::OptionFlags &options, const std::string &what) {
  for (const auto &kv : options)
    throw poplar::invalid_option(what + ": unknown option '" + kv.first + "' (the decoder takes no options)");
  ctc::detail::checkData(p, data, what);
  if (!dataLengths.valid() ||
      (dataLengths.elementType() != poplar::UNSIGNED_INT && dataLengths.elementType() != poplar::INT) ||
      dataLengths.rank() != 1 || dataLengths.dim(0) != p.batchSize)
    throw poputil::poplibs_error(what + ": dataLengths must be UNSIGNED_INT or INT [batchSize = " +
                                 std::to_string(p.batchSize) + "]");
  if (blankClass >= p.numClasses)
    throw poputil::poplibs_error(what + ": blankClass " + std::to_string(blankClass) + " is not below numClasses " +
                                 std::to_string(p.numClasses));
  if (beamwidth == 0 || topPaths == 0 || topPaths > beamwidth)
    throw poputil::poplibs_error(what + ": beamwidth " + std::to_string(beamwidth) + " and topPaths " +
                                 std::to_string(topPaths) + ": give 1 <= topPaths <= beamwidth");
}

std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
decode(poplar::Graph &graph, const poplar::Tensor &logProbs, const poplar::Tensor &dataLengths,
       poplar::program::Sequence &prog, unsigned blankClass, unsigned beamwidth, unsigned topPaths,
       const ctc::Plan::Impl &p, const std::string &name) {
  const poplar::Tensor dLen = ctc::detail::asUnsigned(graph, dataLengths, prog, name + "/dataLengths");
  const std::size_t B = p.batchSize, T = p.maxTime, C = p.numClasses, W = beamwidth, K = topPaths;
  const std::size_t candidates = W * C, nodes = 1 + T * W;
  poplar::Tensor scores = graph.addVariable(poplar::FLOAT, {B, 2 * candidates + 2 * W}, name + "/scores");
  poplar::Tensor links =
      graph.addVariable(poplar::UNSIGNED_INT, {B, 3 * candidates + 2 * nodes + W}, name + "/prefixTree");
  poplar::Tensor probs = graph.addVariable(poplar::FLOAT, {B, K}, name + "/labelProbs");
  poplar::Tensor lengths = graph.addVariable(poplar::UNSIGNED_INT, {B, K}, name + "/labelLengths");
  poplar::Tensor labels = graph.addVariable(poplar::UNSIGNED_INT, {B, K, T}, name + "/decodedLabels");
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = popnn::detail::vertexFor("popnn::CtcBeamSearch", logProbs.elementType());
  for (std::size_t b = 0; b < B; ++b) {
    const unsigned tile = p.tileOf(b);
    for (const poplar::Tensor *t : {&scores, &links, &probs, &lengths, &labels})
      graph.setTileMapping((*t)[b], tile);
    poplar::VertexRef v = graph.addVertex(cs, vertex);
    graph.setTileMapping(v, tile);
    graph.setFieldSize(v["probs"], T);
    for (std::size_t t = 0; t < T; ++t)
      graph.connect(v["probs"][t], logProbs[t][b]);
    graph.connect(v["dataLength"], dLen.slice(b, b + 1));
    graph.connect(v["scores"], scores[b]);
    graph.connect(v["links"], links[b]);
    graph.connect(v["pathProbs"], probs[b]);
    graph.connect(v["pathLengths"], lengths[b]);
    graph.connect(v["paths"], labels[b].flatten());
    graph.setInitialValue(v["blank"], blankClass);
    graph.setInitialValue(v["beamWidth"], beamwidth);
  }
  prog.add(poplar::program::Execute(cs, {name}));
  if (logProbs.elementType() != poplar::FLOAT)
    probs = popops::cast(graph, probs, logProbs.elementType(), prog, name + "/castProbs");
  return std::make_tuple(probs, lengths, labels);
}

} // namespace

std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogProbabilities(poplar::Graph &graph, const poplar::Tensor &logProbs,
                                  const poplar::Tensor &dataLengths, poplar::program::Sequence &prog,
                                  unsigned blankClass, unsigned beamwidth, unsigned topPaths, const ctc::Plan &plan,
                                  const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name =
      poplibs_support::debugName(debugContext, "popnn::ctc_infer::", "beamSearchDecoderLogProbabilities");
  const ctc::Plan::Impl &p = ctc::detail::inferencePlan(plan, name);
  checkDecoderInputs(p, logProbs, dataLengths, blankClass, beamwidth, topPaths, options, name);
  return decode(graph, logProbs, dataLengths, prog, blankClass, beamwidth, topPaths, p, name);
}

std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogits(poplar::Graph &graph, const poplar::Tensor &logits, const poplar::Tensor &dataLengths,
                        poplar::program::Sequence &prog, unsigned blankClass, unsigned beamwidth, unsigned topPaths,
                        const ctc::Plan &plan, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::ctc_infer::", "beamSearchDecoderLogits");
  const ctc::Plan::Impl &p = ctc::detail::inferencePlan(plan, name);
  checkDecoderInputs(p, logits, dataLengths, blankClass, beamwidth, topPaths, options, name);
  return decode(graph, ctc::detail::logProbsOf(graph, logits, prog, name), dataLengths, prog, blankClass, beamwidth,
                topPaths, p, name);
}

} // namespace ctc_infer
} // namespace popnn
