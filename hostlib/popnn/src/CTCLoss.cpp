// popnn::ctc's loss and gradient: the inputs checked here, the recursions on the device, one CtcLossGradient
// vertex per sequence on the tile the plan gives it (a sequence's recursion is sequential in time, so it is not
// split). The gradient is computed in float and cast to the output type.
#include <popnn/CTCLoss.hpp>

#include <popops/Cast.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include "ctc_plan.hpp"
#include "poplibs_support.hpp"
#include "vertices.hpp"

namespace popnn {
namespace ctc {
namespace {

struct LossOptions {
  bool zeroInfinity = false;
  float zeroInfinityRelTolerance = 0.01f;
};

bool parseBool(const std::string &v, const std::string &what, const std::string &key) {
  if (v != "true" && v != "false")
    throw poplar::invalid_option(what + ": option " + key + "='" + v + "' is not true or false");
  return v == "true";
}

LossOptions parseLossOptions(const poplar::OptionFlags &options, const std::string &what) {
  LossOptions o;
  for (const auto &kv : options) {
    if (kv.first == "includeSoftmaxGradient") {
      if (!parseBool(kv.second, what, kv.first))
        throw poputil::poplibs_error(what + ": includeSoftmaxGradient = false is not supported (nor is it by "
                                            "PopLibs)");
    } else if (kv.first == "zeroInfinity") {
      o.zeroInfinity = parseBool(kv.second, what, kv.first);
    } else if (kv.first == "zeroInfinityRelTolerance") {
      o.zeroInfinityRelTolerance = float(detail::optionNumber(kv.second, 0.0, 1.0, what, kv.first));
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + kv.first +
                                   "' (known: includeSoftmaxGradient, zeroInfinity, zeroInfinityRelTolerance)");
    }
  }
  return o;
}

void checkInputs(const Plan::Impl &p, const poplar::Type &outType, const poplar::Tensor &data,
                 const poplar::Tensor &labels, const poplar::Tensor &dataLengths,
                 const poplar::Tensor &labelLengths, unsigned blankClass, const std::string &what) {
  detail::checkData(p, data, what);
  if (outType != poplar::FLOAT && outType != poplar::HALF)
    throw poputil::poplibs_error(what + ": outType " + outType.toString() + " is not FLOAT or HALF");
  const auto isIndex = [](const poplar::Tensor &t) {
    return t.valid() && (t.elementType() == poplar::UNSIGNED_INT || t.elementType() == poplar::INT);
  };
  if (!isIndex(labels) || labels.rank() != 2 || labels.dim(0) != p.batchSize || labels.dim(1) == 0)
    throw poputil::poplibs_error(what + ": labels must be UNSIGNED_INT or INT [batchSize, maxLabelLength >= 1]");
  for (const poplar::Tensor *t : {&dataLengths, &labelLengths})
    if (!isIndex(*t) || t->rank() != 1 || t->dim(0) != p.batchSize)
      throw poputil::poplibs_error(what + ": dataLengths and labelLengths must be UNSIGNED_INT or INT [batchSize]");
  if (blankClass >= p.numClasses)
    throw poputil::poplibs_error(what + ": blankClass " + std::to_string(blankClass) + " is not below numClasses " +
                                 std::to_string(p.numClasses));
}

std::pair<poplar::Tensor, poplar::Tensor> lossImpl(poplar::Graph &graph, const poplar::Type &outType,
                                                   const poplar::Tensor &logProbs, const poplar::Tensor &labels,
                                                   const poplar::Tensor &dataLengths,
                                                   const poplar::Tensor &labelLengths,
                                                   poplar::program::Sequence &prog, unsigned blankClass,
                                                   const Plan::Impl &p, bool computeGrad, const std::string &name,
                                                   const poplar::OptionFlags &options) {
  const LossOptions o = parseLossOptions(options, name);
  checkInputs(p, outType, logProbs, labels, dataLengths, labelLengths, blankClass, name);
  const poplar::Tensor lab = detail::asUnsigned(graph, labels, prog, name + "/labels");
  const poplar::Tensor dLen = detail::asUnsigned(graph, dataLengths, prog, name + "/dataLengths");
  const poplar::Tensor lLen = detail::asUnsigned(graph, labelLengths, prog, name + "/labelLengths");
  const std::size_t B = p.batchSize, T = p.maxTime, S = 2 * lab.dim(1) + 1;
  poplar::Tensor loss = graph.addVariable(poplar::FLOAT, {B}, name + "/loss");
  poplar::Tensor grad = detail::createSequenceData(graph, p, poplar::FLOAT, name + "/gradient");
  poplar::Tensor alpha = graph.addVariable(poplar::FLOAT, {B, T * S}, name + "/alpha");
  poplar::Tensor beta = graph.addVariable(poplar::FLOAT, {B, 2 * S}, name + "/beta");
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = popnn::detail::vertexFor("popnn::CtcLossGradient", logProbs.elementType());
  for (std::size_t b = 0; b < B; ++b) {
    const unsigned tile = p.tileOf(b);
    graph.setTileMapping(loss[b], tile);
    graph.setTileMapping(alpha[b], tile);
    graph.setTileMapping(beta[b], tile);
    poplar::VertexRef v = graph.addVertex(cs, vertex);
    graph.setTileMapping(v, tile);
    graph.setFieldSize(v["probs"], T);
    graph.setFieldSize(v["grad"], computeGrad ? T : 0);
    for (std::size_t t = 0; t < T; ++t) {
      graph.connect(v["probs"][t], logProbs[t][b]);
      if (computeGrad)
        graph.connect(v["grad"][t], grad[t][b]);
    }
    graph.connect(v["label"], lab[b]);
    graph.connect(v["dataLength"], dLen.slice(b, b + 1));
    graph.connect(v["labelLength"], lLen.slice(b, b + 1));
    graph.connect(v["alpha"], alpha[b]);
    graph.connect(v["beta"], beta[b]);
    graph.connect(v["loss"], loss.slice(b, b + 1));
    graph.setInitialValue(v["blank"], blankClass);
    graph.setInitialValue(v["computeGrad"], unsigned(computeGrad ? 1 : 0));
    graph.setInitialValue(v["zeroInfinity"], unsigned(o.zeroInfinity ? 1 : 0));
    graph.setInitialValue(v["zeroTolerance"], o.zeroInfinityRelTolerance);
  }
  prog.add(poplar::program::Execute(cs, {name}));
  if (outType != poplar::FLOAT) {
    loss = popops::cast(graph, loss, outType, prog, name + "/castLoss");
    if (computeGrad)
      grad = popops::cast(graph, grad, outType, prog, name + "/castGradient");
  }
  return {loss, grad};
}

} // namespace

std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logProbs, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
    const unsigned blankClass, const Plan &plan, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  const std::string name =
      poplibs_support::debugName(debugContext, "popnn::ctc::", "calcLossAndGradientLogProbabilities");
  const Plan::Impl &p = detail::lossPlan(plan, name);
  return lossImpl(graph, outType, logProbs, labels, dataLengths, labelLengths, prog, blankClass, p, true, name,
                  options);
}

