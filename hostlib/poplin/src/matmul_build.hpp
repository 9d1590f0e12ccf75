// Internal: building a planned (grouped) product into a graph, shared by MatMul.cpp and the convolution.
#pragma once

#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include "MatMulPlan.hpp"

namespace poplin::detail {

/// Which tensor of a product: the left operand {G, m, k}, the right one {G, k, n} or the result {G, m, n}.
enum class Operand { A, B, Out };

/// The problem of operands of shapes `a` {G, m, k} and `b` {G, k, n}; throws poputil::poplibs_error naming a shape
/// or type mismatch (`what` is the caller).
MatMulProblem problemOf(const std::vector<std::size_t> &a, const std::vector<std::size_t> &b,
                        const poplar::Type &inputType, const poplar::Type &outputType, const std::string &what);
/// A new 3-D tensor for `which`, mapped for the plan (each block spread over the tiles that use it).
poplar::Tensor createOperand(poplar::Graph &graph, const MatMulPlan &pl, const MatMulProblem &p, Operand which,
                             const std::string &name);
/// Maps `t` (of `which`'s shape) as createOperand does.
void mapOperand(poplar::Graph &graph, const poplar::Tensor &t, const MatMulPlan &pl, const MatMulProblem &p,
                Operand which);
/// Adds C = A * B (3-D views) by the plan to `prog`: one compute set of MatMul vertices and, with an inner split,
/// the reduction stages.
void buildMatMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B, const poplar::Tensor &C,
                 const MatMulPlan &pl, const MatMulProblem &p, poplar::program::Sequence &prog,
                 const std::string &name);

} // namespace poplin::detail
