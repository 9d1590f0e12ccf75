// popops::updateScalarInRows: subtracts one from one element of each row of a matrix, in place (the gradient
// step of a sparse softmax cross-entropy).
#ifndef popops_UpdateScalarInRows_hpp
#define popops_UpdateScalarInRows_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/ExprOp.hpp>

namespace popops {

/// Adds to `program` the in-place update params[r][indices[r]] -= 1 for every row r. params is a FLOAT or HALF
/// matrix; indices is a rank-1 UNSIGNED_INT (or INT) tensor with one index per row. A row whose index is
/// MASKED_LABEL_CODE is left as it is; a row whose index is otherwise not below params.dim(1) becomes all NaN.
/// Throws poputil::poplibs_error for other types or shapes.
void updateScalarInRows(poplar::Graph &graph, const poplar::Tensor &params, const poplar::Tensor &indices,
                        poplar::program::Sequence &program, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // popops_UpdateScalarInRows_hpp
