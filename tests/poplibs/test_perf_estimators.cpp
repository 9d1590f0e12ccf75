// The PopLibs libraries give the IPU Model their vertices' cycle estimates through Graph::registerPerfEstimator when
// their addCodelets runs (libpoplar holds no PopLibs formula): a hand-built MapInterpreter is charged from the
// expression code on its constant `code` edge (a unary op costs more than a binary one), a Reduce and a MultiUpdate
// by popops' formulas, the MultiUpdate per worker over its share of the columns (docs/time-model.md), on the ipu2
// IPU Model (six workers, 64-bit data path). One vertex of each other library (and a popops Fill, charged by the
// basic loop) shows that library's estimate arriving: each figure differs from the default that an unregistered
// vertex gets.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../../hostlib/popops/codelets/map_code.h"
#include "poplin/codelets.hpp"
#include "popnn/codelets.hpp"
#include "popops/ExprOp.hpp"
#include "poprand/codelets.hpp"
#include "poplibs_test.hpp"

using namespace poplar;

namespace {

namespace mc = popops::mapcode;

// A MapInterpreter on tile 0 computing out = op(a[, b]) over `n` floats, with `code` as its constant code.
std::uint64_t mapEstimate(poplibs_test::Fixture &f, const std::vector<unsigned> &code, unsigned operands,
                          std::size_t n) {
  ComputeSet cs = f.graph.addComputeSet("map");
  VertexRef v = f.graph.addVertex(cs, "popops::MapInterpreter");
  f.graph.setTileMapping(v, 0);
  Tensor c = f.graph.addConstant(UNSIGNED_INT, {code.size()}, code.data(), "code");
  f.graph.setTileMapping(c, 0);
  f.graph.connect(v["code"], c);
  for (const char *l : {"inB", "inH", "inI", "inU", "outB", "outH", "outI", "outU"})
    f.graph.setFieldSize(v[l], 0);
  f.graph.setFieldSize(v["inF"], operands);
  f.graph.setFieldSize(v["outF"], 1);
  for (unsigned k = 0; k < operands; ++k) {
    Tensor in = f.graph.addVariable(FLOAT, {n});
    f.graph.setTileMapping(in, 0);
    f.graph.connect(v["inF"][k], in);
  }
  Tensor out = f.graph.addVariable(FLOAT, {n});
  f.graph.setTileMapping(out, 0);
  f.graph.connect(v["outF"][0], out);
  return f.graph.getPerfEstimate(v).cycles;
}

std::vector<unsigned> header(unsigned floats) { return {floats, 0, 0, 0, 0, mc::F}; }

void test_map_interpreter(void **) {
  poplibs_test::Fixture f(1);
  // a + b over 12 floats: per worker 29 + ceil(11 / 6) = 31, then its 2 elements (one 2-float vector) at
  // 1 (the ADD) + 2 (operands per output) = 3 cycles: 34.
  std::vector<unsigned> add = header(2);
  for (unsigned w : {mc::encode(mc::LOAD, mc::F, 0, 0), mc::encode(mc::LOAD, mc::F, 0, 1),
                     mc::encode(mc::BINARY, mc::F, unsigned(popops::expr::BinaryOpType::ADD), 0), mc::END})
    add.push_back(w);
  assert_int_equal(mapEstimate(f, add, 2, 12), 34);
  // exp(a): the unary op costs 6 per vector and one operand 1: 31 + 7 = 38.
  std::vector<unsigned> exp = header(1);
  for (unsigned w : {mc::encode(mc::LOAD, mc::F, 0, 0),
                     mc::encode(mc::UNARY, mc::F, unsigned(popops::expr::UnaryOpType::EXPONENT), 0), mc::END})
    exp.push_back(w);
  assert_int_equal(mapEstimate(f, exp, 1, 12), 38);
}

void test_reduce_and_multi_update(void **) {
  poplibs_test::Fixture f(1);
  ComputeSet cs = f.graph.addComputeSet("cs");
  // Reduce<float, float> of 3 runs of 8 partials into one output: 4 + 1 (the output) + 5 (runs: the counts and out
  // edges and the 3 partial runs) + 13 (its 25 input elements in 2-float vectors) + 5 = 28.
  VertexRef r = f.graph.addVertex(cs, "popops::Reduce<float, float>");
  f.graph.setTileMapping(r, 0);
  f.graph.setFieldSize(r["in"], 3);
  for (unsigned k = 0; k < 3; ++k) {
    Tensor p = f.graph.addVariable(FLOAT, {8});
    f.graph.setTileMapping(p, 0);
    f.graph.connect(r["in"][k], p);
  }
  Tensor counts = f.graph.addConstant(UNSIGNED_INT, {1}, 3u, "counts");
  Tensor out = f.graph.addVariable(FLOAT, {1});
  f.graph.setTileMapping(counts, 0);
  f.graph.setTileMapping(out, 0);
  f.graph.connect(r["counts"], counts);
  f.graph.connect(r["out"], out);
  f.graph.setInitialValue(r["op"], 0u);
  assert_int_equal(f.graph.getPerfEstimate(r).cycles, 28);
  // MultiUpdate<unsigned int> of 4 base rows and 2 slice rows of 6 columns (one item per row) with 2 offsets, a
  // MultiVertex: the 3 data-path vectors of the columns go one to each of 3 workers, each 30 + 4 (offsets) + 4 x 6
  // row items + 1 vector x 4 base rows = 62 (one vertex on one worker, before the split: 70).
  VertexRef u = f.graph.addVertex(cs, "popops::MultiUpdate<unsigned int>");
  f.graph.setTileMapping(u, 0);
  f.graph.setFieldSize(u["baseT"], 4);
  f.graph.setFieldSize(u["subT"], 2);
  for (unsigned k = 0; k < 6; ++k) {
    Tensor row = f.graph.addVariable(UNSIGNED_INT, {6});
    f.graph.setTileMapping(row, 0);
    f.graph.connect(k < 4 ? u["baseT"][k] : u["subT"][k - 4], row);
  }
  Tensor offsets = f.graph.addVariable(UNSIGNED_INT, {2});
  f.graph.setTileMapping(offsets, 0);
  f.graph.connect(u["offsets"], offsets);
  f.graph.setInitialValue(u["numBaseElements"], 4u);
  f.graph.setInitialValue(u["packed"], 0u);
  f.graph.setInitialValue(u["sliceSize"], 1u);
  assert_int_equal(f.graph.getPerfEstimate(u).cycles, 62);
}

// A variable of `n` elements on tile 0, connected to field `field` of `v`.
void connectNew(poplibs_test::Fixture &f, VertexRef v, const std::string &field, const Type &type, std::size_t n) {
  Tensor t = f.graph.addVariable(type, {n});
  f.graph.setTileMapping(t, 0);
  f.graph.connect(v[field], t);
}

void test_each_library_registers(void **) {
  poplibs_test::Fixture f(1);
  poplin::addCodelets(f.graph);
  popnn::addCodelets(f.graph);
  poprand::addCodelets(f.graph);
  ComputeSet cs = f.graph.addComputeSet("cs");
  auto vertex = [&](const char *type) {
    VertexRef v = f.graph.addVertex(cs, type);
    f.graph.setTileMapping(v, 0);
    return v;
  };
  // popops' basic loop: Fill<unsigned short> of 16 elements, 20 + 2 x 4 vectors of 4 = 28 (the default: 24).
  VertexRef fill = vertex("popops::Fill<short unsigned int>");
  connectNew(f, fill, "out", UNSIGNED_SHORT, 16);
  assert_int_equal(f.graph.getPerfEstimate(fill).cycles, 28);
  // poplin: MatMul<half, half> of 6 x 16 x 16, Graphcore's ConvPartial1x1Out form. Each of the 6 workers has one
  // position: a group pair costs max(41 x 6, 41 x 6 + 14) + 40 = 300, or 336 where the first input group zeroes the
  // partials (47 per worker); one input and one output group: 61 + 10 + 336 = 407, a sixth per worker: 68.
  VertexRef mm = vertex("poplin::MatMul<half, half>");
  connectNew(f, mm, "a", HALF, 6 * 16);
  connectNew(f, mm, "b", HALF, 16 * 16);
  connectNew(f, mm, "c", HALF, 6 * 16);
  f.graph.setInitialValue(mm["rows"], 6u);
  f.graph.setInitialValue(mm["inner"], 16u);
  f.graph.setInitialValue(mm["cols"], 16u);
  assert_int_equal(f.graph.getPerfEstimate(mm).cycles, 68);
  // poplin: ConvPartialnx1<half, half>, Graphcore's ConvPartialnx1 form, for the calibration table's convolution
  // (16 channels in and out, 3 x 3 kernel, 8 output rows of 8): rows 2, 2, 1, 1, 1, 1 to the six workers at
  // 35 + 4 x 5 = 55 per row, the busiest 6 x (19 + 110) = 774; a kernel position 32 + 15 + 774 = 821; the kernel
  // 3 x (15 + 3 x (20 + 821)) = 7614; the vertex 95 + 16 + 23 + 23 + 7614 = 7771 (Graphcore's figure for the shape),
  // a sixth per worker: 1296.
  VertexRef conv = vertex("poplin::ConvPartialnx1<half, half>");
  connectNew(f, conv, "in", HALF, 16 * 10 * 10);
  connectNew(f, conv, "weights", HALF, 16 * 16 * 9);
  connectNew(f, conv, "out", HALF, 16 * 8 * 8);
  const std::pair<const char *, unsigned> convFields[] = {{"inChans", 16}, {"inRows", 10}, {"inWidth", 10},
                                                          {"kernelH", 3},  {"kernelW", 3}, {"outRows", 8},
                                                          {"outWidth", 8}, {"strideY", 1}, {"strideX", 1}};
  for (const auto &[name, value] : convFields)
    f.graph.setInitialValue(conv[name], value);
  assert_int_equal(f.graph.getPerfEstimate(conv).cycles, 1296);
  // popnn: NonLinearity over 2 runs of 10 floats in place: 20 + 5 x 2 runs + 2 x 10 vectors of 2 = 50 (the default:
  // 40).
  VertexRef nl = vertex("popnn::NonLinearity");
  f.graph.setFieldSize(nl["data"], 2);
  for (unsigned k = 0; k < 2; ++k) {
    Tensor run = f.graph.addVariable(FLOAT, {10});
    f.graph.setTileMapping(run, 0);
    f.graph.connect(nl["data"][k], run);
  }
  f.graph.setInitialValue(nl["nl"], 0u);
  assert_int_equal(f.graph.getPerfEstimate(nl).cycles, 50);
  // poprand: SetSeed reads 2 words and writes 24: 20 + 2 x 12 vectors of 2 = 44 (the default: 33).
  VertexRef seed = vertex("poprand::SetSeed");
  connectNew(f, seed, "seed", UNSIGNED_INT, 2);
  connectNew(f, seed, "state", UNSIGNED_INT, 24);
  assert_int_equal(f.graph.getPerfEstimate(seed).cycles, 44);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_map_interpreter),
      cmocka_unit_test(test_reduce_and_multi_update),
      cmocka_unit_test(test_each_library_registers),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
