// popsparse's block-sparse matmul and softmax (popsparse/experimental) on an IPU Model of 16 tiles, each against a
// dense host reference: dense x sparse (plain, transposed, grouped, with an all-zero block column), dense x dense
// into a sparse result with a triangular sub-block mask, softmax (with and without mask) and its gradient, in
// FLOAT (tolerance 1e-5) and HALF (operands rounded to half on the host; tolerance 1e-2: a few half ulps summed
// over K products), relative to the element, absolute below 1; the argument errors; the host storage formats.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <popsparse/SparseStorageFormats.hpp>
#include <popsparse/codelets.hpp>
#include <popsparse/experimental/BlockSparse.hpp>
#include <popsparse/experimental/BlockSparseMatMul.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using namespace popsparse::experimental;

namespace {

// A dense rows x cols matrix, row-major.
struct Dense {
  std::size_t rows, cols;
  std::vector<float> v;
  float &at(std::size_t r, std::size_t c) { return v[r * cols + c]; }
  float at(std::size_t r, std::size_t c) const { return v[r * cols + c]; }
};

// The non-zero blocks of `d` under `mask` (row-major grid of br x bc blocks), row-major within each block.
std::vector<float> toBlocks(const Dense &d, std::size_t br, std::size_t bc, const std::vector<unsigned char> &mask) {
  std::vector<float> out;
  const std::size_t gridCols = d.cols / bc;
  for (std::size_t p = 0; p < mask.size(); ++p)
    if (mask[p])
      for (std::size_t r = 0; r < br; ++r)
        for (std::size_t c = 0; c < bc; ++c)
          out.push_back(d.at((p / gridCols) * br + r, (p % gridCols) * bc + c));
  return out;
}

// `d` with the zero blocks of `mask` cleared.
Dense sparsify(Dense d, std::size_t br, std::size_t bc, const std::vector<unsigned char> &mask) {
  const std::size_t gridCols = d.cols / bc;
  for (std::size_t r = 0; r < d.rows; ++r)
    for (std::size_t c = 0; c < d.cols; ++c)
      if (!mask[(r / br) * gridCols + c / bc])
        d.at(r, c) = 0;
  return d;
}

Dense matmul(const Dense &a, const Dense &b) {
  Dense c{a.rows, b.cols, std::vector<float>(a.rows * b.cols, 0.0f)};
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < b.cols; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < a.cols; ++k)
        s += double(a.at(i, k)) * b.at(k, j);
      c.at(i, j) = float(s);
    }
  return c;
}

Dense transpose(const Dense &a) {
  Dense t{a.cols, a.rows, std::vector<float>(a.v.size())};
  for (std::size_t r = 0; r < a.rows; ++r)
    for (std::size_t c = 0; c < a.cols; ++c)
      t.at(c, r) = a.at(r, c);
  return t;
}

Dense rows(const Dense &a, std::size_t begin, std::size_t n) {
  return Dense{n, a.cols, std::vector<float>(a.v.begin() + long(begin * a.cols), a.v.begin() + long((begin + n) * a.cols))};
}

// Values of about [-2, 2], never 0, rounded to half when `half` (so the host reference sees the device's inputs).
Dense values(const Fixture &f, std::size_t r, std::size_t c, unsigned seed, bool half) {
  std::vector<float> v = floats(r * c, seed);
  for (float &x : v)
    x *= 0.5f;
  return Dense{r, c, half ? f.rh(v) : v};
}

float tolOf(const Type &type) { return type == HALF ? 1e-2f : 1e-5f; }

