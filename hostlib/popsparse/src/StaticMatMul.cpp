// Static sparse x dense and dense x sparse products: the sparse operand is made dense by a zero and one copy
// (static_layout.hpp), then each product is one poplin grouped matmul, planned and mapped like any matmul; partial
// sums are of the data's type, as the reference documents.
#include "popsparse/MatMul.hpp"

#include <string>

#include <poplin/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>

#include "matmul_options.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"
#include "static_layout.hpp"

namespace popsparse {
namespace static_ {

using poplar::Tensor;

namespace {

std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::debugName(debugContext, "popsparse::static_::", fn);
}

void checkSide(const MatMulParams &params, bool transposed, const std::string &name) {
  if (params.isTransposed() != transposed)
    throw poputil::poplibs_error(name + ": the parameters are for a " +
                                 (params.isTransposed() ? "dense x sparse" : "sparse x dense") +
                                 " product; make them with MatMulParams::" +
                                 (transposed ? "createForDenseSparse" : "createForSparseDense"));
}

// poplin's options: the caller's, with partial sums of the data's type.
poplar::OptionFlags productOptions(const poplar::OptionFlags &options, const poplar::Type &type,
                                   const std::string &name) {
  poplar::OptionFlags mm = popsparse::detail::poplinMatMulOptions(options, popsparse::detail::MatMulOptionSet::Static,
                                                                  name);
  mm.set("partialsType", type == poplar::HALF ? "half" : "float");
  return mm;
}

// A 3-D dense operand, optionally transposed, checked against the shape the product wants (0: any size).
Tensor denseOperand(const Tensor &t, bool transpose, std::size_t groups, std::size_t rows, std::size_t cols,
                    const std::string &name, const char *what) {
  if (!t.valid() || t.rank() != 3)
    throw poputil::poplibs_error(name + ": " + what + " is " + (t.valid() ? t.shapeToString() : "invalid") +
                                 "; pass a 3-D [groups][rows][columns] tensor");
  const Tensor v = transpose ? t.dimShuffle({0, 2, 1}) : t;
  auto size = [](std::size_t d) { return d ? std::to_string(d) : std::string("any"); };
  if (v.dim(0) != groups || (rows && v.dim(1) != rows) || (cols && v.dim(2) != cols))
    throw poputil::poplibs_error(name + ": " + what + (transpose ? " transposed" : "") + " is " + v.shapeToString() +
                                 "; the product wants [" + std::to_string(groups) + ", " + size(rows) + ", " +
                                 size(cols) + "]");
  return v;
}

template <typename T>
SparseTensor createSparseOperand(poplar::Graph &graph, const poplar::Type &type, const MatMulParams &params,
                                 const CSRMatrix<T> &csr, bool transposed, const std::string &name,
                                 const poplar::OptionFlags &options) {
  checkSide(params, transposed, name);
  popsparse::detail::poplinMatMulOptions(options, popsparse::detail::MatMulOptionSet::Static, name);
  return detail::createSparse(graph, type, detail::layoutOf(params, csr, name), name);
}

// The dense operand: shaped as the product's matmul wants it, from poplin's planner.
Tensor createDenseOperand(poplar::Graph &graph, const poplar::Type &type, const MatMulParams &params,
                          bool transposed, const std::string &name, const poplar::OptionFlags &options) {
  checkSide(params, transposed, name);
  const poplar::OptionFlags mm = productOptions(options, type, name);
  const std::size_t g = params.getNumGroups(), m = params.getM(), k = params.getK(), n = params.getN();
  return transposed ? poplin::createMatMulGroupedInputLHS(graph, type, type, {g, n, k}, {g, k, m}, name, mm)
                    : poplin::createMatMulGroupedInputRHS(graph, type, type, {g, m, k}, {g, k, n}, name, mm);
}

} // namespace

template <>
SparseTensor createSparseDenseMatMulLHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                               const MatMulParams &params, const CSRMatrix<float> &csrLHS,
                                               const poplar::DebugContext &debugContext,
                                               const poplar::OptionFlags &options, PlanningCache *) {
  return createSparseOperand(graph, inputType, params, csrLHS, false,
                             opName(debugContext, "createSparseDenseMatMulLHS"), options);
}

template <>
SparseTensor createSparseDenseMatMulLHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                const MatMulParams &params, const CSRMatrix<double> &csrLHS,
                                                const poplar::DebugContext &debugContext,
                                                const poplar::OptionFlags &options, PlanningCache *) {
  return createSparseOperand(graph, inputType, params, csrLHS, false,
                             opName(debugContext, "createSparseDenseMatMulLHS"), options);
}

