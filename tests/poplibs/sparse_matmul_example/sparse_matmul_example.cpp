// popsparse's sparse x dense products as a user of Graphcore's SDK writes them (C++11, linked with -lpopsparse
// -lpoplin -lpopops -lpoputil -lpoplar), on an IPU Model of 16 tiles, each checked against the dense product in
// double on the host:
// - dynamic (popsparse/MatMul.hpp, the pattern written when the program runs): element sparsity, and 2x3 blocks
//   in 2 groups with room for more blocks than used; S x B, S^T x C (transposeLHS) and S x D^T (transposeRHS).
// - static_ (the pattern a CSR matrix given when the graph is built): sparse x dense with element sparsity and its
//   transposeLHS and transposeRHS, dense x sparse with 4x2 blocks in 2 groups, plain and with both operands
//   transposed.
// - both APIs at 128 x 128 x 64 on the full ipu2 IPU Model.
// - both Partitioners' conversions back (COO, CSR, CSC), the parameters' printing and order, and errors that name
//   the problem.
// FLOAT must match within a relative 1e-5 and HALF within 1e-2 of the largest result (operands rounded to half on
// the host; HALF products of the static API sum in half, as Graphcore's do).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/TypeConversion.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparsePartitioner.hpp>
#include <popsparse/codelets.hpp>

#include "sdk_half.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;

namespace {

float valueAt(std::size_t i, unsigned seed) { return float(int((i * 29 + seed * 13) % 23) - 11) / 8.0f; }

// A sparse host matrix rows x cols (groups stacked by rows) in br x bc blocks: dense in double and as COO.
struct HostSparse {
  std::size_t rows, cols, br, bc;
  std::vector<double> dense;
  popsparse::COOMatrix<float> coo;
};

// Block (i, j) is non-zero when (i * 7 + j * 3 + seed) % 5 < 2; values rounded to half for HALF.
HostSparse makeSparse(std::size_t rows, std::size_t cols, std::size_t br, std::size_t bc, unsigned seed,
                      const Target &target, const Type &type) {
  std::array<std::size_t, 2> dims = {{br, bc}};
  HostSparse s{rows, cols, br, bc, std::vector<double>(rows * cols, 0.0), popsparse::COOMatrix<float>(dims)};
  s.coo.numRows = rows;
  s.coo.numColumns = cols;
  for (std::size_t i = 0; i < rows / br; ++i)
    for (std::size_t j = 0; j < cols / bc; ++j) {
      if ((i * 7 + j * 3 + seed) % 5 >= 2)
        continue;
      s.coo.rowIndices.push_back(i * br);
      s.coo.columnIndices.push_back(j * bc);
      for (std::size_t r = 0; r < br; ++r)
        for (std::size_t c = 0; c < bc; ++c) {
          const std::size_t at = (i * br + r) * cols + j * bc + c;
          float x = valueAt(at, seed);
          if (type == HALF) {
            unsigned short h;
            copyFloatToDeviceHalf(target, &x, &h, 1);
            copyDeviceHalfToFloat(target, &h, &x, 1);
          }
          s.coo.nzValues.push_back(x);
          s.dense[at] = x;
        }
    }
  return s;
}

// COO to CSR by hand (the blocks are already in row-major order), as a user would hold the matrix.
popsparse::CSRMatrix<float> toCSR(const HostSparse &s) {
  std::vector<std::size_t> starts(s.rows / s.br + 1, 0);
  for (std::size_t b = 0; b < s.coo.rowIndices.size(); ++b)
    starts[s.coo.rowIndices[b] / s.br + 1] += s.br * s.bc;
  for (std::size_t r = 0; r + 1 < starts.size(); ++r)
    starts[r + 1] += starts[r];
  std::array<std::size_t, 2> dims = {{s.br, s.bc}};
  return popsparse::CSRMatrix<float>(s.rows, s.cols, s.coo.nzValues, s.coo.columnIndices, starts, dims);
}

// Dense values for a [groups][rows][cols] operand, rounded to half for HALF.
std::vector<float> denseValues(std::size_t n, unsigned seed, const Target &target, const Type &type) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = valueAt(i, seed);
  if (type == HALF) {
    std::vector<unsigned short> h(n);
    copyFloatToDeviceHalf(target, v.data(), h.data(), n);
    copyDeviceHalfToFloat(target, h.data(), v.data(), n);
  }
  return v;
}

