// The floating-point operations of a convolution: 2 per multiply-accumulate whose input and kernel elements are
// both real (not padding or dilation zeros) and whose output is kept (not truncated, not strided out). The count
// factors over the spatial dimensions, so each dimension's (output, kernel) pairs are counted alone.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "poplin/Convolution.hpp"

namespace poplin {

namespace {

// Which positions of a transformed line of `n` elements hold an element of the original (truncated, dilated,
// padded, flipped as the transform says for dimension d).
std::vector<bool> realPositions(std::size_t n, const ConvParams::InputTransform &t, unsigned d) {
  const std::size_t kept = n - t.truncationLower[d] - t.truncationUpper[d];
  const std::size_t dilated = kept ? (kept - 1) * t.dilation[d] + 1 : 0;
  std::vector<bool> real(t.paddingLower[d] + dilated + t.paddingUpper[d], false);
  for (std::size_t i = 0; i < kept; ++i)
    real[t.paddingLower[d] + i * t.dilation[d]] = true;
  if (t.flip[d])
    real.assign(real.rbegin(), real.rend());
  return real;
}

} // namespace

uint64_t getFwdFlops(const ConvParams &params) {
  params.validate();
  uint64_t macs = uint64_t(params.batchSize) * params.numConvGroups * params.inputChannels * params.outputChannels;
  for (unsigned d = 0; d < params.getNumFieldDims(); ++d) {
    const std::vector<bool> x = realPositions(params.inputFieldShape[d], params.inputTransform, d);
    const std::vector<bool> k = realPositions(params.kernelShape[d], params.kernelTransform, d);
    const ConvParams::OutputTransform &o = params.outputTransform;
    const std::size_t computed = x.size() + 1 - k.size();
    uint64_t pairs = 0;
    for (std::size_t u = o.truncationLower[d]; u + o.truncationUpper[d] < computed; u += o.stride[d])
      for (std::size_t j = 0; j < k.size(); ++j)
        pairs += x[u + j] && k[j];
    macs *= pairs;
  }
  return 2 * macs;
}

// The input-gradient and weight-update passes multiply the same pairs of elements as the forward pass.
uint64_t getBwdFlops(const ConvParams &params) { return getFwdFlops(params); }
uint64_t getWuFlops(const ConvParams &params) { return getFwdFlops(params); }

namespace {
// flops / 2 multiply-accumulates spread over every conv unit of every tile, each doing one per weight it holds.
double perfectCycles(const poplar::Graph &graph, const ConvParams &params, uint64_t flops) {
  const poplar::Target &t = graph.getTarget();
  const bool half = params.inputType == poplar::HALF;
  const unsigned units = !half ? t.getFp32InFp32OutConvUnitsPerTile()
                         : params.outputType == poplar::HALF ? t.getFp16InFp16OutConvUnitsPerTile()
                                                             : t.getFp16InFp32OutConvUnitsPerTile();
  const double macsPerCycle = double(t.getNumTiles()) * std::max(1u, units) *
                              std::max(1u, t.getWeightsPerConvUnit(params.inputType));
  return double(flops / 2) / macsPerCycle;
}
} // namespace

double getFwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getFwdFlops(params));
}
double getBwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getBwdFlops(params));
}
double getWuPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params, getWuFlops(params));
}

} // namespace poplin
