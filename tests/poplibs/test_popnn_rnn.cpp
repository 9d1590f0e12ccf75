// popnn/Rnn.hpp on a 16-tile IPU Model: an Elman cell h = tanh(x W + h U) driven by rnn::Rnn() against a host
// recurrence in double: forward in FLOAT with outputs, a created sequence and a state sequence; reverse in HALF;
// per-batch run-time step counts with the batchwise mask; the gather overload; shiftRnnTensor; the sizes
// reported by RnnParams; and the errors.
#include <cmath>

#include <poplar/exceptions.hpp>

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Rnn.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;
namespace rnn = popnn::rnn;
namespace pe = popops::expr;
using program::Copy;
using program::Sequence;

namespace {

const std::size_t T = 4, B = 2, I = 3, O = 5;

struct HostRun {
  std::vector<float> pre, out, last; // [T, B, O] pre-activations and states per step; the final state [B, O]
};

// The cell's pre-activation (x_t W + h U)[b][j] in double.
double preact(const std::vector<float> &x, const std::vector<double> &h, const std::vector<float> &w,
              const std::vector<float> &u, std::size_t t, std::size_t b, std::size_t j) {
  double s = 0;
  for (std::size_t i = 0; i < I; ++i)
    s += double(x[(t * B + b) * I + i]) * w[i * O + j];
  for (std::size_t i = 0; i < O; ++i)
    s += h[b * O + i] * u[i * O + j];
  return s;
}

// The host cell over the steps in `order`; batch entry b only steps while the step is below len[b].
HostRun hostRnn(const std::vector<float> &x, const std::vector<float> &h0, const std::vector<float> &w,
                const std::vector<float> &u, bool reverse, const std::vector<unsigned> &len) {
  std::vector<double> h(h0.begin(), h0.end());
  HostRun r;
  r.pre.assign(T * B * O, 0);
  r.out.assign(T * B * O, 0);
  for (std::size_t k = 0; k < T; ++k) {
    const std::size_t t = reverse ? T - 1 - k : k;
    std::vector<double> nh = h;
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t j = 0; j < O; ++j) {
        const double s = preact(x, h, w, u, t, b, j);
        r.pre[(t * B + b) * O + j] = float(s);
        if (t < len[b])
          nh[b * O + j] = std::tanh(s);
      }
    h = nh;
    for (std::size_t e = 0; e < B * O; ++e)
      r.out[t * B * O + e] = float(h[e]);
  }
  r.last.assign(h.begin(), h.end());
  return r;
}

// One step of the cell: pre = x W + h U, h = tanh(pre) (or, with a mask, only for the entries still running).
Sequence cell(Graph &graph, const Tensor &w, const Tensor &u, const rnn::RnnBatchwiseFlags &flags,
              std::vector<Tensor> &state, const rnn::RnnSlice &slice, std::vector<Tensor> &created) {
  Sequence s;
  Tensor h = state[0][0];
  Tensor pre = poplin::matMul(graph, slice.inputs[0], w, s, "xw");
  popops::addInPlace(graph, pre, poplin::matMul(graph, h, u, s, "hu"), s);
  Tensor next = popops::tanh(graph, pre, s);
  if (flags.valid()) {
    const Tensor m = flags.mask.expand({1}).broadcast(O, 1), inv = flags.inverse.expand({1}).broadcast(O, 1);
    next = popops::map(graph, pe::_1 * pe::_2 + pe::_3 * pe::_4, {m, next, inv, h}, s);
  }
  s.add(Copy(next, h));
  if (!slice.outputs.empty())
    s.add(Copy(next, slice.outputs[0][0]));
  if (!created.empty())
    created[0] = pre;
  return s;
}

// Host values of the inputs, written to the handles x, h0, w, u (rounded to half for HALF).
struct Inputs {
  std::vector<float> x = scaled(T * B * I, 1, 0.25f), h0 = scaled(B * O, 2, 0.25f), w = scaled(I * O, 3, 0.125f),
                     u = scaled(O * O, 4, 0.125f);
  void put(NnFixture &f, const Type &type) {
    for (auto *p : {&x, &h0, &w, &u})
      if (type == HALF)
        *p = f.rh(*p);
    const char *names[] = {"x", "h0", "w", "u"};
    std::vector<float> *vals[] = {&x, &h0, &w, &u};
    for (int i = 0; i < 4; ++i) {
      if (type == HALF)
        f.writeHalf(names[i], *vals[i]);
      else
        f.write(names[i], *vals[i]);
    }
  }
};

