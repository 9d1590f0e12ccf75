// Blocked right-looking Cholesky factorization on a copy W of the lower triangle's matrix. For each block of
// columns [s, e): for each column j, W[j][j] = sqrt(W[j][j]), the column below it is divided by it, and the
// block's remaining columns subtract the rank-1 product of column j with itself (element-wise maps over all rows
// below); then the trailing matrix W[e:, e:] subtracts L21 L21^T (one matMul with accumulation). The factor is W's
// lower triangle. The upper form works on the transpose (so a's upper triangle is read) and returns L^T.
#include "poplin/Cholesky.hpp"

#include "poplin/Convolution.hpp"

#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"
#include "triangular.hpp"

namespace poplin {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;

namespace {

// The options with `blockSize` (when not 0) as the block size.
detail::SolveOptions solveOptions(poplar::OptionFlags options, std::size_t blockSize, const std::string &what) {
  if (blockSize)
    options.set("blockSize", std::to_string(blockSize));
  return detail::parseSolveOptions(options, what);
}

std::size_t squareOf(const std::vector<std::size_t> &shape, const std::string &what) {
  detail::groupsOf(shape, what, "the matrix");
  const std::size_t n = shape.back();
  if (shape[shape.size() - 2] != n)
    throw poplibs_error(what + ": the matrix has " + std::to_string(shape[shape.size() - 2]) + " rows and " +
                        std::to_string(n) + " columns; give square matrices [..., N, N]");
  return n;
}

} // namespace

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getCholeskyMatMulPrePlanParameters(const poplar::Type &type, const std::vector<std::size_t> &shape, bool,
                                   std::size_t blockSize, poplar::OptionFlags options) {
  const std::string what = "poplin::getCholeskyMatMulPrePlanParameters";
  detail::SolveOptions o = solveOptions(options, blockSize, what);
  const std::size_t n = squareOf(shape, what), G = detail::groupsOf(shape, what, "the matrix");
  std::vector<std::pair<MatMulParams, poplar::OptionFlags>> out;
  for (const auto &blk : detail::solveBlocks(n, o.blockSize)) {
    if (blk.second == n)
      continue;
    MatMulParams p;
    p.inputType = type;
    p.outputType = type;
    p.aShape = {G, n - blk.second, blk.second - blk.first};
    p.bShape = {G, blk.second - blk.first, n - blk.second};
    out.push_back({p, o.matMulOptions});
  }
  return out;
}

Tensor createCholeskyInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                           bool, std::size_t blockSize, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options, matmul::PlanningCache *) {
  const std::string name = opName(debugContext, "createCholeskyInput");
  solveOptions(options, blockSize, name);
  squareOf(shape, name);
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poplibs_error(name + ": type " + type.toString() + " is not FLOAT or HALF");
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor cholesky(poplar::Graph &graph, const Tensor &a, bool lower, std::size_t blockSize,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                poplar::OptionFlags options, matmul::PlanningCache *cache) {
  const std::string name = opName(debugContext, "cholesky");
  detail::SolveOptions o = solveOptions(options, blockSize, name);
  if (!a.valid())
    throw poplibs_error(name + ": a is an invalid tensor");
  if (a.elementType() != poplar::FLOAT && a.elementType() != poplar::HALF)
    throw poplibs_error(name + ": a holds " + a.elementType().toString() + "; give FLOAT or HALF");
  const std::size_t n = squareOf(a.shape(), name), G = detail::groupsOf(a.shape(), name, "a");
  Tensor src = a.reshape({G, n, n});
  if (!lower)
    src = src.dimShuffle({0, 2, 1});
  Tensor w = graph.clone(src, name + "/work");
  prog.add(poplar::program::Copy(src, w));
  for (const auto &blk : detail::solveBlocks(n, o.blockSize)) {
    const std::size_t s = blk.first, e = blk.second;
    for (std::size_t j = s; j < e; ++j) {
      const std::string step = name + "/col" + std::to_string(j);
      Tensor d = w.slice({0, j, j}, {G, j + 1, j + 1});
      popops::mapInPlace(graph, pe::Sqrt(pe::_1), {d}, prog, step + "/sqrt");
      if (j + 1 == n)
        continue;
      Tensor col = w.slice({0, j + 1, j}, {G, n, j + 1});
      popops::mapInPlace(graph, pe::_1 / pe::_2, {col, d}, prog, step + "/scale");
      if (j + 1 < e)
        popops::mapInPlace(graph, pe::_1 - pe::_2 * pe::_3,
                           {w.slice({0, j + 1, j + 1}, {G, n, e}), col,
                            w.slice({0, j + 1, j}, {G, e, j + 1}).dimShuffle({0, 2, 1})},
                           prog, step + "/update");
    }
    if (e < n) {
      Tensor l21 = w.slice({0, e, s}, {G, n, e});
      matMulGroupedAcc(graph, w.slice({0, e, e}, {G, n, n}), -1.0f, l21, l21.dimShuffle({0, 2, 1}), prog,
                       name + "/trailing" + std::to_string(s), o.matMulOptions, cache);
    }
  }
  Tensor l = detail::maskGrouped(graph, w, true, false, prog, name + "/mask");
  return (lower ? l : l.dimShuffle({0, 2, 1})).reshape(a.shape());
}

void choleskyInPlace(poplar::Graph &graph, const Tensor &a, bool lower, std::size_t blockSize,
                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                     poplar::OptionFlags options, matmul::PlanningCache *cache) {
  if (a.valid() && !a.isParallelWriteable())
    throw poplibs_error(opName(debugContext, "choleskyInPlace") + ": a has aliased elements");
  Tensor l = cholesky(graph, a, lower, blockSize, prog, debugContext, options, cache);
  prog.add(poplar::program::Copy(l, a));
}

// Block size 0 leaves the "blockSize" option (or its default) in charge; the products use the cache's product plans.
namespace {
matmul::PlanningCache *productPlans(PlanningCache *cache) { return cache; }
} // namespace

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getCholeskyMatMulPrePlanParameters(const poplar::Type &type, const std::vector<std::size_t> &shape, bool lower,
                                   poplar::OptionFlags options) {
  return getCholeskyMatMulPrePlanParameters(type, shape, lower, 0, std::move(options));
}

Tensor createCholeskyInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                           bool lower, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                           PlanningCache *cache) {
  return createCholeskyInput(graph, type, shape, lower, 0, debugContext, options, productPlans(cache));
}

Tensor cholesky(poplar::Graph &graph, const Tensor &a, bool lower, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext, poplar::OptionFlags options, PlanningCache *cache) {
  return cholesky(graph, a, lower, 0, prog, debugContext, std::move(options), productPlans(cache));
}

void choleskyInPlace(poplar::Graph &graph, const Tensor &a, bool lower, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext, poplar::OptionFlags options,
                     PlanningCache *cache) {
  choleskyInPlace(graph, a, lower, 0, prog, debugContext, std::move(options), productPlans(cache));
}

} // namespace poplin
