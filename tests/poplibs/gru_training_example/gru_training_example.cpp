// popnn/Gru.hpp's training surface as a user of Graphcore's SDK writes it (C++11, linked with -lpopnn -lpoplin
// -lpopops -lpoputil -lpoplar), against a double-precision host GRU and its back-propagation through time:
// - gruFwd with intermediates (both overloads), gruBwd (both), gruWU, gruBwdWithWU (both), and the attention GRU:
//   createAttention, auGruFwd (both), auGruBwd (both), auGruWU, auGruBwdWithWU (both);
// - resetAfter off and on, a permuted cell order, the last output only, realTimeSteps (and GruParams' timeSteps
//   tensor), FLOAT and HALF, on the
//   full ipu2 IPU Model and on one of 4 tiles;
// - every gradient: of the input, the initial output, both weights, the biases and the attention scores.
// The host's gradients are themselves checked against central differences of the host forward pass (1e-6).
// FLOAT must match within 1e-4 and HALF within 1e-2 of the largest reference value (inputs rounded to half).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/TypeConversion.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Gru.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;
namespace gru = popnn::gru;

namespace {

const std::size_t T = 3, B = 2, IN = 4, OUT = 3;

typedef std::vector<double> Vec;

// The layer's settings for one run.
struct Config {
  bool resetAfter, attention, realSteps, fullSequence, permuted;
  /// The step counts come from GruParams' timeSteps tensor (the overloads without realTimeSteps are called).
  bool paramSteps;
};

// The host layer's inputs (slot order as the device weights: cellOrder) and its results.
struct Host {
  Config cfg;
  std::vector<BasicGruCellUnit> order;
  Vec x, h0, wi, wo, b, att, dy; // x [T][B][IN], wi [3][IN][OUT], wo [3][OUT][OUT], b [3]([2])[OUT], att [B][T]
  std::vector<int> len;          // realTimeSteps [B]
  Vec y;                         // outputs of every step [T][B][OUT]
  // Gradients.
  Vec dx, dh0, dwi, dwo, db, datt;
};

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

std::size_t slotOf(const Host &h, BasicGruCellUnit unit) {
  return std::size_t(std::find(h.order.begin(), h.order.end(), unit) - h.order.begin());
}
double bias(const Host &h, std::size_t slot, std::size_t which, std::size_t o) {
  return h.cfg.resetAfter ? h.b[(slot * 2 + which) * OUT + o] : (which ? 0.0 : h.b[slot * OUT + o]);
}

// One step's values for batch entry n: gates r, u, c, the candidate's recurrent term q (with resetAfter), the
// attention a, mask m and the output.
struct Step {
  Vec r, u, c, q, hp, y;
  double a, m;
};

// The forward pass; fills h.y and returns every step's values [T][B].
std::vector<Step> forward(Host &h) {
  std::vector<Step> steps(T * B);
  const std::size_t sr = slotOf(h, BASIC_GRU_CELL_RESET_GATE), su = slotOf(h, BASIC_GRU_CELL_UPDATE_GATE),
                    sc = slotOf(h, BASIC_GRU_CELL_CANDIDATE);
  h.y.assign(T * B * OUT, 0.0);
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t n = 0; n < B; ++n) {
      Step &s = steps[t * B + n];
      s.hp.resize(OUT);
      for (std::size_t o = 0; o < OUT; ++o)
        s.hp[o] = t ? h.y[((t - 1) * B + n) * OUT + o] : h.h0[n * OUT + o];
      s.a = h.cfg.attention ? h.att[n * T + t] : 0.0;
      s.m = h.cfg.realSteps ? (int(t) < h.len[n] ? 1.0 : 0.0) : 1.0;
      // in(k, o): x Wi + b0 for slot k; rec(k, o, v): v Wo + b1.
      struct Sum {
        const Host &h;
        std::size_t t, n;
        double in(std::size_t k, std::size_t o) const {
          double v = bias(h, k, 0, o);
          for (std::size_t i = 0; i < IN; ++i)
            v += h.x[(t * B + n) * IN + i] * h.wi[(k * IN + i) * OUT + o];
          return v;
        }
        double rec(std::size_t k, std::size_t o, const Vec &v) const {
          double s = bias(h, k, 1, o);
          for (std::size_t i = 0; i < OUT; ++i)
            s += v[i] * h.wo[(k * OUT + i) * OUT + o];
          return s;
        }
      } sum = {h, t, n};
      s.r.resize(OUT);
      s.u.resize(OUT);
      s.c.resize(OUT);
      s.q.resize(OUT);
      s.y.resize(OUT);
      for (std::size_t o = 0; o < OUT; ++o) {
        s.r[o] = sigmoid(sum.in(sr, o) + sum.rec(sr, o, s.hp));
        s.u[o] = sigmoid(sum.in(su, o) + sum.rec(su, o, s.hp));
      }
      Vec rh(OUT);
      for (std::size_t o = 0; o < OUT; ++o)
        rh[o] = s.r[o] * s.hp[o];
      for (std::size_t o = 0; o < OUT; ++o) {
        if (h.cfg.resetAfter) {
          s.q[o] = sum.rec(sc, o, s.hp);
          s.c[o] = std::tanh(sum.in(sc, o) + s.r[o] * s.q[o]);
        } else {
          s.c[o] = std::tanh(sum.in(sc, o) + sum.rec(sc, o, rh));
        }
        const double ue = (1 - s.a) * s.u[o];
        s.y[o] = s.m * (s.c[o] + ue * (s.hp[o] - s.c[o]));
        h.y[(t * B + n) * OUT + o] = s.y[o];
      }
    }
  return steps;
}

