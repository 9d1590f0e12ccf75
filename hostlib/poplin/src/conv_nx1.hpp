// Internal: a convolution built from poplin::ConvPartialnx1 vertices, which read the output rows' input rows
// straight from the (transformed) input field and accumulate over the kernel's positions, with no im2col copy (the
// form of PopLibs' ConvPartialnx1). poplin::convolution uses it when every tile's share fits (convNx1Applies) and
// builds the im2col matrix product otherwise.
#pragma once

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include "poplin/ConvParams.hpp"

namespace poplin::detail {

/// Whether the nx1 vertices build convolution `p`: one or two field dimensions, FLOAT, HALF or HALF -> FLOAT data,
/// and one vertex's input rows, weights and output rows within an eighth of a tile's memory.
bool convNx1Applies(const poplar::Target &target, const ConvParams &p);

/// Adds the compute set of convolution `p` to `prog`. `in` is the transformed input {B, G * Ci, H, W} already cut
/// to the rows and columns the output's first position starts at (its output truncation), `weights` the transformed
/// weights {G, Co, Ci, KH, KW}, `out` the computed output {B, G * Co, OH, OW} (its padding left out); a 1-D
/// convolution comes with H, KH and OH of 1. The output rows of each (batch, group) are dealt to the tiles.
void buildConvNx1(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &weights,
                  const poplar::Tensor &out, const ConvParams &p, poplar::program::Sequence &prog,
                  const std::string &name);

} // namespace poplin::detail