// Dense [G*m, k] x sparse: the stored matrix is k x n (or n x k when transposed), G groups with masks `masks`.
void checkDenseSparse(const Type &type, bool transposed, std::size_t groups, const std::vector<unsigned char> &mask,
                      std::size_t m, std::size_t k, std::size_t n, std::size_t bk, std::size_t bn) {
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  BSMatMulParams params({int(m), int(k), int(n)}, {int(m), int(bk), int(bn)}, mask, transposed, type, type, type,
                        unsigned(groups));
  Tensor lhs = createBSMatMulInputLHS(f.graph, params, {"lhs"});
  Tensor rhs = createBSMatMulInputRHS(f.graph, params, {"rhs"});
  assert_int_equal(lhs.dim(0), groups * m);
  Tensor out = bsMatMul(f.graph, params, f.prog, lhs, rhs, {{"numberOfPass", "1"}}, {"mm"});
  assert_int_equal(out.rank(), 2);
  assert_int_equal(out.dim(0), groups * m);
  assert_int_equal(out.dim(1), n);
  assert_true(out.elementType() == type);
  f.graph.createHostWrite("lhs", lhs);
  f.graph.createHostWrite("rhs", rhs);
  f.readable(out, "out");
  const bool half = type == HALF;
  Dense a = values(f, groups * m, k, 1, half);
  std::vector<float> blocks, want;
  const std::size_t perGroup = (k / bk) * (n / bn);
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<unsigned char> gm(mask.begin() + long(g * perGroup), mask.begin() + long((g + 1) * perGroup));
    Dense stored = transposed ? values(f, n, k, 2 + unsigned(g), half) : values(f, k, n, 2 + unsigned(g), half);
    stored = transposed ? sparsify(stored, bn, bk, gm) : sparsify(stored, bk, bn, gm);
    std::vector<float> sb = transposed ? toBlocks(stored, bn, bk, gm) : toBlocks(stored, bk, bn, gm);
    blocks.insert(blocks.end(), sb.begin(), sb.end());
    Dense c = matmul(rows(a, g * m, m), transposed ? transpose(stored) : stored);
    want.insert(want.end(), c.v.begin(), c.v.end());
  }
  assert_int_equal(rhs.numElements(), blocks.size());
  f.build();
  f.writeAs(type, "lhs", a.v);
  f.writeAs(type, "rhs", blocks);
  f.engine->run(0);
  expectNear(f.readAs(type, "out", want.size()), want, "dense x sparse", tolOf(type));
}

void test_dense_sparse_float(void **) {
  // 3 x 2 grid of 8 x 8 blocks: block column 0 has 3 non-zero blocks, column 1 has 1.
  checkDenseSparse(FLOAT, false, 1, {1, 0, 1, 0, 1, 1}, 8, 24, 16, 8, 8);
}
void test_dense_sparse_half(void **) { checkDenseSparse(HALF, false, 1, {1, 0, 1, 0, 1, 1}, 8, 24, 16, 8, 8); }
void test_dense_sparse_empty_column(void **) {
  checkDenseSparse(FLOAT, false, 1, {1, 0, 0, 0, 1, 0}, 4, 24, 16, 8, 8);
}
void test_dense_sparse_transposed_groups(void **) {
  // Stored 16 x 24 (2 x 3 grid of 8 x 8 blocks) per group, transposed; two groups with different masks.
  checkDenseSparse(FLOAT, true, 2, {1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1}, 4, 24, 16, 8, 8);
  checkDenseSparse(HALF, true, 1, {1, 1, 0, 0, 1, 1}, 4, 24, 16, 8, 8);
}

// Dense [G*m, k] x dense [G*k, n] -> the non-zero blocks of the result, with `sub` applied per group.
void checkDenseDenseSparse(const Type &type, SubBlockMask sub, std::size_t groups,
                           const std::vector<unsigned char> &mask, std::size_t m, std::size_t k, std::size_t n,
                           std::size_t bm, std::size_t bn) {
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  BSMatMulParams params({int(m), int(k), int(n)}, {int(bm), int(k), int(bn)}, mask, type, type, type, sub,
                        unsigned(groups));
  Tensor lhs = createBSMatMulInputLHS(f.graph, params, {"lhs"});
  Tensor rhs = createBSMatMulInputRHS(f.graph, params, {"rhs"});
  Tensor out = bsMatMul(f.graph, params, f.prog, lhs, rhs);
  f.graph.createHostWrite("lhs", lhs);
  f.graph.createHostWrite("rhs", rhs);
  f.readable(out, "out");
  const bool half = type == HALF;
  Dense a = values(f, groups * m, k, 3, half), b = values(f, groups * k, n, 4, half);
  std::vector<float> want;
  const std::size_t perGroup = (m / bm) * (n / bn);
  for (std::size_t g = 0; g < groups; ++g) {
    Dense c = matmul(rows(a, g * m, m), rows(b, g * k, k));
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t col = 0; col < n; ++col)
        if ((sub == SubBlockMask::ZeroUpperTriangle && col > r) || (sub == SubBlockMask::ZeroLowerTriangle && col < r))
          c.at(r, col) = 0;
    std::vector<unsigned char> gm(mask.begin() + long(g * perGroup), mask.begin() + long((g + 1) * perGroup));
    std::vector<float> cb = toBlocks(c, bm, bn, gm);
    want.insert(want.end(), cb.begin(), cb.end());
  }
  assert_int_equal(out.dim(0) * out.dim(1), want.size());
  f.build();
  f.writeAs(type, "lhs", a.v);
  f.writeAs(type, "rhs", b.v);
  f.engine->run(0);
  expectNear(f.readAs(type, "out", want.size()), want, "dense x dense = sparse", tolOf(type));
}

