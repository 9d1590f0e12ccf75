// Reductions of a tensor over any set of its dimensions: partial results on the tiles that hold the input, then
// one reduction of the partials on the tile of each output element.
#ifndef POPOPS_REDUCE_HPP
#define POPOPS_REDUCE_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
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
  /// The old constant-scale form is not available: pass the scale as a tensor.
  ReduceParams(Operation op_, float constantScale, bool update_ = false) = delete;
  Operation op;
  bool update;
  bool useScale;
  poplar::Tensor scale;
};

/// in reduced over `dims` (each listed once, in any order) into a new tensor of the remaining dimensions in their
/// order, of type `outType`, mapped linearly. HALF input is accumulated in float (FLOAT partials between tiles);
/// HALF to FLOAT and FLOAT to HALF need no extra step. A reduction over no dimension copies (and scales). Throws
/// poputil::poplibs_error for a dimension out of range or repeated, update without an output, or LOGICAL_AND/OR
/// on a non-BOOL input.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above with the input's type.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const std::vector<std::size_t> &dims,
                      ReduceParams params, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above into `out`, whose shape must be in's shape without `dims` (or with them as 1s, or its element count).
/// An output not (completely) mapped is mapped linearly.
void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());

/// The forms above that add their vertices to the compute sets `css` (stage k to css[k], appending compute sets
/// when there are fewer) instead of a program; the caller executes css in order. Reductions given the same list
/// share its compute sets, so they run in parallel.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Type &outType,
                      const std::vector<std::size_t> &dims, ReduceParams params, std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above with the input's type.
poplar::Tensor reduce(poplar::Graph &graph, const poplar::Tensor &in, const std::vector<std::size_t> &dims,
                      ReduceParams params, std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());
/// As above into `out`.
void reduceWithOutput(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &out,
                      const std::vector<std::size_t> &dims, ReduceParams params, std::vector<poplar::ComputeSet> &css,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags());

/// One reduction of reduceMany(): the arguments of reduce().
struct SingleReduceOp {
  poplar::Tensor in;
  std::vector<std::size_t> dims;
  ReduceParams params;
  /// When false the output has in's element type; ignored when reduceMany is given outputs.
  bool useOutType;
  poplar::Type outType;
  std::string debugName;

  /// A reduction into a new tensor of `outType_`.
  SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_, poplar::Type outType_,
                 std::string debugName_ = "")
      : in(in_), dims(dims_), params(params_), useOutType(true), outType(outType_), debugName(debugName_) {}
  /// A reduction into a new tensor of in's type.
  SingleReduceOp(poplar::Tensor in_, std::vector<std::size_t> dims_, ReduceParams params_,
                 std::string debugName_ = "")
      : in(in_), dims(dims_), params(params_), useOutType(false), outType(poplar::BOOL), debugName(debugName_) {}
};

/// Several reductions in one set of compute sets (stage k of every reduction in the same compute set). `outputs`
/// is either empty (new tensors are made, mapped linearly, and appended) or holds one output per reduction.
/// Throws poputil::poplibs_error for a wrong number of outputs, for update without outputs, and for what reduce()
/// rejects.
void reduceMany(poplar::Graph &graph, const std::vector<SingleReduceOp> &reductions,
                std::vector<poplar::Tensor> &outputs, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace popops

#endif // POPOPS_REDUCE_HPP