// The output's gradient at step t for entry n, unit o (dy is shaped as the output).
double outGrad(const Host &h, std::size_t t, std::size_t n, std::size_t o) {
  if (h.cfg.fullSequence)
    return h.dy[(t * B + n) * OUT + o];
  return t == T - 1 ? h.dy[n * OUT + o] : 0.0;
}

// The loss whose gradients the backward pass gives: sum(dy * output).
double loss(Host h) {
  forward(h);
  double l = 0;
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t o = 0; o < OUT; ++o)
        l += outGrad(h, t, n, o) * h.y[(t * B + n) * OUT + o];
  return l;
}

// Back-propagation through time on the host.
void backward(Host &h) {
  const std::vector<Step> steps = forward(h);
  const std::size_t sr = slotOf(h, BASIC_GRU_CELL_RESET_GATE), su = slotOf(h, BASIC_GRU_CELL_UPDATE_GATE),
                    sc = slotOf(h, BASIC_GRU_CELL_CANDIDATE);
  h.dx.assign(h.x.size(), 0.0);
  h.dwi.assign(h.wi.size(), 0.0);
  h.dwo.assign(h.wo.size(), 0.0);
  h.db.assign(h.b.size(), 0.0);
  h.datt.assign(B * T, 0.0);
  Vec dhNext(B * OUT, 0.0);
  for (std::size_t n = T; n-- > 0;) {
    const std::size_t t = n;
    Vec dhPrev(B * OUT, 0.0);
    for (std::size_t e = 0; e < B; ++e) {
      const Step &s = steps[t * B + e];
      Vec dh(OUT), dr(OUT), du(OUT), dc(OUT), dq(OUT), drh(OUT, 0.0);
      for (std::size_t o = 0; o < OUT; ++o) {
        dh[o] = s.m * (outGrad(h, t, e, o) + dhNext[e * OUT + o]);
        const double ue = (1 - s.a) * s.u[o];
        dc[o] = dh[o] * (1 - ue) * (1 - s.c[o] * s.c[o]);
        const double due = dh[o] * (s.hp[o] - s.c[o]);
        h.datt[e * T + t] -= due * s.u[o];
        du[o] = due * (1 - s.a) * s.u[o] * (1 - s.u[o]);
        dhPrev[e * OUT + o] += dh[o] * ue;
      }
      // The candidate's recurrent product and the reset gate.
      for (std::size_t o = 0; o < OUT; ++o) {
        if (h.cfg.resetAfter) {
          dq[o] = dc[o] * s.r[o];
          dr[o] = dc[o] * s.q[o] * s.r[o] * (1 - s.r[o]);
        }
      }
      if (!h.cfg.resetAfter) {
        for (std::size_t i = 0; i < OUT; ++i)
          for (std::size_t o = 0; o < OUT; ++o)
            drh[i] += dc[o] * h.wo[(sc * OUT + i) * OUT + o];
        for (std::size_t i = 0; i < OUT; ++i) {
          dr[i] = drh[i] * s.hp[i] * s.r[i] * (1 - s.r[i]);
          dhPrev[e * OUT + i] += drh[i] * s.r[i];
          for (std::size_t o = 0; o < OUT; ++o)
            h.dwo[(sc * OUT + i) * OUT + o] += s.r[i] * s.hp[i] * dc[o];
        }
      } else {
        for (std::size_t i = 0; i < OUT; ++i)
          for (std::size_t o = 0; o < OUT; ++o) {
            dhPrev[e * OUT + i] += dq[o] * h.wo[(sc * OUT + i) * OUT + o];
            h.dwo[(sc * OUT + i) * OUT + o] += s.hp[i] * dq[o];
          }
      }
      // The reset and update gates' recurrent products, the input products and the biases.
      const std::size_t gate[2] = {sr, su};
      const Vec *grad[2] = {&dr, &du};
      for (std::size_t g = 0; g < 2; ++g)
        for (std::size_t i = 0; i < OUT; ++i)
          for (std::size_t o = 0; o < OUT; ++o) {
            dhPrev[e * OUT + i] += (*grad[g])[o] * h.wo[(gate[g] * OUT + i) * OUT + o];
            h.dwo[(gate[g] * OUT + i) * OUT + o] += s.hp[i] * (*grad[g])[o];
          }
      const std::size_t all[3] = {sr, su, sc};
      const Vec *allGrad[3] = {&dr, &du, &dc};
      for (std::size_t g = 0; g < 3; ++g)
        for (std::size_t o = 0; o < OUT; ++o) {
          const double d = (*allGrad[g])[o];
          for (std::size_t i = 0; i < IN; ++i) {
            h.dx[(t * B + e) * IN + i] += d * h.wi[(all[g] * IN + i) * OUT + o];
            h.dwi[(all[g] * IN + i) * OUT + o] += h.x[(t * B + e) * IN + i] * d;
          }
          if (h.cfg.resetAfter) {
            h.db[(all[g] * 2 + 0) * OUT + o] += d;
            h.db[(all[g] * 2 + 1) * OUT + o] += all[g] == sc ? dq[o] : d;
          } else {
            h.db[all[g] * OUT + o] += d;
          }
        }
    }
    dhNext = dhPrev;
  }
  h.dh0 = dhNext;
}