void test_dense_dense_sparse(void **) {
  checkDenseDenseSparse(FLOAT, SubBlockMask::None, 1, {1, 0, 1, 1, 0, 1}, 24, 16, 16, 8, 8);
  checkDenseDenseSparse(FLOAT, SubBlockMask::ZeroUpperTriangle, 2, {1, 0, 1, 1, 1, 1, 0, 1}, 16, 8, 16, 8, 8);
  checkDenseDenseSparse(HALF, SubBlockMask::ZeroLowerTriangle, 1, {1, 1, 0, 1}, 16, 16, 16, 8, 8);
}

// Softmax of each dense row over its elements in non-zero blocks and not masked; masked and zero-block elements
// are 0 in the result (only the stored ones are compared).
std::vector<float> hostSoftmax(const Dense &x, const std::vector<unsigned char> &mask, std::size_t br, std::size_t bc,
                               SubBlockMask sub, std::size_t rowsPerGroup) {
  Dense y{x.rows, x.cols, std::vector<float>(x.v.size(), 0.0f)};
  const std::size_t gridCols = x.cols / bc;
  auto kept = [&](std::size_t r, std::size_t c) {
    const std::size_t gr = r % rowsPerGroup;
    return mask[(r / br) * gridCols + c / bc] &&
           !((sub == SubBlockMask::ZeroUpperTriangle && c > gr) || (sub == SubBlockMask::ZeroLowerTriangle && c < gr));
  };
  for (std::size_t r = 0; r < x.rows; ++r) {
    double mx = -1e300, s = 0;
    for (std::size_t c = 0; c < x.cols; ++c)
      if (kept(r, c))
        mx = std::max(mx, double(x.at(r, c)));
    for (std::size_t c = 0; c < x.cols; ++c)
      if (kept(r, c))
        s += std::exp(double(x.at(r, c)) - mx);
    for (std::size_t c = 0; c < x.cols; ++c)
      if (kept(r, c))
        y.at(r, c) = float(std::exp(double(x.at(r, c)) - mx) / s);
  }
  return toBlocks(y, br, bc, mask);
}

void checkSoftmax(const Type &type, SubBlockMask sub, unsigned groups, bool inPlace) {
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  const std::size_t rowsN = 32, colsN = 16, br = 8, bc = 8;
  const std::vector<unsigned char> mask{1, 0, 1, 1, 1, 0, 1, 1}; // 4 x 2 grid: rows of 1 and 2 blocks
  const std::size_t nz = 6;
  Tensor in = f.var(type, {nz, br * bc}, "in");
  Tensor out = in;
  if (inPlace)
    bsSoftmaxInPlace(f.graph, in, {int(rowsN), int(colsN)}, {int(br), int(bc)}, mask, sub, groups, f.prog);
  else
    out = bsSoftmax(f.graph, in, {int(rowsN), int(colsN)}, {int(br), int(bc)}, mask, sub, groups, f.prog, {"sm"});
  f.readable(out, "out");
  Dense x = values(f, rowsN, colsN, 5, type == HALF);
  for (float &v : x.v)
    v *= 2.0f;
  std::vector<float> want = hostSoftmax(x, mask, br, bc, sub, rowsN / groups);
  f.build();
  f.writeAs(type, "in", toBlocks(x, br, bc, mask));
  f.engine->run(0);
  expectNear(f.readAs(type, "out", want.size()), want, "block-sparse softmax", tolOf(type));
}

void test_softmax_float(void **) {
  checkSoftmax(FLOAT, SubBlockMask::None, 1, false);
  checkSoftmax(FLOAT, SubBlockMask::ZeroUpperTriangle, 2, true);
}
void test_softmax_half(void **) {
  checkSoftmax(HALF, SubBlockMask::None, 1, true);
  checkSoftmax(HALF, SubBlockMask::ZeroLowerTriangle, 1, false);
}