// A [groups][rows][cols] operand seen as element (g, i, j): of a stacked sparse matrix, or of dense values,
// optionally transposed.
struct View {
  const std::vector<double> *sparse;
  const std::vector<float> *dense;
  std::size_t rows, cols; // of each group as stored
  bool transposed;
  double at(std::size_t g, std::size_t i, std::size_t j) const {
    const std::size_t r = transposed ? j : i, c = transposed ? i : j;
    const std::size_t idx = (g * rows + r) * cols + c;
    return sparse ? (*sparse)[idx] : double((*dense)[idx]);
  }
  std::size_t outer() const { return transposed ? cols : rows; }
  std::size_t inner() const { return transposed ? rows : cols; }
};

View sparseView(const HostSparse &s, std::size_t groups, bool t) {
  View v = {&s.dense, 0, s.rows / groups, s.cols, t};
  return v;
}
View denseView(const std::vector<float> &d, std::size_t rows, std::size_t cols, bool t) {
  View v = {0, &d, rows, cols, t};
  return v;
}

// The largest error of got (the product a x b of `groups` groups) relative to the largest |result|.
double relativeError(const std::vector<float> &got, const View &a, const View &b, std::size_t groups) {
  double worst = 0, largest = 0;
  const std::size_t m = a.outer(), k = a.inner(), n = b.inner();
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double want = 0;
        for (std::size_t l = 0; l < k; ++l)
          want += a.at(g, i, l) * b.at(g, l, j);
        largest = std::max(largest, std::fabs(want));
        worst = std::max(worst, std::fabs(double(got[(g * m + i) * n + j]) - want));
      }
  return worst / std::max(largest, 1.0);
}

Tensor mappedVariable(Graph &graph, const Type &type, const std::vector<std::size_t> &shape, const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  graph.createHostWrite(name, t);
  return t;
}

void report(const std::string &what, double err, double tol) {
  std::cout << what << ": relative error within " << tol << ": " << (err <= tol ? "yes" : "no") << std::endl;
  std::cout << "  (largest relative error " << err << ")" << std::endl;
}

// The host operands of a sparse x dense case: S [groups x m, k] and dense B [g][k][n], C [g][m][n], D [g][n][k].
struct Operands {
  const HostSparse *s;
  const std::vector<float> *b, *c, *d;
  std::size_t groups, m, k, n;
};

// Reports the three products a sparse x dense case reads back under `p`: S x B, S^T x C and S x D^T.
void reportSparseDense(Engine &engine, const Target &target, const Type &type, const std::string &label,
                       const std::string &p, const Operands &o, double tol) {
  const View s = sparseView(*o.s, o.groups, false), st = sparseView(*o.s, o.groups, true);
  report(label + ", S x B",
         relativeError(readAs(engine, target, type, p + "sb", o.groups * o.m * o.n), s,
                       denseView(*o.b, o.k, o.n, false), o.groups),
         tol);
  report(label + ", S^T x C",
         relativeError(readAs(engine, target, type, p + "stc", o.groups * o.k * o.n), st,
                       denseView(*o.c, o.m, o.n, false), o.groups),
         tol);
  report(label + ", S x D^T",
         relativeError(readAs(engine, target, type, p + "sdt", o.groups * o.m * o.n), s,
                       denseView(*o.d, o.n, o.k, true), o.groups),
         tol);
}

void yesNo(const std::string &what, bool ok) { std::cout << what << ": " << (ok ? "yes" : "no") << std::endl; }

