// poplin's convolution against a host reference on a 16-tile IPU Model: plain, strided and padded, dilated
// (input and kernel), flipped, grouped and batched 2-D convolutions, output truncation and padding, a 1-D one,
// HALF ones with float and with half partials (each built from poplin's nx1 vertices, checked in the graph profile);
// the weight gradient (calculateWeightDeltas, convolutionWeightUpdate) and the input gradient (getGradientParams
// with transposed and flipped weights); biases (addBias, convolutionBiasUpdate); weightsTransposeChansFlipXY;
// the plan report and cache; the argument and option errors.
#include <sstream>
#include <string>

#include <poplar/exceptions.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using poplin::ConvParams;

namespace {

struct ConvFixture : Fixture {
  ConvFixture() : Fixture(16) { poplin::addCodelets(graph); }
};

// One dimension of an input transform applied to `v` (a line of the field).
std::vector<double> transform1(const std::vector<double> &v, unsigned tl, unsigned tu, unsigned dil, unsigned pl,
                               unsigned pu, bool flip) {
  std::vector<double> t(v.begin() + tl, v.end() - tu), out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i)
      out.insert(out.end(), dil - 1, 0.0);
    out.push_back(t[i]);
  }
  out.insert(out.begin(), pl, 0.0);
  out.insert(out.end(), pu, 0.0);
  if (flip)
    std::reverse(out.begin(), out.end());
  return out;
}

// A field {dims} (1-D or 2-D) transformed dimension by dimension; `dims` is updated.
std::vector<double> transformField(const std::vector<double> &f, std::vector<std::size_t> &dims,
                                   const ConvParams::InputTransform &t) {
  std::vector<double> cur = f;
  std::size_t H = dims[0], W = dims.size() > 1 ? dims[1] : 1;
  // dimension 0: columns of the H x W field
  std::vector<double> next;
  std::size_t H2 = 0;
  for (std::size_t x = 0; x < W; ++x) {
    std::vector<double> col(H);
    for (std::size_t y = 0; y < H; ++y)
      col[y] = cur[y * W + x];
    auto c = transform1(col, t.truncationLower[0], t.truncationUpper[0], t.dilation[0], t.paddingLower[0],
                        t.paddingUpper[0], t.flip[0]);
    H2 = c.size();
    next.resize(H2 * W);
    for (std::size_t y = 0; y < H2; ++y)
      next[y * W + x] = c[y];
  }
  H = H2;
  cur = next;
  if (dims.size() > 1) {
    std::size_t W2 = 0;
    next.clear();
    for (std::size_t y = 0; y < H; ++y) {
      std::vector<double> row(cur.begin() + y * W, cur.begin() + (y + 1) * W);
      auto r = transform1(row, t.truncationLower[1], t.truncationUpper[1], t.dilation[1], t.paddingLower[1],
                          t.paddingUpper[1], t.flip[1]);
      W2 = r.size();
      next.insert(next.end(), r.begin(), r.end());
    }
    W = W2;
    cur = next;
    dims = {H, W};
  } else {
    dims = {H};
  }
  return cur;
}