template <>
SparseTensor createDenseSparseMatMulRHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                               const MatMulParams &params, const CSRMatrix<float> &csrRHS,
                                               const poplar::DebugContext &debugContext,
                                               const poplar::OptionFlags &options, PlanningCache *) {
  return createSparseOperand(graph, inputType, params, csrRHS, true,
                             opName(debugContext, "createDenseSparseMatMulRHS"), options);
}

template <>
SparseTensor createDenseSparseMatMulRHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                const MatMulParams &params, const CSRMatrix<double> &csrRHS,
                                                const poplar::DebugContext &debugContext,
                                                const poplar::OptionFlags &options, PlanningCache *) {
  return createSparseOperand(graph, inputType, params, csrRHS, true,
                             opName(debugContext, "createDenseSparseMatMulRHS"), options);
}

template <>
Tensor createSparseDenseMatMulRHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                         const MatMulParams &params, const CSRMatrix<float> &,
                                         const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags options, PlanningCache *) {
  return createDenseOperand(graph, inputType, params, false, opName(debugContext, "createSparseDenseMatMulRHS"),
                            options);
}

template <>
Tensor createSparseDenseMatMulRHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                          const MatMulParams &params, const CSRMatrix<double> &,
                                          const poplar::DebugContext &debugContext,
                                          const poplar::OptionFlags options, PlanningCache *) {
  return createDenseOperand(graph, inputType, params, false, opName(debugContext, "createSparseDenseMatMulRHS"),
                            options);
}

template <>
Tensor createDenseSparseMatMulLHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                         const MatMulParams &params, const CSRMatrix<float> &,
                                         const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags options, PlanningCache *) {
  return createDenseOperand(graph, inputType, params, true, opName(debugContext, "createDenseSparseMatMulLHS"),
                            options);
}

template <>
Tensor createDenseSparseMatMulLHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                          const MatMulParams &params, const CSRMatrix<double> &,
                                          const poplar::DebugContext &debugContext,
                                          const poplar::OptionFlags options, PlanningCache *) {
  return createDenseOperand(graph, inputType, params, true, opName(debugContext, "createDenseSparseMatMulLHS"),
                            options);
}

Tensor sparseDenseMatMul(poplar::Graph &graph, const SparseTensor &lhs, const Tensor &rhs,
                         poplar::program::Sequence &prog, bool transposeLHS, bool transposeRHS,
                         const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                         PlanningCache *) {
  const std::string name = opName(debugContext, "sparseDenseMatMul");
  const detail::MatMulLayout &layout = detail::layoutOf(lhs, false, name);
  Tensor a = detail::densify(graph, lhs, layout, prog, name); // [groups, m, k]
  if (transposeLHS)
    a = a.dimShuffle({0, 2, 1});
  const Tensor b = denseOperand(rhs, transposeRHS, a.dim(0), a.dim(2), 0, name, "rhs");
  const poplar::Type type = lhs.getNzValuesTensor().elementType();
  if (rhs.elementType() != type)
    throw poputil::poplibs_error(name + ": rhs is " + rhs.elementType().toString() + " and the sparse operand " +
                                 type.toString() + "; pass one type");
  return poplin::matMulGrouped(graph, a, b, prog, type, name, productOptions(options, type, name));
}

Tensor denseSparseMatMul(poplar::Graph &graph, const Tensor &lhs, const SparseTensor &rhs,
                         poplar::program::Sequence &prog, bool transposeLHS, bool transposeRHS,
                         const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                         PlanningCache *) {
  const std::string name = opName(debugContext, "denseSparseMatMul");
  const detail::MatMulLayout &layout = detail::layoutOf(rhs, true, name);
  Tensor b = detail::densify(graph, rhs, layout, prog, name); // [groups, k, m]
  if (transposeRHS)
    b = b.dimShuffle({0, 2, 1});
  const Tensor a = denseOperand(lhs, transposeLHS, b.dim(0), 0, 0, name, "lhs");
  if (a.dim(2) != b.dim(1))
    throw poputil::poplibs_error(name + ": lhs is " + a.shapeToString() + " and the sparse operand " +
                                 b.shapeToString() + "; their inner dimensions differ");
  const poplar::Type type = rhs.getNzValuesTensor().elementType();
  if (lhs.elementType() != type)
    throw poputil::poplibs_error(name + ": lhs is " + lhs.elementType().toString() + " and the sparse operand " +
                                 type.toString() + "; pass one type");
  return poplin::matMulGrouped(graph, a, b, prog, type, name, productOptions(options, type, name));
}

} // namespace static_
} // namespace popsparse
