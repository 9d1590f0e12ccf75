// Tutorial 5 (a basic machine-learning example), written after the seed user guide: logistic regression trained
// by gradient descent on the IPU Model. The seed trains on MNIST; this program trains on a small synthetic,
// linearly separable data set that it makes itself (no download), streamed to the device, with the parameters
// mapped by poputil and the arithmetic done by popops (map, reduce, scaledSubtractFrom).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

int main() {
  const unsigned numFeatures = 6, batchSize = 32, numBatches = 4, epochs = 5;
  const float learningRate = 0.5f;

  // The data: features in [-1, 1]; the label says whether a fixed hyperplane has the point on its positive side.
  const float trueWeights[numFeatures] = {1.0f, -2.0f, 0.5f, 1.5f, -1.0f, 0.25f};
  std::vector<float> features(numBatches * batchSize * numFeatures), labels(numBatches * batchSize);
  unsigned seed = 12345;
  for (unsigned i = 0; i < numBatches * batchSize; ++i) {
    float dot = 0.1f;
    for (unsigned f = 0; f < numFeatures; ++f) {
      seed = seed * 1103515245u + 12345u;
      float x = float((seed >> 8) % 2001) / 1000.0f - 1.0f;
      features[i * numFeatures + f] = x;
      dot += x * trueWeights[f];
    }
    labels[i] = dot > 0.0f ? 1.0f : 0.0f;
  }

  IPUModel ipuModel("ipu1");
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  // Parameters and one batch of data, spread over the tiles.
  Tensor weights = graph.addVariable(FLOAT, {numFeatures}, "weights");
  Tensor bias = graph.addVariable(FLOAT, {1}, "bias");
  Tensor x = graph.addVariable(FLOAT, {batchSize, numFeatures}, "x");
  Tensor y = graph.addVariable(FLOAT, {batchSize}, "y");
  poputil::mapTensorLinearly(graph, weights);
  graph.setTileMapping(bias, 0);
  poputil::mapTensorLinearly(graph, x, numFeatures, numFeatures); // whole rows per tile
  poputil::mapTensorLinearly(graph, y, 1, 1);

  DataStream xStream = graph.addHostToDeviceFIFO("features", FLOAT, batchSize * numFeatures);
  DataStream yStream = graph.addHostToDeviceFIFO("labels", FLOAT, batchSize);

  Sequence init;
  popops::zero(graph, weights, init, "zeroWeights");
  popops::zero(graph, bias, init, "zeroBias");

  // One step: p = sigmoid(x . w + b); the gradients of the log loss are (p - y) x and (p - y).
  Sequence step;
  step.add(Copy(xStream, x));
  step.add(Copy(yStream, y));
  Tensor products = popops::mul(graph, x, weights, step, "products");      // [batch, features], w broadcast
  Tensor logits = popops::reduce(graph, products, {1}, popops::Operation::ADD, step, "logits");
  Tensor prob = popops::map(graph, pe::Sigmoid(pe::_1 + pe::_2), {logits, bias}, step, "prob");
  Tensor err = popops::sub(graph, prob, y, step, "err");
  Tensor gradIn = popops::mul(graph, x, err.reshape({batchSize, 1}), step, "gradIn");
  Tensor gradW = popops::reduce(graph, gradIn, {0}, popops::Operation::ADD, step, "gradW");
  Tensor gradB = popops::reduce(graph, err, {0}, popops::Operation::ADD, step, "gradB");
  popops::scaledSubtractFrom(graph, weights, gradW, learningRate / batchSize, step, "updateW");
  popops::scaledSubtractFrom(graph, bias, gradB.reshape({1}), learningRate / batchSize, step, "updateB");

  // Accuracy over one pass of the data: the count of (p > 0.5) == y.
  Tensor correct = graph.addVariable(FLOAT, {1}, "correct");
  graph.setTileMapping(correct, 0);
  Sequence evalStep;
  evalStep.add(Copy(xStream, x));
  evalStep.add(Copy(yStream, y));
  Tensor eprod = popops::mul(graph, x, weights, evalStep);
  Tensor elogits = popops::reduce(graph, eprod, {1}, popops::Operation::ADD, evalStep);
  Tensor hits = popops::map(graph, pe::Cast((pe::_1 + pe::_2 > 0.0f) == (pe::_3 > 0.5f), FLOAT),
                            {elogits, bias, y}, evalStep, "hits");
  popops::reduceWithOutput(graph, hits, correct, {0}, popops::ReduceParams(popops::Operation::ADD, true), evalStep,
                           "countHits");
  Sequence evaluate;
  popops::zero(graph, correct, evaluate);
  evaluate.add(Repeat(numBatches, evalStep));

  Sequence train;
  train.add(Repeat(numBatches, step));

  graph.createHostRead("weights", weights);
  graph.createHostRead("correct", correct);
  Engine engine(graph, {init, train, evaluate});
  engine.load(device);

  // Each pass of the streams reads the data set from the start.
  engine.connectStream("features", features.data(), features.data() + features.size());
  engine.connectStream("labels", labels.data(), labels.data() + labels.size());

  const unsigned numExamples = numBatches * batchSize;
  auto report = [&](unsigned epoch) {
    engine.run(2);
    float hits = 0;
    engine.readTensor("correct", &hits, &hits + 1);
    std::printf("Epoch %u: %u of %u correct\n", epoch, unsigned(hits), numExamples);
  };
  engine.run(0);
  report(0);
  for (unsigned e = 1; e <= epochs; ++e) {
    engine.run(1);
    report(e);
  }
  std::vector<float> w(numFeatures);
  engine.readTensor("weights", w.data(), w.data() + numFeatures);

  // The same training on the host: the device's weights must match (up to the order of float additions).
  std::vector<float> hw(numFeatures, 0.0f);
  float hb = 0.0f;
  for (unsigned e = 0; e < epochs; ++e)
    for (unsigned b = 0; b < numBatches; ++b) {
      std::vector<float> gw(numFeatures, 0.0f);
      float gb = 0.0f;
      for (unsigned i = b * batchSize; i < (b + 1) * batchSize; ++i) {
        float z = hb;
        for (unsigned f = 0; f < numFeatures; ++f)
          z += features[i * numFeatures + f] * hw[f];
        float err = 1.0f / (1.0f + std::exp(-z)) - labels[i];
        for (unsigned f = 0; f < numFeatures; ++f)
          gw[f] += err * features[i * numFeatures + f];
        gb += err;
      }
      for (unsigned f = 0; f < numFeatures; ++f)
        hw[f] -= learningRate / batchSize * gw[f];
      hb -= learningRate / batchSize * gb;
    }
  bool match = true;
  for (unsigned f = 0; f < numFeatures; ++f)
    match = match && std::fabs(w[f] - hw[f]) <= 1e-4f * std::max(1.0f, std::fabs(hw[f]));
  std::printf("Weights match the host reference: %s\n", match ? "yes" : "no");
  // The learned direction must agree in sign with the hyperplane that made the labels.
  unsigned agree = 0;
  for (unsigned f = 0; f < numFeatures; ++f)
    agree += (w[f] > 0) == (trueWeights[f] > 0);
  std::printf("Weight signs matching the generator: %u of %u\n", agree, numFeatures);
  return 0;
}
