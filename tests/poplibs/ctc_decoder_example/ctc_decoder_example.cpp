// popnn/CTCInference.hpp's beam-search decoders as a user of Graphcore's SDK writes them (C++11, linked with
// -lpopnn -lpopops -lpoputil -lpoplar), on an IPU Model of 16 tiles, against an exact host reference in double:
// every alignment of a sequence enumerated, collapsed (repeats merged, blanks dropped) and its probability added to
// its label sequence. With more beams than label prefixes the search is exact, so the best paths, their lengths
// and probabilities must equal the reference's. Cases: log probabilities and logits, FLOAT and HALF, blank class
// 2 of 3, sequences of 4, 3 and 0 valid steps; a narrow beam whose best path may be no better than the exact
// best; errors naming the problem. Probabilities (as negative logs) must match within 1e-4 FLOAT and 2e-2 HALF.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/TypeConversion.hpp>
#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned T = 4, B = 3, C = 3, BLANK = 2, K = 4;
const unsigned LENGTHS[B] = {4, 3, 0};

// Scores [T][B][C]: deterministic, rounded to half for HALF.
std::vector<float> scores(const Target &target, const Type &type) {
  std::vector<float> v(T * B * C);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = float(int((i * 53 + 7) % 31) - 15) / 9.0f;
  if (type == HALF) {
    std::vector<unsigned short> h(v.size());
    copyFloatToDeviceHalf(target, v.data(), h.data(), v.size());
    copyDeviceHalfToFloat(target, h.data(), v.data(), v.size());
  }
  return v;
}

