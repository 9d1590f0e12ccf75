// popsparse's dynamic sparse API on an IPU Model of 16 tiles: the parameters, the Partitioner's conversions (COO,
// CSR and CSC in and out), the fully connected layer (forward, gradient of the activations, gradient of the
// non-zero weights) with element and block sparsity, groups and unused slots, and the embedding slice and update,
// each against a host reference in double. FLOAT within 1e-5; HALF with operands rounded to half on the host,
// within 1e-2 (a few half ulps summed over up to 8 products), relative to the element, absolute below 1.
#include <array>
#include <sstream>
#include <vector>

#include <popsparse/Embedding.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/SparsePartitioner.hpp>
#include <popsparse/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using namespace popsparse;
using namespace popsparse::dynamic;

namespace {

// A host matrix rows x cols (row-major, double) with its non-zero blocks as a COO matrix.
struct Sparse {
  std::size_t rows, cols;
  std::vector<double> dense;
  COOMatrix<float> coo;
};

// Every block whose number k (row-major) has (k * 7 + seed) % 5 < 2 is non-zero, with values from floats().
Sparse pattern(std::size_t rows, std::size_t cols, std::size_t br, std::size_t bc, unsigned seed, const Fixture &f,
               bool half) {
  Sparse s{rows, cols, std::vector<double>(rows * cols, 0.0), COOMatrix<float>(std::array<std::size_t, 2>{{br, bc}})};
  s.coo.numRows = rows;
  s.coo.numColumns = cols;
  const std::vector<float> v = floats(rows * cols, seed);
  for (std::size_t k = 0; k < (rows / br) * (cols / bc); ++k) {
    if ((k * 7 + seed) % 5 >= 2)
      continue;
    const std::size_t r0 = (k / (cols / bc)) * br, c0 = (k % (cols / bc)) * bc;
    s.coo.rowIndices.push_back(r0);
    s.coo.columnIndices.push_back(c0);
    for (std::size_t r = 0; r < br; ++r)
      for (std::size_t c = 0; c < bc; ++c) {
        const float x = half ? f.rh(v[(r0 + r) * cols + c0 + c]) : v[(r0 + r) * cols + c0 + c];
        s.coo.nzValues.push_back(x);
        s.dense[(r0 + r) * cols + c0 + c] = x;
      }
  }
  return s;
}

std::vector<unsigned> toUnsigned(const std::vector<std::size_t> &v) {
  return std::vector<unsigned>(v.begin(), v.end());
}

// The layer with `groups` groups of `out` x `in` weights in br x bc blocks, room for `spare` more blocks than used.
void fullyConnected(const Type &type, std::size_t groups, std::size_t in, std::size_t out, std::size_t br,
                    std::size_t bc, std::size_t spare) {
  const std::size_t batch = 3;
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  const bool half = type == HALF;
  const Sparse w = pattern(groups * out, in, br, bc, 3, f, half);
  const std::size_t used = w.coo.rowIndices.size();
  const FullyConnectedParams params = FullyConnectedParams::createWithNumNonZeroValues(
      SparsityParams(SparsityType::Block, SparsityStructure::Unstructured, {{br, bc}}), (used + spare) * br * bc,
      batch, groups, in, out);
  assert_int_equal(params.getNumNonZeroValues(), (used + spare) * br * bc);
  const SparseTensor weights = createFullyConnectedWeights(f.graph, type, params, "w");
  const Tensor x = createFullyConnectedInput(f.graph, type, params, "x");
  Tensor dy = f.graph.addVariable(type, {batch, groups * out}, "dy");
  poputil::mapTensorLinearly(f.graph, dy);
  const Tensor y = fullyConnectedFwd(f.graph, weights, x, params, f.prog, "fwd");
  const Tensor dx = fullyConnectedGradA(f.graph, weights, dy, params, f.prog, "gradA");
  const Tensor dw = fullyConnectedSparseGradW(f.graph, weights.getMetaInfoTensor(), dy, x, params, f.prog, "gradW");
  assert_int_equal(y.dim(1), groups * out);
  assert_int_equal(dw.numElements(), weights.getNzValuesTensor().numElements());
  f.graph.createHostWrite("meta", weights.getMetaInfoTensor());
  f.graph.createHostWrite("nz", weights.getNzValuesTensor());
  f.graph.createHostWrite("x", x);
  f.graph.createHostWrite("dy", dy);
  f.readable(y, "y");
  f.readable(dx, "dx");
  f.readable(dw, "dw");
  f.build();

  const Partitioner<float> part(params, type, f.device.getTarget(), {});
  const SparsityDataImpl<float> data = part.createSparsityDataImpl(w.coo);
  assert_int_equal(part.getmetaInfoBucketElements(), used + spare);
  std::vector<float> xs = floats(batch * groups * in, 5), dys = floats(batch * groups * out, 7);
  if (half) {
    xs = f.rh(xs);
    dys = f.rh(dys);
  }
  f.write("meta", toUnsigned(data.metaInfo));
  f.writeAs(type, "nz", data.nzValues);
  f.writeAs(type, "x", xs);
  f.writeAs(type, "dy", dys);
  f.engine->run(0);

  // Host reference: W_g is rows g*out.. of the dense matrix.
  std::vector<float> wantY(batch * groups * out), wantDx(batch * groups * in);
  std::vector<double> denseDw(groups * out * in, 0.0);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t o = 0; o < out; ++o) {
        double s = 0;
        for (std::size_t i = 0; i < in; ++i) {
          const double xv = xs[b * groups * in + g * in + i];
          s += w.dense[(g * out + o) * in + i] * xv;
          denseDw[(g * out + o) * in + i] += double(dys[b * groups * out + g * out + o]) * xv;
        }
        wantY[b * groups * out + g * out + o] = float(s);
      }
      for (std::size_t i = 0; i < in; ++i) {
        double s = 0;
        for (std::size_t o = 0; o < out; ++o)
          s += w.dense[(g * out + o) * in + i] * dys[b * groups * out + g * out + o];
        wantDx[b * groups * in + g * in + i] = float(s);
      }
    }
  // The weight gradient at each used slot's block; unused slots are 0.
  std::vector<float> wantDw(data.nzValues.size(), 0.0f);
  for (std::size_t s = 0; s < data.metaInfo.size(); ++s) {
    if (data.metaInfo[s] >= groups * out / br * (in / bc))
      continue;
    const std::size_t r0 = data.metaInfo[s] / (in / bc) * br, c0 = data.metaInfo[s] % (in / bc) * bc;
    for (std::size_t r = 0; r < br; ++r)
      for (std::size_t c = 0; c < bc; ++c)
        wantDw[s * br * bc + r * bc + c] = float(denseDw[(r0 + r) * in + c0 + c]);
  }
  const float tol = half ? 1e-2f : 1e-5f;
  expectNear(f.readAs(type, "y", wantY.size()), wantY, "fullyConnectedFwd", tol);
  expectNear(f.readAs(type, "dx", wantDx.size()), wantDx, "fullyConnectedGradA", tol);
  expectNear(f.readAs(type, "dw", wantDw.size()), wantDw, "fullyConnectedSparseGradW", tol);
}

