// poplin/MultiConvolution.hpp on a 16-tile IPU Model: two convolutions of different shapes and types (a FLOAT
// grouped one and a HALF one) created, run forward, their weight gradients computed and their weights updated
// with tensor and constant scales, and weights transposed and flipped for a gradient pass, all against a host
// reference of each convolution; the option and index errors.
#include <poplar/exceptions.hpp>
#include <poplin/MultiConvolution.hpp>
#include <poplin/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using poplin::ConvParams;
namespace mc = poplin::multiconv;

namespace {

struct ConvFixture : Fixture {
  ConvFixture() : Fixture(16) { poplin::addCodelets(graph); }
  void put(const Type &t, const std::string &h, const std::vector<float> &v) {
    if (t == HALF)
      writeHalf(h, v);
    else
      write(h, v);
  }
  std::vector<float> get(const Type &t, const std::string &h, std::size_t n) {
    return t == HALF ? readHalf(h, n) : read<float>(h, n);
  }
};

// A 2-D, stride-1, unpadded convolution on the host: in {B, G*Ci, H, W}, w {G, Co, Ci, KH, KW}.
struct HostConv {
  std::size_t B, G, Ci, Co, H, W, KH, KW;
  std::size_t OH() const { return H - KH + 1; }
  std::size_t OW() const { return W - KW + 1; }
  double in(const std::vector<float> &x, std::size_t b, std::size_t g, std::size_t c, std::size_t y,
            std::size_t z) const {
    return x[(((b * G + g) * Ci + c) * H + y) * W + z];
  }
  std::vector<float> fwd(const std::vector<float> &x, const std::vector<float> &w) const {
    std::vector<float> out(B * G * Co * OH() * OW());
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t g = 0; g < G; ++g)
        for (std::size_t co = 0; co < Co; ++co)
          for (std::size_t y = 0; y < OH(); ++y)
            for (std::size_t z = 0; z < OW(); ++z) {
              double s = 0;
              for (std::size_t ci = 0; ci < Ci; ++ci)
                for (std::size_t ky = 0; ky < KH; ++ky)
                  for (std::size_t kx = 0; kx < KW; ++kx)
                    s += in(x, b, g, ci, y + ky, z + kx) * w[(((g * Co + co) * Ci + ci) * KH + ky) * KW + kx];
              out[(((b * G + g) * Co + co) * OH() + y) * OW() + z] = float(s);
            }
    return out;
  }
  // dW[g][co][ci][ky][kx] = sum over b, y, z of dy[b][g*Co+co][y][z] * x[b][g*Ci+ci][y+ky][z+kx].
  std::vector<float> wgrad(const std::vector<float> &dy, const std::vector<float> &x) const {
    std::vector<float> dw(G * Co * Ci * KH * KW);
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t co = 0; co < Co; ++co)
        for (std::size_t ci = 0; ci < Ci; ++ci)
          for (std::size_t ky = 0; ky < KH; ++ky)
            for (std::size_t kx = 0; kx < KW; ++kx) {
              double s = 0;
              for (std::size_t b = 0; b < B; ++b)
                for (std::size_t y = 0; y < OH(); ++y)
                  for (std::size_t z = 0; z < OW(); ++z)
                    s += double(dy[(((b * G + g) * Co + co) * OH() + y) * OW() + z]) * in(x, b, g, ci, y + ky, z + kx);
              dw[(((g * Co + co) * Ci + ci) * KH + ky) * KW + kx] = float(s);
            }
    return dw;
  }
};

ConvParams paramsOf(const Type &t, const HostConv &h) {
  return ConvParams(t, h.B, {h.H, h.W}, {h.KH, h.KW}, h.Ci, h.Co, h.G);
}

const HostConv kA = {2, 2, 3, 2, 5, 6, 3, 2}; // FLOAT, two groups
const HostConv kB = {1, 1, 4, 3, 4, 4, 2, 2}; // HALF

