// bsSoftmax, bsSoftmaxInPlace and bsSoftmaxGrad: row-wise softmax over the non-zero blocks, on 2-D views that stack
// the block rows with the same number of non-zero blocks (README.md, "How the graphs are built").
#include <map>
#include <string>
#include <vector>

#include "block_layout.hpp"
#include "poplibs_support.hpp"
#include "popops/Cast.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace experimental {

using poplar::Tensor;

namespace {

// The structure of a block-sparse matrix: dense shape, block shape and stored blocks.
struct Layout {
  std::size_t rows, cols, blockRows, blockCols;
  detail::BlockIndex blocks;
};

Layout makeLayout(const std::array<int, 2> &dim, const std::array<int, 2> &blockSize,
                  const std::vector<unsigned char> &sparsity, const std::string &what) {
  for (int i = 0; i < 2; ++i)
    if (dim[i] <= 0 || blockSize[i] <= 0 || dim[i] % blockSize[i] != 0)
      throw poputil::poplibs_error(what + ": dimension " + std::to_string(i) + " (" + std::to_string(dim[i]) +
                                   ") must be a positive multiple of its block size (" +
                                   std::to_string(blockSize[i]) + ")");
  Layout l{std::size_t(dim[0]), std::size_t(dim[1]), std::size_t(blockSize[0]), std::size_t(blockSize[1]), {}};
  l.blocks = detail::indexBlocks(sparsity, (l.rows / l.blockRows) * (l.cols / l.blockCols), what);
  return l;
}

// For each stack of block rows with the same number of non-zero blocks, the 2-D view of `blocks` it forms:
// [block rows * blockRows, non-zero blocks per row * blockCols], a dense row of the matrix per row of the view
// (its non-zero elements only). Every stored block is in exactly one view.
std::vector<Tensor> rowViews(const Layout &l, const Tensor &blocks) {
  const std::size_t gridRows = l.rows / l.blockRows, gridCols = l.cols / l.blockCols;
  std::map<std::size_t, std::vector<Tensor> > byWidth;
  for (std::size_t r = 0; r < gridRows; ++r) {
    std::vector<Tensor> row;
    for (std::size_t c = 0; c < gridCols; ++c) {
      const long idx = l.blocks.index[r * gridCols + c];
      if (idx >= 0)
        row.push_back(detail::blockView(blocks, std::size_t(idx), l.blockRows, l.blockCols));
    }
    if (!row.empty())
      byWidth[row.size()].push_back(poplar::concat(row, 1));
  }
  std::vector<Tensor> views;
  for (auto &w : byWidth)
    views.push_back(poplar::concat(w.second, 0));
  return views;
}

// `v` [rows, width] op= the per-row vector `perRow` [rows], broadcast along the row.
Tensor alongRows(const Tensor &perRow, std::size_t width) { return perRow.expand({1}).broadcast(unsigned(width), 1); }

} // namespace

