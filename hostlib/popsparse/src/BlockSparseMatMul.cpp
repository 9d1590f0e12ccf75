// bsMatMul and its input creators: block-sparse products as poplin grouped matmuls over the non-zero blocks
// (README.md, "How the graphs are built").
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <poplar/exceptions.hpp>

#include "bs_matmul_impl.hpp"
#include "poplibs_support.hpp"
#include "poplin/MatMul.hpp"
#include "popops/Cast.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Zero.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace experimental {

using poplar::Tensor;

namespace {

// Checks bsMatMul's options; none changes the graph (see the header).
void checkOptions(const poplar::OptionFlags &options) {
  for (const auto &o : options) {
    const std::string &name = o.first, &value = o.second;
    if (name == "numberOfPass") {
      char *end = nullptr;
      const long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v < 1)
        throw poplar::invalid_option("bsMatMul: option numberOfPass='" + value + "' is not an integer >= 1");
    } else if (name == "partitionMethod") {
      if (value != "block" && value != "block-naive" && value != "strip")
        throw poplar::invalid_option("bsMatMul: option partitionMethod='" + value +
                                     "' is not one of block, block-naive, strip");
    } else if (name == "memoryCycleRatio") {
      char *end = nullptr;
      (void)std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0')
        throw poplar::invalid_option("bsMatMul: option memoryCycleRatio='" + value + "' is not a number");
    } else {
      throw poplar::invalid_option("bsMatMul: unknown option '" + name +
                                   "' (known: numberOfPass, partitionMethod, memoryCycleRatio)");
    }
  }
}

// One grouped product A [G, m, k] x B [G, k, n] of type p.outType, partial sums of p.partialType (FLOAT operands
// always sum in FLOAT; a FLOAT product wanted as HALF is cast).
Tensor groupedProduct(poplar::Graph &graph, const BSMatMulImpl &p, const Tensor &a, const Tensor &b,
                      poplar::program::Sequence &prog, const std::string &name) {
  const bool halfIn = p.inType == poplar::HALF;
  poplar::OptionFlags mm{{"partialsType", halfIn && p.partialType == poplar::HALF ? "half" : "float"}};
  const poplar::Type mmOut = halfIn ? p.outType : poplar::FLOAT;
  Tensor r = poplin::matMulGrouped(graph, a, b, prog, mmOut, name, mm);
  return mmOut == p.outType ? r : popops::cast(graph, r, p.outType, prog, name + "/cast");
}

// Dense [G*m, k] x sparse blocks -> dense [G*m, n]: one product per block column of each group, the columns with
// the same number of non-zero blocks in one grouped matmul.
Tensor denseSparse(poplar::Graph &graph, const BSMatMulImpl &p, poplar::program::Sequence &prog, const Tensor &lhs,
                   const Tensor &rhs, const std::string &name) {
  const std::size_t blockRows = p.k / p.bk, blockCols = p.n / p.bn, perGroup = p.maskPerGroup();
  // The stored index of block (i, j) of group g of the k x n matrix multiplied (-1: zero block).
  auto stored = [&](std::size_t g, std::size_t i, std::size_t j) {
    return p.blocks.index[g * perGroup + (p.rhsTransposed ? j * blockRows + i : i * blockCols + j)];
  };
  // Block (i, j) of the k x n matrix as a bk x bn view.
  auto block = [&](long idx) {
    return p.rhsTransposed ? detail::blockView(rhs, std::size_t(idx), p.bn, p.bk).transpose()
                           : detail::blockView(rhs, std::size_t(idx), p.bk, p.bn);
  };
  std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t> > > byCount; // count -> (group, column)
  for (std::size_t g = 0; g < p.groups; ++g)
    for (std::size_t j = 0; j < blockCols; ++j) {
      std::size_t c = 0;
      for (std::size_t i = 0; i < blockRows; ++i)
        c += stored(g, i, j) >= 0;
      byCount[c].push_back({g, j});
    }
  std::vector<std::vector<Tensor> > columns(p.groups, std::vector<Tensor>(blockCols));
  for (const auto &bucket : byCount) {
    const auto &cols = bucket.second;
    if (bucket.first == 0) { // columns of zero blocks only: zeros
      Tensor z = graph.addVariable(p.outType, {cols.size(), p.m, p.bn}, name + "/zeroColumns");
      poputil::mapTensorLinearly(graph, z);
      popops::zero(graph, z, prog, name + "/zeroColumns");
      for (std::size_t c = 0; c < cols.size(); ++c)
        columns[cols[c].first][cols[c].second] = z[c];
      continue;
    }
    std::vector<Tensor> as, bs;
    for (const auto &gj : cols) {
      std::vector<Tensor> aParts, bParts;
      for (std::size_t i = 0; i < blockRows; ++i) {
        const long idx = stored(gj.first, i, gj.second);
        if (idx < 0)
          continue;
        aParts.push_back(lhs.slice({gj.first * p.m, i * p.bk}, {(gj.first + 1) * p.m, (i + 1) * p.bk}));
        bParts.push_back(block(idx));
      }
      as.push_back(poplar::concat(aParts, 1).expand({0}));
      bs.push_back(poplar::concat(bParts, 0).expand({0}));
    }
    Tensor r = groupedProduct(graph, p, poplar::concat(as, 0), poplar::concat(bs, 0), prog,
                              name + "/columns" + std::to_string(bucket.first));
    for (std::size_t c = 0; c < cols.size(); ++c)
      columns[cols[c].first][cols[c].second] = r[c];
  }
  std::vector<Tensor> rows;
  for (auto &g : columns)
    rows.push_back(poplar::concat(g, 1));
  return poplar::concat(rows, 0);
}

