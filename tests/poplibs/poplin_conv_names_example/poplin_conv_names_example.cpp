// poplin's last checklist names as a user of Graphcore's SDK writes them (C++11, linked with -lpoplin -lpopops
// -lpoputil -lpoplar), on IPU Models of ipu2 (all 1,472 tiles, and 4 tiles):
// - operator>> of ConvParams reads back what operator<< prints (equal parameters, the same text again), and
//   refuses malformed text naming what it expected;
// - matMulGetConvPlanParams gives, per product, the convolution (batch m, field {1}, kernel {1}, k -> n channels,
//   G groups) and its options (one entry of MatMulToConvOptions per options pointer), which the convolution
//   planner plans as matMul does (the same plan text);
// - fullyConnectedWeightTranspose: the weights of a fully connected layer's backward pass transposed on the
//   device (each element against the host transpose), then the backward convolution with them against the host
//   product dY * W^T, FLOAT (1e-5) and HALF (operands rounded to half, 1e-2);
// - reportWeightUpdatePlanInfo reports the product calculateWeightDeltas plans (the same plan as matMul's of
//   those shapes);
// - createBiases' ConvParams form puts bias c on the tile of channel c's first output, and addBias adds it there.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "sdk_check.hpp"
#include "sdk_half.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

std::string printed(const poplin::ConvParams &p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

poplin::ConvParams parsed(const std::string &text) {
  std::istringstream s(text);
  poplin::ConvParams p;
  s >> p;
  return p;
}

std::string replaced(std::string text, const std::string &from, const std::string &to) {
  const std::size_t at = text.find(from);
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

void roundTrip() {
  // 2-D, half in and float out, every transform used.
  poplin::ConvParams p(HALF, FLOAT, 2, {7, 9}, {3, 2}, 3, 4, 2);
  p.inputTransform.truncationLower = {1, 0};
  p.inputTransform.dilation = {1, 2};
  p.inputTransform.paddingUpper = {2, 1};
  p.inputTransform.flip = {false, true};
  p.kernelTransform.paddingLower = {0, 1};
  p.kernelTransform.flip = {true, false};
  p.outputTransform.stride = {2, 1};
  p.outputTransform.paddingLower = {1, 0};
  p.outputTransform.truncationUpper = {0, 1};
  const std::string text = printed(p);
  const poplin::ConvParams q = parsed(text);
  check(q == p && printed(q) == text, "operator>> reads what operator<< prints (2-D, every transform)");
  const poplin::ConvParams plain(FLOAT, 1, {5}, {2}, 1, 1, 1);
  check(parsed(printed(plain)) == plain, "operator>> reads a plain 1-D convolution back");
  // Two in a row on one stream: each read stops at the end of its own text.
  std::istringstream two(printed(plain) + printed(p));
  poplin::ConvParams a, b;
  two >> a >> b;
  check(a == plain && b == p, "two printed parameter sets read back in turn from one stream");
  checkThrows([&] { parsed(replaced(text, "kernelShape", "kernalShape")); }, "expected 'kernelShape'",
              "a misspelt word is refused naming the word expected");
  checkThrows([&] { parsed(text.substr(0, text.find("    outputTransform"))); },
              "expected 'outputTransform' but read the end of the text",
              "a text cut short is refused");
  checkThrows([&] { parsed(replaced(text, "batchSize 2", "batchSize -2")); }, "batchSize as a non-negative",
              "a negative count is refused");
  checkThrows([&] { parsed(replaced(text, "inputType half", "inputType halve")); }, "as a type name",
              "an unknown type is refused");
  checkThrows([&] { parsed(replaced(text, "outputFieldShape {", "outputFieldShape {9, ")); }, "outputFieldShape",
              "an output shape that the other fields do not give is refused");
  bool isPoplibsError = false;
  try {
    parsed("Params: nonsense");
  } catch (const poputil::poplibs_error &) {
    isPoplibsError = true;
  }
  check(isPoplibsError, "malformed text throws poputil::poplibs_error");
}

const std::size_t G = 2, M = 4, K = 5, N = 3; // a layer of G groups: batch M, K inputs, N outputs

std::string planText(const std::string &report) {
  const std::size_t at = report.find("split ");
  return at == std::string::npos ? "(no plan in: " + report + ")" : report.substr(at);
}

// The backward pass's product dY {G, M, N} * W^T {G, N, K} as a convolution.
poplin::ConvParams bwdConv(const Target &target, poplin::MatMulToConvOptions &convOpts, const OptionFlags &bwd,
                           const Type &type) {
  poplin::MatMulParams mm;
  mm.inputType = type;
  mm.outputType = type;
  mm.aShape = {G, M, N};
  mm.bShape = {G, N, K};
  std::set<poplin::MatMulPlanParams> one;
  one.insert(poplin::MatMulPlanParams(&target, mm, &bwd));
  return std::get<1>(*poplin::matMulGetConvPlanParams(one, convOpts).begin());
}

void convPlanParams(const Target &target) {
  const OptionFlags fwd{{"fullyConnectedPass", "TRAINING_FWD"}, {"availableMemoryProportion", "0.5"}};
  poplin::MatMulParams a;
  a.inputType = HALF;
  a.outputType = FLOAT;
  a.aShape = {G, M, K};
  a.bShape = {G, K, N};
  poplin::MatMulParams b = a;
  b.inputType = FLOAT;
  b.aShape = {M, K}; // an ungrouped product
  b.bShape = {K, N};
  std::set<poplin::MatMulPlanParams> mms;
  mms.insert(poplin::MatMulPlanParams(&target, a, &fwd));
  const OptionFlags *none = 0; // no options
  mms.insert(poplin::MatMulPlanParams(&target, b, none));
  poplin::MatMulToConvOptions convOpts;
  const std::set<poplin::ConvPlanParams> convs = poplin::matMulGetConvPlanParams(mms, convOpts);
  bool shapes = convs.size() == 2 && convOpts.size() == 2;
  const poplin::ConvParams *grouped = 0;
  const OptionFlags *groupedOpts = 0;
  for (std::set<poplin::ConvPlanParams>::const_iterator it = convs.begin(); it != convs.end(); ++it) {
    const poplin::ConvParams &c = std::get<1>(*it);
    const bool isGrouped = c.numConvGroups == G;
    shapes = shapes && std::get<0>(*it) == &target && c.batchSize == M && c.inputChannels == K &&
             c.outputChannels == N && c.inputFieldShape == std::vector<std::size_t>(1, 1) &&
             c.kernelShape == std::vector<std::size_t>(1, 1) && c.numConvGroups == (isGrouped ? G : 1) &&
             c.inputType == (isGrouped ? HALF : FLOAT) && c.outputType == FLOAT &&
             std::get<2>(*it) == &convOpts[isGrouped ? &fwd : none];
    if (isGrouped) {
      grouped = &c;
      groupedOpts = std::get<2>(*it);
    }
  }
  check(shapes, "matMulGetConvPlanParams: batch m, field {1}, kernel {1}, k -> n channels, G groups, both types");
  std::string fwdPass, nonePass, memory;
  for (const auto &o : convOpts[&fwd]) {
    if (o.first == "pass")
      fwdPass = o.second;
    if (o.first == "availableMemoryProportion")
      memory = o.second;
  }
  for (const auto &o : convOpts[none])
    if (o.first == "pass")
      nonePass = o.second;
  check(fwdPass == "FC_TRAINING_FWD" && nonePass == "NONE_MATMUL" && memory == "0.5",
        "MatMulToConvOptions: fullyConnectedPass as the pass (FC_TRAINING_FWD, NONE_MATMUL), memory kept");
  Graph graph(target);
  std::ostringstream conv, mm;
  if (grouped)
    poplin::reportPlanInfo(conv, graph, *grouped, *groupedOpts);
  poplin::matMulGroupedReportPlan(mm, graph, HALF, FLOAT, a.aShape, a.bShape, fwd);
  std::printf("  convolution: %s  matMul:      %s", conv.str().c_str(), mm.str().c_str());
  check(grouped && planText(conv.str()) == planText(mm.str()),
        "the convolution is planned as matMul plans the product (TRAINING_FWD)");
  const OptionFlags bad{{"fullyConnectedPass", "SIDEWAYS"}};
  std::set<poplin::MatMulPlanParams> badSet;
  badSet.insert(poplin::MatMulPlanParams(&target, a, &bad));
  poplin::MatMulToConvOptions badOpts;
  check(has(refusal<invalid_option>([&] { poplin::matMulGetConvPlanParams(badSet, badOpts); }), "SIDEWAYS"),
        "a bad matMul option is refused as invalid_option naming it");
  poplin::MatMulParams odd = a;
  odd.bShape = {G, K + 1, N};
  std::set<poplin::MatMulPlanParams> oddSet;
  oddSet.insert(poplin::MatMulPlanParams(&target, odd, &fwd));
  checkThrows([&] { poplin::matMulGetConvPlanParams(oddSet, badOpts); }, "do not multiply",
              "shapes that do not multiply are refused");
}

std::vector<float> values(std::size_t n, unsigned seed, const Target &target, const Type &type) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 37 + seed * 11) % 23) - 11) / 8.0f;
  return asDeviceValues(target, type, v);
}

