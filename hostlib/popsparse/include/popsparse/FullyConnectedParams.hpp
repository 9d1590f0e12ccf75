// The shape of a dynamic sparse fully connected layer (Graphcore's popsparse/FullyConnectedParams.hpp): per group,
// a sparse weight matrix [outputChannelsPerGroup, inputChannelsPerGroup] times dense activations
// [batchSize, inputChannelsPerGroup], with room for a fixed number of non-zero values.
#ifndef POPSPARSE_FULLY_CONNECTED_PARAMS_HPP
#define POPSPARSE_FULLY_CONNECTED_PARAMS_HPP

#include <cstddef>
#include <ostream>

#include <popsparse/SparsityParams.hpp>

namespace popsparse {
namespace dynamic {

class FullyConnectedParams {
  SparsityParams sparsityParams;
  double nzRatio;
  std::size_t batchSize;
  std::size_t numGroups;
  std::size_t inputChannelsPerGroup;
  std::size_t outputChannelsPerGroup;

public:
  /// Room for ceil(nzRatio x the blocks of all groups) non-zero blocks; nzRatio in [0, 1]. inputChannels and
  /// outputChannels are per group and must be multiples of the block's columns and rows.
  static FullyConnectedParams createWithNzRatio(const SparsityParams &sparsityParams, double nzRatio,
                                                std::size_t batchSize, std::size_t numGroups,
                                                std::size_t inputChannels, std::size_t outputChannels);
  /// Room for numNonZeroElems values (a multiple of the block's size) over all groups.
  static FullyConnectedParams createWithNumNonZeroValues(const SparsityParams &sparsityParams,
                                                         std::size_t numNonZeroElems, std::size_t batchSize,
                                                         std::size_t numGroups, std::size_t inputChannels,
                                                         std::size_t outputChannels);

  std::size_t getBatchSize() const { return batchSize; }
  std::size_t getNumGroups() const { return numGroups; }
  std::size_t getInputChannels() const { return numGroups * inputChannelsPerGroup; }
  std::size_t getOutputChannels() const { return numGroups * outputChannelsPerGroup; }
  std::size_t getInputChannelsPerGroup() const { return inputChannelsPerGroup; }
  std::size_t getOutputChannelsPerGroup() const { return outputChannelsPerGroup; }
  const SparsityParams &getSparsityParams() const { return sparsityParams; }
  /// The fraction of the weights' elements that may be non-zero.
  double getNzRatio() const;
  /// The number of non-zero values the weights have room for (a whole number of blocks).
  std::size_t getNumNonZeroValues() const;

  friend bool operator<(const FullyConnectedParams &a, const FullyConnectedParams &b);
  friend bool operator==(const FullyConnectedParams &a, const FullyConnectedParams &b);
  friend bool operator!=(const FullyConnectedParams &a, const FullyConnectedParams &b);
};

std::ostream &operator<<(std::ostream &os, const FullyConnectedParams &p);

} // namespace dynamic
} // namespace popsparse

#endif
