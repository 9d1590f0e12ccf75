// popnn's tile code shared by the CTC loss (ctc_codelets.h) and the CTC beam-search decoder
// (ctc_beam_codelets.h): sums of probabilities kept as logs, in float.
#pragma once

#include <math.h>

namespace popnn {
namespace {

// PopLibs' log of zero in CTC: the least half (-65504) rather than -inf, so that sums and differences of such
// logs stay finite (a label that no alignment fits gives a loss of about 65504, not inf or NaN).
const float kCtcLogZero = -65504.0f;

// log(exp(a) + exp(b)), computed from the larger so that exp cannot overflow and the smaller only adds
// log1p of a number <= 1.
inline float logAdd(float a, float b) {
  const float hi = a > b ? a : b, lo = a > b ? b : a;
  return hi + log1pf(expf(lo - hi));
}

} // namespace
} // namespace popnn
