// popnn's CTC beam-search decoder tile code (included at the end of popnn_codelets.cpp): the
// vertex of popnn::ctc_infer::beamSearchDecoderLogProbabilities (src/CTCInference.cpp builds it), one per sequence.
//
// Prefix beam search in the log domain: each beam is a label prefix with two scores, the log probability of the
// alignments ending in a blank and of those ending in the prefix's last label. A step extends every beam by each
// class; a repeated label only extends the prefix after a blank. Candidates for the same prefix are merged, and the
// beamWidth best are kept. Prefixes are nodes of a tree (parent, label) so that a beam costs two words, and the
// tree grows by at most beamWidth nodes a step.

#include "log_add.h"

namespace popnn {
namespace {

const unsigned kCtcNone = ~0u;

// The log probability of class k at step t.
template <typename Probs> inline float ctcBeamLogProb(const Probs &probs, unsigned t, unsigned k) {
  return float(probs[t][k]);
}

// The child of `node` labelled c among the first `nodes` tree nodes, or kCtcNone.
inline unsigned ctcChild(const unsigned *parent, const unsigned *label, unsigned nodes, unsigned node, unsigned c) {
  for (unsigned m = 1; m < nodes; ++m)
    if (parent[m] == node && label[m] == c)
      return m;
  return kCtcNone;
}

// Decodes one sequence: probs has maxTime rows of numClasses log probabilities, the first dataLength valid.
// scores: 2 * W * C + 2 * W floats; links: 3 * W * C + 2 * (1 + maxTime * W) + W words (W beams, C classes).
// Writes the topPaths best paths: their negative log probabilities, lengths and labels (maxTime each, 0 after the
// path's end); paths beyond the beams found get 65504 and length 0.
template <typename Probs>
void ctcBeamSearch(const Probs &probs, unsigned dataLength, unsigned blank, unsigned W, unsigned topPaths,
                   float *scores, unsigned *links, float *outProbs, unsigned *outLengths, unsigned *outLabels) {
  const unsigned maxT = probs.size(), C = probs[0].size();
  const unsigned T = dataLength < maxT ? dataLength : maxT;
  const unsigned nCand = W * C, nodeCap = 1 + maxT * W;
  float *cPb = scores, *cPnb = scores + nCand, *bPb = scores + 2 * nCand, *bPnb = bPb + W;
  unsigned *cNode = links, *cParent = links + nCand, *cLabel = links + 2 * nCand;
  unsigned *nParent = links + 3 * nCand, *nLabel = nParent + nodeCap, *bNode = nLabel + nodeCap;
  nParent[0] = kCtcNone;
  nLabel[0] = kCtcNone;
  unsigned nodes = 1, beams = 1;
  bNode[0] = 0;
  bPb[0] = 0.0f;
  bPnb[0] = kCtcLogZero;
  for (unsigned t = 0; t < T; ++t) {
    unsigned n = 0;
    // Every beam keeps its prefix: after a blank, or repeating its last label.
    for (unsigned i = 0; i < beams; ++i) {
      const unsigned last = nLabel[bNode[i]];
      cNode[n] = bNode[i];
      cParent[n] = kCtcNone;
      cLabel[n] = kCtcNone;
      cPb[n] = logAdd(bPb[i], bPnb[i]) + ctcBeamLogProb(probs, t, blank);
      cPnb[n] = last != kCtcNone ? bPnb[i] + ctcBeamLogProb(probs, t, last) : kCtcLogZero;
      ++n;
    }
    // Every beam grows by each label; a prefix that is already a beam's merges into that beam's candidate.
    for (unsigned i = 0; i < beams; ++i) {
      const unsigned node = bNode[i], last = nLabel[node];
      const float total = logAdd(bPb[i], bPnb[i]);
      for (unsigned c = 0; c < C; ++c) {
        if (c == blank)
          continue;
        const float p = (c == last ? bPb[i] : total) + ctcBeamLogProb(probs, t, c);
        const unsigned child = ctcChild(nParent, nLabel, nodes, node, c);
        unsigned j = kCtcNone;
        for (unsigned k = 0; child != kCtcNone && k < beams; ++k)
          if (cNode[k] == child)
            j = k;
        if (j != kCtcNone) {
          cPnb[j] = logAdd(cPnb[j], p);
        } else {
          cNode[n] = child;
          cParent[n] = node;
          cLabel[n] = c;
          cPb[n] = kCtcLogZero;
          cPnb[n] = p;
          ++n;
        }
      }
    }
    // The W best candidates, best first (the first of equals wins), become the beams.
    beams = n < W ? n : W;
    for (unsigned k = 0; k < beams; ++k) {
      unsigned best = k;
      float bestScore = logAdd(cPb[k], cPnb[k]);
      for (unsigned m = k + 1; m < n; ++m) {
        const float s = logAdd(cPb[m], cPnb[m]);
        if (s > bestScore) {
          best = m;
          bestScore = s;
        }
      }
      if (best != k) {
        float f = cPb[k]; cPb[k] = cPb[best]; cPb[best] = f;
        f = cPnb[k]; cPnb[k] = cPnb[best]; cPnb[best] = f;
        unsigned u = cNode[k]; cNode[k] = cNode[best]; cNode[best] = u;
        u = cParent[k]; cParent[k] = cParent[best]; cParent[best] = u;
        u = cLabel[k]; cLabel[k] = cLabel[best]; cLabel[best] = u;
      }
    }
    for (unsigned k = 0; k < beams; ++k) {
      unsigned node = cNode[k];
      if (node == kCtcNone) {
        node = nodes++;
        nParent[node] = cParent[k];
        nLabel[node] = cLabel[k];
      }
      bNode[k] = node;
      bPb[k] = cPb[k];
      bPnb[k] = cPnb[k];
    }
  }
  for (unsigned k = 0; k < topPaths; ++k) {
    unsigned length = 0;
    for (unsigned m = k < beams ? bNode[k] : 0; m != 0; m = nParent[m])
      ++length;
    outProbs[k] = k < beams ? -logAdd(bPb[k], bPnb[k]) : -kCtcLogZero;
    outLengths[k] = length;
    unsigned *row = outLabels + k * maxT;
    for (unsigned i = 0; i < maxT; ++i)
      row[i] = 0;
    unsigned at = length;
    for (unsigned m = k < beams ? bNode[k] : 0; m != 0; m = nParent[m])
      row[--at] = nLabel[m];
  }
}

} // namespace

// CtcBeamSearch: sequence b's topPaths best label paths (see ctcBeamSearch) from its log probabilities (probs: one
// row of numClasses per step) and its valid length (dataLength[0]); scores and links are scratch.
#define POPNN_CTC_BEAM_VERTEX(Suffix, T)                                                                           \
  class CtcBeamSearch##Suffix : public Vertex {                                                                    \
  public:                                                                                                          \
    Input<VectorList<T>> probs;                                                                                    \
    Input<Vector<unsigned>> dataLength;                                                                            \
    Output<Vector<float>> scores;                                                                                  \
    Output<Vector<unsigned>> links;                                                                                \
    Output<Vector<float>> pathProbs;                                                                               \
    Output<Vector<unsigned>> pathLengths;                                                                          \
    Output<Vector<unsigned>> paths;                                                                                \
    unsigned blank;                                                                                                \
    unsigned beamWidth;                                                                                            \
    bool compute() {                                                                                               \
      ctcBeamSearch(probs, dataLength[0], blank, beamWidth, pathProbs.size(), &scores[0], &links[0],              \
                    &pathProbs[0], &pathLengths[0], &paths[0]);                                                    \
      return true;                                                                                                 \
    }                                                                                                              \
  };

POPNN_CTC_BEAM_VERTEX(, float)
POPNN_CTC_BEAM_VERTEX(Half, half)

} // namespace popnn