// The exact label sequences of batch entry b, best first: {-log probability, labels}. The probability of class k
// at step t is exp(s) for log probabilities, softmax(s) over the classes for logits.
std::vector<std::pair<double, std::vector<unsigned> > > exact(const std::vector<float> &s, unsigned b, bool logits) {
  std::vector<double> p(T * C);
  for (unsigned t = 0; t < T; ++t) {
    double sum = 0;
    for (unsigned k = 0; k < C; ++k)
      sum += std::exp(double(s[(t * B + b) * C + k]));
    for (unsigned k = 0; k < C; ++k)
      p[t * C + k] = std::exp(double(s[(t * B + b) * C + k])) / (logits ? sum : 1.0);
  }
  const unsigned steps = LENGTHS[b];
  std::map<std::vector<unsigned>, double> total;
  unsigned count = 1;
  for (unsigned t = 0; t < steps; ++t)
    count *= C;
  for (unsigned a = 0; a < count; ++a) {
    std::vector<unsigned> labels;
    double prob = 1.0;
    unsigned code = a, prev = BLANK;
    for (unsigned t = 0; t < steps; ++t, code /= C) {
      const unsigned k = code % C;
      prob *= p[t * C + k];
      if (k != BLANK && k != prev)
        labels.push_back(k);
      prev = k;
    }
    total[labels] += prob;
  }
  std::vector<std::pair<double, std::vector<unsigned> > > out;
  for (std::map<std::vector<unsigned>, double>::const_iterator it = total.begin(); it != total.end(); ++it)
    out.push_back(std::make_pair(-std::log(it->second), it->first));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<float> readProbs(Engine &e, const Target &target, const Type &type, const std::string &name) {
  std::vector<float> v(B * K);
  if (type == HALF) {
    std::vector<unsigned short> h(v.size());
    e.readTensor(name, h.data(), h.data() + h.size());
    copyDeviceHalfToFloat(target, h.data(), v.data(), v.size());
  } else {
    e.readTensor(name, v.data(), v.data() + v.size());
  }
  return v;
}

void run(Device &device, const Type &type, bool logits) {
  const Target &target = device.getTarget();
  const std::string what = std::string(type == HALF ? "half " : "float ") + (logits ? "logits" : "log probabilities");
  Graph graph(target);
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  const popnn::ctc::Plan plan = popnn::ctc_infer::plan(graph, type, B, T, C, 32);
  Tensor data = popnn::ctc_infer::createDataInput(graph, type, B, T, C, plan, "data");
  Tensor lengths = graph.addVariable(UNSIGNED_INT, {B}, "lengths");
  poputil::mapTensorLinearly(graph, lengths);
  graph.createHostWrite("data", data);
  graph.createHostWrite("lengths", lengths);
  Sequence prog;
  Tensor probs, pathLengths, paths;
  if (logits)
    std::tie(probs, pathLengths, paths) =
        popnn::ctc_infer::beamSearchDecoderLogits(graph, data, lengths, prog, BLANK, 32, K, plan, "decode");
  else
    std::tie(probs, pathLengths, paths) = popnn::ctc_infer::beamSearchDecoderLogProbabilities(
        graph, data, lengths, prog, BLANK, 32, K, plan, "decode");
  check(probs.shape() == std::vector<std::size_t>({B, K}) && probs.elementType() == type &&
            pathLengths.shape() == std::vector<std::size_t>({B, K}) &&
            paths.shape() == std::vector<std::size_t>({B, K, T}),
        what + ": shapes [batch, topPaths] and [batch, topPaths, maxTime], probabilities of the input type");
  // A narrow beam on the same data: its best path can be no more likely than the exact best.
  Tensor narrow =
      std::get<0>(logits ? popnn::ctc_infer::beamSearchDecoderLogits(graph, data, lengths, prog, BLANK, 2, 2, plan)
                         : popnn::ctc_infer::beamSearchDecoderLogProbabilities(graph, data, lengths, prog, BLANK, 2,
                                                                               2, plan));
  graph.createHostRead("probs", probs);
  graph.createHostRead("pathLengths", pathLengths);
  graph.createHostRead("paths", paths);
  graph.createHostRead("narrow", narrow);
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> s = scores(target, type);
  if (type == HALF) {
    std::vector<unsigned short> h(s.size());
    copyFloatToDeviceHalf(target, s.data(), h.data(), s.size());
    engine.writeTensor("data", h.data(), h.data() + h.size());
  } else {
    engine.writeTensor("data", s.data(), s.data() + s.size());
  }
  engine.writeTensor("lengths", LENGTHS, LENGTHS + B);
  engine.run(0);
  const std::vector<float> got = readProbs(engine, target, type, "probs");
  std::vector<float> narrowGot(B * 2);
  if (type == HALF) {
    std::vector<unsigned short> h(narrowGot.size());
    engine.readTensor("narrow", h.data(), h.data() + h.size());
    copyDeviceHalfToFloat(target, h.data(), narrowGot.data(), narrowGot.size());
  } else {
    engine.readTensor("narrow", narrowGot.data(), narrowGot.data() + narrowGot.size());
  }
  std::vector<unsigned> gotLengths(B * K), gotPaths(B * K * T);
  engine.readTensor("pathLengths", gotLengths.data(), gotLengths.data() + gotLengths.size());
  engine.readTensor("paths", gotPaths.data(), gotPaths.data() + gotPaths.size());
  const double tol = type == HALF ? 2e-2 : 1e-4;
  bool labelsOk = true, probsOk = true, narrowOk = true;
  for (unsigned b = 0; b < B; ++b) {
    const std::vector<std::pair<double, std::vector<unsigned> > > want = exact(s, b, logits);
    for (unsigned k = 0; k < K; ++k) {
      const bool exists = k < want.size();
      const double wantP = exists ? want[k].first : 65504.0;
      const std::vector<unsigned> wantL = exists ? want[k].second : std::vector<unsigned>();
      if (std::fabs(got[b * K + k] - wantP) > tol * std::max(1.0, std::fabs(wantP)))
        probsOk = false;
      std::vector<unsigned> row(gotPaths.begin() + (b * K + k) * T, gotPaths.begin() + (b * K + k + 1) * T);
      std::vector<unsigned> padded(wantL);
      padded.resize(T, 0);
      if (gotLengths[b * K + k] != wantL.size() || row != padded)
        labelsOk = false;
    }
    if (narrowGot[b * 2] < want[0].first - tol * std::max(1.0, want[0].first))
      narrowOk = false;
  }
  check(labelsOk, what + ": the best paths and their lengths are the exact ones, 0 after each end");
  check(probsOk, what + ": path probabilities match the exact sums");
  check(narrowOk, what + ": a 2-beam search finds no path likelier than the exact best");
}

void errors(Device &device) {
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popnn::addCodelets(graph);
  const popnn::ctc::Plan plan = popnn::ctc_infer::plan(graph, FLOAT, B, T, C, 4);
  const popnn::ctc::Plan lossPlan = popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, 2, C);
  Tensor data = popnn::ctc_infer::createDataInput(graph, FLOAT, B, T, C, plan);
  Tensor lengths = graph.addVariable(UNSIGNED_INT, {B});
  Tensor shortLengths = graph.addVariable(UNSIGNED_INT, {B - 1});
  Sequence prog;
  using popnn::ctc_infer::beamSearchDecoderLogProbabilities;
  checkThrows([&] { beamSearchDecoderLogProbabilities(graph, data, lengths, prog, BLANK, 4, 5, plan); }, "topPaths",
              "more paths than beams are refused");
  checkThrows([&] { beamSearchDecoderLogProbabilities(graph, data, lengths, prog, C, 4, 2, plan); }, "blankClass",
              "a blank class beyond the classes is refused");
  checkThrows([&] { beamSearchDecoderLogProbabilities(graph, data, shortLengths, prog, BLANK, 4, 2, plan); },
              "dataLengths", "data lengths of the wrong size are refused");
  checkThrows([&] { popnn::ctc_infer::beamSearchDecoderLogits(graph, data, lengths, prog, BLANK, 4, 2, lossPlan); },
              "inference plan", "a loss plan is refused");
}

} // namespace

int main() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  errors(device);
  run(device, FLOAT, false);
  run(device, FLOAT, true);
  run(device, HALF, false);
  run(device, HALF, true);
  return checksDone("ctc decoder example: all checks passed");
}