void test_softmax_grad(void **) {
  Fixture f(16);
  popsparse::addCodelets(f.graph);
  const std::size_t rowsN = 16, colsN = 24, br = 8, bc = 8;
  const std::vector<unsigned char> mask{1, 1, 0, 0, 1, 1};
  const std::size_t nz = 4;
  Tensor y = f.var(FLOAT, {nz, br * bc}, "y"), dy = f.var(FLOAT, {nz, br * bc}, "dy");
  Tensor dx = bsSoftmaxGrad(f.graph, y, dy, {int(rowsN), int(colsN)}, {int(br), int(bc)}, mask, f.prog, {"grad"});
  f.readable(dx, "dx");
  Dense yd = values(f, rowsN, colsN, 6, false), dyd = values(f, rowsN, colsN, 7, false);
  // y as a softmax output would be: positive (its sums need not be 1 for the formula).
  for (float &v : yd.v)
    v = std::fabs(v) * 0.25f;
  yd = sparsify(yd, br, bc, mask);
  dyd = sparsify(dyd, br, bc, mask);
  Dense want{rowsN, colsN, std::vector<float>(rowsN * colsN)};
  for (std::size_t r = 0; r < rowsN; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < colsN; ++c)
      s += double(yd.at(r, c)) * dyd.at(r, c);
    for (std::size_t c = 0; c < colsN; ++c)
      want.at(r, c) = float(yd.at(r, c) * (dyd.at(r, c) - s));
  }
  f.build();
  f.write("y", toBlocks(yd, br, bc, mask));
  f.write("dy", toBlocks(dyd, br, bc, mask));
  f.engine->run(0);
  expectNear(f.read<float>("dx", nz * br * bc), toBlocks(want, br, bc, mask), "softmax gradient", 1e-5f);
}

void test_errors(void **) {
  Fixture f(4);
  expectThrow<poputil::poplibs_error>(
      [] { BSMatMulParams p({8, 16, 16}, {8, 8, 8}, {1, 1, 1}, false, FLOAT, FLOAT, FLOAT); }, "sparsity mask");
  expectThrow<poputil::poplibs_error>(
      [] { BSMatMulParams p({8, 12, 16}, {8, 8, 8}, {1, 1, 1, 1}, false, FLOAT, FLOAT, FLOAT); }, "multiple");
  expectThrow<poputil::poplibs_error>(
      [] { BSMatMulParams p({8, 16, 16}, {8, 8, 8}, {1, 1, 1, 1}, false, INT, FLOAT, FLOAT); }, "HALF or FLOAT");
  BSMatMulParams p({8, 16, 16}, {8, 8, 8}, {1, 0, 1, 1}, false, FLOAT, FLOAT, FLOAT);
  Tensor lhs = createBSMatMulInputLHS(f.graph, p, {"lhs"});
  Tensor rhs = createBSMatMulInputRHS(f.graph, p, {"rhs"});
  assert_int_equal(rhs.dim(0), 3);
  expectThrow<poplar::invalid_option>([&] { bsMatMul(f.graph, p, f.prog, lhs, rhs, {{"numberOfPass", "0"}}); },
                                      "numberOfPass");
  expectThrow<poplar::invalid_option>([&] { bsMatMul(f.graph, p, f.prog, lhs, rhs, {{"bogus", "1"}}); }, "bogus");
  expectThrow<poputil::poplibs_error>([&] { bsMatMul(f.graph, p, f.prog, rhs, rhs); }, "left operand");
  expectThrow<poputil::poplibs_error>([&] { bsMatMul(f.graph, p, f.prog, lhs, lhs); }, "non-zero blocks");
  Tensor blocks = f.graph.addVariable(FLOAT, {2, 64});
  expectThrow<poputil::poplibs_error>(
      [&] { bsSoftmax(f.graph, blocks, {16, 16}, {8, 8}, {1, 1, 1, 0}, SubBlockMask::None, 1, f.prog); },
      "non-zero blocks");
}

// The host storage formats: the sized constructors leave room for the values and indices, blocks report their shape.
void test_storage_formats(void **) {
  popsparse::CSRMatrix<float> csr(6, 4, {{2, 3}});
  assert_int_equal(csr.nzValues.size(), 6);
  assert_int_equal(csr.columnIndices.size(), 6);
  assert_int_equal(csr.rowIndices.size(), 5);
  assert_int_equal(csr.getBlockSize(), 6);
  assert_int_equal(csr.getNumRowsInBlock(), 2);
  assert_int_equal(csr.getNumColumnsInBlock(), 3);
  popsparse::CSCMatrix<float> csc(5, 3);
  assert_int_equal(csc.columnIndices.size(), 4);
  assert_int_equal(csc.rowIndices.size(), 5);
  popsparse::COOMatrix<float> coo(4, 4, {1.0f, 2.0f}, {0, 3}, {1, 2});
  assert_int_equal(coo.numRows, 4);
  assert_int_equal(coo.rowIndices[1], 2);
  assert_int_equal(coo.getBlockDimensions()[0], 1);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dense_sparse_float),
      cmocka_unit_test(test_dense_sparse_half),
      cmocka_unit_test(test_dense_sparse_empty_column),
      cmocka_unit_test(test_dense_sparse_transposed_groups),
      cmocka_unit_test(test_dense_dense_sparse),
      cmocka_unit_test(test_softmax_float),
      cmocka_unit_test(test_softmax_half),
      cmocka_unit_test(test_softmax_grad),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_storage_formats),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