// Dense [G*m, k] x dense [G*k, n] -> the non-zero blocks [nz, bm*bn] of the result: one grouped matmul whose groups
// are the blocks, then the sub-block mask.
Tensor denseDenseSparse(poplar::Graph &graph, const BSMatMulImpl &p, poplar::program::Sequence &prog,
                        const Tensor &lhs, const Tensor &rhs, const std::string &name) {
  const std::size_t gridCols = p.n / p.bn, perGroup = p.maskPerGroup();
  if (p.blocks.nonZero == 0) {
    Tensor empty = graph.addVariable(p.outType, {0, p.bm * p.bn}, name + "/result");
    return empty;
  }
  std::vector<Tensor> as, bs;
  for (std::size_t g = 0; g < p.groups; ++g)
    for (std::size_t pos = 0; pos < perGroup; ++pos) {
      if (!p.sparsity[g * perGroup + pos])
        continue;
      const std::size_t r = pos / gridCols, c = pos % gridCols;
      as.push_back(lhs.slice({g * p.m + r * p.bm, 0}, {g * p.m + (r + 1) * p.bm, p.k}).expand({0}));
      bs.push_back(rhs.slice({g * p.k, c * p.bn}, {(g + 1) * p.k, (c + 1) * p.bn}).expand({0}));
    }
  Tensor out = groupedProduct(graph, p, poplar::concat(as, 0), poplar::concat(bs, 0), prog, name + "/blocks")
                   .reshape({p.blocks.nonZero, p.bm * p.bn});
  const detail::MaskedBlocks masked =
      detail::maskedBlocks(p.subBlockMask, p.sparsity, p.bm, p.bn, p.groups * p.m, p.n, p.m);
  if (!masked.blocks.empty()) {
    std::vector<Tensor> parts;
    for (std::size_t b : masked.blocks)
      parts.push_back(out[b].expand({0}));
    Tensor target = poplar::concat(parts, 0);
    Tensor keep = graph.addConstant(p.outType, {masked.blocks.size(), p.bm * p.bn}, masked.keep, name + "/keep");
    graph.setTileMapping(keep, graph.getTileMapping(target));
    popops::mulInPlace(graph, target, keep, prog, name + "/subBlockMask");
  }
  return out;
}

} // namespace

Tensor createBSMatMulInputLHS(poplar::Graph &graph, const BSMatMulParams &bsMatMul,
                              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  checkOptions(options);
  const BSMatMulImpl &p = *bsMatMul.impl;
  Tensor t = graph.addVariable(p.inType, {p.groups * p.m, p.k},
                               poplibs_support::debugName(debugContext, "popsparse::", "bsMatMulLHS"));
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor createBSMatMulInputRHS(poplar::Graph &graph, const BSMatMulParams &bsMatMul,
                              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  checkOptions(options);
  const BSMatMulImpl &p = *bsMatMul.impl;
  const std::string name = poplibs_support::debugName(debugContext, "popsparse::", "bsMatMulRHS");
  if (p.kind == BSMatMulImpl::Kind::DenseDenseSparseResult) {
    Tensor t = graph.addVariable(p.inType, {p.groups * p.k, p.n}, name);
    poputil::mapTensorLinearly(graph, t);
    return t;
  }
  // Whole blocks per tile: a block is one product's operand.
  const std::size_t elems = p.bk * p.bn;
  Tensor t = graph.addVariable(p.inType, {p.blocks.nonZero, elems}, name);
  poputil::mapTensorLinearly(graph, t, unsigned(elems), unsigned(elems));
  return t;
}

Tensor bsMatMul(poplar::Graph &graph, const BSMatMulParams &bsMatMulParams, poplar::program::Sequence &prog,
                const Tensor &lhsMatrix, const Tensor &rhsMatrix, const poplar::OptionFlags &options,
                const poplar::DebugContext &debugContext) {
  checkOptions(options);
  const BSMatMulImpl &p = *bsMatMulParams.impl;
  const std::string name = poplibs_support::debugName(debugContext, "popsparse::", "bsMatMul");
  if (lhsMatrix.elementType() != p.inType || rhsMatrix.elementType() != p.inType)
    throw poputil::poplibs_error("bsMatMul: the operands' type must be the BSMatMulParams input type " +
                                 p.inType.toString());
  if (lhsMatrix.rank() != 2 || lhsMatrix.dim(0) != p.groups * p.m || lhsMatrix.dim(1) != p.k)
    throw poputil::poplibs_error("bsMatMul: the left operand must be the dense [" + std::to_string(p.groups * p.m) +
                                 ", " + std::to_string(p.k) + "] matrix (createBSMatMulInputLHS)");
  if (p.kind == BSMatMulImpl::Kind::DenseSparse) {
    detail::checkBlocksShape(rhsMatrix, p.blocks.nonZero, p.bk * p.bn, "bsMatMul (right operand)");
    return denseSparse(graph, p, prog, lhsMatrix, rhsMatrix, name);
  }
  if (rhsMatrix.rank() != 2 || rhsMatrix.dim(0) != p.groups * p.k || rhsMatrix.dim(1) != p.n)
    throw poputil::poplibs_error("bsMatMul: the right operand must be the dense [" + std::to_string(p.groups * p.k) +
                                 ", " + std::to_string(p.n) + "] matrix (createBSMatMulInputRHS)");
  return denseDenseSparse(graph, p, prog, lhsMatrix, rhsMatrix, name);
}

} // namespace experimental
} // namespace popsparse
