// The static sparse operand's layout and its dense form: a zeroed variable mapped as the matmul wants its operand,
// with the values copied to their places by one Copy whose destination is the places in the values' order (known
// when the graph is built). A view of the values and a broadcast zero constant was tried first: every tile's
// zeros then came from the one tile holding the constant, whose exchange lists overflowed its memory at 256^3.
#include "static_layout.hpp"

#include <poplar/Program.hpp>
#include <poplin/MatMul.hpp>
#include <popops/Zero.hpp>
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

Tensor densify(poplar::Graph &graph, const SparseTensor &t, const MatMulLayout &layout,
               poplar::program::Sequence &prog, const std::string &name) {
  const HostShape &s = layout.shape;
  const MatMulParams &p = layout.params;
  const std::size_t g = p.getNumGroups(), m = p.getM(), k = p.getK(), n = p.getN();
  const Tensor &nz = t.getNzValuesTensor();
  const poplar::Type type = nz.elementType();
  // Laid out as the product's matmul wants its sparse side.
  const Tensor dense = p.isTransposed()
                           ? poplin::createMatMulGroupedInputRHS(graph, type, type, {g, n, k}, {g, k, m}, name + "/dense")
                           : poplin::createMatMulGroupedInputLHS(graph, type, type, {g, m, k}, {g, k, n}, name + "/dense");
  popops::zero(graph, dense, prog, name + "/zero");
  if (layout.blockNumbers.empty())
    return dense;
  // Where each value goes, in the values' order: block by block, bc elements of a row at a time; a run that
  // continues the previous one in the matrix (single elements side by side) extends it.
  const Tensor flat = dense.flatten();
  const std::size_t blockCols = s.cols / s.bc;
  std::vector<Tensor> targets;
  std::size_t start = 0, len = 0;
  for (std::size_t number : layout.blockNumbers)
    for (std::size_t r = 0; r < s.br; ++r) {
      const std::size_t at = ((number / blockCols) * s.br + r) * s.cols + (number % blockCols) * s.bc;
      if (len && at == start + len) {
        len += s.bc;
        continue;
      }
      if (len)
        targets.push_back(flat.slice(start, start + len));
      start = at;
      len = s.bc;
    }
  targets.push_back(flat.slice(start, start + len));
  prog.add(poplar::program::Copy(nz.flatten(), poplar::concat(targets)));
  return dense;
}

} // namespace detail
} // namespace static_
} // namespace popsparse
