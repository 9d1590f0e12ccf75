// The parameters shared by popnn's recurrent layers (popnn::rnn::RnnParams). Only a fixed number of time steps
// is supported here.
#ifndef POPNN_RNN_HPP
#define POPNN_RNN_HPP

#include <cstddef>
#include <vector>

#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popnn {
namespace rnn {

/// A recurrent layer's shape: the data type, the batch size, the time steps and the layer sizes
/// ({input size, output size}).
struct RnnParams {
  poplar::Type dataType;
  std::size_t batchSize;
  /// The most time steps (equal to timeSteps here).
  std::size_t maxTimeSteps;
  std::size_t timeSteps;
  /// The run-time number of steps: always invalid here (fixed steps only).
  poplar::Tensor varTimeSteps;
  std::vector<std::size_t> layerSizes;

  /// A layer of `timeSteps` steps.
  RnnParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes);
  /// False: the steps are fixed when the graph is built.
  bool variableTimeSteps() const;
  /// False: every batch entry runs every step.
  bool batchVariableTimeSteps() const;
};

} // namespace rnn
} // namespace popnn

#endif // POPNN_RNN_HPP
