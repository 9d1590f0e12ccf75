// A user's program with HALF popops and sorting: half activations are scaled and biased with popops, summed per
// row into FLOAT with popops::reduce, the rows' sums are sorted, and the best two columns of each row are found
// with popops::topKWithPermutation. Half data goes through the host with copyFloatToDeviceHalf.
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Sort.hpp>
#include <popops/TopK.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);

  const unsigned rows = 4, cols = 6;
  Tensor act = graph.addVariable(HALF, {rows, cols}, "act");
  Tensor bias = graph.addVariable(HALF, {cols}, "bias");
  poputil::mapTensorLinearly(graph, act);
  poputil::mapTensorLinearly(graph, bias);

  Sequence prog;
  // y = act * 0.5 + bias (numpy broadcasting of the bias over the rows).
  Tensor y = popops::add(graph, popops::mul(graph, act, 0.5f, prog), bias, prog);
  Tensor rowSums = popops::reduce(graph, y, FLOAT, {1}, popops::Operation::ADD, prog);
  Tensor sortedSums = popops::sort(graph, rowSums, 0, prog);
  std::pair<Tensor, Tensor> best =
      popops::topKWithPermutation(graph, prog, y, popops::TopKParams(2, true, popops::SortOrder::DESCENDING));

  graph.createHostWrite("act", act);
  graph.createHostWrite("bias", bias);
  graph.createHostRead("y", y);
  graph.createHostRead("sums", sortedSums);
  graph.createHostRead("bestIdx", best.second);

  std::vector<float> hAct(rows * cols), hBias(cols);
  for (unsigned i = 0; i < rows * cols; ++i)
    hAct[i] = float((i * 5) % 11) - 3.0f;
  for (unsigned c = 0; c < cols; ++c)
    hBias[c] = 0.25f * c;
  std::vector<unsigned short> actBits(rows * cols), biasBits(cols), yBits(rows * cols);
  copyFloatToDeviceHalf(target, hAct.data(), actBits.data(), actBits.size());
  copyFloatToDeviceHalf(target, hBias.data(), biasBits.data(), biasBits.size());

  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("act", actBits.data(), actBits.data() + actBits.size());
  engine.writeTensor("bias", biasBits.data(), biasBits.data() + biasBits.size());
  engine.run(0);

  std::vector<float> hy(rows * cols), sums(rows);
  std::vector<unsigned> bestIdx(rows * 2);
  engine.readTensor("y", yBits.data(), yBits.data() + yBits.size());
  copyDeviceHalfToFloat(target, yBits.data(), hy.data(), hy.size());
  engine.readTensor("sums", sums.data(), sums.data() + sums.size());
  engine.readTensor("bestIdx", bestIdx.data(), bestIdx.data() + bestIdx.size());

  for (unsigned r = 0; r < rows; ++r) {
    std::printf("y[%u] =", r);
    for (unsigned c = 0; c < cols; ++c)
      std::printf(" %g", hy[r * cols + c]);
    std::printf("  best columns %u %u\n", bestIdx[r * 2], bestIdx[r * 2 + 1]);
  }
  std::printf("sorted row sums:");
  for (unsigned r = 0; r < rows; ++r)
    std::printf(" %g", sums[r]);
  std::printf("\n");
  return 0;
}
