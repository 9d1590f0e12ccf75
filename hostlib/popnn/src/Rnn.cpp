// rnn::RnnParams: a fixed number of time steps.
#include "popnn/Rnn.hpp"

namespace popnn {
namespace rnn {

RnnParams::RnnParams(poplar::Type type, std::size_t batch, std::size_t steps, std::vector<std::size_t> sizes)
    : dataType(type), batchSize(batch), maxTimeSteps(steps), timeSteps(steps), layerSizes(sizes) {}

bool RnnParams::variableTimeSteps() const { return false; }
bool RnnParams::batchVariableTimeSteps() const { return false; }

} // namespace rnn
} // namespace popnn
