// Matrix multiplication: C = A * B of 2-D tensors and C[g] = A[g] * B[g] of grouped (3-D) tensors, planned over the
// tiles (a split of groups, rows, columns and the inner dimension chosen with a cost model of the target) and
// optionally accumulated into an existing tensor.
//
// Options (poplar::OptionFlags; an unknown name or value is a poplar::invalid_option naming it):
//  - "availableMemoryProportion": the share of a tile's memory (0 < p <= 1, default 0.6) the operation's blocks
//    and partials may use; the planner splits further (more tiles, an inner-dimension split) to stay within it.
//  - "partialsType": "float" (default) or "half". With HALF operands and "half", the partial sums of an
//    inner-dimension split are half: each tile's block sum (accumulated in float by the vertex) is rounded to half,
//    and every reduction stage rounds its sums to half again. FLOAT operands keep float partials.
//  - "fullyConnectedPass": "NONE" (default), "INFERENCE_FWD", "TRAINING_FWD", "TRAINING_BWD", "TRAINING_WU": the
//    pass of a fully connected layer, for the products X{m,k} * W{k,n} (FWD), dY{m,n} * W^T{n,k} (BWD) and
//    X^T{k,m} * dY{m,n} (WU). TRAINING_FWD picks the split whose three passes are fastest together; TRAINING_BWD
//    and TRAINING_WU derive their split and tile order from that forward plan, so that each tile uses the
//    blocks of W (BWD) or of X and dY (WU) that the forward layout put on it, and createMatMulInputRHS/LHS lay
//    their operands out that way. NONE and INFERENCE_FWD plan the one product alone.
//  - "inputRHSIsPreArranged", "use128BitConvUnitLoad", "enableMultiStageReduce", "enableFastReduce",
//    "remapOutputTensor", "gatherOutput": "true" or "false"; accepted for source compatibility, no effect here.
#ifndef POPLIN_MATMUL_HPP
#define POPLIN_MATMUL_HPP

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include "poplin/Convolution.hpp"

namespace poplin {

/// C = A * B for A of shape {m, k} and B of shape {k, n} (any views, e.g. X.transpose()), of the same type (FLOAT
/// or HALF). Returns C {m, n} of A's type, mapped over the tiles by the plan. Throws poputil::poplibs_error when
/// the operands are not 2-D, their inner dimensions differ, their types differ or are not FLOAT/HALF, or no plan
/// fits the tiles' memory (raise "availableMemoryProportion" or use a target with more tiles).
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags(),
                      matmul::PlanningCache *cache = 0);
/// As above with the result of type `outputType` (FLOAT, or HALF for HALF operands).
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog, const poplar::Type &outputType,
                      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags(),
                      matmul::PlanningCache *cache = 0);
/// As above into `out` of shape {m, n} (its type is the output type; it must be mapped or it is mapped here).
void matMulWithOutput(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      const poplar::Tensor &out, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags(),
                      matmul::PlanningCache *cache = 0);

/// Writes the plan of A {aShape} * B {bShape} of `inputType` operands (result of `outputType`) to `out`: the
/// split, the tiles, the bytes per tile and the estimated cycles.
void matMulReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &inputType,
                      const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                      const std::vector<std::size_t> &bShape,
                      const poplar::OptionFlags &options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);
/// As above with the result of the operands' type.
void matMulReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &dType,
                      const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                      const poplar::OptionFlags &options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);

/// C[g] = A[g] * B[g] for A {G, m, k} and B {G, k, n}; returns C {G, m, n}. Errors as matMul.
poplar::Tensor matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             matmul::PlanningCache *cache = 0);
/// As above with the result of type `outputType`.
poplar::Tensor matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             poplar::program::Sequence &prog, const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             matmul::PlanningCache *cache = 0);
/// As above into `out` {G, m, n}.
void matMulGroupedWithOutput(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             const poplar::Tensor &out, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             matmul::PlanningCache *cache = 0);
/// The plan of a grouped product (shapes {G, m, k} and {G, k, n}), as matMulReportPlan.
void matMulGroupedReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &inputType,
                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                             const std::vector<std::size_t> &bShape,
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             matmul::PlanningCache *cache = 0);

/// C += k * A * B (2-D). C must have shape {m, n} and A's type.
void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C, float k, const poplar::Tensor &A,
               const poplar::Tensor &B, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);
/// As above with the scale a one-element FLOAT tensor `k` (set at run time).
void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C, const poplar::Tensor &k, const poplar::Tensor &A,
               const poplar::Tensor &B, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);
/// C[g] += k * A[g] * B[g] (3-D).
void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C, float k, const poplar::Tensor &A,
                      const poplar::Tensor &B, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);
/// As above with a tensor scale.
void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C, const poplar::Tensor &k,
                      const poplar::Tensor &A, const poplar::Tensor &B, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags(),
                      matmul::PlanningCache *cache = 0);

/// A new 2-D tensor of `type` and shape aShape {m, k}, mapped so that it is the efficient left operand of a
/// product with a right operand of shape bShape {k, n}: each block of the plan spread over the tiles that use it.
poplar::Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = poplar::OptionFlags(),
                                    matmul::PlanningCache *cache = 0);
/// As above with the product's result of `outputType`.
poplar::Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = poplar::OptionFlags(),
                                    matmul::PlanningCache *cache = 0);