// The forward convolution on the host: in {B, G*Ci, field}, w {G, Co, Ci, kernel} -> {B, G*Co, outField}.
std::vector<float> hostConv(const ConvParams &p, const std::vector<float> &in, const std::vector<float> &w) {
  const std::size_t G = p.numConvGroups, Ci = p.inputChannels, Co = p.outputChannels, B = p.batchSize;
  const bool twoD = p.getNumFieldDims() == 2;
  const std::size_t inField = p.inputFieldShape[0] * (twoD ? p.inputFieldShape[1] : 1);
  const std::size_t kField = p.kernelShape[0] * (twoD ? p.kernelShape[1] : 1);
  std::vector<std::size_t> outShape = p.getOutputFieldShape();
  const std::size_t OH = outShape[0], OW = twoD ? outShape[1] : 1;
  std::vector<float> out(B * G * Co * OH * OW, 0.0f);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t co = 0; co < Co; ++co) {
        std::vector<double> acc;
        std::size_t UH = 0, UW = 0;
        for (std::size_t ci = 0; ci < Ci; ++ci) {
          std::vector<std::size_t> xd = p.inputFieldShape, kd = p.kernelShape;
          const float *xp = &in[((b * G + g) * Ci + ci) * inField];
          const float *wp = &w[((g * Co + co) * Ci + ci) * kField];
          auto x = transformField(std::vector<double>(xp, xp + inField), xd, p.inputTransform);
          auto k = transformField(std::vector<double>(wp, wp + kField), kd, p.kernelTransform);
          const std::size_t XH = xd[0], XW = twoD ? xd[1] : 1, KH = kd[0], KW = twoD ? kd[1] : 1;
          UH = XH - KH + 1, UW = XW - KW + 1;
          acc.resize(UH * UW, 0.0);
          for (std::size_t y = 0; y < UH; ++y)
            for (std::size_t z = 0; z < UW; ++z)
              for (std::size_t ky = 0; ky < KH; ++ky)
                for (std::size_t kx = 0; kx < KW; ++kx)
                  acc[y * UW + z] += x[(y + ky) * XW + z + kx] * k[ky * KW + kx];
        }
        // Output transform: truncation, stride, padding.
        const auto &ot = p.outputTransform;
        for (std::size_t oy = 0; oy < OH; ++oy)
          for (std::size_t ox = 0; ox < OW; ++ox) {
            long y = long(oy) - long(ot.paddingLower[0]), z = twoD ? long(ox) - long(ot.paddingLower[1]) : 0;
            long ny = long(OH) - long(ot.paddingLower[0] + ot.paddingUpper[0]);
            long nz = twoD ? long(OW) - long(ot.paddingLower[1] + ot.paddingUpper[1]) : 1;
            double v = 0;
            if (y >= 0 && y < ny && z >= 0 && z < nz) {
              std::size_t uy = ot.truncationLower[0] + y * ot.stride[0];
              std::size_t uz = twoD ? ot.truncationLower[1] + z * ot.stride[1] : 0;
              v = acc[uy * UW + uz];
            }
            out[((b * G + g) * Co + co) * OH * OW + oy * OW + ox] = float(v);
          }
      }
  return out;
}

std::vector<std::size_t> actShape(const ConvParams &p, std::size_t chans, std::vector<std::size_t> field) {
  std::vector<std::size_t> s = {p.batchSize, chans * p.numConvGroups};
  s.insert(s.end(), field.begin(), field.end());
  return s;
}

// Whether the compiled graph holds a vertex of class `type` (the graph profile's vertex types): the forward
// convolutions here are small enough for poplin's nx1 vertices (ConvPartialnx1), which read the input field straight,
// rather than the im2col product (MatMul).
bool hasVertexType(poplar::Engine &engine, const std::string &type) {
  const poplar::ProfileValue profile = engine.getGraphProfile();
  for (const auto &name : profile["vertexTypes"]["names"].asVector())
    if (name.asString() == type)
      return true;
  return false;
}

// Builds and runs the forward convolution of `p` on the device and checks it against hostConv.
void checkForward(const ConvParams &p, const char *what) {
  ConvFixture f;
  poplin::PlanningCache cache;
  Tensor in = poplin::createInput(f.graph, p, "in", {}, &cache);
  Tensor w = poplin::createWeights(f.graph, p, "w", {}, &cache);
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("w", w);
  Tensor out = poplin::convolution(f.graph, in, w, p, false, f.prog, what, {}, &cache);
  assert_true(out.shape() == actShape(p, p.outputChannels, p.getOutputFieldShape()));
  f.readable(out, "out");
  f.build();
  auto hin = floats(in.numElements(), 1), hw = floats(w.numElements(), 2);
  f.write("in", hin);
  f.write("w", hw);
  f.engine->run(0);
  expectNear(f.read<float>("out", out.numElements()), hostConv(p, hin, hw), what, 1e-4f);
  assert_true(hasVertexType(*f.engine, "poplin::ConvPartialnx1<float, float>"));
  assert_false(hasVertexType(*f.engine, "poplin::MatMul<float, float>"));
}