void weightTranspose(Device &device, const Type &type, const std::string &where) {
  const Target &target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const OptionFlags bwdOpts{{"fullyConnectedPass", "TRAINING_BWD"}};
  poplin::MatMulToConvOptions convOpts;
  const poplin::ConvParams bwd = bwdConv(target, convOpts, bwdOpts, type);
  const OptionFlags &opts = convOpts[&bwdOpts];
  // The forward weights as the backward convolution's input channels by its output channels: {G, N, K, 1}.
  Tensor w = graph.addVariable(type, {G, N, K, 1}, "w");
  graph.setTileMapping(w, target.getNumTiles() - 1);
  Tensor dy = poplin::createInput(graph, bwd, "dy", opts); // {M, G*N, 1}
  graph.createHostWrite("w", w);
  graph.createHostWrite("dy", dy);
  Sequence prog;
  Tensor wt = poplin::fullyConnectedWeightTranspose(graph, w, bwd, prog, "wt", opts);
  Tensor dx = poplin::convolution(graph, dy, wt, bwd, false, prog, "bwd", opts); // {M, G*K, 1}
  graph.createHostRead("wt", wt);
  graph.createHostRead("dx", dx);
  const std::string t = (type == HALF ? "half" : "float") + std::string(", ") + where;
  check(wt.shape() == std::vector<std::size_t>({G, K, N, 1}) && wt.elementType() == type,
        t + ": fullyConnectedWeightTranspose gives {G, Co, Ci, 1} of the weights' type");
  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<float> hw = values(G * N * K, 1, target, type), hdy = values(M * G * N, 2, target, type);
  writeAs(engine, target, type, "w", hw);
  writeAs(engine, target, type, "dy", hdy);
  engine.run(0);
  const std::vector<float> gotT = readAs(engine, target, type, "wt", G * K * N);
  const std::vector<float> gotX = readAs(engine, target, type, "dx", M * G * K);
  bool transposed = true;
  double err = 0;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t o = 0; o < K; ++o)
      for (std::size_t i = 0; i < N; ++i)
        transposed = transposed && gotT[(g * K + o) * N + i] == hw[(g * N + i) * K + o];
  for (std::size_t b = 0; b < M; ++b)
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t o = 0; o < K; ++o) {
        double want = 0; // dX[g][b][o] = sum_i dY[g][b][i] * W[g][o][i], W[g][o][i] = w[g][i][o]
        for (std::size_t i = 0; i < N; ++i)
          want += double(hdy[b * G * N + g * N + i]) * hw[(g * N + i) * K + o];
        err = std::max(err, std::fabs(gotX[b * G * K + g * K + o] - want));
      }
  check(transposed, t + ": every transposed weight equals the host transpose");
  check(err <= (type == HALF ? 1e-2 : 1e-5) * 4, t + ": the backward convolution with them equals dY * W^T");
}

