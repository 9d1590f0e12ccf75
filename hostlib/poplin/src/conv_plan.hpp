// Internal: what the convolution plans, for the preplanning functions (ConvPreplan.cpp): its options as matMul
// options and the forward product of its parameters.
#pragma once

#include <string>

#include <poplar/OptionFlags.hpp>

#include "MatMulPlan.hpp"
#include "poplin/ConvParams.hpp"

namespace poplin::detail {

/// The matMul options of convolution options (the convolution-only ones checked); `what` names the caller.
MatMulOptions convMatMulOptions(const poplar::OptionFlags &options, const std::string &what);
/// The grouped product that convolution(), createWeights() plan for `params`.
MatMulProblem convFwdProblem(const ConvParams &params, const std::string &what);

} // namespace poplin::detail