// Central differences of the host loss for every value of `v` (a member of h): the independent check of backward.
double worstDifference(Host h, Vec Host::*v, Vec Host::*grad) {
  const double eps = 1e-6;
  double worst = 0;
  for (std::size_t i = 0; i < (h.*v).size(); ++i) {
    Host p = h, m = h;
    (p.*v)[i] += eps;
    (m.*v)[i] -= eps;
    const double numeric = (loss(p) - loss(m)) / (2 * eps);
    worst = std::max(worst, std::fabs(numeric - (h.*grad)[i]));
  }
  return worst;
}

// Deterministic values in [-0.5, 0.5] (scaled), rounded to half for HALF.
Vec values(std::size_t n, unsigned seed, double scale, const Target &target, const Type &type) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(scale * (int((i * 37 + seed * 11) % 29) - 14) / 28.0);
  if (type == HALF) {
    std::vector<unsigned short> hv(n);
    copyFloatToDeviceHalf(target, v.data(), hv.data(), n);
    copyDeviceHalfToFloat(target, hv.data(), v.data(), n);
  }
  return Vec(v.begin(), v.end());
}

// The largest difference between device and host, relative to the largest host value (at least 1).
double relativeError(const std::vector<float> &got, const Vec &want) {
  double scale = 1, worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    scale = std::max(scale, std::fabs(want[i]));
  for (std::size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::fabs(got[i] - want[i]));
  return got.size() == want.size() ? worst / scale : 1e30;
}

// Which API forms one run calls.
enum Form { SPLIT, COMBINED };

