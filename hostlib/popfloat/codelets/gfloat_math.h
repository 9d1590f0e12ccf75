// The gfloat arithmetic of popfloat's vertices (popfloat_codelets.cpp): quantising an IEEE value to a gfloat
// format with a rounding mode, packing a quantised value into the format's bits and unpacking it. Tile code: float
// arithmetic only (the formats fit in an IEEE single), no exceptions.
//
// A format has m mantissa bits, e exponent bits, a bias b and two switches. Exponent field E, fraction f:
//   E >= 1: (1 + f / 2^m) * 2^(E - b);  E = 0: (f / 2^m) * 2^(1 - b) with denormals, else only zero.
// With Infs/NaNs (and e >= 1) the top exponent field is Inf (f = 0) or NaN, so the largest finite value has
// E = 2^e - 2; else E = 2^e - 1. With e = 0 every value is a denormal (the switch is ignored).
#ifndef POPFLOAT_GFLOAT_MATH_H
#define POPFLOAT_GFLOAT_MATH_H

#include <math.h>

#include "float_bits.h"

namespace popfloat {
namespace gf {

/// The parameter words the GfloatParams vertex writes and the casts read.
enum ParamWord { MAN, EXP, BIAS, FLAGS, MAX_BITS, MIN_NORM_BITS, DENORM_STEP_BITS, PACKED_BITS, NUM_PARAMS };
enum Flag { DENORMS = 1, INFS_AND_NANS = 2 };

/// The rounding modes, as popfloat::experimental::RoundType numbers them.
enum Round { INV, RZ, RN, RA, RU, RD, SR, SX };
/// The noise densities, as popfloat::experimental::SRDensityType numbers them.
enum Density {
  D_INVALID, D_UNIFORM, D_NORMAL, D_TRUNCATED_NORMAL, D_BERNOULLI, D_LOGISTIC, D_TRUNCATED_LOGISTIC, D_LAPLACE,
  D_TRUNCATED_LAPLACE, D_LOGIT_NORMAL, D_TRUNCATED_LOGIT_NORMAL
};

using poplibs_tile::bitsFloat;
using poplibs_tile::floatBits;

/// The format's figures, from the packed struct word (GfloatCast::FormatConfig::getPackedFloatParameters: bits
/// 0-7 mantissa bits, 8-15 exponent bits, 16-23 the bias as a signed byte, bit 24 denormals, bit 25 Infs/NaNs).
struct Format {
  int man, exp, bias;
  bool denorms, infNan;
  float maxValue, minNormal, denormStep;
};

inline Format formatOf(unsigned gfStruct) {
  Format f;
  f.man = int(gfStruct & 255u);
  f.exp = int((gfStruct >> 8) & 255u);
  f.bias = int((signed char)((gfStruct >> 16) & 255u));
  f.denorms = ((gfStruct >> 24) & 1u) != 0 || f.exp == 0;
  f.infNan = ((gfStruct >> 25) & 1u) != 0 && f.exp > 0;
  f.minNormal = ldexpf(1.0f, 1 - f.bias);
  f.denormStep = ldexpf(1.0f, 1 - f.bias - f.man);
  if (f.exp == 0) {
    f.maxValue = ldexpf(1.0f - ldexpf(1.0f, -f.man), 1 - f.bias);
  } else {
    const int topField = (1 << f.exp) - (f.infNan ? 2 : 1);
    f.maxValue = ldexpf(2.0f - ldexpf(1.0f, -f.man), topField - f.bias);
  }
  return f;
}

/// The format as the parameter words hold it.
inline Format formatOf(const int *p) {
  Format f;
  f.man = p[MAN];
  f.exp = p[EXP];
  f.bias = p[BIAS];
  f.denorms = (p[FLAGS] & DENORMS) != 0;
  f.infNan = (p[FLAGS] & INFS_AND_NANS) != 0;
  f.maxValue = bitsFloat(unsigned(p[MAX_BITS]));
  f.minNormal = bitsFloat(unsigned(p[MIN_NORM_BITS]));
  f.denormStep = bitsFloat(unsigned(p[DENORM_STEP_BITS]));
  return f;
}

/// How a cast rounds: the mode, and for the stochastic ones the random bits and the noise.
struct Rounding {
  unsigned mode, srBits, density;
  float offset, scale, noiseMin, noiseMax, bernoulli;
  bool nanoo;
  unsigned seed;
};

/// A hash of 32 bits (an avalanche mix): element i's k-th random word is mix(seed + mix(i) + k * golden).
inline unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
/// A uniform value in [0, 1) of 24 random bits.
inline float uniform(unsigned seed, unsigned index, unsigned k) {
  return float(mix(seed + mix(index) + k * 0x9e3779b9u) >> 8) * (1.0f / 16777216.0f);
}
inline float standardNormal(unsigned seed, unsigned index, unsigned k) {
  const float u1 = 1.0f - uniform(seed, index, k), u2 = uniform(seed, index, k + 1);
  return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
}

/// One sample of density `d` in its standard form (before offset and scale).
inline float sample(unsigned d, unsigned seed, unsigned index, unsigned k) {
  switch (d) {
  case D_NORMAL:
  case D_TRUNCATED_NORMAL:
    return standardNormal(seed, index, k);
  case D_LOGISTIC:
  case D_TRUNCATED_LOGISTIC: {
    const float u = uniform(seed, index, k) * 0.999999f + 0.0000005f;
    return logf(u / (1.0f - u));
  }
  case D_LAPLACE:
  case D_TRUNCATED_LAPLACE: {
    const float u = uniform(seed, index, k) * 0.999999f + 0.0000005f;
    return u < 0.5f ? logf(2.0f * u) : -logf(2.0f * (1.0f - u));
  }
  case D_LOGIT_NORMAL:
  case D_TRUNCATED_LOGIT_NORMAL:
    return 1.0f / (1.0f + expf(-standardNormal(seed, index, k)));
  default:
    return uniform(seed, index, k);
  }
}

inline bool truncated(unsigned d) {
  return d == D_TRUNCATED_NORMAL || d == D_TRUNCATED_LOGISTIC || d == D_TRUNCATED_LAPLACE ||
         d == D_TRUNCATED_LOGIT_NORMAL;
}

/// The noise (a fraction of one step, in [0, 1)) added before truncating the magnitude: uniform over srBits bits
/// without a density; else offset + scale * sample, redrawn (up to 16 times) while outside [min, max] for a
/// truncated density, then clipped to [min, max] and to [0, 1).
inline float noise(const Rounding &r, unsigned index) {
  if (r.density == D_INVALID || r.density == D_UNIFORM) {
    const unsigned bits = r.srBits == 0 ? 1u : r.srBits > 24 ? 24u : r.srBits;
    const float u = float(mix(r.seed + mix(index)) >> (32 - bits)) * ldexpf(1.0f, -int(bits));
    if (r.density == D_INVALID)
      return u;
  }
  float v = r.offset + r.scale * sample(r.density, r.seed, index, 0);
  for (unsigned k = 1; truncated(r.density) && (v < r.noiseMin || v > r.noiseMax) && k < 16; ++k)
    v = r.offset + r.scale * sample(r.density, r.seed, index, 2 * k);
  v = v < r.noiseMin ? r.noiseMin : v > r.noiseMax ? r.noiseMax : v;
  return v < 0.0f ? 0.0f : v >= 1.0f ? 0.99999994f : v;
}

/// x quantised to format `f` with rounding `r` (element `index` of the cast, for the noise), as a float.
/// Overflow: a value beyond the largest finite one is NaN in NaN-on-overflow mode when the format has NaNs,
/// else the largest finite value (sign kept); Inf stays Inf and NaN stays NaN when the format has them, else
/// Inf saturates and NaN becomes 0.
inline float quantise(float x, const Format &f, const Rounding &r, unsigned index) {
  if (x != x)
    return f.infNan ? x : 0.0f;
  const float a = fabsf(x);
  const float sign = (floatBits(x) >> 31) ? -1.0f : 1.0f; // -0 stays -0
  if (a == __builtin_inff())
    return f.infNan ? x : sign * f.maxValue;
  float step;
  if (a >= f.minNormal) {
    int e2;
    frexpf(a, &e2); // a = m * 2^e2 with m in [0.5, 1)
    step = ldexpf(1.0f, e2 - 1 - f.man);
  } else {
    step = f.denorms ? f.denormStep : f.minNormal;
  }
  const float y = a / step; // exact: a power-of-two scaling
  float q;
  switch (r.mode) {
  case RZ: q = floorf(y); break;
  case RA: q = roundf(y); break; // y >= 0: ties away from zero
  case RU: q = sign > 0.0f ? ceilf(y) : floorf(y); break;
  case RD: q = sign > 0.0f ? floorf(y) : ceilf(y); break;
  case SR:
  case SX:
    // Up one step when the fraction and the noise reach 1 (kept apart: y + noise would round for large y).
    q = floorf(y);
    if (r.density == D_BERNOULLI)
      q += y != q && uniform(r.seed, index, 0) < r.bernoulli ? 1.0f : 0.0f;
    else
      q += (y - q) + noise(r, index) >= 1.0f ? 1.0f : 0.0f;
    break;
  default: q = nearbyintf(y); break; // RN: ties to even
  }
  const float v = q * step;
  if (v > f.maxValue)
    return r.nanoo && f.infNan ? __builtin_nanf("") : sign * f.maxValue;
  return sign * v;
}

/// A quantised value's bits in a packed storage word of `storageBits` bits: sign at the top, then the exponent
/// field and the fraction, left-aligned (a 1/5/2 format is the top byte of an IEEE half, bfloat16 the top half of
/// an IEEE single); the bits below the format are 0.
inline unsigned pack(float v, const Format &f, unsigned storageBits) {
  const unsigned width = 1u + unsigned(f.exp) + unsigned(f.man);
  const unsigned sign = v < 0.0f || (v == 0.0f && (floatBits(v) >> 31)) ? 1u : 0u;
  const float a = fabsf(v);
  unsigned field = 0, frac = 0;
  const unsigned topField = f.exp > 0 ? (1u << f.exp) - 1u : 0u;
  if (v != v) {
    field = topField;
    frac = (1u << f.man) - 1u;
  } else if (a == __builtin_inff()) {
    field = topField;
  } else if (a >= f.minNormal && f.exp > 0) {
    int e2;
    const float m = frexpf(a, &e2); // a = m * 2^e2, m in [0.5, 1): the field is e2 - 1 + bias
    field = unsigned(e2 - 1 + f.bias);
    frac = unsigned(ldexpf(m * 2.0f - 1.0f, f.man));
  } else if (f.denorms) {
    frac = unsigned(a / f.denormStep);
  }
  const unsigned word = (sign << (width - 1)) | (field << f.man) | frac;
  return word << (storageBits - width);
}

/// The value a packed storage word holds (the inverse of pack).
inline float unpack(unsigned word, const Format &f, unsigned storageBits) {
  const unsigned width = 1u + unsigned(f.exp) + unsigned(f.man);
  word = (word & (storageBits == 32 ? 0xffffffffu : (1u << storageBits) - 1u)) >> (storageBits - width);
  const float sign = (word >> (width - 1)) & 1u ? -1.0f : 1.0f;
  const unsigned field = f.exp > 0 ? (word >> f.man) & ((1u << f.exp) - 1u) : 0u;
  const unsigned frac = word & ((1u << f.man) - 1u);
  if (f.infNan && field == (1u << f.exp) - 1u)
    return frac ? __builtin_nanf("") : sign * __builtin_inff();
  if (field == 0)
    return f.denorms ? sign * float(frac) * f.denormStep : sign * 0.0f;
  return sign * ldexpf(1.0f + ldexpf(float(frac), -f.man), int(field) - f.bias);
}

} // namespace gf
} // namespace popfloat

#endif // POPFLOAT_GFLOAT_MATH_H
