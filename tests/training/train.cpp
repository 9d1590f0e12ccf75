// The training example of issue 16: an MNIST-style classifier trained with stochastic gradient descent on an IPU,
// built from poplin (the matrix products), popnn (softmax, cross-entropy loss and deltas, accuracy, relu and its
// gradient), popops and poputil.
// The data set is synthetic and deterministic, made by this program (no download): 8x8 "images" of 10 classes,
// each a noisy copy of its class's random prototype. Two models:
//   softmax  softmax regression: p = softmax(x W + b)
//   mlp      a two-layer perceptron: p = softmax(relu(x W1 + b1) W2 + b2)
// Each epoch trains on every training batch once, then counts the correct classifications of a held-out test set.
// The same training runs on the host in float: the device's parameters must match it. The program prints the
// loss and accuracy per epoch and three verdicts (loss decreased, accuracy threshold, host match), which the test
// checks.
// Usage: train <softmax|mlp> [ipu1|ipu2|hw] [tiles]; "hw" trains on the first card the DeviceManager can attach
// to (a QEMU or model-transport card) instead of an IPU Model of `tiles` tiles (default 16).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kFeatures = 64, kClasses = 10, kHidden = 32, kBatch = 32;
const unsigned kTrainBatches = 16, kTestBatches = 8, kEpochs = 6;
// The accuracy on the test set the trained model must reach.
const double kAccuracyThreshold = 0.85;
// How far (relative, absolute below 1) the device's parameters may be from the host's after training. They are
// not bit-equal: poplin's products accumulate with fused multiply-adds (one rounding per step) and may split the
// inner dimension over tiles into partial sums added in another order, while the host rounds every product and
// sums in index order. The differences stay near float's rounding (about 1e-7); a wrong gradient is far larger.
const double kHostTolerance = 1e-3;

// ---- The data set -------------------------------------------------------------------------------------------

// A linear congruential generator: the same numbers on every host.
struct Random {
  std::uint32_t state;
  explicit Random(std::uint32_t seed) : state(seed) {}
  // Uniform in [-1, 1).
  float next() {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / 8388608.0f - 1.0f;
  }
};

struct DataSet {
  std::vector<float> x;         // [examples, kFeatures]
  std::vector<unsigned> labels; // [examples]
};

// `examples` noisy copies of the class prototypes (+-0.4 per feature), classes in turn, noise uniform in +-1.5.
DataSet makeData(const std::vector<float> &prototypes, unsigned examples, std::uint32_t seed) {
  Random r(seed);
  DataSet d;
  for (unsigned i = 0; i < examples; ++i) {
    const unsigned c = (i * 7 + i / kClasses) % kClasses;
    d.labels.push_back(c);
    for (unsigned f = 0; f < kFeatures; ++f)
      d.x.push_back(prototypes[c * kFeatures + f] + 1.5f * r.next());
  }
  return d;
}

std::vector<float> makePrototypes() {
  Random r(2026);
  std::vector<float> p(kClasses * kFeatures);
  for (float &v : p)
    v = r.next() < 0 ? -0.4f : 0.4f;
  return p;
}

// ---- The model --------------------------------------------------------------------------------------------------

struct LayerShape {
  unsigned in, out;
  bool relu; // relu after the layer (every layer but the last)
};

std::vector<LayerShape> layersOf(const std::string &model) {
  std::vector<LayerShape> l;
  if (model == "softmax") {
    l.push_back(LayerShape{kFeatures, kClasses, false});
  } else {
    l.push_back(LayerShape{kFeatures, kHidden, true});
    l.push_back(LayerShape{kHidden, kClasses, false});
  }
  return l;
}

float learningRateOf(const std::string &model) { return model == "softmax" ? 0.1f : 0.2f; }

// Initial weights: zero for softmax regression; for the MLP uniform in +-sqrt(6 / (in + out)) so that the hidden
// units differ. Biases start at zero.
std::vector<float> initialWeights(const LayerShape &l, unsigned layer, bool random) {
  std::vector<float> w(l.in * l.out, 0.0f);
  if (random) {
    Random r(100 + layer);
    const float a = std::sqrt(6.0f / float(l.in + l.out));
    for (float &v : w)
      v = a * r.next();
  }
  return w;
}

struct Layer {
  Tensor w, b;
};

