// poplin::fc: the three grouped products of a fully connected layer, each [G, m, k] x [G, k, n] with its pass.
#include "poplin/FullyConnected.hpp"

namespace poplin {
namespace fc {

namespace {

std::pair<MatMulParams, poplar::OptionFlags> product(const poplar::Type &type, std::size_t groups, std::size_t m,
                                                     std::size_t k, std::size_t n, poplar::OptionFlags options,
                                                     const char *pass) {
  MatMulParams p;
  p.inputType = type;
  p.outputType = type;
  p.aShape = {groups, m, k};
  p.bShape = {groups, k, n};
  options.set("fullyConnectedPass", pass);
  return {p, options};
}

} // namespace

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(FullyConnectedParams p, poplar::OptionFlags matmulOptions, poplar::Type type,
                           bool inferenceOnly) {
  std::vector<std::pair<MatMulParams, poplar::OptionFlags>> out;
  out.push_back(product(type, p.numGroups, p.batchSize, p.inputSize, p.outputSize, matmulOptions,
                        inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD"));
  if (!inferenceOnly) {
    out.push_back(
        product(type, p.numGroups, p.batchSize, p.outputSize, p.inputSize, matmulOptions, "TRAINING_BWD"));
    out.push_back(product(type, p.numGroups, p.inputSize, p.batchSize, p.outputSize, matmulOptions, "TRAINING_WU"));
  }
  return out;
}

} // namespace fc
} // namespace poplin
