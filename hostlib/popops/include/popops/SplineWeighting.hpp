// popops::splineWeighting: the features of spline convolution (as in SplineCNN) weighted by the continuous
// B-spline kernel that popops::splineBasis describes, computed on the tiles.
#ifndef POPOPS_SPLINEWEIGHTING_HPP
#define POPOPS_SPLINEWEIGHTING_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// Returns output [numEdges, numOutputChannels] with output[e][o] = sum over splines s and input channels i of
/// basis[e][s] * input[e][i] * weight[weightIndex[e][s]][i][o], for `input` [numEdges, numInputChannels] (FLOAT
/// or HALF), `weight` [numKernels, numInputChannels, numOutputChannels], `basis` [numEdges, numSplines] (all of
/// input's type; HALF accumulates in float) and `weightIndex` [numEdges, numSplines] (INT, as splineBasis gives;
/// an index outside [0, numKernels) adds nothing). The output is mapped by edges over the tiles; one compute set
/// is appended to `prog`. Throws poputil::poplibs_error for other ranks, types or mismatched sizes.
poplar::Tensor splineWeighting(poplar::Graph &graph, const poplar::Tensor &input, const poplar::Tensor &weight,
                               const poplar::Tensor &basis, const poplar::Tensor &weightIndex,
                               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SPLINEWEIGHTING_HPP
