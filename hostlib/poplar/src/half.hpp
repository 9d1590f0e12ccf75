// Internal: IEEE binary16 conversions for HALF tensors.
#pragma once

#include <cstdint>
#include <cstring>

namespace poplar::detail {

/// Rounds a float to the nearest binary16 (ties to even).
inline std::uint16_t floatToHalf(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::int32_t exp = std::int32_t((x >> 23) & 0xffu) - 127 + 15;
  std::uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xffu) == 0xffu)
    return std::uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31)
    return std::uint16_t(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10)
      return std::uint16_t(sign);
    mant |= 0x800000u;
    std::uint32_t shift = std::uint32_t(14 - exp);
    std::uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1u)))
      ++h;
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (std::uint32_t(exp) << 10) | (mant >> 13), rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
    ++h;
  return std::uint16_t(sign | h);
}

/// Rounds a double to the nearest binary16 (ties to even) in one step: going through float would round twice and
/// can land on a tie the double was not on (1 + 2^-11 + 2^-40 becomes 1 + 2^-11 in float, then 1.0 in half; the
/// nearest half is 1 + 2^-10).
inline std::uint16_t doubleToHalf(double d) {
  std::uint64_t x;
  std::memcpy(&x, &d, 8);
  const std::uint32_t sign = std::uint32_t(x >> 48) & 0x8000u;
  const std::uint32_t biased = std::uint32_t(x >> 52) & 0x7ffu;
  std::uint64_t mant = x & ((std::uint64_t(1) << 52) - 1);
  if (biased == 0x7ffu)
    return std::uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0));
  const std::int32_t exp = std::int32_t(biased) - 1023 + 15;
  if (exp >= 31)
    return std::uint16_t(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10)
      return std::uint16_t(sign);
    mant |= std::uint64_t(1) << 52;
    const std::uint32_t shift = std::uint32_t(43 - exp);
    std::uint64_t h = mant >> shift, rem = mant & ((std::uint64_t(1) << shift) - 1);
    const std::uint64_t half = std::uint64_t(1) << (shift - 1);
    if (rem > half || (rem == half && (h & 1u)))
      ++h;
    return std::uint16_t(sign | std::uint32_t(h));
  }
  std::uint64_t h = (std::uint64_t(exp) << 10) | (mant >> 42);
  const std::uint64_t rem = mant & ((std::uint64_t(1) << 42) - 1), half = std::uint64_t(1) << 41;
  if (rem > half || (rem == half && (h & 1u)))
    ++h; // a carry out of the mantissa steps the exponent, up to infinity (0x7c00)
  return std::uint16_t(sign | std::uint32_t(h));
}

/// Widens a binary16 value to float (exact).
inline float halfToFloat(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, bits;
  if (exp == 0x1fu)
    bits = sign | 0x7f800000u | (mant << 13);
  else if (exp != 0)
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  else if (mant == 0)
    bits = sign;
  else {
    exp = 113u;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      exp--;
    }
    bits = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace poplar::detail