// One dynamic case: groups x [m, k] sparse in br x bc blocks with room for `spare` more blocks, n columns.
struct DynamicCase {
  const char *label;
  std::size_t groups, m, k, n, br, bc, spare;
};

// One static case: the sparse operand [groups x rows, cols] in br x bc blocks.
struct StaticCase {
  const char *label;
  bool denseSparse;
  std::size_t groups, m, k, n, br, bc;
};

void run(Device &device, const Type &type) {
  const Target &target = device.getTarget();
  const double tol = type == HALF ? 1e-2 : 1e-5;
  const std::string tname = type == HALF ? "half" : "float";
  Graph graph(target);
  popsparse::addCodelets(graph);
  program::Sequence prog;

  // Dynamic products.
  const DynamicCase dyn[] = {{"dynamic element", 1, 6, 10, 4, 1, 1, 0}, {"dynamic 2x3 blocks", 2, 8, 12, 5, 2, 3, 2}};
  std::vector<HostSparse> dynSparse;
  std::vector<popsparse::dynamic::MatMulParams> dynParams;
  for (std::size_t c = 0; c < 2; ++c) {
    const DynamicCase &d = dyn[c];
    dynSparse.push_back(makeSparse(d.groups * d.m, d.k, d.br, d.bc, unsigned(c + 1), target, type));
    const std::size_t used = dynSparse.back().coo.rowIndices.size();
    std::array<std::size_t, 2> dims = {{d.br, d.bc}};
    dynParams.push_back(popsparse::dynamic::MatMulParams::createWithNumNonZeroValues(
        popsparse::dynamic::SparsityParams(popsparse::dynamic::SparsityType::Block,
                                           popsparse::dynamic::SparsityStructure::Unstructured, dims),
        (used + d.spare) * d.br * d.bc, d.groups, d.m, d.k, d.n));
    const std::string p = "d" + std::to_string(c);
    popsparse::dynamic::SparseTensor s =
        popsparse::dynamic::createSparseDenseMatMulLHS(graph, type, dynParams.back(), p + "lhs");
    graph.createHostWrite(p + "meta", s.getMetaInfoTensor());
    graph.createHostWrite(p + "nz", s.getNzValuesTensor());
    Tensor b = popsparse::dynamic::createSparseDenseMatMulRHS(graph, type, dynParams.back(), p + "b");
    graph.createHostWrite(p + "b", b);
    Tensor cT = mappedVariable(graph, type, {d.groups, d.m, d.n}, p + "c");
    Tensor dT = mappedVariable(graph, type, {d.groups, d.n, d.k}, p + "d");
    graph.createHostRead(p + "sb", popsparse::dynamic::sparseDenseMatMul(graph, s, b, prog, false, false, p + "sb"));
    graph.createHostRead(p + "stc", popsparse::dynamic::sparseDenseMatMul(graph, s, cT, prog, true, false, p + "stc"));
    graph.createHostRead(p + "sdt", popsparse::dynamic::sparseDenseMatMul(graph, s, dT, prog, false, true, p + "sdt"));
  }

  // Static products.
  const StaticCase sta[] = {{"static sparse x dense, element", false, 1, 6, 10, 4, 1, 1},
                            {"static dense x sparse, 4x2 blocks", true, 2, 6, 8, 5, 4, 2}};
  std::vector<HostSparse> staSparse;
  std::vector<popsparse::static_::MatMulParams> staParams;
  for (std::size_t c = 0; c < 2; ++c) {
    const StaticCase &d = sta[c];
    const std::string p = "s" + std::to_string(c);
    // Sparse x dense: [g x m, k]; dense x sparse: [g x k, m].
    staSparse.push_back(makeSparse(d.groups * (d.denseSparse ? d.k : d.m), d.denseSparse ? d.m : d.k, d.br, d.bc,
                                   unsigned(c + 5), target, type));
    const popsparse::CSRMatrix<float> csr = toCSR(staSparse.back());
    if (d.denseSparse) {
      staParams.push_back(popsparse::static_::MatMulParams::createForDenseSparse(d.groups, d.n, d.k, d.m));
      popsparse::static_::SparseTensor s =
          popsparse::static_::createDenseSparseMatMulRHS(graph, type, staParams.back(), csr, p + "rhs");
      graph.createHostWrite(p + "nz", s.getNzValuesTensor());
      Tensor a = popsparse::static_::createDenseSparseMatMulLHS(graph, type, staParams.back(), csr, p + "a");
      graph.createHostWrite(p + "a", a);
      graph.createHostRead(p + "as", popsparse::static_::denseSparseMatMul(graph, a, s, prog, false, false, p + "as"));
      Tensor cT = mappedVariable(graph, type, {d.groups, d.m, d.n}, p + "c");
      graph.createHostRead(p + "ctst",
                           popsparse::static_::denseSparseMatMul(graph, cT, s, prog, true, true, p + "ctst"));
    } else {
      staParams.push_back(popsparse::static_::MatMulParams::createForSparseDense(d.groups, d.m, d.k, d.n));
      popsparse::static_::SparseTensor s =
          popsparse::static_::createSparseDenseMatMulLHS(graph, type, staParams.back(), csr, p + "lhs");
      graph.createHostWrite(p + "nz", s.getNzValuesTensor());
      Tensor b = popsparse::static_::createSparseDenseMatMulRHS(graph, type, staParams.back(), csr, p + "b");
      graph.createHostWrite(p + "b", b);
      Tensor cT = mappedVariable(graph, type, {d.groups, d.m, d.n}, p + "c");
      graph.createHostRead(p + "sb", popsparse::static_::sparseDenseMatMul(graph, s, b, prog, false, false, p + "sb"));
      graph.createHostRead(p + "stc",
                           popsparse::static_::sparseDenseMatMul(graph, s, cT, prog, true, false, p + "stc"));
      Tensor dT = mappedVariable(graph, type, {d.groups, d.n, d.k}, p + "d");
      graph.createHostRead(p + "sdt",
                           popsparse::static_::sparseDenseMatMul(graph, s, dT, prog, false, true, p + "sdt"));
    }
  }

  Engine engine(graph, prog);
  engine.load(device);

  // Host data: the sparse operands through the Partitioners, the dense operands.
  std::vector<std::vector<float> > dynB, dynC, dynD, staB, staC, staD;
  bool roundTrip = true;
  for (std::size_t c = 0; c < 2; ++c) {
    const DynamicCase &d = dyn[c];
    const std::string p = "d" + std::to_string(c);
    popsparse::dynamic::Partitioner<float> part(dynParams[c], type, target, OptionFlags());
    const popsparse::dynamic::SparsityDataImpl<float> data = part.createSparsityDataImpl(dynSparse[c].coo);
    const std::vector<unsigned> meta(data.metaInfo.begin(), data.metaInfo.end());
    engine.writeTensor(p + "meta", meta.data(), meta.data() + meta.size());
    writeAs(engine, target, type, p + "nz", data.nzValues);
    roundTrip = roundTrip && part.sparsityDataImplToCOOMatrix(data).nzValues == dynSparse[c].coo.nzValues &&
                part.sparsityDataImplToCSRMatrix(data).columnIndices == dynSparse[c].coo.columnIndices;
    dynB.push_back(denseValues(d.groups * d.k * d.n, 11, target, type));
    dynC.push_back(denseValues(d.groups * d.m * d.n, 12, target, type));
    dynD.push_back(denseValues(d.groups * d.n * d.k, 13, target, type));
    writeAs(engine, target, type, p + "b", dynB[c]);
    writeAs(engine, target, type, p + "c", dynC[c]);
    writeAs(engine, target, type, p + "d", dynD[c]);
  }
  for (std::size_t c = 0; c < 2; ++c) {
    const StaticCase &d = sta[c];
    const std::string p = "s" + std::to_string(c);
    popsparse::static_::Partitioner<float> part(staParams[c], type, target, OptionFlags());
    // CSC in: the values come out in the operand's order whatever the format.
    const popsparse::static_::SparsityDataImpl<float> viaCoo = part.createSparsityDataImpl(staSparse[c].coo);
    const popsparse::CSCMatrix<float> csc = part.sparsityDataImplToCSCMatrix(viaCoo);
    const popsparse::static_::SparsityDataImpl<float> data = part.createSparsityDataImpl(csc);
    roundTrip = roundTrip && data.nzValues == viaCoo.nzValues &&
                part.sparsityDataImplToCOOMatrix(data).rowIndices == staSparse[c].coo.rowIndices &&
                part.sparsityDataImplToCSRMatrix(data).nzValues == staSparse[c].coo.nzValues;
    writeAs(engine, target, type, p + "nz", data.nzValues);
    staB.push_back(denseValues(d.groups * (d.denseSparse ? d.n * d.k : d.k * d.n), 21, target, type));
    staC.push_back(denseValues(d.groups * d.m * d.n, 22, target, type));
    staD.push_back(denseValues(d.groups * d.n * d.k, 23, target, type));
    writeAs(engine, target, type, p + (d.denseSparse ? "a" : "b"), staB[c]);
    writeAs(engine, target, type, p + "c", staC[c]);
    if (!d.denseSparse)
      writeAs(engine, target, type, p + "d", staD[c]);
  }
  engine.run(0);

  for (std::size_t c = 0; c < 2; ++c) {
    const DynamicCase &d = dyn[c];
    const std::string p = "d" + std::to_string(c), label = tname + " " + d.label;
    const Operands o = {&dynSparse[c], &dynB[c], &dynC[c], &dynD[c], d.groups, d.m, d.k, d.n};
    reportSparseDense(engine, target, type, label, p, o, tol);
  }
  for (std::size_t c = 0; c < 2; ++c) {
    const StaticCase &d = sta[c];
    const std::string p = "s" + std::to_string(c), label = tname + " " + d.label;
    if (d.denseSparse) {
      report(label + ", A x S",
             relativeError(readAs(engine, target, type, p + "as", d.groups * d.n * d.m),
                           denseView(staB[c], d.n, d.k, false), sparseView(staSparse[c], d.groups, false), d.groups),
             tol);
      report(label + ", C^T x S^T",
             relativeError(readAs(engine, target, type, p + "ctst", d.groups * d.n * d.k),
                           denseView(staC[c], d.m, d.n, true), sparseView(staSparse[c], d.groups, true), d.groups),
             tol);
    } else {
      const Operands o = {&staSparse[c], &staB[c], &staC[c], &staD[c], d.groups, d.m, d.k, d.n};
      reportSparseDense(engine, target, type, label, p, o, tol);
    }
  }
  yesNo(tname + " partitioners give the matrices back", roundTrip);
}

