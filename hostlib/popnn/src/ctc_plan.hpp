// Internal: what a CTC plan holds (popnn::ctc::Plan::Impl) and where it puts each sequence.
#pragma once

#include <string>
#include <tuple>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popnn/CTCPlan.hpp>

namespace popnn {
namespace ctc {

class Plan::Impl {
public:
  enum class Kind { None, Loss, Inference };
  Kind kind = Kind::None;
  unsigned batchSize = 0, maxTime = 0, maxLabelLength = 0, numClasses = 0, beamwidth = 0;
  poplar::Type inType = poplar::FLOAT, outType = poplar::FLOAT, partialsType = poplar::FLOAT;
  /// The number of tiles the sequences are spread over (sequence b goes to tileOf(b)).
  unsigned batchTiles = 1;
  /// The tiles of the target the plan was made for.
  unsigned numTiles = 1;
  /// The estimated bytes of the busiest tile.
  std::size_t bytesPerTile = 0;

  unsigned tileOf(std::size_t b) const {
    const unsigned slot = unsigned(b * batchTiles / (batchSize ? batchSize : 1));
    return unsigned(std::size_t(slot) * numTiles / batchTiles);
  }
  auto key() const {
    return std::make_tuple(int(kind), batchSize, maxTime, maxLabelLength, numClasses, beamwidth, inType.toString(),
                           outType.toString(), partialsType.toString(), batchTiles, numTiles);
  }
  std::string toString() const;
};

namespace detail {

/// The option `key`'s value `text` as a number in [lo, hi]; throws poplar::invalid_option naming `what` otherwise.
double optionNumber(const std::string &text, double lo, double hi, const std::string &what, const std::string &key);

/// The loss plan of `plan`, or throws poputil::poplibs_error naming `what` when it is of another kind.
const Plan::Impl &lossPlan(const Plan &plan, const std::string &what);

/// The inference plan of `plan`, or throws poputil::poplibs_error naming `what` when it is of another kind.
const Plan::Impl &inferencePlan(const Plan &plan, const std::string &what);

/// Throws poputil::poplibs_error naming `what` unless `data` is FLOAT or HALF [maxTime, batchSize, numClasses] as
/// the plan says.
void checkData(const Plan::Impl &p, const poplar::Tensor &data, const std::string &what);

/// `t` as UNSIGNED_INT (INT is cast; the valid values are the same).
poplar::Tensor asUnsigned(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                          const std::string &name);

/// The log-softmax of `logits` over the classes in a new tensor laid out as they are (the logits are left alone).
poplar::Tensor logProbsOf(poplar::Graph &graph, const poplar::Tensor &logits, poplar::program::Sequence &prog,
                          const std::string &name);

/// A new [maxTime, batchSize, numClasses] tensor of `type` with sequence b on the plan's tile for b.
poplar::Tensor createSequenceData(poplar::Graph &graph, const Plan::Impl &p, const poplar::Type &type,
                                  const std::string &name);

} // namespace detail
} // namespace ctc
} // namespace popnn
