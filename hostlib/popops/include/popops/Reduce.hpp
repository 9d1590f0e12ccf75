// Reductions of a tensor over any set of its dimensions: partial results on the tiles that hold the input, then
// one reduction of the partials on the tile of each output element.
#ifndef POPOPS_REDUCE_HPP
#define POPOPS_REDUCE_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include "popops/Operation.hpp"

namespace popops {

/// The operation and the optional scale and update of a reduction: out = scale * reduce(in), or with update
/// out += scale * reduce(in).
struct ReduceParams {
  ReduceParams() : op(Operation::ADD), update(false), useScale(false) {}
  /// No scale; converts implicitly from an Operation.
  ReduceParams(Operation op_, bool update_ = false) : op(op_), update(update_), useScale(false) {}
  /// Scaled by the one-element float tensor `scale_`.
  ReduceParams(Operation op_, bool update_, poplar::Tensor scale_)
      : op(op_), update(update_), useScale(true), scale(scale_) {}
  Operation op;
  bool update;
  bool useScale;
  poplar::Tensor scale;
};

/// in reduced over `dims` (each listed once, in any order) into a new tensor of the remaining dimensions in their
/// order, of type `outType`, mapped linearly. A reduction over no dimension copies (and scales). Throws
/// poputil::poplibs_error for a dimension out of range or repeated, update without an output, or LOGICAL_AND/OR
/// on a non-BOOL input.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params, poplar::program::Sequence &prog,
                      const std::string &debugPrefix = "",
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above with the input's type.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const std::vector<std::size_t> &dims,
                      ReduceParams params, poplar::program::Sequence &prog, const std::string &debugPrefix = "",
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above into `out`, whose shape must be in's shape without `dims` (or with them as 1s, or its element count).
void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params, poplar::program::Sequence &prog,
                      const std::string &debugPrefix = "",
                      const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace popops

#endif // POPOPS_REDUCE_HPP
