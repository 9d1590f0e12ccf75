// multiconv: each entry built by the single convolution's function, in order, named "<debug path>/conv<i>".
#include "poplin/MultiConvolution.hpp"

#include <cstdlib>

#include <poplar/exceptions.hpp>

#include "poputil/exceptions.hpp"

namespace poplin {
namespace multiconv {

namespace {

// Checks the multi-convolution's own options (the per-convolution ones are checked by each convolution).
void checkOptions(const poplar::OptionFlags &options, const std::string &what) {
  for (const auto &o : options) {
    const std::string &v = o.second;
    char *end = 0;
    if (o.first == "planType") {
      if (v != "serial" && v != "parallel")
        throw poplar::invalid_option(what + ": option planType='" + v + "' is not serial or parallel");
    } else if (o.first == "perConvReservedTiles") {
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 0)
        throw poplar::invalid_option(what + ": option perConvReservedTiles='" + v + "' is not an integer >= 0");
    } else if (o.first == "cycleBackOff") {
      double x = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || x < 0 || x >= 1)
        throw poplar::invalid_option(what + ": option cycleBackOff='" + v + "' is not a number in [0, 1)");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + o.first +
                                   "' (known: planType, perConvReservedTiles, cycleBackOff)");
    }
  }
}

// The convolutions of one multi-convolution share their transform programs, so an option that shapes those
// programs must be the same in every entry: refuse a mix (as Graphcore's multiconv does).
template <typename Args> void checkSharedOptions(const std::vector<Args> &args, const std::string &what) {
  static const char *const kShared[] = {"insertTransformsCycleCountProgs"};
  for (const char *name : kShared) {
    std::string first;
    for (std::size_t i = 0; i < args.size(); ++i) {
      std::string v = "false";
      for (const auto &o : args[i].options)
        if (o.first == name)
          v = o.second;
      if (i == 0)
        first = v;
      else if (v != first)
        throw poputil::poplibs_error(what + ": option " + name + " is '" + first + "' for convolution 0 but '" + v +
                                     "' for convolution " + std::to_string(i) + "; give every convolution the same");
    }
  }
}

std::string prefix(const poplar::DebugContext &dc, std::size_t i) {
  const std::string path = dc.getPathName();
  return (path.empty() ? "multiconv" : path) + "/conv" + std::to_string(i);
}

template <typename Args> const Args &entry(const std::vector<Args> &args, unsigned i, const char *what) {
  if (i >= args.size())
    throw poputil::poplibs_error(std::string(what) + ": index " + std::to_string(i) + " is past the " +
                                 std::to_string(args.size()) + " convolutions given");
  return args[i];
}

// Both convolutionWeightUpdate overloads: the args differ only in the type of `scale` (a tensor or a float), and
// the single convolution's function has an overload for each.
template <typename Args>
void weightUpdateEach(poplar::Graph &graph, const std::vector<Args> &args, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                      poplin::PlanningCache *cache) {
  checkOptions(options, "poplin::multiconv::convolutionWeightUpdate");
  for (std::size_t i = 0; i < args.size(); ++i)
    poplin::convolutionWeightUpdate(graph, args[i].zDeltas, args[i].weights, args[i].activations, args[i].params,
                                    args[i].scale, prog, prefix(debugContext, i), args[i].options, cache);
}

} // namespace

poplar::Tensor createWeights(poplar::Graph &graph, const std::vector<CreateTensorArgs> &args, unsigned weightsIndex,
                             const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  checkOptions(options, "poplin::multiconv::createWeights");
  const CreateTensorArgs &a = entry(args, weightsIndex, "poplin::multiconv::createWeights");
  return poplin::createWeights(graph, a.params, a.name, a.options, cache);
}

poplar::Tensor createInput(poplar::Graph &graph, const std::vector<CreateTensorArgs> &args, unsigned inputIndex,
                           const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  checkOptions(options, "poplin::multiconv::createInput");
  const CreateTensorArgs &a = entry(args, inputIndex, "poplin::multiconv::createInput");
  return poplin::createInput(graph, a.params, a.name, a.options, cache);
}

void weightsTransposeChansFlipXY(poplar::Graph &graph, std::vector<ConvolutionArgs> &args,
                                 const std::vector<poplar::Tensor> &weightsIn, poplar::program::Sequence &prog,
                                 const poplar::OptionFlags &options, const poplar::DebugContext &debugContext,
                                 poplin::PlanningCache *) {
  checkOptions(options, "poplin::multiconv::weightsTransposeChansFlipXY");
  if (weightsIn.size() != args.size())
    throw poputil::poplibs_error("poplin::multiconv::weightsTransposeChansFlipXY: " +
                                 std::to_string(weightsIn.size()) + " input weights for " +
                                 std::to_string(args.size()) + " convolutions");
  for (std::size_t i = 0; i < args.size(); ++i)
    poplin::weightsTransposeChansFlipXY(graph, weightsIn[i], args[i].weights, prog, prefix(debugContext, i));
}

std::vector<poplar::Tensor> convolution(poplar::Graph &graph, const std::vector<ConvolutionArgs> &args,
                                        bool transposeAndFlipWeights, poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                        poplin::PlanningCache *cache) {
  checkOptions(options, "poplin::multiconv::convolution");
  checkSharedOptions(args, "poplin::multiconv::convolution");
  std::vector<poplar::Tensor> out;
  for (std::size_t i = 0; i < args.size(); ++i)
    out.push_back(poplin::convolution(graph, args[i].inputs, args[i].weights, args[i].params,
                                      transposeAndFlipWeights, prog, prefix(debugContext, i), args[i].options,
                                      cache));
  return out;
}

std::vector<poplar::Tensor> calculateWeightDeltas(poplar::Graph &graph,
                                                  const std::vector<CalculateWeightDeltasArgs> &args,
                                                  poplar::program::Sequence &prog,
                                                  const poplar::DebugContext &debugContext,
                                                  const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  checkOptions(options, "poplin::multiconv::calculateWeightDeltas");
  std::vector<poplar::Tensor> out;
  for (std::size_t i = 0; i < args.size(); ++i)
    out.push_back(poplin::calculateWeightDeltas(graph, args[i].zDeltas, args[i].activations, args[i].params, prog,
                                                prefix(debugContext, i), args[i].options, cache));
  return out;
}

void convolutionWeightUpdate(poplar::Graph &graph, const std::vector<ConvWeightUpdateArgs> &args,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  weightUpdateEach(graph, args, prog, debugContext, options, cache);
}

void convolutionWeightUpdate(poplar::Graph &graph, const std::vector<ConvWeightUpdateArgsScalar> &args,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  weightUpdateEach(graph, args, prog, debugContext, options, cache);
}

} // namespace multiconv
} // namespace poplin