// The forward pass from `x`: every layer's input and, last, the logits.
std::vector<Tensor> forward(Graph &graph, const std::vector<Layer> &layers, const std::vector<LayerShape> &shapes,
                            const Tensor &x, Sequence &prog, const std::string &name) {
  std::vector<Tensor> acts(1, x);
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string ln = name + "/layer" + std::to_string(i);
    Tensor z = poplin::matMul(graph, acts.back(), layers[i].w, prog, FLOAT, ln);
    popops::addInPlace(graph, z, layers[i].b, prog, ln + "/bias");
    if (shapes[i].relu)
      popnn::reluInPlace(graph, z, prog, ln + "/relu");
    acts.push_back(z);
  }
  return acts;
}

// ---- The same training on the host ------------------------------------------------------------------------------

struct HostModel {
  std::vector<std::vector<float> > w, b;
};

// One SGD step on the host over examples [first, first + kBatch); returns the batch's summed loss.
float hostStep(HostModel &m, const std::vector<LayerShape> &shapes, const DataSet &d, unsigned first, float lr) {
  float lossSum = 0;
  std::vector<std::vector<float> > gw(shapes.size()), gb(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    gw[i].assign(m.w[i].size(), 0.0f);
    gb[i].assign(m.b[i].size(), 0.0f);
  }
  for (unsigned e = first; e < first + kBatch; ++e) {
    std::vector<std::vector<float> > acts(1, std::vector<float>(&d.x[e * kFeatures], &d.x[(e + 1) * kFeatures]));
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      std::vector<float> z(shapes[i].out);
      for (unsigned o = 0; o < shapes[i].out; ++o) {
        float s = 0;
        for (unsigned j = 0; j < shapes[i].in; ++j)
          s += acts[i][j] * m.w[i][j * shapes[i].out + o];
        z[o] = s + m.b[i][o];
        if (shapes[i].relu)
          z[o] = std::max(z[o], 0.0f);
      }
      acts.push_back(z);
    }
    const std::vector<float> &logits = acts.back();
    const float mx = *std::max_element(logits.begin(), logits.end());
    float sum = 0;
    for (float v : logits)
      sum += std::exp(v - mx);
    std::vector<float> delta(kClasses);
    for (unsigned c = 0; c < kClasses; ++c) {
      const float p = std::exp(logits[c] - mx) / sum;
      delta[c] = p - (c == d.labels[e] ? 1.0f : 0.0f);
      if (c == d.labels[e])
        lossSum -= std::log(p);
    }
    for (std::size_t i = shapes.size(); i-- > 0;) {
      std::vector<float> dIn(shapes[i].in, 0.0f);
      for (unsigned j = 0; j < shapes[i].in; ++j)
        for (unsigned o = 0; o < shapes[i].out; ++o) {
          gw[i][j * shapes[i].out + o] += acts[i][j] * delta[o];
          dIn[j] += delta[o] * m.w[i][j * shapes[i].out + o];
        }
      for (unsigned o = 0; o < shapes[i].out; ++o)
        gb[i][o] += delta[o];
      if (i > 0)
        for (unsigned j = 0; j < shapes[i].in; ++j)
          dIn[j] = acts[i][j] > 0 ? dIn[j] : 0.0f; // relu' from the layer's input, the previous relu's output
      delta = dIn;
    }
  }
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    for (std::size_t j = 0; j < gw[i].size(); ++j)
      m.w[i][j] -= lr / kBatch * gw[i][j];
    for (std::size_t j = 0; j < gb[i].size(); ++j)
      m.b[i][j] -= lr / kBatch * gb[i][j];
  }
  return lossSum;
}

// ---- The device -------------------------------------------------------------------------------------------------

// An IPU Model of `version` with `tiles` tiles, or for "hw" the first single-IPU device the DeviceManager can
// attach to.
Device createDevice(const std::string &version, unsigned tiles) {
  if (version != "hw") {
    IPUModel ipuModel(version.c_str());
    ipuModel.tilesPerIPU = tiles;
    return ipuModel.createDevice();
  }
  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].attach())
      return std::move(devices[i]);
  std::cerr << "Error attaching to device\n";
  std::exit(1);
}