// createConvOutput and convolutionWithOutput (stride and padding, so that the output padding is zeroed into the
// given tensor), and convolutionValidateOptions.
void test_with_output(void **) {
  ConvParams p(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 1);
  p.inputTransform.paddingLower = {1, 0};
  p.outputTransform.stride = {2, 1};
  p.outputTransform.paddingUpper = {0, 1};
  ConvFixture f;
  Tensor in = poplin::createInput(f.graph, p, "in");
  Tensor w = poplin::createWeights(f.graph, p, "w");
  Tensor out = poplin::createConvOutput(f.graph, p, "out");
  assert_true(out.shape() == actShape(p, p.outputChannels, p.getOutputFieldShape()));
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("w", w);
  f.graph.createHostWrite("out", out);
  f.readable(out, "out.r");
  poplin::convolutionWithOutput(f.graph, in, w, out, p, false, f.prog, "withOutput");
  f.build();
  auto hin = floats(in.numElements(), 1), hw = floats(w.numElements(), 2);
  f.write("in", hin);
  f.write("w", hw);
  f.write("out", std::vector<float>(out.numElements(), 99.0f)); // the padding must be overwritten with zeros
  f.engine->run(0);
  expectNear(f.read<float>("out.r", out.numElements()), hostConv(p, hin, hw), "convolutionWithOutput", 1e-4f);
  poplin::convolutionValidateOptions({{"pass", "TRAINING_FWD"}, {"partialsType", "half"}});
  expectThrow<poplar::invalid_option>([] { poplin::convolutionValidateOptions({{"pass", "SIDEWAYS"}}); }, "SIDEWAYS");
  expectThrow<poplar::invalid_option>([] { poplin::convolutionValidateOptions({{"nope", "1"}}); }, "nope");
  Tensor small = f.graph.addVariable(FLOAT, {1, 1});
  expectThrow<poputil::poplibs_error>(
      [&] { poplin::convolutionWithOutput(f.graph, in, w, small, p, false, f.prog); }, "the output");
}

// The flops against a direct count over every (output, kernel) position pair of hostConv's transformed fields.
void test_flops(void **) {
  ConvParams plain(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 2);
  assert_int_equal(poplin::getFwdFlops(plain), 2ull * 2 * 2 * 3 * 4 * (4 * 3) * (3 * 3));
  // 1-D: input 5 padded by 1 each side (7 positions, 5 real), kernel 3 dilated by 2 (5 positions, 3 real),
  // computed outputs 7 - 5 + 1 = 3, stride 2 keeps outputs 0 and 2. Output 0 reads x[0, 2, 4]: real 2, 4 (pad at
  // 0); output 2 reads x[2, 4, 6]: real 2, 4 (pad at 6). So 4 pairs per (batch, group, ci, co).
  ConvParams p(FLOAT, 1, {5}, {3}, 2, 3, 1);
  p.inputTransform.paddingLower = {1};
  p.inputTransform.paddingUpper = {1};
  p.kernelTransform.dilation = {2};
  p.outputTransform.stride = {2};
  assert_int_equal(poplin::getFwdFlops(p), 2ull * 2 * 3 * 4);
  assert_int_equal(poplin::getBwdFlops(p), poplin::getFwdFlops(p));
  assert_int_equal(poplin::getWuFlops(p), poplin::getFwdFlops(p));
}

void test_plain(void **) { checkForward(ConvParams(FLOAT, 2, {6, 5}, {3, 3}, 3, 4, 1), "plain"); }

void test_stride_padding(void **) {
  ConvParams p(FLOAT, 1, {7, 8}, {3, 3}, 2, 3, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 2};
  p.outputTransform.stride = {2, 3};
  checkForward(p, "stride_padding");
}

void test_dilation_flip(void **) {
  ConvParams p(FLOAT, 1, {6, 7}, {2, 3}, 2, 2, 1);
  p.kernelTransform.dilation = {2, 1};
  p.inputTransform.dilation = {1, 2};
  p.inputTransform.flip = {true, false};
  p.kernelTransform.flip = {false, true};
  p.inputTransform.truncationLower = {1, 0};
  checkForward(p, "dilation_flip");
}

void test_groups_batch(void **) { checkForward(ConvParams(FLOAT, 3, {5, 5}, {2, 3}, 2, 3, 2), "groups_batch"); }

void test_output_transform(void **) {
  ConvParams p(FLOAT, 2, {8, 6}, {3, 2}, 2, 2, 1);
  p.outputTransform.truncationLower = {1, 0};
  p.outputTransform.truncationUpper = {0, 1};
  p.outputTransform.paddingLower = {1, 0};
  p.outputTransform.paddingUpper = {0, 2};
  checkForward(p, "output_transform");
}

void test_1d(void **) {
  ConvParams p(FLOAT, 2, {19}, {4}, 3, 5, 1);
  p.outputTransform.stride = {2};
  p.inputTransform.paddingLower = {2};
  checkForward(p, "1d");
}

