// Internal: the normalisations of popnn (batch norm, group norm) as one implementation. Activations
// [batch, channels, field...] are viewed as [batch, channels / groups, groups, field] (channel c = j * groups + g,
// so a group's channels are strided); statistics cover dimensions {1, 3} per batch element (group norm) or
// {0, 1, 3} (batch norm, where groups = channels). Everything is popops map and reduce on those views.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn::detail {

struct NormLayout {
  std::size_t batch, channels, groups, field;
  bool perBatch; // statistics per batch element (group norm) or over the batch (batch norm)
  std::string name;

  /// acts (or any tensor of its shape) as [batch, channels / groups, groups, field].
  poplar::Tensor view(const poplar::Tensor &t) const;
  /// A statistics tensor ([statsSize]) shaped to broadcast against view().
  poplar::Tensor statsView(const poplar::Tensor &s) const;
  /// A per-channel tensor ([channels]) shaped to broadcast against view().
  poplar::Tensor channelView(const poplar::Tensor &c) const;
  std::vector<std::size_t> reduceDims() const;
  std::size_t statsSize() const { return perBatch ? batch * groups : groups; }
  /// Elements per statistic.
  std::size_t count() const { return (perBatch ? 1 : batch) * (channels / groups) * field; }

  void checkStats(const poplar::Tensor &s, const char *role) const;
  void checkChannels(const poplar::Tensor &c, const char *role) const;
  void checkLikeActs(const poplar::Tensor &t, const std::vector<std::size_t> &shape, const char *role) const;
};

/// The layout of `acts` for batch norm (groups == 0) or group norm with `groups` groups. Throws
/// poputil::poplibs_error naming `name` for acts that are not FLOAT or HALF of rank >= 2 or groups not dividing the
/// channels.
/// allowEmpty: statistics of empty activations are defined (see normStatistics); the other operations refuse them.
NormLayout normLayout(const poplar::Tensor &acts, unsigned groups, const std::string &name, bool allowEmpty = false);
/// Throws unless partialsType is FLOAT.
void checkPartials(const poplar::Type &partialsType, const std::string &name);

std::pair<poplar::Tensor, poplar::Tensor> normStatistics(poplar::Graph &graph, const NormLayout &l,
                                                         const poplar::Tensor &acts, float eps, bool unbiased,
                                                         bool stable, poplar::program::Sequence &prog);
poplar::Tensor normWhiten(poplar::Graph &graph, const NormLayout &l, const poplar::Tensor &acts,
                          const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                          poplar::program::Sequence &prog);
/// t * multiplicand + addend with both per channel.
poplar::Tensor normScaleShift(poplar::Graph &graph, const NormLayout &l, const poplar::Tensor &t,
                              const poplar::Tensor &multiplicand, const poplar::Tensor &addend,
                              poplar::program::Sequence &prog, const std::string &what);
std::pair<poplar::Tensor, poplar::Tensor> normParamGradients(poplar::Graph &graph, const NormLayout &l,
                                                             const poplar::Tensor &whitened,
                                                             const poplar::Tensor &gradsIn,
                                                             poplar::program::Sequence &prog);
poplar::Tensor normGradients(poplar::Graph &graph, const NormLayout &l, const poplar::Tensor &whitened,
                             const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                             const poplar::Tensor &gamma, poplar::program::Sequence &prog);
/// gamma += scale * gammaDelta, beta += scale * betaDelta, scale a float or a one-element tensor (valid()).
void normParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                     float scale, const poplar::Tensor &scaleTensor, const poplar::Tensor &gamma,
                     const poplar::Tensor &beta, poplar::program::Sequence &prog, const std::string &name);

} // namespace popnn::detail