struct Layer {
  Tensor x, h0, w, u;
};

Layer layer(NnFixture &f, const rnn::RnnParams &p) {
  Layer l;
  l.x = rnn::createInputTensor(f.graph, p, 1, "x");
  l.h0 = rnn::createInitialState(f.graph, p, true, 1, 1, "h0");
  l.w = f.var(p.dataType, {I, O}, "w");
  l.u = f.var(p.dataType, {O, O}, "u");
  f.graph.createHostWrite("x", l.x);
  f.graph.createHostWrite("h0", l.h0);
  return l;
}

std::vector<float> readAs(NnFixture &f, const Type &type, const char *h, std::size_t n) {
  return type == HALF ? f.readHalf(h, n) : f.read<float>(h, n);
}

// Fixed steps: the output, the created pre-activations, the state sequence and the final state.
void check(const Type &type, bool reverse, float tol) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  rnn::RnnParams p(type, B, T, {I, O});
  Layer l = layer(f, p);
  assert_true(l.x.shape() == (std::vector<std::size_t>{T, B, I}));
  assert_true(l.h0.shape() == (std::vector<std::size_t>{1, B, O}));
  Tensor out = rnn::createOutputTensor(f.graph, p, 1, "out");
  Tensor pre = rnn::createRecurrentTensor(f.graph, p, O, 1, "pre");
  Tensor states = rnn::createOutputTensor(f.graph, p, 1, 1, "states");
  OptionFlags opts{{"codeReuse", "true"}};
  rnn::LoopBodyType body = [&](Graph &g, const rnn::TimeStepState &time, const rnn::RnnBatchwiseFlags &flags,
                               std::vector<Tensor> &state, const rnn::RnnSlice &slice,
                               std::vector<Tensor> &created, Sequence *init, const DebugNameAndId &) {
    assert_true(time.begin.valid() && time.counter.valid() && !time.variableSeqFlag.valid());
    assert_true(init != nullptr);
    assert_true(slice.outputs[0].shape() == (std::vector<std::size_t>{1, B, O}));
    return cell(g, l.w, l.u, flags, state, slice, created);
  };
  std::vector<Tensor> last = rnn::Rnn(f.graph, p, reverse, {l.h0}, {states, 0}, {l.x}, nullptr, nullptr, {out},
                                      {pre}, f.prog, body, 1, opts, "rnn");
  assert_int_equal(last.size(), 1);
  f.readable(out, "out");
  f.readable(pre, "pre");
  f.readable(states, "states");
  f.readable(last[0], "last");
  f.build();
  Inputs in;
  in.put(f, type);
  f.engine->run(0);
  HostRun want = hostRnn(in.x, in.h0, in.w, in.u, reverse, {T, T});
  expectNear(readAs(f, type, "out", T * B * O), want.out, "outputs", tol);
  expectNear(readAs(f, type, "states", T * B * O), want.out, "state sequence", tol);
  expectNear(readAs(f, type, "pre", T * B * O), want.pre, "created pre-activations", tol);
  expectNear(readAs(f, type, "last", B * O), want.last, "final state", tol);
}

// FLOAT: sums of 8 products below 1 through tanh; 1e-5 covers float rounding.
void test_forward_float(void **) { check(FLOAT, false, 1e-5f); }
// HALF: each step rounds the state to half (about 1e-3 relative); 4 steps stay within 1e-2.
void test_reverse_half(void **) { check(HALF, true, 1e-2f); }