// HALF activations and weights, accumulated in float and rounded once to a HALF output (partialsType float), or
// with half partials (partialsType half: each inner part's sum and each reduction stage rounded to half; 128 input
// channels make the planner split the inner dimension, so the tolerance allows a few more roundings).
void halfCase(const char *partials, std::size_t inChans, float tol) {
  ConvParams p(HALF, 2, {6, 5}, {3, 2}, inChans, 2, 1);
  p.inputTransform.paddingLower = {1, 0};
  p.outputTransform.stride = {1, 2};
  ConvFixture f;
  const OptionFlags opts{{"partialsType", partials}};
  std::ostringstream plan;
  poplin::reportPlanInfo(plan, f.graph, p, opts);
  if (inChans > 100 && plan.str().find(" 0 reduction stages") != std::string::npos) {
    print_error("no inner-dimension split to test half partials with: %s", plan.str().c_str());
    fail();
  }
  Tensor in = poplin::createInput(f.graph, p, "in", opts);
  Tensor w = poplin::createWeights(f.graph, p, "w", opts);
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("w", w);
  Tensor out = poplin::convolution(f.graph, in, w, p, false, f.prog, "half", opts);
  assert_true(out.elementType() == HALF);
  f.readable(out, "out");
  f.build();
  auto hin = floats(in.numElements(), 1), hw = floats(w.numElements(), 2); // exact in half
  std::vector<unsigned short> din(hin.size()), dw(hw.size()), dout(out.numElements());
  copyFloatToDeviceHalf(f.graph.getTarget(), hin.data(), din.data(), din.size());
  copyFloatToDeviceHalf(f.graph.getTarget(), hw.data(), dw.data(), dw.size());
  f.engine->writeTensor("in", din.data(), din.data() + din.size());
  f.engine->writeTensor("w", dw.data(), dw.data() + dw.size());
  f.engine->run(0);
  f.engine->readTensor("out", dout.data(), dout.data() + dout.size());
  std::vector<float> got(dout.size());
  copyDeviceHalfToFloat(f.graph.getTarget(), dout.data(), got.data(), got.size());
  expectNear(got, hostConv(p, hin, hw), partials, tol);
  assert_true(hasVertexType(*f.engine, "poplin::ConvPartialnx1<half, half>"));
}

void test_half(void **) {
  halfCase("float", 3, 2e-3f);
  halfCase("half", 128, 4e-3f);
}

// Weight and input gradients: the derivatives of sum(out * zDeltas) with respect to the weights and the input.
void checkGradients(const ConvParams &p, const char *what) {
  ConvFixture f;
  Tensor in = f.var(FLOAT, actShape(p, p.inputChannels, p.inputFieldShape), "in");
  Tensor w = poplin::createWeights(f.graph, p, "w");
  f.graph.createHostWrite("w", w);
  f.graph.createHostRead("w.r", w);
  Tensor dz = f.var(FLOAT, actShape(p, p.outputChannels, p.getOutputFieldShape()), "dz");
  Tensor dw = poplin::calculateWeightDeltas(f.graph, dz, in, p, f.prog, what);
  assert_true(dw.shape() == w.shape());
  ConvParams bwd = poplin::getGradientParams(p);
  Tensor dx = poplin::convolution(f.graph, dz, w, bwd, true, f.prog, std::string(what) + "/bwd");
  assert_true(dx.shape() == in.shape());
  poplin::convolutionWeightUpdate(f.graph, dz, w, in, p, 0.5f, f.prog, std::string(what) + "/wu");
  f.readable(dw, "dw");
  f.readable(dx, "dx");
  f.build();
  auto hin = floats(in.numElements(), 3), hw = floats(w.numElements(), 4), hdz = floats(dz.numElements(), 5);
  f.write("in", hin);
  f.write("w", hw);
  f.write("dz", hdz);
  f.engine->run(0);
  // The convolution is linear in each operand: derivative = the difference of two host convolutions with one
  // element set to 1 (exact), dotted with zDeltas.
  auto dot = [&](const std::vector<float> &x, const std::vector<float> &k) {
    auto o = hostConv(p, x, k);
    double s = 0;
    for (std::size_t i = 0; i < o.size(); ++i)
      s += double(o[i]) * hdz[i];
    return float(s);
  };
  std::vector<float> wantDw(hw.size()), wantDx(hin.size());
  for (std::size_t i = 0; i < hw.size(); ++i) {
    std::vector<float> unit(hw.size(), 0.0f);
    unit[i] = 1.0f;
    wantDw[i] = dot(hin, unit);
  }
  for (std::size_t i = 0; i < hin.size(); ++i) {
    std::vector<float> unit(hin.size(), 0.0f);
    unit[i] = 1.0f;
    wantDx[i] = dot(unit, hw);
  }
  expectNear(f.read<float>("dw", hw.size()), wantDw, "dw", 1e-4f);
  expectNear(f.read<float>("dx", hin.size()), wantDx, "dx", 1e-4f);
  std::vector<float> updated(hw.size());
  for (std::size_t i = 0; i < hw.size(); ++i)
    updated[i] = hw[i] + 0.5f * wantDw[i];
  expectNear(f.read<float>("w.r", hw.size()), updated, "w updated", 1e-4f);
}

