// Several independent convolutions given together (multiconv::...): their tensors created and their passes built
// by the same call. Each convolution is the single one of Convolution.hpp with its own parameters and options;
// here they are built one after the other into the program (each planned alone), so a multi-convolution costs
// what its convolutions cost.
//
// Options of the multi-convolution itself (the `options` arguments; an unknown name or bad value is a
// poplar::invalid_option): "planType" ("serial" or "parallel"), "perConvReservedTiles" (an integer >= 0) and
// "cycleBackOff" (a number in [0, 1)): accepted and checked, no effect here. The convolutions' own options must
// agree on "insertTransformsCycleCountProgs" (convolution throws poputil::poplibs_error otherwise).
#ifndef POPLIN_MULTICONVOLUTION_HPP
#define POPLIN_MULTICONVOLUTION_HPP

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include "poplin/Convolution.hpp"

namespace poplin {

namespace multiconv {

/// One convolution's tensor to create: its parameters, its options (as createWeights takes) and the tensor's name.
struct CreateTensorArgs {
  ConvParams params;
  poplar::OptionFlags options;
  std::string name;
};

/// The weights of convolution args[weightsIndex], as poplin::createWeights makes them. Throws
/// poputil::poplibs_error for an index out of range.
poplar::Tensor createWeights(poplar::Graph &graph, const std::vector<CreateTensorArgs> &args, unsigned weightsIndex,
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             poplin::PlanningCache *cache = 0);

/// The input of convolution args[inputIndex], as poplin::createInput makes it.
poplar::Tensor createInput(poplar::Graph &graph, const std::vector<CreateTensorArgs> &args, unsigned inputIndex,
                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                           poplin::PlanningCache *cache = 0);

/// One convolution to build: its input, its weights, its parameters and its options.
struct ConvolutionArgs {
  poplar::Tensor inputs;
  poplar::Tensor weights;
  ConvParams params;
  poplar::OptionFlags options;
};

/// For every i, copies weightsIn[i] {G, Co, Ci, kernel...} into args[i].weights {G, Ci, Co, kernel...} with the
/// channels swapped and the kernel reversed (poplin::weightsTransposeChansFlipXY). Throws
/// poputil::poplibs_error when the two lists differ in length.
void weightsTransposeChansFlipXY(poplar::Graph &graph, std::vector<ConvolutionArgs> &args,
                                 const std::vector<poplar::Tensor> &weightsIn, poplar::program::Sequence &prog,
                                 const poplar::OptionFlags &options, const poplar::DebugContext &debugContext,
                                 poplin::PlanningCache *cache);

/// The convolution of every entry of `args` (poplin::convolution), results in the order of `args`.
std::vector<poplar::Tensor> convolution(poplar::Graph &graph, const std::vector<ConvolutionArgs> &args,
                                        bool transposeAndFlipWeights, poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                                        poplin::PlanningCache *cache = 0);

/// One weight gradient to compute: the output gradient, the forward input, the parameters and options.
struct CalculateWeightDeltasArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor activations;
  ConvParams params;
  poplar::OptionFlags options;
};

/// The weight gradient of every entry (poplin::calculateWeightDeltas), in the order of `args`.
std::vector<poplar::Tensor> calculateWeightDeltas(poplar::Graph &graph,
                                                  const std::vector<CalculateWeightDeltasArgs> &args,
                                                  poplar::program::Sequence &prog,
                                                  const poplar::DebugContext &debugContext = {},
                                                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                                                  poplin::PlanningCache *cache = 0);

/// One weight update, weights += scale * gradient, with the scale a one-element FLOAT tensor.
struct ConvWeightUpdateArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  poplar::Tensor scale;
  ConvParams params;
  poplar::OptionFlags options;
};

/// Applies every weight update of `args` (poplin::convolutionWeightUpdate).
void convolutionWeightUpdate(poplar::Graph &graph, const std::vector<ConvWeightUpdateArgs> &args,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             poplin::PlanningCache *cache = 0);

/// One weight update with a constant scale.
struct ConvWeightUpdateArgsScalar {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  float scale;
  ConvParams params;
  poplar::OptionFlags options;
};

/// Applies every weight update of `args` with its constant scale.
void convolutionWeightUpdate(poplar::Graph &graph, const std::vector<ConvWeightUpdateArgsScalar> &args,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             poplin::PlanningCache *cache = 0);

} // namespace multiconv
} // namespace poplin

#endif // POPLIN_MULTICONVOLUTION_HPP