std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogits(
    poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logits, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
    const unsigned blankClass, const Plan &plan, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::ctc::", "calcLossAndGradientLogits");
  const Plan::Impl &p = detail::lossPlan(plan, name);
  return lossImpl(graph, outType, detail::logProbsOf(graph, logits, prog, name), labels, dataLengths, labelLengths, prog,
                  blankClass, p, true, name, options);
}

poplar::Tensor calcCTCLossLogProbabilities(poplar::Graph &graph, const poplar::Type &outType,
                                           const poplar::Tensor &logProbs, const poplar::Tensor &labels,
                                           const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
                                           poplar::program::Sequence &prog, const unsigned blankClass,
                                           const Plan &plan, const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::ctc::", "calcCTCLossLogProbabilities");
  const Plan::Impl &p = detail::lossPlan(plan, name);
  return lossImpl(graph, outType, logProbs, labels, dataLengths, labelLengths, prog, blankClass, p, false, name,
                  options)
      .first;
}

poplar::Tensor calcCTCLossLogits(poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logits,
                                 const poplar::Tensor &labels, const poplar::Tensor &dataLengths,
                                 const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
                                 const unsigned blankClass, const Plan &plan,
                                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::ctc::", "calcCTCLossLogits");
  const Plan::Impl &p = detail::lossPlan(plan, name);
  return lossImpl(graph, outType, detail::logProbsOf(graph, logits, prog, name), labels, dataLengths, labelLengths, prog,
                  blankClass, p, false, name, options)
      .first;
}

} // namespace ctc
} // namespace popnn
