// The static sparse operand's layout and its dense view. The view is built row by row from runs: a row of a block
// row crosses its non-zero blocks in column order, each contributing bc consecutive values; the gaps are a
// broadcast zero. Runs that continue each other in the values (single elements side by side) are merged, so a
// view has about as many pieces as the matrix has non-zero runs.
#include "static_layout.hpp"

#include <poputil/TileMapping.hpp>

#include "poputil/exceptions.hpp"

namespace popsparse {
namespace static_ {
namespace detail {

using poplar::Tensor;
using popsparse::detail::HostShape;

HostShape shapeOf(const MatMulParams &params, std::size_t br, std::size_t bc, const std::string &name) {
  const std::size_t rows = params.isTransposed() ? params.getK() : params.getM();
  const std::size_t cols = params.isTransposed() ? params.getM() : params.getK();
  const HostShape s{params.getNumGroups() * rows, cols, br, bc};
  if (br == 0 || bc == 0 || rows % br || cols % bc)
    throw poputil::poplibs_error(name + ": the matrix's " + std::to_string(br) + "x" + std::to_string(bc) +
                                 " blocks do not divide the sparse operand, " + std::to_string(s.rows) + " x " +
                                 std::to_string(s.cols) + " (groups stacked by rows)");
  return s;
}

template <typename T>
MatMulLayout layoutOf(const MatMulParams &params, const CSRMatrix<T> &csr, const std::string &name) {
  const std::size_t br = csr.getNumRowsInBlock(), bc = csr.getNumColumnsInBlock();
  MatMulLayout layout;
  layout.params = params;
  layout.shape = shapeOf(params, br, bc, name);
  const HostShape &s = layout.shape;
  if ((csr.numRows && csr.numRows != s.rows) || (csr.numColumns && csr.numColumns != s.cols))
    throw poputil::poplibs_error(name + ": the CSR matrix is " + std::to_string(csr.numRows) + " x " +
                                 std::to_string(csr.numColumns) + "; the parameters make the sparse operand " +
                                 std::to_string(s.rows) + " x " + std::to_string(s.cols));
  const auto blocks = popsparse::detail::readBlocks(csr, name);
  for (const auto &numbered : popsparse::detail::numberBlocks(blocks, s, name))
    layout.blockNumbers.push_back(numbered.first);
  return layout;
}

template MatMulLayout layoutOf(const MatMulParams &, const CSRMatrix<float> &, const std::string &);
template MatMulLayout layoutOf(const MatMulParams &, const CSRMatrix<double> &, const std::string &);

SparseTensor createSparse(poplar::Graph &graph, const poplar::Type &type, const MatMulLayout &layout,
                          const std::string &name) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(name + ": the type is " + type.toString() + "; pass FLOAT or HALF");
  Tensor nz = graph.addVariable(type, {layout.blockNumbers.size() * layout.shape.br * layout.shape.bc},
                                name + "/nzValues");
  poputil::mapTensorLinearly(graph, nz);
  return SparseTensor(nz, poputil::TensorMetaData(layout.clone()));
}

const MatMulLayout &layoutOf(const SparseTensor &t, bool transposed, const std::string &name) {
  const MatMulLayout *layout = dynamic_cast<const MatMulLayout *>(t.getOpMetaData().getData());
  const char *maker = transposed ? "createDenseSparseMatMulRHS" : "createSparseDenseMatMulLHS";
  if (!layout)
    throw poputil::poplibs_error(name + ": the sparse operand carries no static product; make it with " + maker);
  if (layout->params.isTransposed() != transposed)
    throw poputil::poplibs_error(name + ": the sparse operand was made for a " +
                                 (transposed ? "sparse x dense" : "dense x sparse") + " product; make it with " +
                                 maker);
  const Tensor &nz = t.getNzValuesTensor();
  const std::size_t want = layout->blockNumbers.size() * layout->shape.br * layout->shape.bc;
  if (!nz.valid() || nz.numElements() != want)
    throw poputil::poplibs_error(name + ": the sparse operand has " + std::to_string(nz.valid() ? nz.numElements() : 0) +
                                 " values; its pattern has " + std::to_string(want));
  return *layout;
}

namespace {

// The pieces of one view, merging runs that continue each other.
struct Pieces {
  const Tensor &nz;
  const Tensor &zero;
  std::vector<Tensor> out;
  bool open = false, openIsZero = false;
  std::size_t start = 0, len = 0;

  void add(bool isZero, std::size_t from, std::size_t n) {
    if (n == 0)
      return;
    if (open && isZero == openIsZero && (isZero || from == start + len)) {
      len += n;
      return;
    }
    flush();
    open = true;
    openIsZero = isZero;
    start = from;
    len = n;
  }
  void flush() {
    if (open)
      out.push_back(openIsZero ? zero.broadcast(unsigned(len), 0) : nz.slice(start, start + len));
    open = false;
  }
};

} // namespace

Tensor denseView(poplar::Graph &graph, const SparseTensor &t, const MatMulLayout &layout, const std::string &name) {
  const HostShape &s = layout.shape;
  const std::size_t area = s.br * s.bc, blockCols = s.cols / s.bc;
  const Tensor &nz = t.getNzValuesTensor();
  Tensor zero = graph.addConstant(nz.elementType(), {1}, 0.0f, name + "/zero");
  graph.setTileMapping(zero, 0);
  const Tensor flat = nz.flatten();
  Pieces pieces{flat, zero, {}};
  std::size_t first = 0; // the first slot of the current block row
  for (std::size_t blockRow = 0; blockRow < s.rows / s.br; ++blockRow) {
    std::size_t end = first;
    while (end < layout.blockNumbers.size() && layout.blockNumbers[end] / blockCols == blockRow)
      ++end;
    for (std::size_t r = 0; r < s.br; ++r) {
      std::size_t col = 0;
      for (std::size_t slot = first; slot < end; ++slot) {
        const std::size_t c0 = (layout.blockNumbers[slot] % blockCols) * s.bc;
        pieces.add(true, 0, c0 - col);
        pieces.add(false, slot * area + r * s.bc, s.bc);
        col = c0 + s.bc;
      }
      pieces.add(true, 0, s.cols - col);
    }
    first = end;
  }
  pieces.flush();
  const MatMulParams &p = layout.params;
  return poplar::concat(pieces.out).reshape({p.getNumGroups(), s.rows / p.getNumGroups(), s.cols});
}

} // namespace detail
} // namespace static_
} // namespace popsparse
