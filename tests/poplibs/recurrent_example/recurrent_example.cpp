// popnn/Recurrent.hpp's vanilla RNN as a user of Graphcore's SDK writes it (C++11, linked with -lpopnn -lpoplin
// -lpopops -lpoputil -lpoplar), on an IPU Model of 16 tiles, against a double host reference:
// y_t = tanh(x_t * Wff + y_{t-1} * Wfb + b), and back-propagation through time for the gradients at the inputs,
// the weight deltas and the bias deltas.
// - FLOAT and HALF: rnnFwdSequence (weighting the input itself, and from forwardWeightInput's result), the parts
//   (createInput, createWeightsInput/Feedback, createFwdState, forwardWeightInput, forwardIterate), rnnBwdSequence
//   with and without the input gradients, and backwardGradientStep/paramDeltaUpdate step by step with accumulators
//   that already hold a value.
// - the flop counts and pre-plan products of the RNN, the LSTM and the GRU; errors naming the argument.
// FLOAT must match within 1e-5 and HALF within 1e-2 of the largest reference value (inputs rounded to half).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Gru.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/Recurrent.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "sdk_check.hpp"
#include "sdk_half.hpp"

using namespace poplar;
using namespace poplar::program;
namespace rnn = popnn::rnn;

namespace {

const std::size_t T = 3, B = 2, IN = 4, OUT = 5;

typedef std::vector<double> Vec;

// Deterministic values in [-0.5, 0.5], rounded to half for HALF.
std::vector<float> values(std::size_t n, unsigned seed, const Target &target, const Type &type) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 37 + seed * 11) % 29) - 14) / 28.0f;
  return asDeviceValues(target, type, v);
}

// The host layer in double: x [T][B][IN], wff [IN][OUT], wfb [OUT][OUT], b [OUT], y0 [B][OUT].
struct Host {
  std::vector<float> x, wff, wfb, b, y0, dy;
  Vec y;                         // [T][B][OUT]
  Vec dx, dWff, dWfb, db, delta; // gradients; delta [T][B][OUT] at each adder
};

void forward(Host &h) {
  h.y.assign(T * B * OUT, 0.0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t o = 0; o < OUT; ++o) {
        double s = h.b[o];
        for (std::size_t i = 0; i < IN; ++i)
          s += double(h.x[(t * B + b) * IN + i]) * h.wff[i * OUT + o];
        for (std::size_t k = 0; k < OUT; ++k)
          s += (t == 0 ? double(h.y0[b * OUT + k]) : h.y[((t - 1) * B + b) * OUT + k]) * h.wfb[k * OUT + o];
        h.y[(t * B + b) * OUT + o] = std::tanh(s);
      }
}

void backward(Host &h) {
  h.dx.assign(T * B * IN, 0.0);
  h.dWff.assign(IN * OUT, 0.0);
  h.dWfb.assign(OUT * OUT, 0.0);
  h.db.assign(OUT, 0.0);
  h.delta.assign(T * B * OUT, 0.0);
  for (std::size_t t = T; t-- != 0;)
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t o = 0; o < OUT; ++o) {
        double g = h.dy[(t * B + b) * OUT + o];
        if (t + 1 < T)
          for (std::size_t k = 0; k < OUT; ++k)
            g += h.delta[((t + 1) * B + b) * OUT + k] * h.wfb[o * OUT + k];
        const double y = h.y[(t * B + b) * OUT + o];
        h.delta[(t * B + b) * OUT + o] = g * (1.0 - y * y);
      }
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t o = 0; o < OUT; ++o) {
        const double d = h.delta[(t * B + b) * OUT + o];
        h.db[o] += d;
        for (std::size_t i = 0; i < IN; ++i) {
          h.dx[(t * B + b) * IN + i] += d * h.wff[i * OUT + o];
          h.dWff[i * OUT + o] += double(h.x[(t * B + b) * IN + i]) * d;
        }
        for (std::size_t k = 0; k < OUT; ++k)
          h.dWfb[k * OUT + o] += (t == 0 ? double(h.y0[b * OUT + k]) : h.y[((t - 1) * B + b) * OUT + k]) * d;
      }
}