// Runs fn and reports whether it threw poplibs_error (or, for options, poplar's invalid_option) with `text` in its
// message.
template <typename Fn> void expectError(const std::string &what, Fn fn, const std::string &text) {
  bool ok = false;
  try {
    fn();
  } catch (const std::exception &e) {
    ok = std::string(e.what()).find(text) != std::string::npos;
    std::cout << "  (" << e.what() << ")" << std::endl;
  }
  yesNo(what, ok);
}

struct FcAsMatMul {
  Graph *graph;
  program::Sequence *prog;
  void operator()() const {
    std::array<std::size_t, 2> one = {{1, 1}};
    const popsparse::dynamic::FullyConnectedParams fc = popsparse::dynamic::FullyConnectedParams::createWithNzRatio(
        popsparse::dynamic::SparsityParams(popsparse::dynamic::SparsityType::Element,
                                           popsparse::dynamic::SparsityStructure::Unstructured, one),
        0.5, 2, 1, 4, 4);
    popsparse::dynamic::SparseTensor w = popsparse::dynamic::createFullyConnectedWeights(*graph, FLOAT, fc, "w");
    popsparse::dynamic::sparseDenseMatMul(*graph, w, graph->addVariable(FLOAT, {1, 4, 2}, "x"), *prog);
  }
};

