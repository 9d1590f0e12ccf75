// selectScalarFromRows and updateScalarInRows (popops/SelectScalarFromRows.hpp, popops/UpdateScalarInRows.hpp).
// Both compare each row's index with a constant row of column numbers broadcast over the rows, as encodeOneHot
// does, so they are element-wise maps that run where params lives: the select zeroes every element but the
// chosen one and a sum over the columns collects it (adding zeros is exact, in HALF too); the update subtracts
// one where the index matches. NaN for a bad index comes from a constant tensor, not an expression literal, so
// that the HALF and FLOAT forms need nothing special.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "counting_constant.hpp"
#include "op_name.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "popops/SelectScalarFromRows.hpp"
#include "popops/UpdateScalarInRows.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;
namespace pe = popops::expr;

namespace {

/// The broadcast operands of both operations: each row's index and each column's number as [rows, cols]
/// UNSIGNED_INT views, and one-element constants 0 and NaN of params' type.
struct RowOperands {
  Tensor rowIndex, column, zero, nan;
};

RowOperands rowOperands(poplar::Graph &graph, const Tensor &params, const Tensor &indices, const std::string &name) {
  if (!params.valid() || !indices.valid())
    throw poplibs_error(name + ": params or indices is invalid (default-constructed)");
  if (params.elementType() != poplar::FLOAT && params.elementType() != poplar::HALF)
    throw poplibs_error(name + ": params holds " + params.elementType().toString() + "; it must be FLOAT or HALF");
  if (indices.elementType() != poplar::UNSIGNED_INT && indices.elementType() != poplar::INT)
    throw poplibs_error(name + ": the indices hold " + indices.elementType().toString() +
                        "; they must be UNSIGNED_INT");
  if (params.rank() != 2)
    throw poplibs_error(name + ": params has rank " + std::to_string(params.rank()) + "; it must be a matrix");
  if (indices.rank() != 1 || indices.dim(0) != params.dim(0))
    throw poplibs_error(name + ": the indices must be rank 1 with one index per row of params (" +
                        std::to_string(params.dim(0)) + ")");
  const std::size_t rows = params.dim(0), cols = params.dim(1);
  RowOperands r;
  Tensor colIds = detail::countingConstant(graph, cols, name + "/columns");
  r.column = colIds.expand({0}).broadcast(unsigned(rows), 0);
  r.rowIndex = indices.reinterpret(poplar::UNSIGNED_INT).expand({1}).broadcast(unsigned(cols), 1);
  r.zero = graph.addConstant(params.elementType(), {1}, 0.0f, name + "/zero");
  r.nan = graph.addConstant(params.elementType(), {1}, std::numeric_limits<float>::quiet_NaN(), name + "/nan");
  graph.setTileMapping(r.zero, 0);
  graph.setTileMapping(r.nan, 0);
  return r;
}

/// True where an index is neither a column of params nor the mask code: placeholder `index` against `cols`.
pe::And badIndex(const pe::Expr &index, std::size_t cols) {
  return pe::Gte(index, pe::Const(unsigned(cols))) && pe::NotEqual(index, pe::Const(unsigned(MASKED_LABEL_CODE)));
}

} // namespace

Tensor selectScalarFromRows(poplar::Graph &graph, const Tensor &params, const Tensor &indices,
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "selectScalarFromRows");
  RowOperands r = rowOperands(graph, params, indices, name);
  const std::size_t rows = params.dim(0), cols = params.dim(1);
  if (rows == 0) {
    Tensor out = graph.addVariable(params.elementType(), {0}, name + "/out");
    return out;
  }
  // Every element but the chosen one becomes 0 (so NaN or inf elsewhere in the row cannot leak into the sum).
  Tensor picked = cols == 0 ? graph.addConstant(params.elementType(), {rows, 1}, 0.0f, name + "/empty")
                            : map(graph, pe::Select(pe::_1, pe::_4, pe::Equal(pe::_2, pe::_3)),
                                  {params, r.rowIndex, r.column, r.zero}, prog, name + "/pick");
  if (cols == 0)
    poputil::mapTensorLinearly(graph, picked);
  Tensor sum = reduce(graph, picked, {1}, ReduceParams(Operation::ADD), prog, name + "/sum");
  mapInPlace(graph, pe::Select(pe::_3, pe::_1, badIndex(pe::_2, cols)),
             {sum, indices.reinterpret(poplar::UNSIGNED_INT), r.nan}, prog, name + "/range");
  return sum;
}

void updateScalarInRows(poplar::Graph &graph, const Tensor &params, const Tensor &indices,
                        poplar::program::Sequence &program, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "updateScalarInRows");
  RowOperands r = rowOperands(graph, params, indices, name);
  if (params.numElements() == 0)
    return;
  const std::size_t cols = params.dim(1);
  mapInPlace(graph,
             pe::Select(pe::_4, pe::Select(pe::_1 - 1.0f, pe::_1, pe::Equal(pe::_2, pe::_3)),
                        badIndex(pe::_2, cols)),
             {params, r.rowIndex, r.column, r.nan}, program, name);
}

} // namespace popops
