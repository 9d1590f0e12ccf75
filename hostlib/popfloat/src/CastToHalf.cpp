// popfloat's host conversions between IEEE single (1/8/23 bits) and half (1/5/10 bits), on the bit patterns.
#include "popfloat/experimental/CastToHalf.hpp"

#include <cstring>

namespace popfloat {
namespace experimental {

namespace {
constexpr uint16_t kHalfInf = 0x7c00, kHalfMax = 0x7bff, kHalfQuiet = 0x0200;
constexpr uint32_t kSingleInf = 0x7f800000u, kSingleQuiet = 0x00400000u;

// `m` shifted right by `s` (1..31) bits, rounded to nearest with ties to even.
uint32_t shiftRoundEven(uint32_t m, unsigned s) {
  const uint32_t kept = m >> s, rest = m & ((1u << s) - 1), half = 1u << (s - 1);
  return kept + (rest > half || (rest == half && (kept & 1u)) ? 1u : 0u);
}
} // namespace

uint16_t singleToHalf(float value, bool) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = uint16_t((bits >> 16) & 0x8000u);
  const int exp = int((bits >> 23) & 0xffu);
  const uint32_t mant = bits & 0x7fffffu;
  if (exp == 0xff) { // infinity, or NaN: the top 10 mantissa bits and the quiet bit kept, never a zero mantissa
    if (mant == 0)
      return uint16_t(sign | kHalfInf);
    uint16_t m = uint16_t(mant >> 13) & 0x3ffu;
    m = (mant & kSingleQuiet) ? uint16_t(m | kHalfQuiet) : uint16_t(m & ~kHalfQuiet);
    return uint16_t(sign | kHalfInf | (m == 0 ? 1u : m));
  }
  const int e = exp - 127; // unbiased; single denormals are far below half's range
  if (exp == 0 || e < -25)
    return sign;
  const uint32_t full = mant | 0x800000u; // 24 significant bits
  // Half's exponent field is e + 15; below 1 the value is a half denormal with (e + 14) fewer bits.
  const int shift = e >= -14 ? 13 : 13 + (-14 - e);
  const uint32_t rounded = shiftRoundEven(full, unsigned(shift));
  uint32_t h;
  if (e >= -14)
    h = (uint32_t(e + 15) << 10) + (rounded - 0x400u); // a carry out of the mantissa bumps the exponent
  else
    h = rounded; // denormal; a carry to 0x400 is the smallest normal, as it should be
  if (h >= kHalfInf) // finite overflow saturates (PopLibs' behaviour with or without enNanoo)
    h = kHalfMax;
  return uint16_t(sign | h);
}

float halfToSingle(uint16_t ihalf) {
  const uint32_t sign = uint32_t(ihalf & 0x8000u) << 16;
  const unsigned exp = (ihalf >> 10) & 0x1fu;
  uint32_t mant = ihalf & 0x3ffu, bits;
  if (exp == 0x1f) {
    bits = sign | kSingleInf | (mant << 13); // infinity, or NaN with its payload and quiet bit
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else { // a denormal: normalise
    int e = -14;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      --e;
    }
    bits = sign | (uint32_t(e + 127) << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

} // namespace experimental
} // namespace popfloat
