// What the GRU forward pass (Gru.cpp) and its training passes (GruTraining.cpp) share: the layer's sizes and gate
// slots, the argument checks, the layout of the forward intermediates and the per-step masks of realTimeSteps.
#ifndef POPNN_GRU_DETAIL_HPP
#define POPNN_GRU_DETAIL_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "lstm_detail.hpp"
#include "popnn/Gru.hpp"

namespace popnn {
namespace gru {
namespace detail {

// The LSTM's option parsing, shape checks, linear variables and derivatives serve the GRU too.
using lstm::detail::checkShape;
using lstm::detail::checkSizesAndType;
using lstm::detail::derivative;
using lstm::detail::linear;
using lstm::detail::matMulOptions;

/// Forward intermediate slots that are always there: each step's gates after their non-linearities.
enum FwdSlot : std::size_t { FWD_RESET = 0, FWD_UPDATE = 1, FWD_CANDIDATE = 2 };

/// A checked layer: sizes, type, which gate slot of the weights holds each unit, and where the optional forward
/// intermediates sit.
struct Layer {
  std::size_t T, B, I, O;
  poplar::Type type;
  bool resetAfter, fullSequence;
  std::size_t slot[BASIC_GRU_CELL_NUM_UNITS];
  /// The intermediates per step (3, + the output without outputFullSequence, + the recurrent candidate product
  /// with resetAfter) and the index of those two (unused ones are fwdSlots).
  std::size_t fwdSlots, outputSlot, candidateRecurrentSlot;
};

/// "<debug path>/<fn>" or "popnn::gru::<fn>".
std::string nameOf(const poplar::DebugContext &dc, const char *fn);
/// Throws poputil::poplibs_error naming `what` for sizes, a type or a cell order the GRU cannot run.
void checkParams(const GruParams &p, const std::string &what);
/// checkParams, then the weights' shapes; returns the layer.
Layer checkLayer(const GruParams &p, const GruWeights &w, const std::string &what);
/// Throws poputil::poplibs_error unless realTimeSteps is an integer {B} and the params give the full sequence.
void checkRealTimeSteps(const Layer &l, const poplar::Tensor &realTimeSteps, const std::string &what);
/// The step counts a pass runs with: `given` (a realTimeSteps argument), else the params' run-time timeSteps
/// ([1] broadcast to {B}; kept in `store`), else null.
const poplar::Tensor *stepCounts(const GruParams &p, const poplar::Tensor *given, poplar::Tensor &store);
/// {T, B} of the layer's type: 1 where step t < realTimeSteps[b], else 0.
poplar::Tensor stepMasks(poplar::Graph &graph, const Layer &l, const poplar::Tensor &realTimeSteps,
                         poplar::program::Sequence &prog, const std::string &name);
/// Step t's column of {B, T} (attention scores or masks^T) as {B, O}.
poplar::Tensor perOutput(const poplar::Tensor &byBatchAndStep, std::size_t t, std::size_t O);

} // namespace detail
} // namespace gru
} // namespace popnn

#endif // POPNN_GRU_DETAIL_HPP