// Forward and weight gradients of both convolutions; HALF values are small integers and halves, so that every
// product and sum is exact in half and float partials (the HALF results are compared after rounding to half).
void test_forward_and_gradients(void **) {
  ConvFixture f;
  poplin::PlanningCache cache;
  std::vector<mc::CreateTensorArgs> create = {{paramsOf(FLOAT, kA), {}, "a"}, {paramsOf(HALF, kB), {}, "b"}};
  Tensor ia = mc::createInput(f.graph, create, 0, {}, &cache), ib = mc::createInput(f.graph, create, 1, {}, &cache);
  Tensor wa = mc::createWeights(f.graph, create, 0, {}, &cache), wb = mc::createWeights(f.graph, create, 1, {}, &cache);
  assert_true(ib.elementType() == HALF && wb.elementType() == HALF);
  std::vector<mc::ConvolutionArgs> convs = {{ia, wa, create[0].params, {}}, {ib, wb, create[1].params, {}}};
  std::vector<Tensor> out = mc::convolution(f.graph, convs, false, f.prog, "mc", {{"planType", "parallel"}}, &cache);
  assert_int_equal(out.size(), 2);
  std::vector<mc::CalculateWeightDeltasArgs> grads = {{out[0], ia, create[0].params, {}},
                                                      {out[1], ib, create[1].params, {}}};
  std::vector<Tensor> dw = mc::calculateWeightDeltas(f.graph, grads, f.prog, "wd", {}, &cache);
  assert_int_equal(dw.size(), 2);
  f.graph.createHostWrite("ia", ia);
  f.graph.createHostWrite("ib", ib);
  f.graph.createHostWrite("wa", wa);
  f.graph.createHostWrite("wb", wb);
  f.readable(out[0], "oa");
  f.readable(out[1], "ob");
  f.readable(dw[0], "da");
  f.readable(dw[1], "db");
  f.build();
  auto xa = floats(ia.numElements(), 1), pa = floats(wa.numElements(), 2);
  auto xb = floats(ib.numElements(), 3), pb = floats(wb.numElements(), 4);
  f.put(FLOAT, "ia", xa);
  f.put(FLOAT, "wa", pa);
  f.put(HALF, "ib", xb);
  f.put(HALF, "wb", pb);
  f.engine->run(0);
  auto ya = kA.fwd(xa, pa), yb = kB.fwd(xb, pb);
  expectNear(f.get(FLOAT, "oa", ya.size()), ya, "multiconv fwd float", 1e-5f);
  expectNear(f.get(HALF, "ob", yb.size()), f.rh(yb), "multiconv fwd half", kHalfTol);
  // The gradient pass took the device's outputs (yb in half) as zDeltas.
  expectNear(f.get(FLOAT, "da", pa.size()), kA.wgrad(ya, xa), "multiconv weight deltas float", 1e-5f);
  expectNear(f.get(HALF, "db", pb.size()), f.rh(kB.wgrad(f.rh(yb), xb)), "multiconv weight deltas half", kHalfTol);
}

// Weight updates with a tensor scale and a constant scale: w += scale * dW.
void test_weight_update(void **) {
  ConvFixture f;
  std::vector<mc::CreateTensorArgs> create = {{paramsOf(FLOAT, kA), {}, "a"}, {paramsOf(HALF, kB), {}, "b"}};
  Tensor ia = mc::createInput(f.graph, create, 0), ib = mc::createInput(f.graph, create, 1);
  Tensor wa = mc::createWeights(f.graph, create, 0), wb = mc::createWeights(f.graph, create, 1);
  Tensor dya = f.var(FLOAT, {kA.B, kA.G * kA.Co, kA.OH(), kA.OW()}, "dya");
  Tensor dyb = f.var(HALF, {kB.B, kB.G * kB.Co, kB.OH(), kB.OW()}, "dyb");
  Tensor scale = f.graph.addConstant(FLOAT, {}, -0.5f);
  f.graph.setTileMapping(scale, 0);
  std::vector<mc::ConvWeightUpdateArgs> t = {{dya, wa, ia, scale, create[0].params, {}}};
  std::vector<mc::ConvWeightUpdateArgsScalar> s = {{dyb, wb, ib, 0.25f, create[1].params, {}}};
  mc::convolutionWeightUpdate(f.graph, t, f.prog, "wu");
  mc::convolutionWeightUpdate(f.graph, s, f.prog, "wus");
  for (auto p : {std::make_pair(ia, "ia"), std::make_pair(ib, "ib"), std::make_pair(wa, "wa"),
                 std::make_pair(wb, "wb")}) {
    f.graph.createHostWrite(p.second, p.first);
    f.graph.createHostRead(std::string(p.second) + ".r", p.first);
  }
  f.build();
  auto xa = floats(ia.numElements(), 1), pa = floats(wa.numElements(), 2), ga = floats(dya.numElements(), 5);
  auto xb = floats(ib.numElements(), 3), pb = floats(wb.numElements(), 4), gb = floats(dyb.numElements(), 6);
  f.put(FLOAT, "ia", xa);
  f.put(FLOAT, "wa", pa);
  f.put(FLOAT, "dya", ga);
  f.put(HALF, "ib", xb);
  f.put(HALF, "wb", pb);
  f.put(HALF, "dyb", gb);
  f.engine->run(0);
  auto da = kA.wgrad(ga, xa), db = kB.wgrad(gb, xb);
  for (std::size_t i = 0; i < pa.size(); ++i)
    pa[i] += -0.5f * da[i];
  for (std::size_t i = 0; i < pb.size(); ++i)
    pb[i] = f.rh(pb[i] + 0.25f * db[i]);
  expectNear(f.get(FLOAT, "wa.r", pa.size()), pa, "multiconv weight update (tensor scale)", 1e-5f);
  expectNear(f.get(HALF, "wb.r", pb.size()), pb, "multiconv weight update (constant scale)", kHalfTol);
}