// Run-time per-batch counts {3, 1} of at most 4 steps: the loop stops after 3 steps (step 3 of the output keeps
// its zeros) and the mask holds batch entry 1 after its first step.
void test_variable_steps(void **) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  Tensor steps = f.graph.addVariable(UNSIGNED_INT, {B}, "steps");
  f.graph.setTileMapping(steps, 0);
  f.graph.createHostWrite("steps", steps);
  rnn::RnnParams p(FLOAT, B, T, steps, {I, O});
  assert_true(p.variableTimeSteps() && p.batchVariableTimeSteps());
  Layer l = layer(f, p);
  Tensor out = rnn::createOutputTensor(f.graph, p, 1, "out");
  f.graph.createHostWrite("out", out);
  OptionFlags opts;
  unsigned sawFlag = 0;
  rnn::LoopBodyType body = [&](Graph &g, const rnn::TimeStepState &time, const rnn::RnnBatchwiseFlags &flags,
                               std::vector<Tensor> &state, const rnn::RnnSlice &slice,
                               std::vector<Tensor> &created, Sequence *, const DebugNameAndId &) {
    sawFlag += time.variableSeqFlag.valid() && flags.valid();
    return cell(g, l.w, l.u, flags, state, slice, created);
  };
  std::vector<Tensor> last =
      rnn::Rnn(f.graph, p, false, {l.h0}, {}, {l.x}, nullptr, nullptr, {out}, {}, f.prog, body, 1, opts, "rnn");
  assert_int_equal(sawFlag, 1);
  f.readable(out, "out.r");
  f.readable(last[0], "last");
  f.build();
  Inputs in;
  in.put(f, FLOAT);
  const std::vector<unsigned> len{3, 1};
  f.write("steps", len);
  f.write("out", std::vector<float>(T * B * O, 0.0f));
  f.engine->run(0);
  HostRun want = hostRnn(in.x, in.h0, in.w, in.u, false, len);
  std::fill(want.out.begin() + 3 * B * O, want.out.end(), 0.0f);
  expectNear(f.read<float>("out.r", T * B * O), want.out, "variable-step outputs", 1e-5f);
  expectNear(f.read<float>("last", B * O), want.last, "variable-step final state", 1e-5f);
}

// The gather overload, 5 steps gathered 2 at a time (then the first step alone): the temporaries are the states,
// and the gathers sum them and the gathered inputs; the sums cover every step once.
void test_gather(void **) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  const std::size_t T5 = 5;
  rnn::RnnParams p(FLOAT, B, T5, {I, O});
  Tensor x = rnn::createInputTensor(f.graph, p, 1, "x"), h0 = rnn::createInitialState(f.graph, p, true, 1, 1);
  Tensor w = f.var(FLOAT, {I, O}, "w"), u = f.var(FLOAT, {O, O}, "u");
  f.graph.createHostWrite("x", x);
  f.graph.createHostWrite("h0", h0);
  Tensor sumH = f.var(FLOAT, {B, O}, "sumH"), sumX = f.var(FLOAT, {I}, "sumX");
  OptionFlags opts;
  rnn::LoopBodyType body = [&](Graph &g, const rnn::TimeStepState &, const rnn::RnnBatchwiseFlags &flags,
                               std::vector<Tensor> &state, const rnn::RnnSlice &slice, std::vector<Tensor> &created,
                               Sequence *, const DebugNameAndId &) {
    Sequence s = cell(g, w, u, flags, state, slice, created);
    s.add(Copy(state[0], slice.interimOut));
    return s;
  };
  std::vector<unsigned> calls;
  rnn::GatherBodyType gather = [&](Graph &g, const rnn::RnnSlice &slice, unsigned n, Sequence *,
                                   const DebugNameAndId &) {
    calls.push_back(n);
    assert_true(slice.interimIn.shape() == (std::vector<std::size_t>{n, B, O}));
    assert_true(slice.inputs[0].shape() == (std::vector<std::size_t>{n * B, I}));
    Sequence s;
    popops::addInPlace(g, sumH, popops::reduce(g, slice.interimIn, {0}, {popops::Operation::ADD}, s), s);
    popops::addInPlace(g, sumX, popops::reduce(g, slice.inputs[0], {0}, {popops::Operation::ADD}, s), s);
    return s;
  };
  Tensor none;
  std::vector<Tensor> last =
      rnn::Rnn(f.graph, p, {h0}, {}, {x}, none, 1, f.prog, body, {x}, gather, 1, 2, opts, "rnn");
  assert_true(calls == (std::vector<unsigned>{2, 1}));
  f.readable(last[0], "last");
  f.build();
  std::vector<float> xs = scaled(T5 * B * I, 1, 0.25f), hs = scaled(B * O, 2, 0.25f);
  std::vector<float> ws = scaled(I * O, 3, 0.125f), us = scaled(O * O, 4, 0.125f);
  f.write("x", xs);
  f.write("h0", hs);
  f.write("w", ws);
  f.write("u", us);
  f.write("sumH", std::vector<float>(B * O, 0.0f));
  f.write("sumX", std::vector<float>(I, 0.0f));
  f.engine->run(0);
  // The host: reverse steps 4 .. 0, summing every state after its step and every input.
  std::vector<double> h(hs.begin(), hs.end());
  std::vector<float> wantH(B * O, 0), wantX(I, 0);
  for (std::size_t k = 0; k < T5; ++k) {
    const std::size_t t = T5 - 1 - k;
    std::vector<double> nh(B * O);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t j = 0; j < O; ++j) {
        nh[b * O + j] = std::tanh(preact(xs, h, ws, us, t, b, j));
      }
    h = nh;
    for (std::size_t e = 0; e < B * O; ++e)
      wantH[e] += float(h[e]);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t i = 0; i < I; ++i)
        wantX[i] += xs[(t * B + b) * I + i];
  }
  expectNear(f.read<float>("sumH.r", B * O), wantH, "gathered states", 1e-5f);
  expectNear(f.read<float>("sumX.r", I), wantX, "gathered inputs", 1e-5f);
  expectNear(f.read<float>("last", B * O), std::vector<float>(h.begin(), h.end()), "gather final state", 1e-5f);
}

