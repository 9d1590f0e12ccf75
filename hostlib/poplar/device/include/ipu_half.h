// Device-side `half`: IEEE 754 binary16 stored in 16 bits, as on the IPU (sizeof(half) == 2), so that a HALF
// tensor's bytes mean the same on the host and the tiles. The tiles' RV32IMF has no half arithmetic, so values
// convert to float for every operation and round to nearest even when stored back.
#ifndef POPLAR_DEVICE_IPU_HALF_H
#define POPLAR_DEVICE_IPU_HALF_H

class half {
public:
  half() = default;
  half(float f) : bits_(fromFloat(f)) {}
  half(double d) : bits_(fromFloat(static_cast<float>(d))) {}
  half(int i) : bits_(fromFloat(static_cast<float>(i))) {}
  half(unsigned i) : bits_(fromFloat(static_cast<float>(i))) {}
  operator float() const { return toFloat(bits_); }

  half &operator+=(float v) { return *this = half(float(*this) + v); }
  half &operator-=(float v) { return *this = half(float(*this) - v); }
  half &operator*=(float v) { return *this = half(float(*this) * v); }
  half &operator/=(float v) { return *this = half(float(*this) / v); }

  /// The raw binary16 pattern.
  unsigned short bits() const { return bits_; }
  static half fromBits(unsigned short b) {
    half h;
    h.bits_ = b;
    return h;
  }

private:
  static unsigned floatBits(float f) {
    union { float f; unsigned u; } v;
    v.f = f;
    return v.u;
  }
  static float bitsFloat(unsigned u) {
    union { float f; unsigned u; } v;
    v.u = u;
    return v.f;
  }
  static unsigned short fromFloat(float f) {
    unsigned x = floatBits(f);
    unsigned sign = (x >> 16) & 0x8000u;
    unsigned absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // infinity or NaN (NaN keeps a quiet payload bit)
      return static_cast<unsigned short>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) // rounds to a value beyond the largest half: infinity
      return static_cast<unsigned short>(sign | 0x7c00u);
    if (absx < 0x38800000u) { // below the smallest normal half: a subnormal (or zero), rounded to nearest even
      if (absx < 0x33000000u)
        return static_cast<unsigned short>(sign);
      unsigned mant = (absx & 0x7fffffu) | 0x800000u;
      unsigned shift = 126u - (absx >> 23); // 14..24
      unsigned result = mant >> shift;
      unsigned rest = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
      if (rest > halfway || (rest == halfway && (result & 1u)))
        ++result;
      return static_cast<unsigned short>(sign | result);
    }
    unsigned result = ((absx >> 13) - (112u << 10)) & 0xffffu;
    unsigned rest = absx & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
      ++result; // may carry into the exponent: still the right rounding
    return static_cast<unsigned short>(sign | result);
  }
  static float toFloat(unsigned short h) {
    unsigned sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0x1fu)
      return bitsFloat(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
      if (mant == 0)
        return bitsFloat(sign);
      float v = static_cast<float>(mant) * (1.0f / 16777216.0f); // mant * 2^-24
      return sign ? -v : v;
    }
    return bitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
  }
  unsigned short bits_;
};

#endif // POPLAR_DEVICE_IPU_HALF_H
