// Planning convolutions and matrix products ahead of building them, in one call (poplin::preplan).
#ifndef POPLIN_CONVPREPLAN_HPP
#define POPLIN_CONVPREPLAN_HPP

#include <set>

#include "poplin/Convolution.hpp"
#include "poplin/MatMul.hpp"

namespace poplin {

/// Plans the convolutions `convs` (as preplanConvolutions) and the products `matmuls` (as preplanMatMuls) into
/// `cache`: the convolution and matMul functions given `cache` then find their plans there. Errors as those two functions.
void preplan(const std::set<ConvPlanParams> &convs, const std::set<MatMulPlanParams> &matmuls,
             PlanningCache &cache);

} // namespace poplin

#endif // POPLIN_CONVPREPLAN_HPP