void compare(const std::vector<float> &got, const Vec &want, const Type &type, const std::string &what) {
  double scale = 0, err = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    scale = std::max(scale, std::fabs(want[i]));
  for (std::size_t i = 0; i < want.size() && i < got.size(); ++i)
    err = std::max(err, std::fabs(got[i] - want[i]));
  const double tol = type == HALF ? 1e-2 : 1e-5;
  check(got.size() == want.size() && err <= tol * std::max(scale, 1.0),
        std::string(type == HALF ? "half " : "float ") + what + ": within " + (type == HALF ? "1e-2" : "1e-5"));
}

Tensor variable(Graph &graph, const Type &type, const std::vector<std::size_t> &shape, const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  graph.createHostWrite(name, t);
  return t;
}

void run(Device &device, const Type &type) {
  const Target &target = device.getTarget();
  Host h;
  h.x = values(T * B * IN, 1, target, type);
  h.wff = values(IN * OUT, 2, target, type);
  h.wfb = values(OUT * OUT, 3, target, type);
  h.b = values(OUT, 4, target, type);
  h.y0 = values(B * OUT, 5, target, type);
  h.dy = values(T * B * OUT, 6, target, type);
  forward(h);
  backward(h);

  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  poplin::PlanningCache cache;
  Sequence prog;
  // The parts, with the tensors made by the create functions.
  Tensor x = rnn::createInput(graph, T, B, IN, OUT, type, FLOAT, false, "x", &cache);
  Tensor wff = rnn::createWeightsInput(graph, T, B, IN, OUT, type, FLOAT, false, "wff", &cache);
  Tensor wfb = rnn::createWeightsFeedback(graph, B, OUT, type, FLOAT, false, "wfb", &cache);
  Tensor y0 = rnn::createFwdState(graph, type, B, OUT, prog, false, false, "y0", &cache);
  Tensor zeroState = rnn::createFwdState(graph, type, B, OUT, prog, true, false, "zeroState", &cache);
  Tensor bias = variable(graph, type, {OUT}, "b");
  Tensor dy = variable(graph, type, {T, B, OUT}, "dy");
  graph.createHostWrite("x", x);
  graph.createHostWrite("wff", wff);
  graph.createHostWrite("wfb", wfb);
  graph.createHostWrite("y0", rnn::getOutputFromFwdState(y0));
  check(x.shape() == std::vector<std::size_t>({T, B, IN}) && wff.shape() == std::vector<std::size_t>({IN, OUT}) &&
            wfb.shape() == std::vector<std::size_t>({OUT, OUT}) && y0.shape() == std::vector<std::size_t>({B, OUT}),
        std::string(type == HALF ? "half" : "float") + ": the create functions give Graphcore's shapes");
  graph.createHostRead("zeroState", zeroState);

  Tensor weighted = rnn::forwardWeightInput(graph, x, wff, prog, FLOAT, false, "ff", &cache);
  Tensor yParts = rnn::forwardIterate(graph, weighted, y0, wfb, bias, prog, popnn::NonLinearityType::TANH, FLOAT,
                                      false, "iterate", &cache);
  graph.createHostRead("yParts", yParts);
  Tensor ySeq = rnn::rnnFwdSequence(graph, prog, y0, 0, bias, wff, wfb, x, popnn::NonLinearityType::TANH, FLOAT,
                                    false, "fwdSeq", &cache);
  graph.createHostRead("ySeq", ySeq);
  Tensor yPre = rnn::rnnFwdSequence(graph, prog, y0, &weighted, bias, wff, wfb, x, popnn::NonLinearityType::TANH,
                                    FLOAT, false, "fwdPre", &cache);
  graph.createHostRead("yPre", yPre);

  Tensor dx, dWff, dWfb, db;
  std::tie(dx, dWff, dWfb, db) = rnn::rnnBwdSequence(graph, true, false, prog, y0, ySeq, bias, wff, wfb, dy, x,
                                                     popnn::NonLinearityType::TANH, FLOAT, "bwdSeq", &cache);
  graph.createHostRead("dx", dx);
  graph.createHostRead("dWff", dWff);
  graph.createHostRead("dWfb", dWfb);
  graph.createHostRead("db", db);
  Tensor deltas, none1, none2, none3;
  std::tie(deltas, none1, none2, none3) = rnn::rnnBwdSequence(
      graph, false, true, prog, y0, ySeq, bias, wff, wfb, dy, x, popnn::NonLinearityType::TANH, FLOAT, "adder");
  graph.createHostRead("deltas", deltas);
  check(!none1.valid() && !none2.valid() && !none3.valid(), std::string(type == HALF ? "half" : "float") +
                                                                ": no deltas without doWU");

  // Step by step, into accumulators that start at 1: each delta must be added to what is there.
  Tensor state = rnn::createBwdState(graph, type, B, OUT, prog, "bwdState", &cache);
  Tensor accWff = variable(graph, type, {IN, OUT}, "accWff"), accWfb = variable(graph, type, {OUT, OUT}, "accWfb"),
         accB = variable(graph, type, {OUT}, "accB");
  std::vector<Tensor> stepDx(T);
  for (std::size_t t = T; t-- != 0;) {
    const Tensor prevOut = t == 0 ? y0 : ySeq[t - 1];
    if (t == 0) {
      state = rnn::backwardGradientStep(graph, dy[t], state, ySeq[t], wfb, prog, popnn::NonLinearityType::TANH);
    } else {
      std::pair<Tensor, Tensor> g = rnn::backwardGradientStep(graph, dy[t], state, ySeq[t], wff, wfb, prog,
                                                              popnn::NonLinearityType::TANH);
      stepDx[t] = g.first;
      state = g.second;
    }
    rnn::paramDeltaUpdate(graph, state, x[t], prevOut, accWff, accWfb, accB, prog);
  }
  graph.createHostRead("stepDx2", stepDx[2]);
  graph.createHostRead("accWff", accWff);
  graph.createHostRead("accWfb", accWfb);
  graph.createHostRead("accB", accB);

  Engine engine(graph, prog);
  engine.load(device);
  writeAs(engine, target, type, "x", h.x);
  writeAs(engine, target, type, "wff", h.wff);
  writeAs(engine, target, type, "wfb", h.wfb);
  writeAs(engine, target, type, "b", h.b);
  writeAs(engine, target, type, "y0", h.y0);
  writeAs(engine, target, type, "dy", h.dy);
  writeAs(engine, target, type, "accWff", std::vector<float>(IN * OUT, 1.0f));
  writeAs(engine, target, type, "accWfb", std::vector<float>(OUT * OUT, 1.0f));
  writeAs(engine, target, type, "accB", std::vector<float>(OUT, 1.0f));
  engine.run(0);

  compare(readAs(engine, target, type, "zeroState", B * OUT), Vec(B * OUT, 0.0), type, "createFwdState zeroes");
  compare(readAs(engine, target, type, "yParts", T * B * OUT), h.y, type, "forwardWeightInput + forwardIterate");
  compare(readAs(engine, target, type, "ySeq", T * B * OUT), h.y, type, "rnnFwdSequence");
  compare(readAs(engine, target, type, "yPre", T * B * OUT), h.y, type, "rnnFwdSequence from weightedIn");
  compare(readAs(engine, target, type, "dx", T * B * IN), h.dx, type, "rnnBwdSequence input gradients");
  compare(readAs(engine, target, type, "dWff", IN * OUT), h.dWff, type, "rnnBwdSequence input weight deltas");
  compare(readAs(engine, target, type, "dWfb", OUT * OUT), h.dWfb, type, "rnnBwdSequence feedback weight deltas");
  compare(readAs(engine, target, type, "db", OUT), h.db, type, "rnnBwdSequence bias deltas");
  compare(readAs(engine, target, type, "deltas", T * B * OUT), h.delta, type,
          "rnnBwdSequence without input gradients gives the adder gradients");
  compare(readAs(engine, target, type, "stepDx2", B * IN), Vec(h.dx.begin() + 2 * B * IN, h.dx.end()), type,
          "backwardGradientStep input gradient");
  Vec wantWff(h.dWff), wantWfb(h.dWfb), wantB(h.db);
  for (double &v : wantWff)
    v += 1.0;
  for (double &v : wantWfb)
    v += 1.0;
  for (double &v : wantB)
    v += 1.0;
  compare(readAs(engine, target, type, "accWff", IN * OUT), wantWff, type, "paramDeltaUpdate adds input deltas");
  compare(readAs(engine, target, type, "accWfb", OUT * OUT), wantWfb, type, "paramDeltaUpdate adds feedback deltas");
  compare(readAs(engine, target, type, "accB", OUT), wantB, type, "paramDeltaUpdate adds bias deltas");
}

