// LU factorization without pivoting, right-looking: U starts as a copy of the input and L as the identity; for
// each pivot k the multipliers of the rows below are U[i][k] / U[k][k] (stored in L's column k), and those rows
// subtract the multiplier times row k (one element-wise map over the trailing block, with the column and the row
// broadcast). Column k below the pivot is then set to exact zeros, which the subtraction only approaches.
#include "poplin/experimental/LuFactorization.hpp"

#include <algorithm>

#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {
namespace experimental {

namespace pe = popops::expr;
using poplar::Tensor;

std::pair<Tensor, Tensor> LUFactorization(poplar::Graph &graph, Tensor &input, poplar::program::Sequence &seq,
                                          const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "LUFactorization");
  if (input.rank() != 2 || input.numElements() == 0 ||
      (input.elementType() != poplar::FLOAT && input.elementType() != poplar::HALF))
    throw poputil::poplibs_error(name + ": input is " + input.elementType().toString() + " " +
                                 input.shapeToString() + "; pass a non-empty FLOAT or HALF matrix [M, N]");
  const std::size_t m = input.dim(0), n = input.dim(1);
  Tensor u = graph.clone(input, name + "/U");
  seq.add(poplar::program::Copy(input, u, false, name + "/U"));
  Tensor l = graph.addVariable(input.elementType(), {m, m}, name + "/L");
  poputil::mapTensorLinearly(graph, l);
  popops::zero(graph, l, seq, name + "/L");
  popops::fill(graph, l.flatten().subSample(unsigned(m + 1), 0), seq, 1.0f, name + "/L"); // the diagonal
  for (std::size_t k = 0; k + 1 < m && k < n; ++k) {
    const std::string step = name + "/pivot" + std::to_string(k);
    const Tensor below = u.slice({k + 1, k}, {m, k + 1}); // [m-k-1, 1]
    const Tensor mult = popops::map(graph, pe::_1 / pe::_2, {below, u.slice({k, k}, {k + 1, k + 1})}, seq, step);
    seq.add(poplar::program::Copy(mult, l.slice({k + 1, k}, {m, k + 1}), false, step));
    if (k + 1 < n) {
      const Tensor rest = u.slice({k + 1, k + 1}, {m, n});
      const Tensor col = mult.broadcast(unsigned(n - k - 1), 1);
      const Tensor row = u.slice({k, k + 1}, {k + 1, n}).broadcast(unsigned(m - k - 1), 0);
      popops::mapInPlace(graph, pe::_1 - pe::_2 * pe::_3, {rest, col, row}, seq, step);
    }
    popops::zero(graph, below, seq, step);
  }
  return {l, u};
}

} // namespace experimental
} // namespace poplin