void bsSoftmaxInPlace(poplar::Graph &graph, Tensor sparseTensor, const std::array<int, 2> &dim,
                      const std::array<int, 2> &blockSize, const std::vector<unsigned char> &sparsity,
                      SubBlockMask subBlockMaskType, unsigned numGroups, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::debugName(debugContext, "popsparse::", "bsSoftmax");
  const Layout l = makeLayout(dim, blockSize, sparsity, "bsSoftmax");
  detail::checkBlocksShape(sparseTensor, l.blocks.nonZero, l.blockRows * l.blockCols, "bsSoftmax");
  const poplar::Type type = sparseTensor.elementType();
  if (type != poplar::HALF && type != poplar::FLOAT)
    throw poputil::poplibs_error("bsSoftmax: the tensor must be HALF or FLOAT");
  if (numGroups == 0 || l.rows % numGroups != 0)
    throw poputil::poplibs_error("bsSoftmax: numGroups (" + std::to_string(numGroups) +
                                 ") must divide the number of rows (" + std::to_string(l.rows) + ")");
  if (l.blocks.nonZero == 0)
    return;
  // Masked elements are pushed far below the others, so that they take no part in the row's maximum and their
  // exponential is 0.
  const detail::MaskedBlocks masked = detail::maskedBlocks(subBlockMaskType, sparsity, l.blockRows, l.blockCols,
                                                           l.rows, l.cols, l.rows / numGroups);
  Tensor maskedTarget, keep;
  if (!masked.blocks.empty()) {
    const float far = type == poplar::HALF ? -60000.0f : -1.0e30f;
    std::vector<float> bias(masked.keep.size());
    for (std::size_t i = 0; i < bias.size(); ++i)
      bias[i] = masked.keep[i] != 0.0f ? 0.0f : far;
    std::vector<Tensor> parts;
    for (std::size_t b : masked.blocks)
      parts.push_back(sparseTensor[b].expand({0}));
    maskedTarget = poplar::concat(parts, 0);
    Tensor c = graph.addConstant(type, maskedTarget.shape(), bias, name + "/maskBias");
    graph.setTileMapping(c, graph.getTileMapping(maskedTarget));
    popops::addInPlace(graph, maskedTarget, c, prog, name + "/subBlockMask");
    keep = graph.addConstant(type, maskedTarget.shape(), masked.keep, name + "/maskKeep");
    graph.setTileMapping(keep, graph.getTileMapping(maskedTarget));
  }
  for (const Tensor &v : rowViews(l, sparseTensor)) {
    const std::size_t width = v.dim(1);
    Tensor max = popops::reduce(graph, v, {1}, popops::Operation::MAX, prog, name + "/max");
    popops::subInPlace(graph, v, alongRows(max, width), prog, name + "/shift");
    popops::expInPlace(graph, v, prog, name + "/exp");
    Tensor sum = popops::reduce(graph, v, poplar::FLOAT, {1}, popops::Operation::ADD, prog, name + "/sum");
    if (type != poplar::FLOAT)
      sum = popops::cast(graph, sum, type, prog, name + "/sumCast");
    popops::divInPlace(graph, v, alongRows(sum, width), prog, name + "/normalise");
  }
  // A row whose every element is masked came out uniform; masked elements are 0 in every row.
  if (!masked.blocks.empty())
    popops::mulInPlace(graph, maskedTarget, keep, prog, name + "/zeroMasked");
}

Tensor bsSoftmax(poplar::Graph &graph, Tensor sparseTensor, const std::array<int, 2> &dim,
                 const std::array<int, 2> &blockSize, const std::vector<unsigned char> &sparsity,
                 SubBlockMask subBlockMaskType, unsigned numGroups, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::debugName(debugContext, "popsparse::", "bsSoftmax");
  Tensor out = graph.clone(sparseTensor, name + "/out");
  prog.add(poplar::program::Copy(sparseTensor, out));
  bsSoftmaxInPlace(graph, out, dim, blockSize, sparsity, subBlockMaskType, numGroups, prog, debugContext);
  return out;
}

Tensor bsSoftmaxGrad(poplar::Graph &graph, Tensor sparseOut, Tensor sparseOutGrad, const std::array<int, 2> &dim,
                     const std::array<int, 2> &blockSize, const std::vector<unsigned char> &sparsity,
                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::debugName(debugContext, "popsparse::", "bsSoftmaxGrad");
  const Layout l = makeLayout(dim, blockSize, sparsity, "bsSoftmaxGrad");
  detail::checkBlocksShape(sparseOut, l.blocks.nonZero, l.blockRows * l.blockCols, "bsSoftmaxGrad (output)");
  detail::checkBlocksShape(sparseOutGrad, l.blocks.nonZero, l.blockRows * l.blockCols, "bsSoftmaxGrad (gradient)");
  if (sparseOut.elementType() != sparseOutGrad.elementType())
    throw poputil::poplibs_error("bsSoftmaxGrad: the output and its gradient must have the same type");
  // dx = y * (dy - sum over the row of y * dy), written over a copy of dy.
  Tensor grad = graph.clone(sparseOutGrad, name + "/grad");
  prog.add(poplar::program::Copy(sparseOutGrad, grad));
  const std::vector<Tensor> ys = rowViews(l, sparseOut), gs = rowViews(l, grad);
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const std::size_t width = ys[i].dim(1);
    Tensor prod = popops::mul(graph, ys[i], gs[i], prog, name + "/yDy");
    Tensor sum = popops::reduce(graph, prod, {1}, popops::Operation::ADD, prog, name + "/sum");
    popops::subInPlace(graph, gs[i], alongRows(sum, width), prog, name + "/centre");
    popops::mulInPlace(graph, gs[i], ys[i], prog, name + "/scale");
  }
  return grad;
}

} // namespace experimental
} // namespace popsparse
