// popops::selectScalarFromRows: one element picked from each row of a matrix by a per-row column index.
#ifndef popops_SelectScalarFromRows_hpp
#define popops_SelectScalarFromRows_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/EncodingConstants.hpp>

namespace popops {

/// Returns a new rank-1 tensor of params.dim(0) elements whose element i is params[i][indices[i]], computed by
/// `prog`. params is a FLOAT or HALF matrix; indices is a rank-1 UNSIGNED_INT (or INT) tensor with one index per
/// row. An index equal to MASKED_LABEL_CODE gives 0; any other index not below params.dim(1) gives NaN.
/// Throws poputil::poplibs_error for other types or shapes.
poplar::Tensor selectScalarFromRows(poplar::Graph &graph, const poplar::Tensor &params,
                                    const poplar::Tensor &indices, poplar::program::Sequence &prog,
                                    const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // popops_SelectScalarFromRows_hpp
