// Non-linearities and their input gradients (popnn::nonLinearity...). Element-wise types run as one compute set of
// popnn's vertices over the tiles that hold the tensor; the softmax family works along the innermost dimension
// through popops' map and reduce. Element type: FLOAT.
#ifndef POPNN_NONLINEARITY_HPP
#define POPNN_NONLINEARITY_HPP

#include <string>

#include <popnn/NonLinearityDef.hpp>

#ifndef __POPC__
#include <poplar/ComputeSet.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// The name of a non-linearity ("relu", "softmax (stable)"...), for messages.
const char *asString(NonLinearityType type);

/// Applies `nonLinearityType` to `t` in place (the softmax types over t's innermost dimension), appending the
/// compute sets to `prog`. Throws poputil::poplibs_error for a non-FLOAT tensor, a tensor with aliased or
/// unmapped elements, or a type outside NonLinearityType.
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});
/// As above, adding the vertices to the compute set `cs`. The softmax types need several compute sets and throw
/// poputil::poplibs_error here: use the Sequence form.
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::ComputeSet &cs, const poplar::DebugContext &debugContext = {});
/// As the Sequence form; sets `nonLinearityScaling` to the factor the outputs are multiplied by (1 except for
/// SOFTMAX_SCALED).
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float &nonLinearityScaling, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});
/// As the ComputeSet form, setting `nonLinearityScaling` (always 1: SOFTMAX_SCALED throws there).
void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         float &nonLinearityScaling, poplar::ComputeSet &cs, const poplar::DebugContext &debugContext = {});
/// `nonLinearityType` of `t` as a new tensor mapped like `t` (t is left unchanged).
poplar::Tensor nonLinearity(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});
/// As above, setting `nonLinearityScaling` (see nonLinearityInPlace).
poplar::Tensor nonLinearity(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                            float &nonLinearityScaling, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {});

/// The gradient at the input of a non-linearity from `act` and the gradient at its output, as a new tensor
/// mapped like `act`. `act` is the non-linearity's output, except for GELU, GELU_ERF and SWISH, where it is the
/// input. For SOFTMAX_SCALED `act` is the scaled output. Throws poputil::poplibs_error when the shapes or types of
/// `act` and `outGradient` differ or are not FLOAT.
poplar::Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor act,
                                         poplar::Tensor outGradient, poplar::program::Sequence &prog,
                                         const poplar::DebugContext &debugContext = {});
/// As above, adding the vertices to `cs` (element-wise types only; the softmax types throw).
poplar::Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType nonLinearityType, poplar::Tensor act,
                                         poplar::Tensor outGradient, poplar::ComputeSet &cs,
                                         const poplar::DebugContext &debugContext = {});

// Named forms: fn(graph, t, prog) returns the result; fnInPlace(graph, t, prog) writes t; both also take a
// float &nonLinearityScaling before prog.
#define POPNN_DEF_NONLINEARITY(fn, nlType)                                                                           \
  inline void fn##InPlace(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,                 \
                          const poplar::DebugContext &debugContext = {}) {                                                   \
    nonLinearityInPlace(graph, nlType, t, prog, debugContext);                                                        \
  }                                                                                                                  \
  inline void fn##InPlace(poplar::Graph &graph, poplar::Tensor t, float &nonLinearityScaling,                      \
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}) {                  \
    nonLinearityInPlace(graph, nlType, t, nonLinearityScaling, prog, debugContext);                                   \
  }                                                                                                                  \
  inline poplar::Tensor fn(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,                \
                           const poplar::DebugContext &debugContext = {}) {                                                  \
    return nonLinearity(graph, nlType, t, prog, debugContext);                                                        \
  }                                                                                                                  \
  inline poplar::Tensor fn(poplar::Graph &graph, poplar::Tensor t, float &nonLinearityScaling,                     \
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}) {                 \
    return nonLinearity(graph, nlType, t, nonLinearityScaling, prog, debugContext);                                   \
  }
POPNN_DEF_NONLINEARITY(sigmoid, NonLinearityType::SIGMOID)
POPNN_DEF_NONLINEARITY(hardSigmoid, NonLinearityType::HARD_SIGMOID)
POPNN_DEF_NONLINEARITY(relu, NonLinearityType::RELU)
POPNN_DEF_NONLINEARITY(tanh, NonLinearityType::TANH)
POPNN_DEF_NONLINEARITY(gelu, NonLinearityType::GELU)
POPNN_DEF_NONLINEARITY(geluErf, NonLinearityType::GELU_ERF)
POPNN_DEF_NONLINEARITY(swish, NonLinearityType::SWISH)
POPNN_DEF_NONLINEARITY(softmax, NonLinearityType::SOFTMAX)
POPNN_DEF_NONLINEARITY(softmaxStable, NonLinearityType::SOFTMAX_STABLE)
POPNN_DEF_NONLINEARITY(scaledSoftmaxStable, NonLinearityType::SOFTMAX_SCALED)
#undef POPNN_DEF_NONLINEARITY

} // namespace popnn

#endif // !__POPC__

#endif // POPNN_NONLINEARITY_HPP
