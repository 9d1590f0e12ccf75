// popnn's CTC loss tile code (included at the end of popnn_codelets.cpp): the vertex of
// popnn::ctc::calcLossAndGradientLogProbabilities (src/CTCLoss.cpp builds it), one per sequence.
//
// The forward (alpha) and backward (beta) recursions over the label extended with blanks (-a-b-c-), in the log
// domain and in float, with PopLibs' log of zero (-65504, the least half) as floor so that nothing becomes
// infinite or NaN: a label that no alignment fits gives a loss of about 65504.

#include "log_add.h"

namespace popnn {
namespace {

// The class of position s of the extended label: blanks at even positions, label[(s - 1) / 2] at odd ones.
template <typename Label> inline unsigned ctcSymbol(const Label &label, unsigned blank, unsigned s) {
  return (s & 1) ? unsigned(label[s >> 1]) : blank;
}

// Whether position s may be reached from s - 2 (skipping a blank): only between two different symbols.
template <typename Label> inline bool ctcCanSkip(const Label &label, unsigned blank, unsigned s) {
  return s >= 2 && ctcSymbol(label, blank, s) != blank && ctcSymbol(label, blank, s) != ctcSymbol(label, blank, s - 2);
}

// Log probability of class k at step t of a sequence whose steps are probs[t] (numClasses each).
template <typename Probs> inline float ctcLogProb(const Probs &probs, unsigned t, unsigned k) {
  return k < probs[t].size() ? float(probs[t][k]) : kCtcLogZero;
}

// The loss of one sequence and, when `grad` has rows, its gradient (see CTCLoss.hpp): alpha holds every valid
// step's extended-label row, beta two rows (the recursion only looks one step ahead).
template <typename Probs, typename Label, typename Grad>
float ctcLossGradient(const Probs &probs, const Label &label, unsigned dataLength, unsigned labelLength,
                      unsigned blank, float *alpha, float *beta, Grad &grad, bool computeGrad) {
  const unsigned maxT = probs.size();
  const unsigned T = dataLength < maxT ? dataLength : maxT;
  const unsigned L = labelLength < label.size() ? labelLength : label.size();
  const unsigned S = 2 * L + 1;
  float logP = L == 0 ? 0.0f : kCtcLogZero; // no steps: only the empty label has probability 1
  if (T > 0) {
    for (unsigned s = 0; s < S; ++s)
      alpha[s] = s < 2 ? ctcLogProb(probs, 0, ctcSymbol(label, blank, s)) : kCtcLogZero;
    for (unsigned t = 1; t < T; ++t) {
      const float *prev = alpha + (t - 1) * S;
      float *cur = alpha + t * S;
      for (unsigned s = 0; s < S; ++s) {
        float a = prev[s];
        if (s >= 1)
          a = logAdd(a, prev[s - 1]);
        if (ctcCanSkip(label, blank, s))
          a = logAdd(a, prev[s - 2]);
        cur[s] = a + ctcLogProb(probs, t, ctcSymbol(label, blank, s));
      }
    }
    const float *last = alpha + (T - 1) * S;
    logP = S >= 2 ? logAdd(last[S - 1], last[S - 2]) : last[S - 1];
  }
  if (!computeGrad)
    return -logP;
  // Gradient rows start as the log of the summed posterior (zero); steps beyond T keep it and get exp(logProb).
  for (unsigned t = 0; t < maxT; ++t)
    for (unsigned k = 0; k < grad[t].size(); ++k)
      grad[t][k] = kCtcLogZero;
  for (unsigned i = 0; i < T; ++i) {
    const unsigned t = T - 1 - i;
    float *cur = beta + (t & 1) * S;
    const float *next = beta + ((t + 1) & 1) * S;
    for (unsigned s = 0; s < S; ++s) {
      float b;
      if (t == T - 1) {
        b = s + 2 >= S ? 0.0f : kCtcLogZero;
      } else {
        b = next[s];
        if (s + 1 < S)
          b = logAdd(b, next[s + 1]);
        if (s + 2 < S && ctcCanSkip(label, blank, s + 2))
          b = logAdd(b, next[s + 2]);
      }
      const unsigned k = ctcSymbol(label, blank, s);
      cur[s] = b + ctcLogProb(probs, t, k);
      // alpha * beta counts the emission at t twice: divide it out once.
      if (k < grad[t].size())
        grad[t][k] = logAdd(grad[t][k], alpha[t * S + s] + cur[s] - ctcLogProb(probs, t, k));
    }
  }
  for (unsigned t = 0; t < maxT; ++t)
    for (unsigned k = 0; k < grad[t].size(); ++k)
      grad[t][k] = expf(float(probs[t][k])) - (t < T ? expf(grad[t][k] - logP) : 0.0f);
  return -logP;
}

} // namespace

// CtcLossGradient: sequence b's loss (loss[0]) and, with computeGrad, its gradient (grad: one row of numClasses
// per step, float) from its log probabilities (probs: one row per step), its label (label, maxLabelLength
// classes) and its valid lengths (dataLength[0], labelLength[0]); alpha (maxTime * (2 * maxLabelLength + 1)) and
// beta (2 * (2 * maxLabelLength + 1)) are float scratch. With zeroInfinity, a loss within zeroTolerance (relative)
// of 65504 or above and all the sequence's gradient become 0.
#define POPNN_CTC_VERTEX(Suffix, T)                                                                                \
  class CtcLossGradient##Suffix : public Vertex {                                                                  \
  public:                                                                                                          \
    Input<VectorList<T>> probs;                                                                                    \
    Input<Vector<unsigned>> label;                                                                                 \
    Input<Vector<unsigned>> dataLength;                                                                            \
    Input<Vector<unsigned>> labelLength;                                                                           \
    Output<Vector<float>> alpha;                                                                                   \
    Output<Vector<float>> beta;                                                                                    \
    Output<VectorList<float>> grad;                                                                                \
    Output<Vector<float>> loss;                                                                                    \
    unsigned blank;                                                                                                \
    unsigned computeGrad;                                                                                          \
    unsigned zeroInfinity;                                                                                         \
    float zeroTolerance;                                                                                           \
    bool compute() {                                                                                               \
      float l = ctcLossGradient(probs, label, dataLength[0], labelLength[0], blank, &alpha[0], &beta[0], grad,    \
                                computeGrad != 0);                                                                 \
      if (zeroInfinity && l >= -(1.0f - zeroTolerance) * kCtcLogZero) {                                           \
        l = 0.0f;                                                                                                  \
        for (unsigned t = 0; computeGrad && t < grad.size(); ++t)                                                  \
          for (unsigned k = 0; k < grad[t].size(); ++k)                                                            \
            grad[t][k] = 0.0f;                                                                                     \
      }                                                                                                            \
      loss[0] = l;                                                                                                 \
      return true;                                                                                                 \
    }                                                                                                              \
  };

POPNN_CTC_VERTEX(, float)
POPNN_CTC_VERTEX(Half, half)

} // namespace popnn
