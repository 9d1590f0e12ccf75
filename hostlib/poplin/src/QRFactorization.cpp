// Householder QR. For each column k: x = A[k:, k], alpha = -sign(x0) ||x|| (the sign avoiding cancellation),
// v = x - alpha e1 and beta = 2 / (v^T v) (0 when x is already zero); then A[k:, k:] -= beta v (v^T A[k:, k:])
// and Q[:, k:] -= beta (Q[:, k:] v) v^T. The two products are matMuls; the rank-1 updates are element-wise maps
// with v, the product and beta broadcast. Column k below the diagonal is then set to exact zeros.
#include "poplin/experimental/QRFactorization.hpp"

#include <algorithm>
#include <string>

#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {
namespace experimental {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void checkType(const poplar::Type &type, const std::string &name) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poplibs_error(name + ": the type is " + type.toString() + "; pass FLOAT or HALF");
}

// rowsPerIteration only tunes PopLibs' tiling; it is checked and otherwise unused.
void checkOptions(const poplar::OptionFlags &options) {
  for (const auto &o : options) {
    if (o.first != "rowsPerIteration")
      throw poplar::invalid_option("poplin::experimental::QRFactorization: unknown option '" + o.first +
                                   "'; the option is rowsPerIteration");
    const bool digits = !o.second.empty() && std::all_of(o.second.begin(), o.second.end(), ::isdigit);
    if (!digits || std::stoul(o.second) == 0)
      throw poplar::invalid_option("poplin::experimental::QRFactorization: rowsPerIteration is '" + o.second +
                                   "'; pass a positive integer");
  }
}

// The scalar s ([1]) as a [rows, cols] view.
Tensor spread(const Tensor &s, std::size_t rows, std::size_t cols) {
  return s.reshape({1, 1}).broadcast(unsigned(rows), 0).broadcast(unsigned(cols), 1);
}

Tensor sumOfSquares(poplar::Graph &graph, const Tensor &v, poplar::program::Sequence &prog, const std::string &name) {
  return popops::reduce(graph, v.flatten(), v.elementType(), {0}, {popops::Operation::SQUARE_ADD}, prog, name)
      .reshape({1});
}

} // namespace

std::array<Tensor, 2> createQRFactorizationMatrices(poplar::Graph &graph, const poplar::Type &type,
                                                    const std::size_t m, const std::size_t n,
                                                    const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createQRFactorizationMatrices");
  checkType(type, name);
  if (m == 0 || n == 0)
    throw poplibs_error(name + ": the matrix is " + std::to_string(m) + " x " + std::to_string(n) +
                        "; pass non-zero sizes");
  Tensor a = graph.addVariable(type, {m, n}, name + "/A"), q = graph.addVariable(type, {m, m}, name + "/Q");
  poputil::mapTensorLinearly(graph, a);
  poputil::mapTensorLinearly(graph, q);
  return {a, q};
}

void QRFactorization(poplar::Graph &graph, Tensor &A, Tensor &Q, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = opName(debugContext, "QRFactorization");
  checkOptions(options);
  if (A.rank() != 2 || A.numElements() == 0)
    throw poplibs_error(name + ": A has shape " + A.shapeToString() + "; pass a non-empty matrix [m, n]");
  checkType(A.elementType(), name);
  const std::size_t m = A.dim(0), n = A.dim(1);
  if (Q.rank() != 2 || Q.dim(0) != m || Q.dim(1) != m || Q.elementType() != A.elementType())
    throw poplibs_error(name + ": Q is " + Q.elementType().toString() + " " + Q.shapeToString() + "; pass " +
                        A.elementType().toString() + " [" + std::to_string(m) + ", " + std::to_string(m) + "]");
  for (std::size_t k = 0; k + 1 < m && k < n; ++k) {
    const std::string step = name + "/column" + std::to_string(k);
    const std::size_t r = m - k, c = n - k;
    const Tensor x = A.slice({k, k}, {m, k + 1}); // [r, 1]
    const Tensor x0 = A.slice({k, k}, {k + 1, k + 1}).reshape({1});
    const Tensor norm2 = sumOfSquares(graph, x, prog, step + "/norm");
    const Tensor alpha = popops::map(graph, pe::Select(-pe::Sqrt(pe::_1), pe::Sqrt(pe::_1), pe::Gte(pe::_2, pe::Const(0.0f))),
                                     {norm2, x0}, prog, step + "/alpha");
    Tensor v = graph.clone(x, step + "/v");
    prog.add(poplar::program::Copy(x, v, false, step + "/v"));
    popops::subInPlace(graph, v.slice({0, 0}, {1, 1}).reshape({1}), alpha, prog, step + "/v");
    const Tensor beta = popops::map(graph, pe::Select(pe::Const(2.0f) / pe::_1, pe::Const(0.0f), pe::Gt(pe::_1, pe::Const(0.0f))),
                                    {sumOfSquares(graph, v, prog, step + "/vv")}, prog, step + "/beta");
    const Tensor block = A.slice({k, k}, {m, n});
    const Tensor w = poplin::matMul(graph, v.transpose(), block, prog, step + "/vA"); // [1, c]
    popops::mapInPlace(graph, pe::_1 - pe::_2 * pe::_3 * pe::_4,
                       {block, v.broadcast(unsigned(c), 1), w.broadcast(unsigned(r), 0), spread(beta, r, c)}, prog,
                       step + "/A");
    const Tensor qBlock = Q.slice({0, k}, {m, m});
    const Tensor z = poplin::matMul(graph, qBlock, v, prog, step + "/Qv"); // [m, 1]
    popops::mapInPlace(graph, pe::_1 - pe::_2 * pe::_3 * pe::_4,
                       {qBlock, z.broadcast(unsigned(r), 1), v.transpose().broadcast(unsigned(m), 0), spread(beta, m, r)},
                       prog, step + "/Q");
    popops::zero(graph, A.slice({k + 1, k}, {m, k + 1}), prog, step + "/zeros");
  }
}

} // namespace experimental
} // namespace poplin
