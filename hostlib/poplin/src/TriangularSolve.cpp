// Triangular solves by blocks. For A lower triangular, block by block from the top: the block's rows of X are
// found by substitution (for each row: divide by the diagonal, then subtract the row's multiples from the rows
// below it in the block: element-wise maps), then every row below the block subtracts A[below, block] X[block]
// (one matMul with accumulation). Upper triangular runs the same from the bottom. X A = B is solved as
// A^T X^T = B^T, the transposes being views.
#include "poplin/TriangularSolve.hpp"

#include <algorithm>
#include <cstdlib>

#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"
#include "triangular.hpp"

namespace poplin {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;

namespace detail {

SolveOptions parseSolveOptions(const poplar::OptionFlags &options, const std::string &what) {
  SolveOptions o;
  for (const auto &opt : options) {
    if (opt.first == "blockSize") {
      char *end = 0;
      long v = std::strtol(opt.second.c_str(), &end, 10);
      if (opt.second.empty() || *end || v <= 0)
        throw poplar::invalid_option(what + ": option blockSize='" + opt.second + "' is not an integer > 0");
      o.blockSize = std::size_t(v);
    } else {
      o.matMulOptions.set(opt.first, opt.second);
    }
  }
  matmulValidateOptions(o.matMulOptions);
  return o;
}

std::vector<std::pair<std::size_t, std::size_t>> solveBlocks(std::size_t n, std::size_t blockSize) {
  std::vector<std::pair<std::size_t, std::size_t>> b;
  for (std::size_t s = 0; s < n; s += blockSize)
    b.push_back({s, std::min(n, s + blockSize)});
  return b;
}

std::size_t groupsOf(const std::vector<std::size_t> &shape, const std::string &what, const char *operand) {
  if (shape.size() < 2)
    throw poplibs_error(what + ": " + operand + " has " + std::to_string(shape.size()) +
                        " dimensions; give [..., rows, cols]");
  std::size_t g = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i)
    g *= shape[i];
  return g;
}

Tensor maskGrouped(poplar::Graph &graph, const Tensor &a, bool lower, bool unitDiagonal,
                   poplar::program::Sequence &prog, const std::string &name) {
  const std::size_t n = a.dim(2);
  // keep: the elements read from a; fill: what the others become (one on a unit diagonal, else zero).
  std::vector<unsigned char> keep(n * n);
  std::vector<float> fill(n * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      keep[i * n + j] = (i == j) ? !unitDiagonal : (lower ? j < i : j > i);
      if (i == j && unitDiagonal)
        fill[i * n + j] = 1.0f;
    }
  Tensor k = graph.addConstant(poplar::BOOL, {1, n, n}, keep, name + "/keep");
  Tensor f = graph.addConstant(a.elementType(), {1, n, n}, fill, name + "/fill");
  poputil::mapTensorLinearly(graph, k);
  poputil::mapTensorLinearly(graph, f);
  return popops::map(graph, pe::Select(pe::_1, pe::_2, pe::_3), {a, f, k}, prog, name);
}

void solveLeftInPlace(poplar::Graph &graph, const Tensor &a, const Tensor &x, bool lower, bool unitDiagonal,
                      const SolveOptions &o, poplar::program::Sequence &prog, matmul::PlanningCache *cache,
                      const std::string &name) {
  const std::size_t G = a.dim(0), n = a.dim(1), K = x.dim(2);
  std::vector<std::pair<std::size_t, std::size_t>> blocks = solveBlocks(n, o.blockSize);
  if (!lower)
    std::reverse(blocks.begin(), blocks.end());
  for (const auto &blk : blocks) {
    const std::size_t s = blk.first, e = blk.second;
    for (std::size_t step = 0; step < e - s; ++step) {
      const std::size_t i = lower ? s + step : e - 1 - step;
      Tensor xi = x.slice({0, i, 0}, {G, i + 1, K});
      if (!unitDiagonal)
        popops::mapInPlace(graph, pe::_1 / pe::_2, {xi, a.slice({0, i, i}, {G, i + 1, i + 1})}, prog,
                           name + "/row" + std::to_string(i));
      // The rows of the block still to solve: below i (lower) or above it (upper).
      const std::size_t rb = lower ? i + 1 : s, re = lower ? e : i;
      if (rb < re)
        popops::mapInPlace(graph, pe::_1 - pe::_2 * pe::_3,
                           {x.slice({0, rb, 0}, {G, re, K}), a.slice({0, rb, i}, {G, re, i + 1}), xi}, prog,
                           name + "/eliminate" + std::to_string(i));
    }
    // The rows outside the block that depend on it: below (lower) or above (upper).
    const std::size_t ob = lower ? e : 0, oe = lower ? n : s;
    if (ob < oe)
      matMulGroupedAcc(graph, x.slice({0, ob, 0}, {G, oe, K}), -1.0f, a.slice({0, ob, s}, {G, oe, e}),
                       x.slice({0, s, 0}, {G, e, K}), prog, name + "/update" + std::to_string(s), o.matMulOptions,
                       cache);
  }
}

} // namespace detail