struct WrongSide {
  Graph *graph;
  program::Sequence *prog;
  void operator()() const {
    std::array<std::size_t, 2> one = {{1, 1}};
    const popsparse::CSRMatrix<float> csr(4, 4, std::vector<float>(1, 1.0f), std::vector<std::size_t>(1, 0),
                                          std::vector<std::size_t>{0, 1, 1, 1, 1}, one);
    const popsparse::static_::MatMulParams p = popsparse::static_::MatMulParams::createForDenseSparse(1, 2, 4, 4);
    popsparse::static_::SparseTensor s = popsparse::static_::createDenseSparseMatMulRHS(*graph, FLOAT, p, csr);
    popsparse::static_::sparseDenseMatMul(*graph, s, graph->addVariable(FLOAT, {1, 4, 2}, "x"), *prog);
  }
};

struct UnknownOption {
  Graph *graph;
  void operator()() const {
    const popsparse::dynamic::MatMulParams p =
        popsparse::dynamic::MatMulParams::createWithNzRatio(popsparse::dynamic::SparsityParams(), 0.5, 1, 4, 4, 4);
    OptionFlags options;
    options.set("sharedBucket", "true");
    popsparse::dynamic::createSparseDenseMatMulLHS(*graph, FLOAT, p, "lhs", options);
  }
};