void test_fc_element_float(void **) { fullyConnected(FLOAT, 1, 8, 6, 1, 1, 2); }
void test_fc_block_grouped_float(void **) { fullyConnected(FLOAT, 2, 8, 4, 2, 2, 1); }
void test_fc_block_half(void **) { fullyConnected(HALF, 1, 8, 8, 4, 2, 0); }

void test_embedding(void **) {
  const std::size_t rows = 6, cols = 4, n = 4;
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  const Sparse w = pattern(rows, cols, 1, 1, 1, f, false);
  const std::size_t used = w.coo.rowIndices.size();
  const FullyConnectedParams params =
      FullyConnectedParams::createWithNumNonZeroValues(SparsityParams(), used + 1, 2, 1, cols, rows);
  const SparseTensor t = createFullyConnectedWeights(f.graph, FLOAT, params, "emb");
  const Tensor idx = createIndicesTensor(f.graph, params, n);
  const Tensor upd = createSliceTensor(f.graph, FLOAT, params, n);
  assert_int_equal(upd.dim(1), cols);
  const Tensor scale = f.graph.addConstant(FLOAT, {1}, 0.5f);
  f.graph.setTileMapping(scale, 0);
  const Tensor sl = embeddingSlice(f.graph, t, idx, f.prog, params, "slice");
  embeddingUpdateAdd(f.graph, t, upd, idx, scale, f.prog, params, "update");
  f.graph.createHostWrite("meta", t.getMetaInfoTensor());
  f.graph.createHostWrite("nz", t.getNzValuesTensor());
  f.graph.createHostRead("nz.r", t.getNzValuesTensor());
  f.graph.createHostWrite("idx", idx);
  f.graph.createHostWrite("upd", upd);
  f.readable(sl, "slices");
  f.build();
  const Partitioner<float> part(params, FLOAT, f.device.getTarget(), {});
  const SparsityDataImpl<float> data = part.createSparsityDataImpl(w.coo);
  const std::vector<unsigned> indices = {4, 1, 4, 9}; // a repeat, and one past the last row (zeros, no update)
  const std::vector<float> updates = floats(n * cols, 9);
  f.write("meta", toUnsigned(data.metaInfo));
  f.write("nz", data.nzValues);
  f.write("idx", indices);
  f.write("upd", updates);
  f.engine->run(0);

  std::vector<float> wantSlices(n * cols, 0.0f);
  std::vector<double> after = w.dense;
  for (std::size_t k = 0; k < n; ++k)
    if (indices[k] < rows)
      for (std::size_t c = 0; c < cols; ++c) {
        wantSlices[k * cols + c] = float(w.dense[indices[k] * cols + c]);
        if (w.dense[indices[k] * cols + c] != 0.0) // only the stored elements take the update
          after[indices[k] * cols + c] += 0.5 * updates[k * cols + c];
      }
  expectNear(f.read<float>("slices", wantSlices.size()), wantSlices, "embeddingSlice");
  SparsityDataImpl<float> got;
  got.metaInfo = data.metaInfo;
  got.nzValues = f.read<float>("nz.r", data.nzValues.size());
  const COOMatrix<float> back = part.sparsityDataImplToCOOMatrix(got);
  assert_int_equal(back.rowIndices.size(), used);
  std::vector<float> gotDense(rows * cols, 0.0f), wantDense(rows * cols);
  for (std::size_t k = 0; k < used; ++k)
    gotDense[back.rowIndices[k] * cols + back.columnIndices[k]] = back.nzValues[k];
  for (std::size_t e = 0; e < after.size(); ++e)
    wantDense[e] = float(after[e]);
  expectNear(gotDense, wantDense, "embeddingUpdateAdd");
}

