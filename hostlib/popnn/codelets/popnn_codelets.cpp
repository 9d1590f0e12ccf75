// popnn's tile code, compiled with popc at build time into popnn.gp (loaded by popnn::addCodelets):
//  - popnn::NonLinearity applies an element-wise non-linearity in place to its runs;
//  - popnn::NonLinearityGrad computes the input gradient of one from the activations and the output gradient;
//  - the ...Half forms do the same on half data (computed in float, each result rounded once to half).
// Each vertex is one worker's share of a tile's elements; `nl` is a popnn::NonLinearityType.
#include <math.h>
#include <poplar/Vertex.hpp>

#include "popnn/NonLinearityDef.hpp"

using namespace poplar;

namespace popnn {
namespace {

// The constants of the tanh approximation of GELU (sqrt(2 / pi) and the cubic term).
const float kGeluAlpha = 0.7978845608f;
const float kGeluBeta = 0.044715f;
// 1 / sqrt(2) and 1 / sqrt(2 pi), for the exact GELU.
const float kRsqrt2 = 0.70710678f;
const float kRsqrt2Pi = 0.39894228f;

float sigmoidOf(float x) { return 1.0f / (1.0f + expf(-x)); }

float forward(unsigned nl, float x) {
  switch (NonLinearityType(nl)) {
  case NonLinearityType::SIGMOID: return sigmoidOf(x);
  case NonLinearityType::HARD_SIGMOID: return fmaxf(0.0f, fminf(1.0f, 0.2f * x + 0.5f));
  case NonLinearityType::RELU: return x > 0.0f ? x : 0.0f;
  case NonLinearityType::TANH: return tanhf(x);
  case NonLinearityType::GELU: return 0.5f * x * (1.0f + tanhf(kGeluAlpha * x * (1.0f + kGeluBeta * x * x)));
  case NonLinearityType::GELU_ERF: return 0.5f * x * (1.0f + erff(x * kRsqrt2));
  case NonLinearityType::SWISH: return x * sigmoidOf(x);
  default: return x; // the host never sends the softmax types here
  }
}

// d(input) from act (the output; the input for GELU, GELU_ERF and SWISH) and the output gradient g.
float gradient(unsigned nl, float act, float g) {
  switch (NonLinearityType(nl)) {
  case NonLinearityType::SIGMOID: return g * act * (1.0f - act);
  case NonLinearityType::HARD_SIGMOID: return act > 0.0f && act < 1.0f ? 0.2f * g : 0.0f;
  case NonLinearityType::RELU: return act > 0.0f ? g : 0.0f;
  case NonLinearityType::TANH: return g * (1.0f - act * act);
  case NonLinearityType::GELU: {
    const float x = act, t = tanhf(kGeluAlpha * x * (1.0f + kGeluBeta * x * x));
    const float dt = (1.0f - t * t) * kGeluAlpha * (1.0f + 3.0f * kGeluBeta * x * x);
    return g * (0.5f * (1.0f + t) + 0.5f * x * dt);
  }
  case NonLinearityType::GELU_ERF: { // Phi(x) + x * phi(x), phi the standard normal density
    const float x = act;
    return g * (0.5f * (1.0f + erff(x * kRsqrt2)) + x * kRsqrt2Pi * expf(-0.5f * x * x));
  }
  case NonLinearityType::SWISH: {
    const float s = sigmoidOf(act);
    return g * (s + act * s * (1.0f - s));
  }
  default: return g;
  }
}

} // namespace

namespace {

// The non-linearity of every element of every run, in place; T is float or half (computed in float, rounded once).
template <typename T, typename List> void forwardRuns(List &data, unsigned nl) {
  for (unsigned r = 0; r < data.size(); ++r) {
    T *x = data[r].data();
    for (unsigned i = 0; i < data[r].size(); ++i)
      x[i] = T(forward(nl, float(x[i])));
  }
}

// inGrad = the input gradient for every element of every run; T as above.
template <typename T, typename In, typename Out> void gradientRuns(const In &act, const In &outGrad, Out &inGrad,
                                                                   unsigned nl) {
  for (unsigned r = 0; r < inGrad.size(); ++r) {
    T *o = inGrad[r].data();
    const T *a = act[r].data(), *g = outGrad[r].data();
    for (unsigned i = 0; i < inGrad[r].size(); ++i)
      o[i] = T(gradient(nl, float(a[i]), float(g[i])));
  }
}

} // namespace

/// Applies non-linearity `nl` to every element of every run of `data`, in place.
class NonLinearity : public Vertex {
public:
  InOut<VectorList<float>> data;
  unsigned nl;
  bool compute() {
    forwardRuns<float>(data, nl);
    return true;
  }
};

/// The same on half data: each element is computed in float and rounded once to half (nearest even).
class NonLinearityHalf : public Vertex {
public:
  InOut<VectorList<half>> data;
  unsigned nl;
  bool compute() {
    forwardRuns<half>(data, nl);
    return true;
  }
};

/// inGrad[r][i] = the input gradient of `nl` given act[r][i] and outGrad[r][i].
class NonLinearityGrad : public Vertex {
public:
  Input<VectorList<float>> act;
  Input<VectorList<float>> outGrad;
  Output<VectorList<float>> inGrad;
  unsigned nl;
  bool compute() {
    gradientRuns<float>(act, outGrad, inGrad, nl);
    return true;
  }
};

/// The same on half data, computed in float and rounded once.
class NonLinearityGradHalf : public Vertex {
public:
  Input<VectorList<half>> act;
  Input<VectorList<half>> outGrad;
  Output<VectorList<half>> inGrad;
  unsigned nl;
  bool compute() {
    gradientRuns<half>(act, outGrad, inGrad, nl);
    return true;
  }
};

} // namespace popnn

#include "roi_align_codelets.h"
#include "ctc_codelets.h"
#include "ctc_beam_codelets.h"