struct BadRatio {
  void operator()() const {
    popsparse::dynamic::MatMulParams::createWithNzRatio(popsparse::dynamic::SparsityParams(), 1.5, 1, 4, 4, 4);
  }
};

void checkParamsAndErrors(Device &device) {
  std::array<std::size_t, 2> dims = {{2, 2}};
  const popsparse::dynamic::SparsityParams sp(popsparse::dynamic::SparsityType::Block,
                                              popsparse::dynamic::SparsityStructure::Unstructured, dims);
  const popsparse::dynamic::MatMulParams a =
      popsparse::dynamic::MatMulParams::createWithNzRatio(sp, 0.25, 2, 8, 4, 3);
  const popsparse::dynamic::MatMulParams b =
      popsparse::dynamic::MatMulParams::createWithNumNonZeroValues(sp, 8, 2, 8, 4, 3);
  std::ostringstream os;
  os << a;
  yesNo("dynamic MatMulParams count their room, compare and print",
        a.getNumNonZeroValues() == 16 && b.getNumNonZeroValues() == 8 && a != b && b < a &&
            os.str().find("m: 8") != std::string::npos);
  const popsparse::static_::MatMulParams sd = popsparse::static_::MatMulParams::createForSparseDense(1, 2, 3, 4);
  const popsparse::static_::MatMulParams ds = popsparse::static_::MatMulParams::createForDenseSparse(1, 4, 3, 2);
  std::ostringstream os2;
  os2 << ds;
  yesNo("static MatMulParams: sparse x dense and dense x sparse differ only in isTransposed",
        !sd.isTransposed() && ds.isTransposed() && sd.getM() == ds.getM() && sd.getN() == ds.getN() && sd != ds &&
            os2.str().find("dense x sparse") != std::string::npos);

  Graph graph(device.getTarget());
  program::Sequence prog;
  FcAsMatMul fc = {&graph, &prog};
  expectError("a fully connected layer's weights are refused by sparseDenseMatMul", fc, "createSparseDenseMatMulLHS");
  WrongSide ws = {&graph, &prog};
  expectError("a dense x sparse operand is refused by sparseDenseMatMul", ws, "dense x sparse");
  expectError("an nzRatio above 1 is refused", BadRatio(), "not in [0, 1]");
  UnknownOption uo = {&graph};
  expectError("an unknown option is refused, naming the known ones", uo, "sharedBuckets");
}

