// popops::splineBasis: the B-spline basis coefficients and kernel weight indices of spline convolution (as in
// SplineCNN), computed on the tiles.
#ifndef POPOPS_SPLINEBASIS_HPP
#define POPOPS_SPLINEBASIS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// For pseudo coordinates `pseudo` [numEdges, numDims] (FLOAT or HALF, each in [0, 1]), the kernel size of each
/// dimension `kernelSize` [numDims] (INT) and whether each dimension's spline is open `isOpenSpline` [numDims]
/// (UNSIGNED_CHAR, 0 or 1), writes for every edge and each of the numSplines = (degree + 1)^numDims splines:
/// `basis` [numEdges, numSplines] (pseudo's type), the product over the dimensions of the B-spline basis function
/// of `degree` (1, 2 or 3) at the coordinate's knot fraction, and `weightIndex` [numEdges, numSplines] (INT), the
/// kernel weight each coefficient multiplies (an index into the product of the kernel sizes). One compute set is
/// appended to `prog`. Throws poputil::poplibs_error for other ranks, types, sizes or degrees.
void splineBasis(poplar::Graph &graph, const poplar::Tensor &pseudo, const poplar::Tensor &kernelSize,
                 const poplar::Tensor &isOpenSpline, const poplar::Tensor &basis, const poplar::Tensor &weightIndex,
                 unsigned degree, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SPLINEBASIS_HPP