void write(Engine &engine, const Target &target, const Type &type, const std::string &handle, const Vec &v) {
  std::vector<float> f(v.begin(), v.end());
  if (type == HALF) {
    std::vector<unsigned short> hv(f.size());
    copyFloatToDeviceHalf(target, f.data(), hv.data(), f.size());
    engine.writeTensor(handle, hv.data(), hv.data() + hv.size());
  } else {
    engine.writeTensor(handle, f.data(), f.data() + f.size());
  }
}

std::vector<float> readBack(Engine &engine, const Target &target, const Type &type, const std::string &handle,
                            std::size_t n) {
  std::vector<float> f(n);
  if (type == HALF) {
    std::vector<unsigned short> hv(n);
    engine.readTensor(handle, hv.data(), hv.data() + n);
    copyDeviceHalfToFloat(target, hv.data(), f.data(), n);
  } else {
    engine.readTensor(handle, f.data(), f.data() + n);
  }
  return f;
}

// One run on `device`: builds the layer with `form`, runs it, and checks every result against the host.
void runCase(const Device &device, const std::string &deviceName, const Type &type, const Config &cfg, Form form) {
  const Target &target = device.getTarget();
  const std::string label = std::string(type == HALF ? "half" : "float") + " " + deviceName +
                            (cfg.attention ? " auGru" : " gru") + (cfg.resetAfter ? " resetAfter" : "") +
                            (cfg.permuted ? " permuted" : "") + (cfg.fullSequence ? "" : " last-output") +
                            (cfg.paramSteps ? " timeSteps-tensor" : cfg.realSteps ? " realTimeSteps" : "") +
                            (form == SPLIT ? (cfg.attention ? " auGruBwd+auGruWU" : " gruBwd+gruWU")
                                           : (cfg.attention ? " auGruBwdWithWU" : " gruBwdWithWU"));
  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;
  Tensor ulen = graph.addVariable(UNSIGNED_INT, {B}, "ulen");
  graph.setTileMapping(ulen, 0);
  gru::GruParams params = cfg.paramSteps ? gru::GruParams(type, B, T, ulen, {IN, OUT}) : gru::GruParams(type, B, T, {IN, OUT});
  params.resetAfter = cfg.resetAfter;
  params.outputFullSequence = cfg.fullSequence;
  if (cfg.permuted)
    params.cellOrder = {BASIC_GRU_CELL_UPDATE_GATE, BASIC_GRU_CELL_CANDIDATE, BASIC_GRU_CELL_RESET_GATE};
  Tensor in = gru::createInput(graph, params, "in");
  Tensor h0 = gru::createInitialState(graph, params, "h0", {}, 0);
  gru::GruWeights w = gru::createWeights(graph, params, "w");
  Tensor att = gru::createAttention(graph, params, "att");
  Tensor len = graph.addVariable(INT, {B}, "len");
  graph.setTileMapping(len, 0);
  const std::vector<std::size_t> outShape =
      cfg.fullSequence ? std::vector<std::size_t>{T, B, OUT} : std::vector<std::size_t>{B, OUT};
  Tensor dy = graph.addVariable(type, outShape, "dy");
  poputil::mapTensorLinearly(graph, dy);
  graph.createHostWrite("in", in);
  graph.createHostWrite("h0", h0);
  graph.createHostWrite("wi", w.inputWeights);
  graph.createHostWrite("wo", w.outputWeights);
  graph.createHostWrite("b", w.biases);
  graph.createHostWrite("att", att);
  graph.createHostWrite("len", len);
  graph.createHostWrite("ulen", ulen);
  graph.createHostWrite("dy", dy);

  const bool rts = cfg.realSteps && !cfg.paramSteps;
  Tensor inter, out;
  if (cfg.attention)
    out = rts ? gru::auGruFwd(graph, params, h0, in, len, w, &inter, att, prog, "fwd")
                        : gru::auGruFwd(graph, params, h0, in, w, &inter, att, prog, "fwd");
  else
    out = rts ? gru::gruFwd(graph, params, h0, in, len, w, &inter, prog, "fwd")
                        : gru::gruFwd(graph, params, h0, in, w, &inter, prog, "fwd");
  const std::size_t slots = 3 + (cfg.fullSequence ? 0 : 1) + (cfg.resetAfter ? 1 : 0);
  check(inter.shape() == (std::vector<std::size_t>{T, slots, B, OUT}) && out.shape() == outShape,
        label + ": the output and the intermediates {T, " + std::to_string(slots) + ", B, out}");
  Tensor dIn, bwdInter, dAtt, dInit;
  gru::GruWeights dw;
  const OptionFlags none;
  if (form == SPLIT) {
    if (cfg.attention)
      dInit = rts ? gru::auGruBwd(graph, params, prog, h0, inter, w, in, len, out, dy, &dIn, &bwdInter, att,
                                            &dAtt, "bwd", none, 0)
                            : gru::auGruBwd(graph, params, prog, h0, inter, w, in, out, dy, &dIn, &bwdInter, att,
                                            &dAtt, "bwd", none, 0);
    else
      dInit = rts ? gru::gruBwd(graph, params, prog, h0, inter, w, in, len, out, dy, &dIn, &bwdInter, "bwd",
                                          none, 0)
                            : gru::gruBwd(graph, params, prog, h0, inter, w, in, out, dy, &dIn, &bwdInter, "bwd", none,
                                          0);
    check(bwdInter.shape() == (std::vector<std::size_t>{T, 3, B, OUT}), label + ": backward intermediates {T, 3, B, out}");
    dw = cfg.attention ? gru::auGruWU(graph, params, prog, h0, inter, bwdInter, w, in, out, "wu", none, 0)
                       : gru::gruWU(graph, params, prog, h0, inter, bwdInter, w, in, out, "wu", none, 0);
  } else {
    if (cfg.attention)
      dInit = rts ? gru::auGruBwdWithWU(graph, params, prog, h0, inter, w, in, len, out, dy, &dIn, dw, att,
                                                  &dAtt, "bwd", none, 0)
                            : gru::auGruBwdWithWU(graph, params, prog, h0, inter, w, in, out, dy, &dIn, dw, att, &dAtt,
                                                  "bwd", none, 0);
    else
      dInit = rts ? gru::gruBwdWithWU(graph, params, prog, h0, inter, w, in, len, out, dy, &dIn, dw, "bwd",
                                                none, 0)
                            : gru::gruBwdWithWU(graph, params, prog, h0, inter, w, in, out, dy, &dIn, dw, "bwd", none,
                                                0);
  }
  check(dw.inputWeights.shape() == w.inputWeights.shape() && dw.outputWeights.shape() == w.outputWeights.shape() &&
            dw.biases.shape() == w.biases.shape(),
        label + ": the weight gradients have the weights' shapes");
  graph.createHostRead("out", out);
  graph.createHostRead("dIn", dIn);
  graph.createHostRead("dInit", dInit);
  graph.createHostRead("dwi", dw.inputWeights);
  graph.createHostRead("dwo", dw.outputWeights);
  graph.createHostRead("db", dw.biases);
  if (cfg.attention)
    graph.createHostRead("dAtt", dAtt);

  Host h;
  h.cfg = cfg;
  h.order = params.cellOrder;
  h.x = values(T * B * IN, 1, 1.0, target, type);
  h.h0 = values(B * OUT, 2, 1.0, target, type);
  h.wi = values(3 * IN * OUT, 3, 1.0, target, type);
  h.wo = values(3 * OUT * OUT, 4, 1.0, target, type);
  h.b = values(w.biases.numElements(), 5, 0.5, target, type);
  h.att = values(B * T, 6, 0.5, target, type);
  for (std::size_t i = 0; i < h.att.size(); ++i)
    h.att[i] += 0.5; // scores in [0.25, 0.75]
  h.dy = values(dy.numElements(), 7, 1.0, target, type);
  h.len.push_back(int(T));
  h.len.push_back(1);
  backward(h);
  if (type == FLOAT && form == SPLIT) {
    // The host's own gradients against central differences of its forward pass.
    double worst = std::max(worstDifference(h, &Host::x, &Host::dx), worstDifference(h, &Host::h0, &Host::dh0));
    worst = std::max(worst, std::max(worstDifference(h, &Host::wi, &Host::dwi), worstDifference(h, &Host::wo, &Host::dwo)));
    worst = std::max(worst, worstDifference(h, &Host::b, &Host::db));
    if (cfg.attention)
      worst = std::max(worst, worstDifference(h, &Host::att, &Host::datt));
    check(worst < 1e-6, label + ": the host BPTT matches central differences within 1e-6");
  }

  Engine engine(graph, prog);
  engine.load(device);
  write(engine, target, type, "in", h.x);
  write(engine, target, type, "h0", h.h0);
  write(engine, target, type, "wi", h.wi);
  write(engine, target, type, "wo", h.wo);
  write(engine, target, type, "b", h.b);
  write(engine, target, type, "att", h.att);
  write(engine, target, type, "dy", h.dy);
  engine.writeTensor("len", h.len.data(), h.len.data() + h.len.size());
  const std::vector<unsigned> ulenValues(h.len.begin(), h.len.end());
  engine.writeTensor("ulen", ulenValues.data(), ulenValues.data() + ulenValues.size());
  engine.run(0);

  const double tol = type == HALF ? 1e-2 : 1e-4;
  const std::string within = type == HALF ? "within 1e-2" : "within 1e-4";
  Vec wantOut = h.y;
  if (!cfg.fullSequence)
    wantOut.erase(wantOut.begin(), wantOut.end() - B * OUT);
  struct Item {
    const char *handle, *what;
    const Vec *want;
  };
  const Item items[] = {{"out", "output", &wantOut},
                        {"dIn", "input gradient", &h.dx},
                        {"dInit", "initial output gradient", &h.dh0},
                        {"dwi", "input weight gradients", &h.dwi},
                        {"dwo", "output weight gradients", &h.dwo},
                        {"db", "bias gradients", &h.db},
                        {"dAtt", "attention gradients", &h.datt}};
  for (std::size_t k = 0; k < sizeof items / sizeof items[0]; ++k) {
    if (!cfg.attention && std::string(items[k].handle) == "dAtt")
      continue;
    const double err = relativeError(readBack(engine, target, type, items[k].handle, items[k].want->size()),
                                     *items[k].want);
    if (err > tol)
      std::printf("  %s: relative error %g\n", items[k].what, err);
    check(err <= tol, label + ": " + items[k].what + " " + within);
  }
}

