// An SDK-surface program for popnn: a classifier's last steps on a small batch (softmax, cross-entropy loss with
// its deltas and the count of correct predictions, argMax) and a 2x2 max pooling with its input gradient, each
// result printed and checked against values worked out by hand.
#include <cmath>
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel("ipu2");
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;

  // Four examples of three classes; the labels make examples 0, 1 and 3 correct.
  Tensor logits = graph.addVariable(FLOAT, {4, 3}, "logits");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {4}, "labels");
  Tensor loss = graph.addVariable(FLOAT, {4}, "loss");
  Tensor deltas = graph.addVariable(FLOAT, {4, 3}, "deltas");
  Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {1}, "numCorrect");
  poputil::mapTensorLinearly(graph, logits);
  poputil::mapTensorLinearly(graph, labels);
  poputil::mapTensorLinearly(graph, loss);
  poputil::mapTensorLinearly(graph, deltas);
  graph.setTileMapping(numCorrect, 0);
  Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits, prog, "softmax");
  popops::zero(graph, numCorrect, prog, "zeroCorrect"); // calcLoss adds the batch's count to numCorrect
  prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect, popnn::CROSS_ENTROPY_LOSS, "loss"));
  Tensor predicted = popnn::argMax(graph, logits, prog, "argMax");

  // Max pooling of a 4x4 image (one example, one channel) with 2x2 windows, stride 2, and its input gradient.
  popnn::pooling::PoolParams params(popnn::PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 1, 1, FLOAT);
  Tensor image = graph.addVariable(FLOAT, {1, 1, 4, 4}, "image");
  poputil::mapTensorLinearly(graph, image);
  Tensor pooled = popnn::pooling::pool(graph, params, image, prog, "pool");
  Tensor ones = graph.addConstant(FLOAT, {1, 1, 2, 2}, 1.0f, "ones");
  graph.setTileMapping(ones, 1);
  Tensor imageGrad = popnn::pooling::poolInputGradient(graph, params, image, pooled, ones, false, prog, "poolGrad");

  graph.createHostWrite("logits", logits);
  graph.createHostWrite("labels", labels);
  graph.createHostWrite("image", image);
  graph.createHostRead("loss", loss);
  graph.createHostRead("numCorrect", numCorrect);
  graph.createHostRead("predicted", predicted);
  graph.createHostRead("pooled", pooled);
  graph.createHostRead("imageGrad", imageGrad);
  Engine engine(graph, prog);
  engine.load(device);

  const float hostLogits[12] = {2, 0, 0, 0, 3, 0, 1, 1, 5, 0, 0, 0};
  const unsigned hostLabels[4] = {0, 1, 0, 0};
  float hostImage[16];
  for (unsigned i = 0; i < 16; ++i)
    hostImage[i] = float((i * 5) % 16); // the largest of each 2x2 window is at a different place
  engine.writeTensor("logits", hostLogits, hostLogits + 12);
  engine.writeTensor("labels", hostLabels, hostLabels + 4);
  engine.writeTensor("image", hostImage, hostImage + 16);
  engine.run(0);

  float hostLoss[4], hostPooled[4], hostGrad[16];
  unsigned correct = 0, hostPredicted[4];
  engine.readTensor("loss", hostLoss, hostLoss + 4);
  engine.readTensor("numCorrect", &correct, &correct + 1);
  engine.readTensor("predicted", hostPredicted, hostPredicted + 4);
  engine.readTensor("pooled", hostPooled, hostPooled + 4);
  engine.readTensor("imageGrad", hostGrad, hostGrad + 16);

  // Row 0: -log(e^2 / (e^2 + 2)); row 3 (all equal): log 3.
  std::printf("loss[0] %.4f (want %.4f)\n", hostLoss[0], std::log((std::exp(2.0) + 2) / std::exp(2.0)));
  std::printf("loss[3] %.4f (want %.4f)\n", hostLoss[3], std::log(3.0));
  std::printf("correct %u of 4\n", correct);
  std::printf("argMax %u %u %u %u\n", hostPredicted[0], hostPredicted[1], hostPredicted[2], hostPredicted[3]);
  std::printf("pooled %g %g %g %g\n", hostPooled[0], hostPooled[1], hostPooled[2], hostPooled[3]);
  std::printf("gradient");
  for (unsigned i = 0; i < 16; ++i)
    std::printf(" %g", hostGrad[i]);
  std::printf("\n");
  return 0;
}