void test_gradients_stride_padding(void **) {
  ConvParams p(FLOAT, 2, {7, 6}, {3, 3}, 2, 3, 1);
  p.inputTransform.paddingLower = {1, 1};
  p.inputTransform.paddingUpper = {1, 0};
  p.outputTransform.stride = {2, 2};
  checkGradients(p, "grad_stride_padding");
}

void test_gradients_groups_dilation(void **) {
  ConvParams p(FLOAT, 2, {6, 6}, {2, 2}, 2, 2, 2);
  p.kernelTransform.dilation = {2, 2};
  checkGradients(p, "grad_groups_dilation");
}

// The gradients of every transform the forward supports, over a grid: each case combines several (input
// truncation, dilation, padding and flip; kernel truncation, dilation, padding and flip; output truncation,
// stride and padding; groups, batch, 1-D).
void test_gradients_every_transform(void **) {
  {
    ConvParams p(FLOAT, 1, {9, 8}, {3, 2}, 2, 2, 1);
    p.inputTransform.truncationLower = {1, 0};
    p.inputTransform.truncationUpper = {0, 1};
    p.inputTransform.dilation = {2, 1};
    p.inputTransform.flip = {true, false};
    p.outputTransform.stride = {2, 1};
    checkGradients(p, "grad_input_truncation_dilation_flip");
  }
  {
    ConvParams p(FLOAT, 2, {7, 7}, {3, 3}, 2, 3, 1);
    p.kernelTransform.truncationLower = {1, 0};
    p.kernelTransform.truncationUpper = {0, 1};
    p.kernelTransform.paddingLower = {0, 1};
    p.kernelTransform.paddingUpper = {1, 0};
    p.kernelTransform.flip = {false, true};
    p.inputTransform.paddingLower = {2, 1};
    checkGradients(p, "grad_kernel_truncation_padding_flip");
  }
  {
    ConvParams p(FLOAT, 1, {8, 9}, {2, 3}, 3, 2, 2);
    p.outputTransform.truncationLower = {1, 0};
    p.outputTransform.truncationUpper = {0, 2};
    p.outputTransform.stride = {3, 2};
    p.outputTransform.paddingLower = {1, 0};
    p.outputTransform.paddingUpper = {0, 1};
    p.inputTransform.flip = {false, true};
    p.kernelTransform.dilation = {1, 2};
    checkGradients(p, "grad_output_transform_groups");
  }
  {
    ConvParams p(FLOAT, 2, {17}, {3}, 2, 2, 1);
    p.inputTransform.truncationLower = {2};
    p.inputTransform.dilation = {3};
    p.inputTransform.paddingUpper = {2};
    p.kernelTransform.flip = {true};
    p.kernelTransform.paddingLower = {1};
    p.outputTransform.stride = {4};
    p.outputTransform.truncationUpper = {1};
    checkGradients(p, "grad_1d_everything");
  }
}