// Bad arguments are refused with poplibs_error naming the tensor and the shape it must have.
void checkErrors(const Device &device) {
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;
  gru::GruParams params(FLOAT, B, T, {IN, OUT});
  Tensor in = gru::createInput(graph, params, "in");
  Tensor h0 = gru::createInitialState(graph, params, "h0", {}, 0);
  gru::GruWeights w = gru::createWeights(graph, params, "w");
  Tensor att = gru::createAttention(graph, params, "att");
  check(att.shape() == (std::vector<std::size_t>{B, T}), "createAttention gives {batch, steps}");
  gru::GruParams after = params;
  after.resetAfter = true;
  check(gru::createWeightsBiases(graph, after, "b").shape() == (std::vector<std::size_t>{3, 2, OUT}),
        "resetAfter biases are {3, 2, out}");
  Tensor inter;
  Tensor out = gru::gruFwd(graph, params, h0, in, w, &inter, prog, "fwd");
  Tensor dIn, bwdInter, dAtt;
  std::string m = refusal<poputil::poplibs_error>([&] {
    gru::gruBwd(graph, params, prog, h0, inter, w, in, out, out[0], &dIn, &bwdInter, "bwd", {}, 0);
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "the output gradient must be float {3, 2, 3}"), "gruBwd: a wrong output gradient names the shape");
  m = refusal<poputil::poplibs_error>([&] {
    gru::auGruFwd(graph, params, h0, in, w, 0, att.transpose(), prog, "fwd");
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "the attention scores must be float {2, 3}"), "auGruFwd: scores {steps, batch} are refused");
  m = refusal<poputil::poplibs_error>([&] {
    gru::gruWU(graph, params, prog, h0, inter, inter.slice(0, 2), w, in, out, "wu", {}, 0);
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "the backward intermediates (gruBwd's) must be float {3, 3, 2, 3}"),
        "gruWU: backward intermediates of another length are refused");
  m = refusal<poputil::poplibs_error>([&] {
    gru::gruBwd(graph, after, prog, h0, inter, w, in, out, out, &dIn, 0, "bwd", {}, 0);
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "the biases (resetAfter) must be float {3, 2, 3}"), "gruBwd: resetAfter needs {3, 2, out} biases");
  m = refusal<poputil::poplibs_error>([&] {
    gru::gruBwd(graph, params, prog, h0, inter, w, in, out, out, 0, 0, "bwd", {}, 0);
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "inputGrad must be non-null"), "gruBwd: a null inputGrad with calcInputGradients is refused");
  Tensor badLen = graph.addVariable(FLOAT, {B}, "badLen");
  graph.setTileMapping(badLen, 0);
  m = refusal<poputil::poplibs_error>([&] { gru::gruFwd(graph, params, h0, in, badLen, w, 0, prog, "fwd"); });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "realTimeSteps must be int or unsigned int {2}"), "gruFwd: float realTimeSteps are refused");
  m = refusal<poputil::poplibs_error>([&] {
    gru::auGruBwd(graph, params, prog, h0, inter.slice(0, 2), w, in, out, out, &dIn, 0, att, &dAtt, "bwd", {}, 0);
  });
  std::printf("  message: %s\n", m.c_str());
  check(has(m, "the forward intermediates (gruFwd's, for these params) must be float {3, 3, 2, 3}"),
        "auGruBwd: intermediates of another length are refused");
}

} // namespace

