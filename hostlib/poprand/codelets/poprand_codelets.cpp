// poprand's tile code, compiled with popc at build time into poprand.gp (loaded by poprand::addCodelets).
//  - poprand::Generate<Type><Source> fills its output runs with random values of one distribution (params.h).
//    Source "Seeded": element k of the reference gets Philox words of (seed, seedModifier, k), so the numbers
//    do not depend on the tile mapping. Source "Hw": the numbers come from the worker's hardware-like state
//    (key, 64-bit counter; one row of the graph's state tensor per tile and worker), whose counter advances.
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

/// Random words of element `index` of a seeded call, for any attempt.
struct SeededSource {
  unsigned s0, s1, modifier, index;
  Block operator()(unsigned attempt) const { return philox::seeded(s0, s1, modifier, index, attempt); }
};
/// Random words of the `position`-th element a worker draws from its state.
struct StateSource {
  const unsigned *state;
  unsigned position;
  Block operator()(unsigned attempt) const { return philox::fromState(state, position, attempt); }
};

const float kTwoPi = 6.283185307179586f;

bool keep(unsigned bits, unsigned threshold, unsigned always) { return always != 0 || bits < threshold; }

template <typename Source>
float truncatedStandardNormal(float alpha, const Source &src) {
  // Narrow truncation: propose uniformly on [-alpha, alpha] and accept with the normal's density ratio
  // (acceptance >= exp(-alpha^2/2)). Wide: Box-Muller pairs, keep one inside the bounds (acceptance >= 0.87).
  for (unsigned attempt = 0; attempt < 16; ++attempt) {
    Block r = src(attempt);
    if (alpha < 1.5f) {
      for (unsigned k = 0; k < 4; k += 2) {
        float z = alpha * (2.0f * philox::unitOpen1(r.w[k]) - 1.0f);
        if (philox::unitOpen1(r.w[k + 1]) < expf(-0.5f * z * z))
          return z;
      }
    } else {
      float radius = sqrtf(-2.0f * logf(philox::unitOpen0(r.w[0])));
      float theta = kTwoPi * philox::unitOpen1(r.w[1]);
      float z0 = radius * cosf(theta), z1 = radius * sinf(theta);
      if (fabsf(z0) <= alpha)
        return z0;
      if (fabsf(z1) <= alpha)
        return z1;
    }
  }
  return 0.0f; // after 32 rejected proposals (probability below 1e-5): the mean
}

/// One float sample of distribution `dist` (every kind but UNIFORM_INT); `in` is dropout's input element.
template <typename Source>
float drawFloat(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, float in,
                const Source &src) {
  switch (kind) {
  case dist::UNIFORM: {
    float v = a + b * philox::unitOpen1(src(0).w[0]);
    return v > c ? c : v;
  }
  case dist::NORMAL: {
    Block r = src(0);
    float radius = sqrtf(-2.0f * logf(philox::unitOpen0(r.w[0])));
    return a + b * radius * cosf(kTwoPi * philox::unitOpen1(r.w[1]));
  }
  case dist::TRUNC_NORMAL: return a + b * truncatedStandardNormal(c, src);
  case dist::BERNOULLI: return keep(src(0).w[0], u0, u1) ? 1.0f : 0.0f;
  case dist::LOG_UNIFORM: {
    float v = expf(a + b * philox::unitOpen1(src(0).w[0]));
    return v < c ? c : v > d ? d : v;
  }
  case dist::DROPOUT: return keep(src(0).w[0], u0, u1) ? in * a : 0.0f;
  default: return 0.0f;
  }
}

/// One int sample: UNIFORM_INT, BERNOULLI or LOG_UNIFORM (rounded to the nearest integer in [c, d]).
template <typename Source>
int drawInt(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1, const Source &src) {
  unsigned bits = src(0).w[0];
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

// Element type of the output, and how a sample is made for it.
template <typename T, typename Source> T sample(unsigned kind, float a, float b, float c, float d, unsigned u0,
                                                unsigned u1, float in, const Source &src) {
  return T(drawFloat(kind, a, b, c, d, u0, u1, in, src));
}
template <> int sample<int, SeededSource>(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1,
                                          float, const SeededSource &src) {
  return drawInt(kind, a, b, c, d, u0, u1, src);
}
template <> int sample<int, StateSource>(unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1,
                                         float, const StateSource &src) {
  return drawInt(kind, a, b, c, d, u0, u1, src);
}

template <typename T, typename In> float inputAt(const In &in, unsigned r, unsigned i) {
  return in.size() == 0 ? 0.0f : float(in[r][i]);
}

template <typename T, typename Out, typename In, typename Offsets, typename Seed>
void generateSeeded(const Out &out, const In &in, const Offsets &offsets, const Seed &seed, unsigned modifier,
                    unsigned kind, float a, float b, float c, float d, unsigned u0, unsigned u1) {
  SeededSource src;
  src.s0 = seed[0];
  src.s1 = seed[1];
  src.modifier = modifier;
  for (unsigned r = 0; r < out.size(); ++r)
    for (unsigned i = 0; i < out[r].size(); ++i) {
      src.index = offsets[r] + i;
      out[r][i] = sample<T>(kind, a, b, c, d, u0, u1, inputAt<T>(in, r, i), src);
    }
}

template <typename T, typename Out, typename In, typename State>
void generateFromState(const Out &out, const In &in, const State &state, unsigned kind, float a, float b, float c,
                       float d, unsigned u0, unsigned u1) {
  unsigned s[4] = {state[0], state[1], state[2], state[3]};
  StateSource src;
  src.state = s;
  src.position = 0;
  for (unsigned r = 0; r < out.size(); ++r)
    for (unsigned i = 0; i < out[r].size(); ++i, ++src.position)
      out[r][i] = sample<T>(kind, a, b, c, d, u0, u1, inputAt<T>(in, r, i), src);
  unsigned lo = s[2] + src.position;
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
