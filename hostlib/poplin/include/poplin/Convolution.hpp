// Convolutions of any number of spatial dimensions (tested in 1-D and 2-D), lowered to a grouped matrix
// product: the input's windows (an im2col view: for every kernel position, the input field sliced and strided,
// which the graph compiler gathers block by block onto the tiles) times the weights arranged as
// {groups, kernel * inputChannels, outputChannels}, planned by poplin's matMul planner.
//
// Options (poplar::OptionFlags; an unknown name or value is a poplar::invalid_option naming it):
// "availableMemoryProportion" and "partialsType" as for matMul; "pass" (NONE, NONE_MATMUL, INFERENCE_FWD,
// TRAINING_FWD, TRAINING_BWD, TRAINING_WU, FC_INFERENCE_FWD, FC_TRAINING_FWD, FC_TRAINING_BWD, FC_TRAINING_WU):
// an FC_ pass plans the product as matMul's fullyConnectedPass of the same name does (the three passes of a fully
// connected layer together), the others plan it alone; and "use128BitConvUnitLoad", "enableMultiStageReduce",
// "enableFastReduce", "remapOutputTensor", "enableConvDithering", "gatherConvOutput",
// "insertTransformsCycleCountProgs" (true/false): accepted and checked, no effect here (a multi-convolution
// refuses entries that differ in the last one, see MultiConvolution.hpp).
#ifndef POPLIN_CONVOLUTION_HPP
#define POPLIN_CONVOLUTION_HPP

#include <iosfwd>
#include <stdint.h>
#include <set>
#include <string>
#include <tuple>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include "poplin/ConvParams.hpp"
#include "poplin/detail/PlanningCache.hpp"

namespace poplin {

/// A convolution to plan: the target it runs on, its parameters and its options (pointers that must outlive the
/// call they are passed to; a null options pointer is no options).
typedef std::tuple<const poplar::Target *, const ConvParams, const poplar::OptionFlags *> ConvPlanParams;

/// Plans every convolution of `convs` (the product that createWeights and convolution plan for its parameters)
/// into `cache`, so that those functions given the same target, parameters, options and cache plan nothing.
/// Throws as convolution does for invalid parameters or options, and poputil::poplibs_error for a null target.
void preplanConvolutions(const std::set<ConvPlanParams> &convs, PlanningCache &cache);
/// As above; `graph` is not needed by this planner (each entry names its target) and is accepted for source
/// compatibility.
void preplanConvolutions(poplar::Graph &graph, const std::set<ConvPlanParams> &convs, PlanningCache &cache);

/// The weights {groups, outputChannels, inputChannels, kernel...} of `params`, laid out as the right operand of
/// the convolution's product. Throws poputil::poplibs_error for invalid params (ConvParams::validate).
poplar::Tensor createWeights(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// The input {batch, groups * inputChannels, field...} of `params`: a view of a variable stored channels last
/// ({batch, field..., channels}, so that a pixel's channels are one run), mapped linearly over the tiles in whole
/// groups' channel vectors. convolution's result is laid out the same way.
poplar::Tensor createInput(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// Biases {channels} for `activations` {batch, channels, field...}, mapped linearly.
poplar::Tensor createBiases(poplar::Graph &graph, const poplar::Tensor &activations,
                            const poplar::DebugContext &debugContext = {"biases"});
/// Biases {channels} for `activations`, the output {B, G*Co, field...} of the convolution of `params`: channel c
/// is mapped to the tile that holds the activations' first element of channel c (where createConvOutput's plan
/// put it), so that addBias reads it there. Throws poputil::poplibs_error for invalid params or activations whose
/// shape is not the output's, and poplar::invalid_option for a bad option.
poplar::Tensor createBiases(poplar::Graph &graph, const poplar::Tensor &activations, const ConvParams &params,
                            const poplar::DebugContext &debugContext = {"biases"},
                            const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);

/// The convolution of `in` {B, G*Ci, field...} with `weights` {G, Co, Ci, kernel...}: a new tensor
/// {B, G*Co, outField...}. With `transposeAndFlipWeights`, `weights` are {G, Ci, Co, kernel...} (a forward pass's
/// weights given to its gradient pass, see getGradientParams): their channels are swapped and their spatial
/// dimensions reversed first. Throws poputil::poplibs_error naming a shape or type that does not match `params`.
poplar::Tensor convolution(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &weights,
                           const ConvParams &params, bool transposeAndFlipWeights, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);

/// The output {B, G*Co, outField...} of the convolution of `params`, laid out as convolution() lays out its
/// result (for convolutionWithOutput).
poplar::Tensor createConvOutput(poplar::Graph &graph, const ConvParams &params, const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = poplar::OptionFlags(),
                                PlanningCache *cache = 0);
/// As convolution, writing the result into `out` {B, G*Co, outField...} of the output type (mapped, with no
/// aliased elements; createConvOutput makes one).
void convolutionWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &weights,
                           const poplar::Tensor &out, const ConvParams &params, bool transposeAndFlipWeights,
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// Checks convolution options as every convolution function does; throws poplar::invalid_option naming an
/// unknown option or a bad value.
void convolutionValidateOptions(const poplar::OptionFlags &options);

/// The floating-point operations of the convolution's forward pass: 2 per multiply-accumulate of a real input
/// element with a real kernel element into a kept output (padding, dilation zeros, truncated and strided-out
/// outputs not counted). Throws as ConvParams::validate.
uint64_t getFwdFlops(const ConvParams &params);
/// Of the input-gradient pass: the same products as the forward pass.
uint64_t getBwdFlops(const ConvParams &params);
/// Of the weight-update pass: the same products as the forward pass.
uint64_t getWuFlops(const ConvParams &params);
/// The cycles of the forward pass if every tile's conv units did a multiply-accumulate every cycle: the pass's
/// multiply-accumulates over (tiles x conv units per tile x weights per conv unit), the units for params' input
/// and output types (half in: half or float out; float: float). Throws as ConvParams::validate.
double getFwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);
/// The same for the input-gradient pass.
double getBwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);
/// The same for the weight-update pass.
double getWuPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);