namespace {

// The problem in grouped, left-side form: A {G, N, N} and B {G, N, K}, from the public shapes.
struct Shapes {
  std::size_t G, n, K;
};
Shapes shapesOf(const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape, bool leftSide,
                const std::string &what) {
  const std::size_t G = detail::groupsOf(aShape, what, "a");
  detail::groupsOf(bShape, what, "b");
  const std::size_t n = aShape[aShape.size() - 1];
  const std::size_t bRows = bShape[bShape.size() - 2], bCols = bShape[bShape.size() - 1];
  const bool lead = aShape.size() == bShape.size() && std::equal(aShape.begin(), aShape.end() - 2, bShape.begin());
  if (aShape[aShape.size() - 2] != n || !lead || (leftSide ? bRows : bCols) != n)
    throw poplibs_error(what + ": a [..., N, N] and b [..., N, K] (leftSide) or [..., K, N] must share N and their "
                               "leading dimensions");
  return {G, n, leftSide ? bCols : bRows};
}

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
prePlan(const poplar::Type &inputType, const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
        bool leftSide, bool lower, const poplar::OptionFlags &options) {
  const std::string what = "poplin::getTriangularSolveMatMulPrePlanParameters";
  detail::SolveOptions o = detail::parseSolveOptions(options, what);
  Shapes s = shapesOf(aShape, bShape, leftSide, what);
  std::vector<std::pair<MatMulParams, poplar::OptionFlags>> out;
  // X A = B is solved as A^T X^T = B^T, with A^T of the other triangle.
  const bool lowerLeft = leftSide ? lower : !lower;
  for (const auto &blk : detail::solveBlocks(s.n, o.blockSize)) {
    // Each block's product: (the rows below it (lower) or above it (upper), block) x (block, K).
    const std::size_t bs = blk.second - blk.first;
    const std::size_t outside = lowerLeft ? s.n - blk.second : blk.first;
    if (outside == 0)
      continue;
    MatMulParams p;
    p.inputType = inputType;
    p.outputType = inputType;
    p.aShape = {s.G, outside, bs};
    p.bShape = {s.G, bs, s.K};
    out.push_back({p, o.matMulOptions});
  }
  return out;
}

} // namespace

Tensor triangularMask(poplar::Graph &graph, const Tensor &a, bool lower, bool unitDiagonal,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "triangularMask");
  if (!a.valid())
    throw poplibs_error(name + ": a is an invalid tensor");
  const std::size_t G = detail::groupsOf(a.shape(), name, "a");
  const std::size_t n = a.dim(a.rank() - 1);
  if (a.dim(a.rank() - 2) != n)
    throw poplibs_error(name + ": a has shape " + a.shapeToString() + "; give square matrices [..., N, N]");
  if (a.elementType() != poplar::FLOAT && a.elementType() != poplar::HALF)
    throw poplibs_error(name + ": a holds " + a.elementType().toString() + "; give FLOAT or HALF");
  return detail::maskGrouped(graph, a.reshape({G, n, n}), lower, unitDiagonal, prog, name).reshape(a.shape());
}

Tensor triangularSolve(poplar::Graph &graph, const Tensor &a, const Tensor &b, bool leftSide, bool lower,
                       bool unitDiagonal, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                       const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  const std::string name = opName(debugContext, "triangularSolve");
  detail::SolveOptions o = detail::parseSolveOptions(options, name);
  if (!a.valid() || !b.valid())
    throw poplibs_error(name + ": a or b is an invalid tensor");
  if (a.elementType() != b.elementType() || (a.elementType() != poplar::FLOAT && a.elementType() != poplar::HALF))
    throw poplibs_error(name + ": a holds " + a.elementType().toString() + " and b " + b.elementType().toString() +
                        "; give both FLOAT or both HALF");
  Shapes s = shapesOf(a.shape(), b.shape(), leftSide, name);
  Tensor masked = detail::maskGrouped(graph, a.reshape({s.G, s.n, s.n}), lower, unitDiagonal, prog, name + "/mask");
  Tensor x = graph.clone(b, name + "/x");
  prog.add(poplar::program::Copy(b, x));
  Tensor x3 = x.reshape({s.G, leftSide ? s.n : s.K, leftSide ? s.K : s.n});
  if (leftSide)
    detail::solveLeftInPlace(graph, masked, x3, lower, unitDiagonal, o, prog, cache, name);
  else // X A = B  <=>  A^T X^T = B^T, with A^T of the other triangle.
    detail::solveLeftInPlace(graph, masked.dimShuffle({0, 2, 1}), x3.dimShuffle({0, 2, 1}), !lower, unitDiagonal, o,
                             prog, cache, name);
  return x;
}

