// Sparse x dense matrix products (Graphcore's popsparse/MatMul.hpp). dynamic::: the sparse left operand's pattern is
// data the host writes when the program runs (see SparsePartitioner.hpp). static_::: the pattern is a CSR matrix
// given when the graph is built, and only the non-zero values are on the device. Either way the sparse operand
// remembers the product it was made for, so the products take no parameters.
#ifndef POPSPARSE_MATMUL_HPP
#define POPSPARSE_MATMUL_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <popsparse/SparseTensor.hpp>

namespace popsparse {
namespace dynamic {

class MatMulParams;

/// The sparse left operand [groups][m][k] of params: room for params.getNumNonZeroValues() values of inputType and
/// their meta-information. Options (all optional): availableMemoryProportion (0 to 1), partialsType ("float" or
/// "half"), metaInfoBucketOversizeProportion (0 to 1) and sharedBuckets (true or false); the last two shape
/// Graphcore's buckets, which ipu-emu does not use, and are only checked.
SparseTensor createSparseDenseMatMulLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                        const MatMulParams &params, const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The dense right operand [groups][k][n] of params, laid out for the product.
poplar::Tensor createSparseDenseMatMulRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                          const MatMulParams &params, const poplar::DebugContext &debugContext = {},
                                          const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// lhs x rhs: [groups][m][k] x [groups][k][n] = [groups][m][n] for the parameters lhs was made with, or with
/// transposeLHS [groups][k][m] x [groups][m][n] = [groups][k][n]; transposeRHS takes rhs as [groups][n][k]
/// (or [groups][n][m]). lhs must come from createSparseDenseMatMulLHS.
poplar::Tensor sparseDenseMatMul(poplar::Graph &graph, const SparseTensor &lhs, const poplar::Tensor &rhs,
                                 poplar::program::Sequence &prog, bool transposeLHS = false,
                                 bool transposeRHS = false, const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

} // namespace dynamic

namespace static_ {

class MatMulParams;

/// The sparse left operand of a sparse x dense params ([groups][m][k] x [groups][k][n]), whose non-zero blocks are
/// those of csrLHS ([groups x m, k], groups stacked by rows). Its values are written in the order a Partitioner
/// makes. Option: availableMemoryProportion (0 to 1); partial sums are of the data's type.
template <typename T>
SparseTensor createSparseDenseMatMulLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                        const MatMulParams &params, const CSRMatrix<T> &csrLHS,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = {},
                                        PlanningCache *cache = nullptr) = delete;
template <>
SparseTensor createSparseDenseMatMulLHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                               const MatMulParams &params, const CSRMatrix<float> &csrLHS,
                                               const poplar::DebugContext &debugContext,
                                               const poplar::OptionFlags &options, PlanningCache *cache);
template <>
SparseTensor createSparseDenseMatMulLHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                const MatMulParams &params, const CSRMatrix<double> &csrLHS,
                                                const poplar::DebugContext &debugContext,
                                                const poplar::OptionFlags &options, PlanningCache *cache);

/// The sparse right operand of a dense x sparse params ([groups][n][k] x [groups][k][m]), whose non-zero blocks are
/// those of csrRHS ([groups x k, m]).
template <typename T>
SparseTensor createDenseSparseMatMulRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                        const MatMulParams &params, const CSRMatrix<T> &csrRHS,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = {},
                                        PlanningCache *cache = nullptr) = delete;
template <>
SparseTensor createDenseSparseMatMulRHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                               const MatMulParams &params, const CSRMatrix<float> &csrRHS,
                                               const poplar::DebugContext &debugContext,
                                               const poplar::OptionFlags &options, PlanningCache *cache);
template <>
SparseTensor createDenseSparseMatMulRHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                const MatMulParams &params, const CSRMatrix<double> &csrRHS,
                                                const poplar::DebugContext &debugContext,
                                                const poplar::OptionFlags &options, PlanningCache *cache);

/// The dense right operand [groups][k][n] of a sparse x dense params.
template <typename T>
poplar::Tensor createSparseDenseMatMulRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                          const MatMulParams &params, const CSRMatrix<T> &csrLHS,
                                          const poplar::DebugContext &debugContext = {},
                                          const poplar::OptionFlags options = {},
                                          PlanningCache *cache = nullptr) = delete;
template <>
poplar::Tensor createSparseDenseMatMulRHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                                 const MatMulParams &params, const CSRMatrix<float> &csrLHS,
                                                 const poplar::DebugContext &debugContext,
                                                 const poplar::OptionFlags options, PlanningCache *cache);
template <>
poplar::Tensor createSparseDenseMatMulRHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                  const MatMulParams &params, const CSRMatrix<double> &csrLHS,
                                                  const poplar::DebugContext &debugContext,
                                                  const poplar::OptionFlags options, PlanningCache *cache);

/// The dense left operand [groups][n][k] of a dense x sparse params.
template <typename T>
poplar::Tensor createDenseSparseMatMulLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                          const MatMulParams &params, const CSRMatrix<T> &csrRHS,
                                          const poplar::DebugContext &debugContext = {},
                                          const poplar::OptionFlags options = {},
                                          PlanningCache *cache = nullptr) = delete;
template <>
poplar::Tensor createDenseSparseMatMulLHS<float>(poplar::Graph &graph, const poplar::Type &inputType,
                                                 const MatMulParams &params, const CSRMatrix<float> &csrRHS,
                                                 const poplar::DebugContext &debugContext,
                                                 const poplar::OptionFlags options, PlanningCache *cache);
template <>
poplar::Tensor createDenseSparseMatMulLHS<double>(poplar::Graph &graph, const poplar::Type &inputType,
                                                  const MatMulParams &params, const CSRMatrix<double> &csrRHS,
                                                  const poplar::DebugContext &debugContext,
                                                  const poplar::OptionFlags options, PlanningCache *cache);

/// lhs (from createSparseDenseMatMulLHS) x rhs [groups][k][n] = [groups][m][n]; transposeLHS multiplies by the
/// sparse operand's transpose ([groups][k][m] x [groups][m][n]); transposeRHS takes rhs as [groups][n][k].
poplar::Tensor sparseDenseMatMul(poplar::Graph &graph, const SparseTensor &lhs, const poplar::Tensor &rhs,
                                 poplar::program::Sequence &prog, bool transposeLHS = false,
                                 bool transposeRHS = false, const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// lhs [groups][n][k] x rhs (from createDenseSparseMatMulRHS) = [groups][n][m]; transposeLHS takes lhs as
/// [groups][k][n]; transposeRHS multiplies by the sparse operand's transpose ([groups][n][m] x [groups][m][k]).
poplar::Tensor denseSparseMatMul(poplar::Graph &graph, const poplar::Tensor &lhs, const SparseTensor &rhs,
                                 poplar::program::Sequence &prog, bool transposeLHS = false,
                                 bool transposeRHS = false, const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

} // namespace static_
} // namespace popsparse

#endif
