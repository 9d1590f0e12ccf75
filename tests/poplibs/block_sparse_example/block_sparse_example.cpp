// A block-sparse layer as a user of Graphcore's SDK writes it (C++11, linked with -lpopsparse -lpoplin -lpopops
// -lpoputil -lpoplar): activations [32, 64] times a block-sparse weight matrix [64, 48] of 16 x 16 blocks (half of
// them zero), with popsparse::experimental::bsMatMul, checked against the dense product on the host. FLOAT must
// match within a relative 1e-5 and HALF within 1e-2 of the largest result (operands rounded to half on the host,
// products summed over K = 64), on an IPU Model of 4 tiles and on the default ipu2 IPU Model.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/TypeConversion.hpp>
#include <popsparse/codelets.hpp>
#include <popsparse/experimental/BlockSparseMatMul.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace popsparse::experimental;

namespace {

const int kM = 32, kK = 64, kN = 48, kBlock = 16;
const int kGridRows = kK / kBlock, kGridCols = kN / kBlock;

// Which 16 x 16 blocks of the weights are non-zero: a checkerboard, 6 of 12.
std::vector<unsigned char> weightMask() {
  std::vector<unsigned char> mask(kGridRows * kGridCols);
  for (int r = 0; r < kGridRows; ++r)
    for (int c = 0; c < kGridCols; ++c)
      mask[r * kGridCols + c] = (r + c) % 2 == 0;
  return mask;
}

float valueAt(int i, int seed) { return float((i * 29 + seed * 13) % 23 - 11) / 8.0f; }

// Rounds to half and back (the device's inputs when the type is HALF).
std::vector<float> roundToHalf(const Target &target, const std::vector<float> &v) {
  std::vector<unsigned short> bits(v.size());
  std::vector<float> out(v.size());
  copyFloatToDeviceHalf(target, v.data(), bits.data(), v.size());
  copyDeviceHalfToFloat(target, bits.data(), out.data(), v.size());
  return out;
}

// Runs the layer with elements of `type` on `device`; returns the largest error relative to the largest |result|.
double run(Device &device, const Type &type) {
  const Target &target = device.getTarget();
  Graph graph(target);
  popsparse::addCodelets(graph);
  const std::vector<unsigned char> mask = weightMask();
  BSMatMulParams params({kM, kK, kN}, {kBlock, kBlock, kBlock}, mask, false, type, type, type);
  Tensor acts = createBSMatMulInputLHS(graph, params, "acts");
  Tensor weights = createBSMatMulInputRHS(graph, params, "weights");
  program::Sequence prog;
  Tensor out = bsMatMul(graph, params, prog, acts, weights, {}, "layer");
  graph.createHostWrite("acts", acts);
  graph.createHostWrite("weights", weights);
  graph.createHostRead("out", out);

  // Host data: dense activations, dense weights with the zero blocks cleared, and the weights' non-zero blocks.
  std::vector<float> a(kM * kK), w(kK * kN, 0.0f), blocks;
  for (int i = 0; i < kM * kK; ++i)
    a[i] = valueAt(i, 1);
  for (int r = 0; r < kK; ++r)
    for (int c = 0; c < kN; ++c)
      if (mask[(r / kBlock) * kGridCols + c / kBlock])
        w[r * kN + c] = valueAt(r * kN + c, 2);
  if (type == HALF) {
    a = roundToHalf(target, a);
    w = roundToHalf(target, w);
  }
  for (int p = 0; p < kGridRows * kGridCols; ++p)
    if (mask[p])
      for (int r = 0; r < kBlock; ++r)
        for (int c = 0; c < kBlock; ++c)
          blocks.push_back(w[((p / kGridCols) * kBlock + r) * kN + (p % kGridCols) * kBlock + c]);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> got(kM * kN);
  if (type == HALF) {
    std::vector<unsigned short> ha(a.size()), hb(blocks.size()), hout(got.size());
    copyFloatToDeviceHalf(target, a.data(), ha.data(), a.size());
    copyFloatToDeviceHalf(target, blocks.data(), hb.data(), blocks.size());
    engine.writeTensor("acts", ha.data(), ha.data() + ha.size());
    engine.writeTensor("weights", hb.data(), hb.data() + hb.size());
    engine.run(0);
    engine.readTensor("out", hout.data(), hout.data() + hout.size());
    copyDeviceHalfToFloat(target, hout.data(), got.data(), got.size());
  } else {
    engine.writeTensor("acts", a.data(), a.data() + a.size());
    engine.writeTensor("weights", blocks.data(), blocks.data() + blocks.size());
    engine.run(0);
    engine.readTensor("out", got.data(), got.data() + got.size());
  }
  double worst = 0, largest = 0;
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) {
      double want = 0;
      for (int k = 0; k < kK; ++k)
        want += double(a[i * kK + k]) * w[k * kN + j];
      largest = std::max(largest, std::fabs(want));
      worst = std::max(worst, std::fabs(got[i * kN + j] - want));
    }
  return worst / std::max(largest, 1.0);
}

void report(const std::string &device, const Type &type, double err, double tol) {
  std::cout << type << " on " << device << ": relative error within " << tol << ": " << (err <= tol ? "yes" : "no")
            << std::endl;
  std::cout << "  (largest relative error " << err << ")" << std::endl;
}

} // namespace

int main() {
  IPUModel tiny("ipu2");
  tiny.tilesPerIPU = 4;
  Device small = tiny.createDevice();
  report("4 tiles", FLOAT, run(small, FLOAT), 1e-5);
  report("4 tiles", HALF, run(small, HALF), 1e-2);
  Device full = IPUModel("ipu2").createDevice();
  report("ipu2", FLOAT, run(full, FLOAT), 1e-5);
  report("ipu2", HALF, run(full, HALF), 1e-2);
  return 0;
}
