// poprand's tile code, compiled with popc at build time into poprand.gp (loaded by poprand::addCodelets).
//  - poprand::Generate<Type><Source> fills its output runs with random values of one distribution (params.h).
//    Source "Seeded": element k of the reference takes its words from Philox block k / per of (seed,
//    seedModifier) (philox.h), so the numbers do not depend on the tile mapping. Source "Hw": the blocks are
//    numbered from the worker's hardware-like state (key, 64-bit counter; one row of the graph's state tensor per
//    tile and worker), whose counter advances past the blocks used.
//  - poprand::ApplyMask<Type>: out = mask != 0 ? in * scale : 0 (shaped dropout over a broadcast mask).
//  - poprand::SetSeed: derives the state of every worker of one tile from a master seed.
#include <math.h>
#include <poplar/Vertex.hpp>

#include "params.h"
#include "philox.h"

using namespace poplar;

namespace poprand {
namespace {

using philox::Block;

/// Blocks of a seeded call.
struct SeededCounter {
  unsigned s0, s1, modifier;
  Block at(unsigned block, unsigned lane, unsigned attempt) const {
    return philox::seeded(s0, s1, modifier, block, lane, attempt);
  }
};
/// Blocks of a worker's state.
struct StateCounter {
  const unsigned *state;
  Block at(unsigned block, unsigned lane, unsigned attempt) const {
    return philox::fromState(state, block, lane, attempt);
  }
};

/// The random words of one element: its share of the block's first attempt, and whole blocks of its own for
/// later attempts.
template <typename Counter> struct Element {
  const Counter *counter;
  const Block *shared;
  unsigned block, lane, width;
  unsigned word(unsigned i) const { return shared->w[lane * width + i]; }
  Block retry(unsigned attempt) const { return counter->at(block, lane, attempt); }
};

const float kTwoPi = 6.283185307179586f;

bool keep(unsigned bits, unsigned threshold, unsigned always) { return always != 0 || bits < threshold; }

float boxMullerRadius(unsigned w0) { return sqrtf(-2.0f * logf(philox::unitOpen0(w0))); }
float boxMullerAngle(unsigned w1) { return kTwoPi * philox::unitOpen1(w1); }

// Narrow truncation (alpha < 1.5): propose uniformly on [-alpha, alpha] and accept with the normal's density
// ratio (acceptance >= exp(-alpha^2/2)). Wide: Box-Muller pairs, keep one inside the bounds (acceptance >= 0.87).
bool tryTruncated(float alpha, unsigned w0, unsigned w1, float &z) {
  if (alpha < 1.5f) {
    z = alpha * (2.0f * philox::unitOpen1(w0) - 1.0f);
    return philox::unitOpen1(w1) < expf(-0.5f * z * z);
  }
  const float radius = boxMullerRadius(w0), theta = boxMullerAngle(w1);
  z = radius * cosf(theta);
  if (fabsf(z) <= alpha)
    return true;
  z = radius * sinf(theta);
  return fabsf(z) <= alpha;
}

template <typename Counter> float truncatedStandardNormal(float alpha, const Element<Counter> &e) {
  float z;
  if (tryTruncated(alpha, e.word(0), e.word(1), z))
    return z;
  for (unsigned attempt = 1; attempt < 16; ++attempt) {
    Block r = e.retry(attempt);
    if (tryTruncated(alpha, r.w[0], r.w[1], z) || tryTruncated(alpha, r.w[2], r.w[3], z))
      return z;
  }
  return 0.0f; // after 31 rejected proposals (probability below 1e-5): the mean
}

/// One float sample of distribution `kind` (every kind but UNIFORM_INT); `in` is dropout's input element.
template <typename Counter>
inline __attribute__((always_inline)) float drawFloat(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, float in,
                const Element<Counter> &e) {
  switch (kind) {
  case dist::UNIFORM: {
    float v = a + b * philox::unitOpen1(e.word(0));
    return v > c ? c : v < d ? d : v;
  }
  case dist::NORMAL: return a + b * boxMullerRadius(e.word(0)) * cosf(boxMullerAngle(e.word(1)));
  case dist::TRUNC_NORMAL: return a + b * truncatedStandardNormal(c, e);
  case dist::BERNOULLI: return keep(e.word(0), u0, u1) ? 1.0f : 0.0f;
  case dist::LOG_UNIFORM: {
    float v = expf(a + b * philox::unitOpen1(e.word(0)));
    return v < c ? c : v > d ? d : v;
  }
  case dist::DROPOUT: return keep(e.word(0), u0, u1) ? in * a : 0.0f;
  default: return 0.0f;
  }
}

/// One int sample: UNIFORM_INT, BERNOULLI or LOG_UNIFORM (rounded to the nearest integer in [c, d]).
template <typename Counter>
inline __attribute__((always_inline)) int drawInt(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, const Element<Counter> &e) {
  unsigned bits = e.word(0);
  switch (kind) {
  case dist::UNIFORM_INT:
    return int(u0 + (u1 == 0 ? bits : unsigned(((unsigned long long)bits * u1) >> 32)));
  case dist::BERNOULLI: return keep(bits, u0, u1) ? 1 : 0;
  case dist::LOG_UNIFORM: {
    float v = floorf(expf(a + b * philox::unitOpen1(bits)) + 0.5f);
    return int(v < c ? c : v > d ? d : v);
  }
  default: return 0;
  }
}

// A sample converted to the output type (float, half), or drawn as an int.
template <typename T, typename Counter> struct Sample {
  static inline __attribute__((always_inline)) T draw(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, float in,
                const Element<Counter> &e) {
    return T(drawFloat(kind, a, b, c, d, u0, u1, in, e));
  }
};
template <typename Counter> struct Sample<int, Counter> {
  static inline __attribute__((always_inline)) int draw(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, float,
                  const Element<Counter> &e) {
    return drawInt(kind, a, b, c, d, u0, u1, e);
  }
};

template <typename In> float inputAt(const In &in, unsigned r, unsigned i) {
  return in.size() == 0 ? 0.0f : float(in[r][i]);
}

/// Fills `out` with the samples of distribution `kind` of elements first(r) + i, r the run and i its position,
/// computing each Philox block once for the elements that share it. Returns the number of blocks past the last
/// element's. `kind` is a template argument so that each distribution gets a loop of its own.
template <typename T, unsigned kind, typename Counter, typename Out, typename In, typename First>
unsigned fillKind(const Counter &counter, const Out &out, const In &in, const First &first, float a, float b,
                  float c, float d, unsigned u0, unsigned u1) {
  const unsigned width = dist::wordsPerElement(kind), shift = width == 1 ? 2u : 1u, laneMask = (1u << shift) - 1;
  Block shared;
  unsigned cached = ~0u, end = 0;
  Element<Counter> e;
  e.counter = &counter;
  e.shared = &shared;
  e.width = width;
  for (unsigned r = 0; r < out.size(); ++r)
    for (unsigned i = 0; i < out[r].size(); ++i) {
      const unsigned k = first(r) + i;
      e.block = k >> shift;
      e.lane = k & laneMask;
      if (e.block != cached) {
        shared = counter.at(e.block, 0, 0);
        cached = e.block;
      }
      out[r][i] = Sample<T, Counter>::draw(kind, a, b, c, d, u0, u1, inputAt(in, r, i), e);
      end = e.block + 1;
    }
  return end;
}

template <typename T, typename Counter, typename Out, typename In, typename First>
unsigned fill(const Counter &counter, const Out &out, const In &in, const First &first, unsigned kind, float a,
              float b, float c, float d, unsigned u0, unsigned u1) {
  switch (kind) {
  case dist::UNIFORM: return fillKind<T, dist::UNIFORM>(counter, out, in, first, a, b, c, d, u0, u1);
  case dist::UNIFORM_INT: return fillKind<T, dist::UNIFORM_INT>(counter, out, in, first, a, b, c, d, u0, u1);
  case dist::NORMAL: return fillKind<T, dist::NORMAL>(counter, out, in, first, a, b, c, d, u0, u1);
  case dist::TRUNC_NORMAL: return fillKind<T, dist::TRUNC_NORMAL>(counter, out, in, first, a, b, c, d, u0, u1);
  case dist::BERNOULLI: return fillKind<T, dist::BERNOULLI>(counter, out, in, first, a, b, c, d, u0, u1);
  case dist::LOG_UNIFORM: return fillKind<T, dist::LOG_UNIFORM>(counter, out, in, first, a, b, c, d, u0, u1);
  default: return fillKind<T, dist::DROPOUT>(counter, out, in, first, a, b, c, d, u0, u1);
  }
}

/// Element numbers of a seeded vertex: the reference's, from each run's offset.
template <typename Offsets> struct RunOffsets {
  const Offsets *offsets;
  unsigned operator()(unsigned r) const { return (*offsets)[r]; }
};
/// Element numbers of a state vertex: its own count, run after run.
template <typename Out> struct RunPositions {
  const Out *out;
  mutable unsigned lastRun, lastStart;
  unsigned operator()(unsigned r) const {
    while (lastRun < r)
      lastStart += (*out)[lastRun++].size();
    return lastStart;
  }
};

template <typename T, typename Out, typename In, typename Offsets, typename Seed>
void generateSeeded(const Out &out, const In &in, const Offsets &offsets, const Seed &seed, unsigned modifier,
                    unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1) {
  SeededCounter counter;
  counter.s0 = seed[0];
  counter.s1 = seed[1];
  counter.modifier = modifier;
  RunOffsets<Offsets> first;
  first.offsets = &offsets;
  fill<T>(counter, out, in, first, kind, a, b, c, d, u0, u1);
}

template <typename T, typename Out, typename In, typename State>
void generateFromState(const Out &out, const In &in, const State &state, unsigned kind, float a, float b, float c,
                       float d, unsigned u0, unsigned u1) {
  unsigned s[4] = {state[0], state[1], state[2], state[3]};
  StateCounter counter;
  counter.state = s;
  RunPositions<Out> first;
  first.out = &out;
  first.lastRun = 0;
  first.lastStart = 0;
  const unsigned blocks = fill<T>(counter, out, in, first, kind, a, b, c, d, u0, u1);
  const unsigned lo = s[2] + blocks;
  state[3] = s[3] + (lo < s[2] ? 1u : 0u);
  state[2] = lo;
}

} // namespace

// The fields every generation vertex has: what to draw (params.h) and dropout's input runs (empty otherwise).
#define POPRAND_GENERATE_FIELDS(T)                                                                                 \
  Output<VectorList<T>> out;                                                                                       \
  Input<VectorList<T>> in;                                                                                         \
  unsigned dist;                                                                                                   \
  float a;                                                                                                         \
  float b;                                                                                                         \
  float c;                                                                                                         \
  float d;                                                                                                         \
  unsigned u0;                                                                                                     \
  unsigned u1;

// Generate<T>Seeded: out[r][i] is element offsets[r] + i of the reference, drawn under seed and seedModifier.
// Generate<T>Hw: drawn from this worker's state (key0, key1, counterLo, counterHi), which advances.
#define POPRAND_GENERATE_VERTICES(Name, T)                                                                         \
  class Generate##Name##Seeded : public Vertex {                                                                   \
  public:                                                                                                          \
    POPRAND_GENERATE_FIELDS(T)                                                                                     \
    Input<Vector<unsigned>> offsets;                                                                               \
    Input<Vector<unsigned>> seed;                                                                                  \
    unsigned seedModifier;                                                                                         \
    bool compute() {                                                                                               \
      generateSeeded<T>(out, in, offsets, seed, seedModifier, dist, a, b, c, d, u0, u1);                           \
      return true;                                                                                                 \
    }                                                                                                              \
  };                                                                                                               \
  class Generate##Name##Hw : public Vertex {                                                                       \
  public:                                                                                                          \
    POPRAND_GENERATE_FIELDS(T)                                                                                     \
    InOut<Vector<unsigned>> state;                                                                                 \
    bool compute() {                                                                                               \
      generateFromState<T>(out, in, state, dist, a, b, c, d, u0, u1);                                              \
      return true;                                                                                                 \
    }                                                                                                              \
  };