void countsAndErrors(Device &device) {
  // Products [m, k] x [k, n] count m*n*(2k - 1); T=3, B=2, in=4, out=5.
  check(rnn::getFwdFlops(3, 2, 4, 5) == 3 * (10 * 9 + 20) + 3 * (10 * 7) &&
            rnn::getFwdFlops(3, 2, 4, 5, false) == 3 * (10 * 9 + 20),
        "rnn::getFwdFlops counts the products, the sums and the bias");
  check(rnn::getBwdFlops(3, 2, 4, 5) == 3 * (10 * 9 + 10) + 3 * (8 * 9) &&
            rnn::getBwdFlops(3, 2, 4, 5, false) == 3 * (10 * 9 + 10),
        "rnn::getBwdFlops");
  check(rnn::getWuFlops(3, 2, 4, 5) == 20 * 11 + 25 * 11 + 5 * 5 + (20 + 25 + 5), "rnn::getWuFlops");
  check(rnn::getMatMulPrePlanParameters(3, 2, 4, 5, FLOAT).size() == 6 &&
            rnn::getMatMulPrePlanParameters(3, 2, 4, 5, FLOAT, FLOAT, true).size() == 2 &&
            rnn::getMatMulPrePlanParameters(3, 2, 4, 5, HALF, FLOAT, true, false).size() == 1 &&
            rnn::getMatMulPrePlanParameters(3, 2, 4, 5, FLOAT)[0].first.aShape == std::vector<std::size_t>({1, 6, 4}),
        "rnn::getMatMulPrePlanParameters: the input weighting of all steps and the feedback product");

  popnn::lstm::LstmParams lp(FLOAT, 2, 3, {4, 5});
  // 2 per multiply-accumulate over 4 gates: 2*4*5*2*3*(5+4) = 2160; 30 output elements over the steps.
  check(popnn::lstm::getBasicLstmCellFwdFlops(lp) == 2160 + 4 * 30 &&
            popnn::lstm::getBasicLstmCellBwdFlops(lp) == 2160 + 8 * 30 &&
            popnn::lstm::getBasicLstmCellWuFlops(lp) == 2160 + 4 * 30,
        "lstm flop counts");
  check(popnn::lstm::getMatMulPrePlanParameters(lp, OptionFlags()).size() == 6 &&
            popnn::lstm::getMatMulPrePlanParameters(lp, OptionFlags{{"inferenceOnly", "true"}}).size() == 2,
        "lstm::getMatMulPrePlanParameters");
  popnn::gru::GruParams gp(FLOAT, 2, 3, {4, 5});
  check(popnn::gru::getBasicGruCellFwdFlops(gp) == 1620 + 4 * 30 &&
            popnn::gru::getBasicGruCellBwdFlops(gp) == 1620 + 8 * 30 &&
            popnn::gru::getBasicGruCellWuFlops(gp) == 1620 + 3 * 30,
        "gru flop counts");

  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;
  Tensor x = rnn::createInput(graph, T, B, IN, OUT, FLOAT);
  Tensor wff = rnn::createWeightsInput(graph, T, B, IN, OUT, FLOAT);
  Tensor wrong = rnn::createWeightsInput(graph, T, B, OUT, OUT, FLOAT);
  Tensor wfb = rnn::createWeightsFeedback(graph, B, OUT, FLOAT);
  Tensor y0 = rnn::createFwdState(graph, FLOAT, B, OUT, prog, true, false);
  Tensor bias = graph.addVariable(FLOAT, {OUT});
  Tensor halfBias = graph.addVariable(HALF, {OUT});
  checkThrows([&] { rnn::forwardWeightInput(graph, x, wrong, prog); }, "weights",
          "forwardWeightInput refuses weights whose rows are not the input size");
  checkThrows([&] { rnn::forwardIterate(graph, x, y0, wfb, bias, prog, popnn::NonLinearityType::TANH); }, "initState",
          "forwardIterate refuses an unweighted input, naming the state it does not fit");
  checkThrows([&] {
    rnn::rnnFwdSequence(graph, prog, y0, 0, halfBias, wff, wfb, x, popnn::NonLinearityType::TANH, FLOAT, false);
  }, "biases", "rnnFwdSequence refuses biases of another type");
  checkThrows([&] { rnn::createInput(graph, 0, B, IN, OUT, FLOAT); }, "at least 1", "createInput refuses 0 steps");
}

} // namespace

int main() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  countsAndErrors(device);
  run(device, FLOAT);
  run(device, HALF);
  return checksDone("recurrent example: all checks passed");
}