/// Copies `weightsIn` {G, Co, Ci, kernel...} into `weightsOut` {G, Ci, Co, kernel...} with the channels swapped
/// and every spatial dimension reversed.
void weightsTransposeChansFlipXY(poplar::Graph &graph, const poplar::Tensor &weightsIn,
                                 const poplar::Tensor &weightsOut, poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {});

/// The gradient of the weights {G, Co, Ci, kernel...} from the output gradient `zDeltas` {B, G*Co, out...} and
/// the forward input `activations` {B, G*Ci, in...}.
poplar::Tensor calculateWeightDeltas(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                                     const poplar::Tensor &activations, const ConvParams &params,
                                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = poplar::OptionFlags(),
                                     PlanningCache *cache = 0);
/// weights += scale * calculateWeightDeltas(...), scale a one-element FLOAT tensor.
void convolutionWeightUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas, const poplar::Tensor &weights,
                             const poplar::Tensor &activations, const ConvParams &params, const poplar::Tensor &scale,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// As above with a constant scale.
void convolutionWeightUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas, const poplar::Tensor &weights,
                             const poplar::Tensor &activations, const ConvParams &params, float scale,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// biases += scale * (zDeltas summed over the batch and the field), scale a one-element FLOAT tensor.
void convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas, const poplar::Tensor &biases,
                           const poplar::Tensor &scale, const poplar::OptionFlags &options,
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});
/// As above with a constant scale.
void convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas, const poplar::Tensor &biases,
                           float scale, const poplar::OptionFlags &options, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {});

/// acts {B, C, field...} += biases {C} broadcast over the batch and the field.
void addBias(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &biases,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// The estimated costs of a convolution's plan (reportPlanEstimatedCosts).
struct PlanCosts {
  /// Estimated cycles of the forward pass.
  std::size_t cycles;
  /// Estimated bytes over all the tiles the plan uses (the busiest tile's peak times the tiles).
  std::size_t memory;
  /// A cost that cannot be estimated.
  static const std::size_t unknown = ~std::size_t(0);
};

/// The estimated cycles and memory of the forward pass's plan (the plan reportPlanInfo reports). Throws as
/// reportPlanInfo.
PlanCosts reportPlanEstimatedCosts(const poplar::Graph &graph, const ConvParams &params,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   PlanningCache *cache = 0);

/// Writes the plan of the convolution's product (split, tiles, memory, estimated cycles) to `out`.
void reportPlanInfo(std::ostream &out, const poplar::Graph &graph, const ConvParams &params,
                    const poplar::OptionFlags &options = poplar::OptionFlags(), PlanningCache *cache = 0);
/// Writes the plan of the weight-update pass of the convolution of `fwdParams` (the product calculateWeightDeltas
/// builds: the output gradient's transpose {G, Co, positions} times the input's windows {G, positions,
/// kernel * Ci}) to `out`, as reportPlanInfo does for the forward pass. Throws as reportPlanInfo.
void reportWeightUpdatePlanInfo(std::ostream &out, const poplar::Graph &graph, const ConvParams &fwdParams,
                                const poplar::OptionFlags &fwdOptions = poplar::OptionFlags(),
                                PlanningCache *cache = 0);

/// The weights of a fully connected layer's backward pass, computed as a convolution (matMulGetConvPlanParams
/// gives its parameters): `weights` {G, Ci, Co, 1} (the forward pass's weights {G, outputs, inputs, 1}) copied on
/// the device, transposed, into a new tensor {G, Co, Ci, 1} laid out as createWeights lays out the weights of
/// `params` (the backward pass's parameters: Ci the layer's outputs, Co its inputs). Throws
/// poputil::poplibs_error when params are not 1-D or `weights` is not of params' input type and shape
/// {G, Ci, Co, kernel...}, and poplar::invalid_option for a bad option.
poplar::Tensor fullyConnectedWeightTranspose(poplar::Graph &graph, poplar::Tensor weights, const ConvParams &params,
                                             poplar::program::Sequence &prog,
                                             const poplar::DebugContext &debugContext = {},
                                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                                             PlanningCache *cache = 0);

} // namespace poplin

#endif // POPLIN_CONVOLUTION_HPP