void test_bias_and_transpose(void **) {
  ConvFixture f;
  const std::size_t B = 2, C = 3, H = 4, W = 5;
  Tensor acts = f.var(FLOAT, {B, C, H, W}, "acts");
  Tensor bias = poplin::createBiases(f.graph, acts);
  f.graph.createHostWrite("bias", bias);
  f.graph.createHostRead("bias.r", bias);
  poplin::addBias(f.graph, acts, bias, f.prog);
  Tensor dz = f.var(FLOAT, {B, C, H, W}, "dz");
  poplin::convolutionBiasUpdate(f.graph, dz, bias, -0.25f, {}, f.prog);
  Tensor wIn = f.var(FLOAT, {1, 2, 3, 2, 2}, "wIn"), wOut = f.var(FLOAT, {1, 3, 2, 2, 2}, "wOut");
  poplin::weightsTransposeChansFlipXY(f.graph, wIn, wOut, f.prog);
  f.build();
  auto ha = floats(B * C * H * W, 6), hb = floats(C, 7), hdz = floats(B * C * H * W, 8), hwi = floats(24, 9);
  f.write("acts", ha);
  f.write("bias", hb);
  f.write("dz", hdz);
  f.write("wIn", hwi);
  f.engine->run(0);
  std::vector<float> wantActs(ha.size()), wantBias(hb);
  for (std::size_t i = 0; i < ha.size(); ++i)
    wantActs[i] = ha[i] + hb[(i / (H * W)) % C];
  for (std::size_t i = 0; i < hdz.size(); ++i)
    wantBias[(i / (H * W)) % C] += -0.25f * hdz[i];
  expectNear(f.read<float>("acts.r", ha.size()), wantActs, "acts");
  expectNear(f.read<float>("bias.r", C), wantBias, "bias", 1e-5f);
  std::vector<float> wantW(24);
  for (std::size_t co = 0; co < 2; ++co)
    for (std::size_t ci = 0; ci < 3; ++ci)
      for (std::size_t y = 0; y < 2; ++y)
        for (std::size_t x = 0; x < 2; ++x)
          wantW[((ci * 2 + co) * 2 + (1 - y)) * 2 + (1 - x)] = hwi[((co * 3 + ci) * 2 + y) * 2 + x];
  expectNear(f.read<float>("wOut.r", 24), wantW, "wOut");
}

void test_report_and_errors(void **) {
  ConvFixture f;
  ConvParams p(FLOAT, 1, {5, 5}, {3, 3}, 2, 2, 1);
  poplin::PlanningCache cache;
  std::ostringstream s;
  poplin::reportPlanInfo(s, f.graph, p, {}, &cache);
  assert_true(s.str().find("estimate") != std::string::npos);
  assert_true(s.str().find("built from ConvPartialnx1 vertices") != std::string::npos);
  assert_int_equal(cache.size(), 1);
  std::ostringstream params;
  params << p;
  assert_true(params.str().find("outputFieldShape {3, 3}") != std::string::npos);
  Tensor in = poplin::createInput(f.graph, p, "in");
  Tensor w = poplin::createWeights(f.graph, p, "w");
  Tensor bad = f.var(FLOAT, {1, 3, 5, 5}, "bad");
  expectThrow<poputil::poplibs_error>([&] { poplin::convolution(f.graph, bad, w, p, false, f.prog); },
                                      "the input has shape");
  expectThrow<poputil::poplibs_error>([&] { poplin::convolution(f.graph, in, in, p, false, f.prog); },
                                      "the weights has shape");
  ConvParams big(FLOAT, 1, {2, 2}, {3, 3}, 1, 1, 1);
  expectThrow<poputil::poplibs_error>([&] { poplin::createInput(f.graph, big, "x"); }, "pad the input");
  ConvParams wrong(FLOAT, 1, {4, 4}, {3}, 1, 1, 1);
  expectThrow<poputil::poplibs_error>([&] { wrong.validate(); }, "one kernel size per field dimension");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::convolution(f.graph, in, w, p, false, f.prog, "", {{"pass", "SIDEWAYS"}}); }, "pass");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::convolution(f.graph, in, w, p, false, f.prog, "", {{"tilesPerIPU", "4"}}); },
      "unknown option 'tilesPerIPU'");
  ConvParams empty = p;
  empty.outputTransform.truncationLower = {2, 0};
  empty.outputTransform.truncationUpper = {1, 0};
  expectThrow<poputil::poplibs_error>([&] { poplin::getGradientParams(empty); }, "keeps no output position");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plain),
      cmocka_unit_test(test_with_output),
      cmocka_unit_test(test_flops),
      cmocka_unit_test(test_stride_padding),
      cmocka_unit_test(test_dilation_flip),
      cmocka_unit_test(test_groups_batch),
      cmocka_unit_test(test_output_transform),
      cmocka_unit_test(test_1d),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_gradients_stride_padding),
      cmocka_unit_test(test_gradients_groups_dilation),
      cmocka_unit_test(test_gradients_every_transform),
      cmocka_unit_test(test_bias_and_transpose),
      cmocka_unit_test(test_report_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