/// The right operand {k, n} of a product with a left operand of shape aShape {m, k}.
poplar::Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = poplar::OptionFlags(),
                                    matmul::PlanningCache *cache = 0);
/// As above with the product's result of `outputType`.
poplar::Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                    const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = poplar::OptionFlags(),
                                    matmul::PlanningCache *cache = 0);
/// The result {m, n} of `outputType`, mapped as matMul maps its result.
poplar::Tensor createMatMulOutput(poplar::Graph &graph, const poplar::Type &inputType,
                                  const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                  const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                                  matmul::PlanningCache *cache = 0);
/// As above with one type for the operands and the result.
poplar::Tensor createMatMulOutput(poplar::Graph &graph, const poplar::Type &dataType,
                                  const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                  const poplar::DebugContext &debugContext,
                                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                                  matmul::PlanningCache *cache = 0);
/// B copied by `prog` into a new tensor laid out as the right operand of the product of an A of aShape
/// (createMatMulInputRHS with B's type and outputType), so that a B made elsewhere is rearranged once, before the
/// products that use it. Pass the result to matMul (the inputRHSIsPreArranged option is accepted and changes
/// nothing here). Throws as createMatMulInputRHS, and when B's shape does not fit aShape.
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape,
                                        const poplar::Tensor &B, poplar::program::Sequence &prog,
                                        const poplar::Type &outputType, const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                                        matmul::PlanningCache *cache = 0);
/// As above with B's type as the result's.
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape,
                                        const poplar::Tensor &B, poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                                        matmul::PlanningCache *cache = 0);
/// The grouped form: aShape {G, m, k}, B {G, k, n}.
poplar::Tensor preArrangeMatMulGroupedInputRHS(poplar::Graph &graph, const std::vector<std::size_t> &aShape,
                                               const poplar::Tensor &B, poplar::program::Sequence &prog,
                                               const poplar::Type &outputType,
                                               const poplar::DebugContext &debugContext = {},
                                               const poplar::OptionFlags &options = poplar::OptionFlags(),
                                               matmul::PlanningCache *cache = 0);
/// The grouped forms: aShape {G, m, k}, bShape {G, k, n}.
poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                                           matmul::PlanningCache *cache = 0);
poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                                           matmul::PlanningCache *cache = 0);
/// The grouped operands of a product whose result has `outputType` (e.g. HALF operands, a FLOAT result).
poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                           const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                                           matmul::PlanningCache *cache = 0);
poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                           const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                                           matmul::PlanningCache *cache = 0);
poplar::Tensor createMatMulGroupedOutput(poplar::Graph &graph, const poplar::Type &inputType,
                                         const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                         const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags &options = poplar::OptionFlags(),
                                         matmul::PlanningCache *cache = 0);

/// Checks the matMul family's options as every matMul function does; throws poplar::invalid_option naming an
/// unknown option or a bad value.
void matmulValidateOptions(const poplar::OptionFlags &options);

/// One product to plan ahead of building it: the operands' type, the result's type and the shapes of A and B
/// ({m, k} and {k, n}, or {G, m, k} and {G, k, n} for a grouped product).
struct MatMulParams {
  poplar::Type inputType;
  poplar::Type outputType;
  std::vector<std::size_t> aShape;
  std::vector<std::size_t> bShape;
  /// An order over all four members, so that MatMulParams can key a std::set.
  friend bool operator<(const MatMulParams &a, const MatMulParams &b);
};

/// A product to plan: the target it runs on, its parameters and its options (both pointers must outlive the
/// call they are passed to).
typedef std::tuple<const poplar::Target *, const MatMulParams, const poplar::OptionFlags *> MatMulPlanParams;

/// Plans every product of `matmuls` into `cache`, so that the matMul functions given the same target, shapes,
/// types, options and cache later find their plans there and plan nothing. Each plan is logged at DEBUG as the
/// functions log theirs. Throws as matMul does for a bad shape, type or option (a null options pointer is no
/// options; a null target is a poputil::poplibs_error).
void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls, matmul::PlanningCache &cache);

/// For each matMul options pointer, the convolution options its product is planned with (matMulGetConvPlanParams
/// fills it; the ConvPlanParams it returns point into it, so keep it while they are used).
typedef std::unordered_map<const poplar::OptionFlags *, poplar::OptionFlags> MatMulToConvOptions;

/// The convolutions the products `matmuls` are planned as: A {G, m, k} * B {G, k, n} (a 2-D product is one
/// group) is the 1-D convolution of batch m, field {1}, kernel {1}, k input and n output channels in G groups,
/// of the product's input and output types. Its options (added to `matmulToConvOpts` once per options pointer;
/// a null pointer is no options) keep availableMemoryProportion, partialsType and the accepted flags, with
/// gatherOutput as gatherConvOutput and fullyConnectedPass as the convolution pass (NONE -> NONE_MATMUL, X ->
/// FC_X), so that preplanConvolutions of the result plans the products matMul builds. Throws
/// poplar::invalid_option for a bad matMul option and poputil::poplibs_error for shapes that do not multiply.
std::set<ConvPlanParams> matMulGetConvPlanParams(const std::set<MatMulPlanParams> &matmuls,
                                                 MatMulToConvOptions &matmulToConvOpts);

/// The transpose of each group's matrix: {G, m, n} -> {G, n, m} (a view).
poplar::Tensor transposeGroupedMatrix(const poplar::Tensor &A);

} // namespace poplin

#endif // POPLIN_MATMUL_HPP