void refusals(const Target &target) {
  Graph graph(target);
  Sequence prog;
  const poplin::ConvParams twoD(FLOAT, 1, {3, 3}, {1, 1}, 2, 2, 1);
  checkThrows([&] { poplin::fullyConnectedWeightTranspose(graph, graph.addVariable(FLOAT, {1, 2, 2, 1, 1}), twoD,
                                                          prog); },
              "field dimensions", "fullyConnectedWeightTranspose refuses a 2-D convolution");
  const poplin::ConvParams fc(FLOAT, M, {1}, {1}, N, K, G);
  checkThrows([&] { poplin::fullyConnectedWeightTranspose(graph, graph.addVariable(FLOAT, {G, K, N, 1}), fc, prog); },
              "the weights", "fullyConnectedWeightTranspose refuses weights of the wrong shape");
}

void weightUpdateReport(const Target &target) {
  Graph graph(target);
  // A 6 x 5 field, 3 x 2 kernel, 3 -> 4 channels, batch 2: 2 x 4 x 4 output positions, so dW is
  // {4 x 32} * {32 x 18}.
  const poplin::ConvParams p(FLOAT, 2, {6, 5}, {3, 2}, 3, 4, 1);
  std::ostringstream wu, mm;
  poplin::reportWeightUpdatePlanInfo(wu, graph, p);
  poplin::matMulGroupedReportPlan(mm, graph, FLOAT, FLOAT, {1, 4, 32}, {1, 32, 18});
  std::printf("  %s", wu.str().c_str());
  check(has(wu.str(), "weight update as {1} x {4 x 32} * {32 x 18}") && planText(wu.str()) == planText(mm.str()),
        "reportWeightUpdatePlanInfo reports dW = zDeltas^T * windows with matMul's plan of those shapes");
}