// A 128 x 128 element-sparse operand (40% dense) times 128 x 64 on the full ipu2 IPU Model, static and dynamic:
// the operands spread over many tiles (a first static design ran out of memory there, not on 16 tiles).
void large(Device &device) {
  const Target &target = device.getTarget();
  const std::size_t m = 128, k = 128, n = 64;
  const HostSparse sp = makeSparse(m, k, 1, 1, 3, target, FLOAT);
  const std::vector<float> b = denseValues(k * n, 4, target, FLOAT);
  Graph graph(target);
  popsparse::addCodelets(graph);
  program::Sequence prog;
  const popsparse::static_::MatMulParams sParams = popsparse::static_::MatMulParams::createForSparseDense(1, m, k, n);
  popsparse::static_::Partitioner<float> sPart(sParams, FLOAT, target, OptionFlags());
  const popsparse::static_::SparsityDataImpl<float> sData = sPart.createSparsityDataImpl(sp.coo);
  const popsparse::CSRMatrix<float> csr = sPart.sparsityDataImplToCSRMatrix(sData);
  popsparse::static_::SparseTensor sLhs = popsparse::static_::createSparseDenseMatMulLHS(graph, FLOAT, sParams, csr);
  Tensor sRhs = popsparse::static_::createSparseDenseMatMulRHS(graph, FLOAT, sParams, csr);
  graph.createHostWrite("snz", sLhs.getNzValuesTensor());
  graph.createHostWrite("sb", sRhs);
  graph.createHostRead("sout", popsparse::static_::sparseDenseMatMul(graph, sLhs, sRhs, prog));
  const popsparse::dynamic::MatMulParams dParams = popsparse::dynamic::MatMulParams::createWithNumNonZeroValues(
      popsparse::dynamic::SparsityParams(), sp.coo.nzValues.size(), 1, m, k, n);
  popsparse::dynamic::SparseTensor dLhs = popsparse::dynamic::createSparseDenseMatMulLHS(graph, FLOAT, dParams);
  Tensor dRhs = popsparse::dynamic::createSparseDenseMatMulRHS(graph, FLOAT, dParams);
  graph.createHostWrite("dmeta", dLhs.getMetaInfoTensor());
  graph.createHostWrite("dnz", dLhs.getNzValuesTensor());
  graph.createHostWrite("db", dRhs);
  graph.createHostRead("dout", popsparse::dynamic::sparseDenseMatMul(graph, dLhs, dRhs, prog));
  Engine engine(graph, prog);
  engine.load(device);
  popsparse::dynamic::Partitioner<float> dPart(dParams, FLOAT, target, OptionFlags());
  const popsparse::dynamic::SparsityDataImpl<float> dData = dPart.createSparsityDataImpl(sp.coo);
  const std::vector<unsigned> meta(dData.metaInfo.begin(), dData.metaInfo.end());
  writeAs(engine, target, FLOAT, "snz", sData.nzValues);
  writeAs(engine, target, FLOAT, "sb", b);
  engine.writeTensor("dmeta", meta.data(), meta.data() + meta.size());
  writeAs(engine, target, FLOAT, "dnz", dData.nzValues);
  writeAs(engine, target, FLOAT, "db", b);
  engine.run(0);
  const View a = sparseView(sp, 1, false), bv = denseView(b, k, n, false);
  report("float static 128x128x64 on ipu2", relativeError(readAs(engine, target, FLOAT, "sout", m * n), a, bv, 1),
         1e-5);
  report("float dynamic 128x128x64 on ipu2", relativeError(readAs(engine, target, FLOAT, "dout", m * n), a, bv, 1),
         1e-5);
}

} // namespace

int main() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  checkParamsAndErrors(device);
  run(device, FLOAT);
  run(device, HALF);
  Device full = IPUModel("ipu2").createDevice();
  large(full);
  return 0;
}