int main() {
  IPUModel tinyModel("ipu2");
  tinyModel.tilesPerIPU = 4;
  Device tiny = tinyModel.createDevice();
  Device ipu2 = IPUModel("ipu2").createDevice();
  checkErrors(tiny);
  // resetAfter, attention, realSteps, fullSequence, permuted, paramSteps
  const Config plain = {false, false, false, true, false, false};
  const Config after = {true, false, false, false, true, false};
  const Config au = {false, true, false, true, false, false};
  const Config auAfter = {true, true, false, true, true, false};
  const Config steps = {false, false, true, true, false, false};
  const Config auStepsAfter = {true, true, true, true, false, false};
  const Config paramSteps = {true, false, true, true, true, true};
  runCase(tiny, "tiny", FLOAT, plain, SPLIT);
  runCase(tiny, "tiny", FLOAT, after, COMBINED);
  runCase(ipu2, "ipu2", FLOAT, plain, COMBINED);
  runCase(ipu2, "ipu2", FLOAT, after, SPLIT);
  runCase(tiny, "tiny", FLOAT, au, SPLIT);
  runCase(ipu2, "ipu2", FLOAT, auAfter, COMBINED);
  runCase(tiny, "tiny", FLOAT, steps, SPLIT);
  runCase(tiny, "tiny", FLOAT, steps, COMBINED);
  runCase(tiny, "tiny", FLOAT, auStepsAfter, SPLIT);
  runCase(ipu2, "ipu2", FLOAT, auStepsAfter, COMBINED);
  runCase(tiny, "tiny", FLOAT, paramSteps, SPLIT);
  runCase(ipu2, "ipu2", HALF, plain, SPLIT);
  runCase(tiny, "tiny", HALF, after, COMBINED);
  runCase(tiny, "tiny", HALF, au, COMBINED);
  runCase(ipu2, "ipu2", HALF, auAfter, SPLIT);
  // A run-time step count needs the full output sequence.
  {
    Graph graph(tiny.getTarget());
    Tensor ulen = graph.addVariable(UNSIGNED_INT, {B}, "ulen");
    gru::GruParams params(FLOAT, B, T, ulen, {IN, OUT});
    params.outputFullSequence = false;
    Tensor in = gru::createInput(graph, params, "in");
    Tensor h0 = gru::createInitialState(graph, params, "h0", {}, 0);
    gru::GruWeights w = gru::createWeights(graph, params, "w");
    Sequence prog;
    const std::string m =
        refusal<poputil::poplibs_error>([&] { gru::gruFwd(graph, params, h0, in, w, 0, prog, "fwd"); });
    std::printf("  message: %s\n", m.c_str());
    check(has(m, "needs params.outputFullSequence = true"), "gruFwd: a timeSteps tensor with the last output only is refused");
  }
  return checksDone("gru training example: all checks passed");
}