// weightsTransposeChansFlipXY over a list: out[g][ci][co][ky][kx] = in[g][co][ci][KH-1-ky][KW-1-kx].
void test_transpose_flip(void **) {
  ConvFixture f;
  const HostConv &h = kA;
  Tensor in = f.var(FLOAT, {h.G, h.Co, h.Ci, h.KH, h.KW}, "win");
  Tensor outW = f.var(FLOAT, {h.G, h.Ci, h.Co, h.KH, h.KW}, "wout");
  std::vector<mc::ConvolutionArgs> args = {{Tensor(), outW, paramsOf(FLOAT, h), {}}};
  mc::weightsTransposeChansFlipXY(f.graph, args, {in}, f.prog, {}, "flip", 0);
  f.build();
  auto v = floats(in.numElements(), 9);
  f.write("win", v);
  f.engine->run(0);
  std::vector<float> want(v.size());
  for (std::size_t g = 0; g < h.G; ++g)
    for (std::size_t co = 0; co < h.Co; ++co)
      for (std::size_t ci = 0; ci < h.Ci; ++ci)
        for (std::size_t y = 0; y < h.KH; ++y)
          for (std::size_t x = 0; x < h.KW; ++x)
            want[(((g * h.Ci + ci) * h.Co + co) * h.KH + y) * h.KW + x] =
                v[(((g * h.Co + co) * h.Ci + ci) * h.KH + (h.KH - 1 - y)) * h.KW + (h.KW - 1 - x)];
  expectNear(f.read<float>("wout.r", want.size()), want, "multiconv transpose and flip");
}

void test_errors(void **) {
  ConvFixture f;
  std::vector<mc::CreateTensorArgs> create = {{paramsOf(FLOAT, kA), {}, "a"}};
  expectThrow<poputil::poplibs_error>([&] { mc::createWeights(f.graph, create, 1); }, "past the 1");
  expectThrow<poplar::invalid_option>([&] { mc::createInput(f.graph, create, 0, {{"planType", "x"}}); }, "planType");
  expectThrow<poplar::invalid_option>([&] { mc::createInput(f.graph, create, 0, {{"cycleBackOff", "2"}}); },
                                      "cycleBackOff");
  expectThrow<poplar::invalid_option>([&] { mc::createInput(f.graph, create, 0, {{"bogus", "1"}}); }, "bogus");
  // Entries of one multi-convolution must agree on insertTransformsCycleCountProgs (each accepts it).
  {
    Tensor in = mc::createInput(f.graph, create, 0), w = mc::createWeights(f.graph, create, 0);
    const std::vector<mc::ConvolutionArgs> mixed = {
        {in, w, paramsOf(FLOAT, kA), {{"insertTransformsCycleCountProgs", "true"}}},
        {in, w, paramsOf(FLOAT, kA), {{"insertTransformsCycleCountProgs", "false"}}}};
    expectThrow<poputil::poplibs_error>([&] { mc::convolution(f.graph, mixed, false, f.prog, "mixed"); },
                                        "insertTransformsCycleCountProgs is 'true' for convolution 0");
  }
  std::vector<mc::ConvolutionArgs> args(2);
  expectThrow<poputil::poplibs_error>(
      [&] { mc::weightsTransposeChansFlipXY(f.graph, args, {}, f.prog, {}, "x", 0); }, "0 input weights for 2");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_forward_and_gradients),
      cmocka_unit_test(test_weight_update),
      cmocka_unit_test(test_transpose_flip),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