Tensor triangularSolve(poplar::Graph &graph, const Tensor &a, const Tensor &b, bool leftSide, bool lower,
                       bool unitDiagonal, std::size_t blockSize, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext, poplar::OptionFlags options,
                       matmul::PlanningCache *cache) {
  options.set("blockSize", std::to_string(blockSize));
  return triangularSolve(graph, a, b, leftSide, lower, unitDiagonal, prog, debugContext, options, cache);
}

namespace {

// An operand of the solve laid out as the block products read it: a as the left operand of A X = B, b as the
// right one (in left-side form, the leading dimensions flattened).
Tensor createOperand(poplar::Graph &graph, const poplar::Type &inputType, const std::vector<std::size_t> &aShape,
                     const std::vector<std::size_t> &bShape, bool leftSide, bool isA,
                     const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                     matmul::PlanningCache *cache, const char *fn) {
  const std::string name = opName(debugContext, fn);
  detail::SolveOptions o = detail::parseSolveOptions(options, name);
  Shapes s = shapesOf(aShape, bShape, leftSide, name);
  const std::vector<std::size_t> a3 = {s.G, s.n, s.n}, b3 = {s.G, s.n, s.K};
  if (isA)
    return createMatMulGroupedInputLHS(graph, inputType, inputType, a3, b3, name, o.matMulOptions, cache)
        .reshape(aShape);
  Tensor t = createMatMulGroupedInputRHS(graph, inputType, inputType, a3, b3, name, o.matMulOptions, cache);
  return leftSide ? t.reshape(bShape) : t.dimShuffle({0, 2, 1}).reshape(bShape);
}

} // namespace

Tensor createTriangularSolveInputLHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &,
                                     const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                     bool leftSide, const poplar::DebugContext &debugContext,
                                     const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  return createOperand(graph, inputType, aShape, bShape, leftSide, true, debugContext, options, cache,
                       "createTriangularSolveInputLHS");
}

Tensor createTriangularSolveInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                     const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                     const std::vector<std::size_t> &bShape, bool leftSide, std::size_t blockSize,
                                     const poplar::DebugContext &debugContext, poplar::OptionFlags options,
                                     matmul::PlanningCache *cache) {
  options.set("blockSize", std::to_string(blockSize));
  return createTriangularSolveInputLHS(graph, inputType, outputType, aShape, bShape, leftSide, debugContext, options,
                                       cache);
}

Tensor createTriangularSolveInputRHS(poplar::Graph &graph, const poplar::Type &inputType, const poplar::Type &,
                                     const std::vector<std::size_t> &aShape, const std::vector<std::size_t> &bShape,
                                     bool leftSide, const poplar::DebugContext &debugContext,
                                     const poplar::OptionFlags &options, matmul::PlanningCache *cache) {
  return createOperand(graph, inputType, aShape, bShape, leftSide, false, debugContext, options, cache,
                       "createTriangularSolveInputRHS");
}

Tensor createTriangularSolveInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                     const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                     const std::vector<std::size_t> &bShape, bool leftSide, std::size_t blockSize,
                                     const poplar::DebugContext &debugContext, poplar::OptionFlags options,
                                     matmul::PlanningCache *cache) {
  options.set("blockSize", std::to_string(blockSize));
  return createTriangularSolveInputRHS(graph, inputType, outputType, aShape, bShape, leftSide, debugContext, options,
                                       cache);
}

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getTriangularSolveMatMulPrePlanParameters(const poplar::Type &inputType, const poplar::Type &,
                                          const std::vector<std::size_t> &aShape,
                                          const std::vector<std::size_t> &bShape, bool leftSide, bool lower,
                                          const poplar::OptionFlags &options) {
  return prePlan(inputType, aShape, bShape, leftSide, lower, options);
}

std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getTriangularSolveMatMulPrePlanParameters(const poplar::Type &inputType, const poplar::Type &outputType,
                                          const std::vector<std::size_t> &aShape,
                                          const std::vector<std::size_t> &bShape, bool leftSide, bool lower,
                                          std::size_t blockSize, poplar::OptionFlags options) {
  options.set("blockSize", std::to_string(blockSize));
  return getTriangularSolveMatMulPrePlanParameters(inputType, outputType, aShape, bShape, leftSide, lower, options);
}

} // namespace poplin