// shiftRnnTensor: step 0 from tSingle, step n from step n - 1 of the base; two rows per step.
void test_shift(void **) {
  NnFixture f(16);
  rnn::RnnParams p(FLOAT, B, T, {I, O});
  Tensor base = rnn::createOutputTensor(f.graph, p, 2, 1, "base");
  assert_true(base.shape() == (std::vector<std::size_t>{2 * T, B, O}));
  Tensor single = rnn::createInitialState(f.graph, p, true, 2, 1, "single");
  f.graph.createHostWrite("base", base);
  f.graph.createHostWrite("single", single);
  Tensor shifted = rnn::shiftRnnTensor(f.graph, p, base, single, f.prog, 1, "shift");
  f.readable(shifted, "shifted");
  f.build();
  const std::size_t step = 2 * B * O;
  std::vector<float> b = floats(T * step, 5), s = floats(step, 6);
  f.write("base", b);
  f.write("single", s);
  f.engine->run(0);
  std::vector<float> want(s);
  want.insert(want.end(), b.begin(), b.end() - step);
  expectNear(f.read<float>("shifted", T * step), want, "shifted", 0.0f);
}

// The figures of RnnParams on 16 tiles: 2 × 5 elements in grains of 1 use 10 tiles, so one shard fits; an input
// of 2 × 3 floats takes one grain (4 bytes) per tile; 2 × 32 halves in 16-element grains take 2 bytes × 16.
void test_params(void **) {
  NnFixture f(16);
  rnn::RnnParams p(FLOAT, B, T, {I, O});
  assert_false(p.variableTimeSteps());
  assert_int_equal(p.getMaxShards(f.graph), 1);
  assert_int_equal(p.getInputBytesPerTile(f.graph), 4);
  rnn::RnnParams wide(HALF, 2, 8, {32, 1});
  assert_int_equal(wide.getInputBytesPerTile(f.graph), 32);
  assert_int_equal(wide.getMaxShards(f.graph), 4);
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor bad = f.graph.addVariable(UNSIGNED_INT, {3}, "bad");
  expectThrow<poputil::poplibs_error>([&] { rnn::RnnParams(FLOAT, B, T, bad, {I, O}); }, "varTimeSteps");
  rnn::RnnParams p(FLOAT, B, T, {I, O});
  expectThrow<poputil::poplibs_error>([&] { rnn::createInputTensor(f.graph, p, 0); }, "numShards");
  Tensor x = rnn::createInputTensor(f.graph, p, 1), h0 = rnn::createInitialState(f.graph, p, true, 1, 1);
  OptionFlags opts;
  rnn::LoopBodyType body = [](Graph &, const rnn::TimeStepState &, const rnn::RnnBatchwiseFlags &,
                              std::vector<Tensor> &, const rnn::RnnSlice &, std::vector<Tensor> &, Sequence *,
                              const DebugNameAndId &) { return Sequence(); };
  expectThrow<poputil::poplibs_error>(
      [&] { rnn::Rnn(f.graph, p, false, {h0}, {}, {x.slice(0, 2)}, nullptr, nullptr, {}, {}, f.prog, body, 1, opts); },
      "an input has shape");
  expectThrow<poputil::poplibs_error>(
      [&] { rnn::Rnn(f.graph, p, false, {h0}, {}, {x}, nullptr, nullptr, {}, {x}, f.prog, body, 1, opts); },
      "left the step's created tensor unset");
  OptionFlags bogus{{"bogus", "1"}};
  expectThrow<poplar::invalid_option>(
      [&] { rnn::Rnn(f.graph, p, false, {h0}, {}, {x}, nullptr, nullptr, {}, {}, f.prog, body, 1, bogus); }, "bogus");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_forward_float), cmocka_unit_test(test_reverse_half), cmocka_unit_test(test_variable_steps),
      cmocka_unit_test(test_gather),        cmocka_unit_test(test_shift),        cmocka_unit_test(test_params),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