void biases(Device &device) {
  const Target &target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const poplin::ConvParams p(FLOAT, 2, {4, 4}, {3, 3}, 2, 6, 1);
  Tensor out = poplin::createConvOutput(graph, p, "out"); // {2, 6, 2, 2}
  Tensor b = poplin::createBiases(graph, out, p, "b");
  bool beside = b.shape() == std::vector<std::size_t>(1, 6) && b.elementType() == FLOAT;
  for (unsigned c = 0; c < 6; ++c) {
    const std::vector<std::vector<Interval> > tb = graph.getTileMapping(b[c]);
    const std::vector<std::vector<Interval> > to = graph.getTileMapping(out[0][c][0][0]);
    for (std::size_t tile = 0; tile < tb.size(); ++tile)
      beside = beside && tb[tile].empty() == to[tile].empty();
  }
  check(beside, "createBiases(params): bias c on the tile of channel c's first output");
  graph.createHostWrite("out", out);
  graph.createHostWrite("b", b);
  graph.createHostRead("out", out);
  Sequence prog;
  poplin::addBias(graph, out, b, prog);
  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<float> ho = values(out.numElements(), 3, target, FLOAT), hb = values(6, 4, target, FLOAT);
  engine.writeTensor("out", ho.data(), ho.data() + ho.size());
  engine.writeTensor("b", hb.data(), hb.data() + hb.size());
  engine.run(0);
  std::vector<float> got(ho.size());
  engine.readTensor("out", got.data(), got.data() + got.size());
  double err = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    err = std::max(err, double(std::fabs(got[i] - (ho[i] + hb[(i / 4) % 6]))));
  check(err <= 1e-6, "addBias with those biases adds bias c to channel c");
  checkThrows([&] { poplin::createBiases(graph, graph.addVariable(FLOAT, {2, 5, 2, 2}), p); }, "the activations",
              "createBiases(params) refuses activations that are not the convolution's output");
}

} // namespace

int main() {
  roundTrip();
  IPUModel small("ipu2");
  small.tilesPerIPU = 4;
  Device tiny = small.createDevice();
  Device ipu2 = IPUModel("ipu2").createDevice();
  convPlanParams(ipu2.getTarget());
  weightTranspose(ipu2, FLOAT, "ipu2");
  weightTranspose(ipu2, HALF, "ipu2");
  weightTranspose(tiny, FLOAT, "4 tiles");
  weightTranspose(tiny, HALF, "4 tiles");
  refusals(tiny.getTarget());
  weightUpdateReport(ipu2.getTarget());
  biases(tiny);
  return checksDone("poplin conv names example: all checks passed");
}