POPRAND_GENERATE_VERTICES(Float, float)
POPRAND_GENERATE_VERTICES(Half, half)
POPRAND_GENERATE_VERTICES(Int, int)

/// Shaped dropout: out = mask != 0 ? in * scale : 0, run by run (mask is a broadcast view of a bernoulli draw).
#define POPRAND_APPLY_MASK_VERTEX(Name, T)                                                                         \
  class ApplyMask##Name : public Vertex {                                                                          \
  public:                                                                                                          \
    Input<VectorList<T>> in;                                                                                       \
    Input<VectorList<T>> mask;                                                                                     \
    Output<VectorList<T>> out;                                                                                     \
    float scale;                                                                                                   \
    bool compute() {                                                                                               \
      for (unsigned r = 0; r < out.size(); ++r)                                                                    \
        for (unsigned i = 0; i < out[r].size(); ++i)                                                               \
          out[r][i] = float(mask[r][i]) != 0.0f ? T(float(in[r][i]) * scale) : T(0.0f);                            \
      return true;                                                                                                 \
    }                                                                                                              \
  };

POPRAND_APPLY_MASK_VERTEX(Float, float)
POPRAND_APPLY_MASK_VERTEX(Half, half)

/// setSeed on one tile: worker w's state becomes (seed[0], seed[1] ^ mixed modifier, 0, tile * workers + w), so
/// every worker of every tile draws from its own stream of the master seed.
class SetSeed : public Vertex {
public:
  Input<Vector<unsigned>> seed;
  Output<Vector<unsigned>> state;
  unsigned modifierMix;
  unsigned firstStream;
  bool compute() {
    for (unsigned w = 0; w * 4 < state.size(); ++w) {
      state[w * 4 + 0] = seed[0];
      state[w * 4 + 1] = seed[1] ^ modifierMix;
      state[w * 4 + 2] = 0;
      state[w * 4 + 3] = firstStream + w;
    }
    return true;
  }
};

} // namespace poprand