// COO -> slots -> CSR and CSC -> slots give the same data; the parameters' counts, printing and refusals.
void test_partitioner_formats(void **) {
  Fixture f(4);
  const Sparse w = pattern(8, 6, 2, 2, 2, f, false);
  const std::size_t used = w.coo.rowIndices.size();
  const FullyConnectedParams params = FullyConnectedParams::createWithNzRatio(
      SparsityParams(SparsityType::Element, SparsityStructure::Unstructured, {{2, 2}}), 0.5, 1, 2, 6, 4);
  assert_true(params.getSparsityParams().type == SparsityType::Block);
  assert_int_equal(params.getNumNonZeroValues(), 6 * 4); // half of the 12 blocks of two groups
  assert_int_equal(params.getInputChannels(), 12); // channels of all groups
  assert_int_equal(params.getOutputChannels(), 8);
  assert_true(params == params && !(params != params) && !(params < params));
  std::ostringstream os;
  os << params;
  assert_true(os.str().find("2x2") != std::string::npos);
  const Partitioner<float> part(params, FLOAT, f.device.getTarget(), {});
  const SparsityDataImpl<float> fromCoo = part.createSparsityDataImpl(w.coo);
  const CSRMatrix<float> csr = part.sparsityDataImplToCSRMatrix(fromCoo);
  const CSCMatrix<float> csc = part.sparsityDataImplToCSCMatrix(fromCoo);
  assert_int_equal(csr.rowIndices.size(), 8 / 2 + 1);
  assert_int_equal(csr.rowIndices.back(), used * 4);
  assert_int_equal(csc.columnIndices.size(), 6 / 2 + 1);
  const SparsityDataImpl<float> fromCsr = part.createSparsityDataImpl(csr);
  const SparsityDataImpl<float> fromCsc = part.createSparsityDataImpl(csc);
  expectEqual(fromCsr.metaInfo, fromCoo.metaInfo, "CSR metaInfo");
  expectEqual(fromCsc.metaInfo, fromCoo.metaInfo, "CSC metaInfo");
  expectNear(fromCsr.nzValues, fromCoo.nzValues, "CSR values", 0.0f);
  expectNear(fromCsc.nzValues, fromCoo.nzValues, "CSC values", 0.0f);
  // Too many blocks for the room, and a block off the grid.
  const FullyConnectedParams small = FullyConnectedParams::createWithNumNonZeroValues(
      SparsityParams(SparsityType::Block, SparsityStructure::Unstructured, {{2, 2}}), 4, 1, 2, 6, 4);
  const Partitioner<float> smallPart(small, FLOAT, f.device.getTarget(), {});
  expectThrow<poputil::poplibs_error>([&] { smallPart.createSparsityDataImpl(w.coo); }, "room for 1");
  COOMatrix<float> off = w.coo;
  off.rowIndices[0] = 1;
  expectThrow<poputil::poplibs_error>([&] { part.createSparsityDataImpl(off); }, "not on the grid");
  expectThrow<poputil::poplibs_error>(
      [&] { FullyConnectedParams::createWithNumNonZeroValues(SparsityParams({}, {}, {{2, 2}}), 3, 1, 1, 6, 4); },
      "whole number of blocks");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_partitioner_formats), cmocka_unit_test(test_fc_element_float),
      cmocka_unit_test(test_fc_block_grouped_float), cmocka_unit_test(test_fc_block_half),
      cmocka_unit_test(test_embedding),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