// |got - want| relative to |want|, or absolute below 1.
double relativeDifference(float got, float want) {
  return std::fabs(double(got) - double(want)) / std::max(1.0, std::fabs(double(want)));
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

int main(int argc, char **argv) {
  const std::string model = argc > 1 ? argv[1] : "";
  if (model != "softmax" && model != "mlp") {
    std::cerr << "usage: " << argv[0] << " <softmax|mlp> [ipu1|ipu2|hw] [tiles]\n";
    return 1;
  }
  const std::string version = argc > 2 ? argv[2] : "ipu2";
  const unsigned tiles = argc > 3 ? unsigned(std::atoi(argv[3])) : 16;
  const std::vector<LayerShape> shapes = layersOf(model);
  const float lr = learningRateOf(model);

  const std::vector<float> prototypes = makePrototypes();
  const DataSet train = makeData(prototypes, kTrainBatches * kBatch, 1);
  const DataSet test = makeData(prototypes, kTestBatches * kBatch, 2);

  const auto buildStart = std::chrono::steady_clock::now();
  Device device = createDevice(version, tiles);
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  // Parameters, spread over the tiles, with host handles to set and read them.
  std::vector<Layer> layers;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    Layer l;
    l.w = graph.addVariable(FLOAT, {shapes[i].in, shapes[i].out}, "w" + std::to_string(i));
    l.b = graph.addVariable(FLOAT, {shapes[i].out}, "b" + std::to_string(i));
    poputil::mapTensorLinearly(graph, l.w);
    poputil::mapTensorLinearly(graph, l.b);
    graph.createHostWrite("w" + std::to_string(i), l.w);
    graph.createHostWrite("b" + std::to_string(i), l.b);
    graph.createHostRead("w" + std::to_string(i) + ".r", l.w);
    graph.createHostRead("b" + std::to_string(i) + ".r", l.b);
    layers.push_back(l);
  }
  // One batch: whole examples per tile.
  Tensor x = graph.addVariable(FLOAT, {kBatch, kFeatures}, "x");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {kBatch}, "labels");
  poputil::mapTensorLinearly(graph, x, kFeatures, kFeatures);
  poputil::mapTensorLinearly(graph, labels, 1, 1);
  Tensor loss = graph.addVariable(FLOAT, {kBatch}, "loss"), deltas = graph.addVariable(FLOAT, {kBatch, kClasses});
  Tensor lossSum = graph.addVariable(FLOAT, {1}, "lossSum"), correct = graph.addVariable(UNSIGNED_INT, {1});
  poputil::mapTensorLinearly(graph, loss, 1, 1);
  poputil::mapTensorLinearly(graph, deltas, kClasses, kClasses);
  graph.setTileMapping(lossSum, 0);
  graph.setTileMapping(correct, 0);
  graph.createHostRead("lossSum", lossSum);
  graph.createHostRead("correct", correct);

  DataStream trainX = graph.addHostToDeviceFIFO("trainX", FLOAT, kBatch * kFeatures);
  DataStream trainY = graph.addHostToDeviceFIFO("trainY", UNSIGNED_INT, kBatch);
  DataStream testX = graph.addHostToDeviceFIFO("testX", FLOAT, kBatch * kFeatures);
  DataStream testY = graph.addHostToDeviceFIFO("testY", UNSIGNED_INT, kBatch);

  // One SGD step: forward, softmax, cross-entropy loss with its deltas at the logits, backward, update.
  Sequence step;
  step.add(Copy(trainX, x));
  step.add(Copy(trainY, labels));
  std::vector<Tensor> acts = forward(graph, layers, shapes, x, step, "fwd");
  Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, acts.back(), step, "softmax");
  step.add(popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, "loss"));
  popops::reduceWithOutput(graph, loss, lossSum, {0}, popops::ReduceParams(popops::Operation::ADD, true), step,
                           "lossSum");
  Tensor d = deltas;
  for (std::size_t i = layers.size(); i-- > 0;) {
    const std::string ln = "bwd/layer" + std::to_string(i);
    // The two backward products take transposed views as operands: x^T d and d W^T.
    Tensor gradW = poplin::matMul(graph, acts[i].transpose(), d, step, FLOAT, ln + "/gradW");
    Tensor gradB = popops::reduce(graph, d, {0}, popops::Operation::ADD, step, ln + "/gradB");
    if (i > 0) {
      Tensor dIn = poplin::matMul(graph, d, layers[i].w.transpose(), step, FLOAT, ln + "/gradIn");
      d = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, acts[i], dIn, step, ln + "/relu");
    }
    popops::scaledSubtractFrom(graph, layers[i].w, gradW, lr / kBatch, step, ln + "/updateW");
    popops::scaledSubtractFrom(graph, layers[i].b, gradB, lr / kBatch, step, ln + "/updateB");
  }
  Sequence trainEpoch;
  popops::zero(graph, lossSum, trainEpoch, "zeroLoss");
  trainEpoch.add(Repeat(kTrainBatches, step));

  // Evaluation: the count of test examples whose largest logit is at their label.
  Sequence evalStep;
  evalStep.add(Copy(testX, x));
  evalStep.add(Copy(testY, labels));
  std::vector<Tensor> evalActs = forward(graph, layers, shapes, x, evalStep, "eval");
  // calcAccuracy adds each batch's count to `correct`, as PopLibs does (the MNIST examples rely on it).
  evalStep.add(popnn::calcAccuracy(graph, evalActs.back(), labels, correct, "accuracy"));
  Sequence evaluate;
  popops::zero(graph, correct, evaluate, "zeroCorrect");
  evaluate.add(Repeat(kTestBatches, evalStep));

  Engine engine(graph, {trainEpoch, evaluate});
  engine.load(device);
  const double buildSeconds = since(buildStart);
  engine.connectStream("trainX", const_cast<float *>(train.x.data()),
                       const_cast<float *>(train.x.data() + train.x.size()));
  engine.connectStream("trainY", const_cast<unsigned *>(train.labels.data()),
                       const_cast<unsigned *>(train.labels.data() + train.labels.size()));
  engine.connectStream("testX", const_cast<float *>(test.x.data()), const_cast<float *>(test.x.data() + test.x.size()));
  engine.connectStream("testY", const_cast<unsigned *>(test.labels.data()),
                       const_cast<unsigned *>(test.labels.data() + test.labels.size()));

  HostModel host;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    host.w.push_back(initialWeights(shapes[i], unsigned(i), model == "mlp"));
    host.b.push_back(std::vector<float>(shapes[i].out, 0.0f));
    engine.writeTensor("w" + std::to_string(i), host.w[i].data(), host.w[i].data() + host.w[i].size());
    engine.writeTensor("b" + std::to_string(i), host.b[i].data(), host.b[i].data() + host.b[i].size());
  }

  const unsigned numTest = kTestBatches * kBatch, numTrain = kTrainBatches * kBatch;
  auto testAccuracy = [&]() {
    engine.run(1);
    unsigned n = 0;
    engine.readTensor("correct", &n, &n + 1);
    return n;
  };
  std::printf("Model %s on %s, %u examples of %u features, %u classes, batch %u\n", model.c_str(), version.c_str(),
              numTrain, kFeatures, kClasses, kBatch);
  std::printf("Epoch 0: test accuracy %u/%u\n", testAccuracy(), numTest);
  std::vector<float> losses, hostLosses;
  unsigned finalCorrect = 0;
  double trainSeconds = 0;
  for (unsigned e = 1; e <= kEpochs; ++e) {
    const auto t = std::chrono::steady_clock::now();
    engine.run(0);
    trainSeconds += since(t);
    float sum = 0;
    engine.readTensor("lossSum", &sum, &sum + 1);
    losses.push_back(sum / numTrain);
    float hostSum = 0;
    for (unsigned b = 0; b < kTrainBatches; ++b)
      hostSum += hostStep(host, shapes, train, b * kBatch, lr);
    hostLosses.push_back(hostSum / numTrain);
    finalCorrect = testAccuracy();
    std::printf("Epoch %u: mean training loss %.4f (host %.4f), test accuracy %u/%u\n", e, losses.back(),
                hostLosses.back(), finalCorrect, numTest);
  }

  // The device's parameters against the host's, within kHostTolerance.
  double worst = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    std::vector<float> w(host.w[i].size()), b(host.b[i].size());
    engine.readTensor("w" + std::to_string(i) + ".r", w.data(), w.data() + w.size());
    engine.readTensor("b" + std::to_string(i) + ".r", b.data(), b.data() + b.size());
    for (std::size_t j = 0; j < w.size(); ++j)
      worst = std::max(worst, relativeDifference(w[j], host.w[i][j]));
    for (std::size_t j = 0; j < b.size(); ++j)
      worst = std::max(worst, relativeDifference(b[j], host.b[i][j]));
  }
  const double accuracy = double(finalCorrect) / numTest;
  std::printf("Build and load: %.2f s; training: %.2f steps per second\n", buildSeconds,
              kEpochs * kTrainBatches / trainSeconds);
  std::printf("Largest parameter difference from the host: %.2e (tolerance %.0e)\n", worst, kHostTolerance);
  bool decreasing = true;
  for (std::size_t e = 1; e < losses.size(); ++e)
    decreasing = decreasing && losses[e] < losses[e - 1];
  std::printf("Loss decreased every epoch: %s\n", decreasing ? "yes" : "no");
  std::printf("Test accuracy at least %.0f%%: %s\n", kAccuracyThreshold * 100, accuracy >= kAccuracyThreshold ? "yes"
                                                                                                         : "no");
  std::printf("Parameters match the host reference: %s\n", worst < kHostTolerance ? "yes" : "no");
  return 0;
}
