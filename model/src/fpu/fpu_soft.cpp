// Portable integer binary32 arithmetic: exact intermediate results, one rounding in any RISC-V mode.
#include "fpu_soft.h"

#include "fpu.h"
#include "fpu_bits.h"

#include <bit>
#include <utility>

// Independent of the host floating-point environment and invisible to it (see
// isqrt), so it is also the fallback when the host MXCSR is not the default.
namespace ipu::fpu::soft {
namespace {

using namespace ipu::fpu::bits;
using u128 = unsigned __int128;

// A finite operand as an exact integer times a power of two: value = m * 2^q.
struct Unpacked {
  uint64_t m;
  int q;
};

Unpacked unpack(uint32_t x) {
  uint32_t e = (x >> 23) & 0xff, f = x & 0x7fffff;
  if (e == 0) return {f, -149};
  return {f | 0x800000u, int(e) - 150};
}

// Shifts the significand so its leading one is at bit 23 (subnormals), keeping the value.
Unpacked normalize24(Unpacked u) {
  int s = std::countl_zero(u.m) - 40;
  return {u.m << s, u.q - s};
}

// Right shift that ORs every bit shifted out into bit 0 ("sticky"), so a later
// rounding still knows the value was not exact.
uint64_t shift_right_jam(uint64_t x, int d) {
  if (d == 0) return x;
  if (d >= 64) return x != 0;
  return (x >> d) | ((x << (64 - d)) != 0);
}

u128 shift_right_jam128(u128 x, int d) {
  if (d == 0) return x;
  if (d >= 128) return x != 0;
  return (x >> d) | u128((x << (128 - d)) != 0);
}

int clz128(u128 x) {
  uint64_t hi = uint64_t(x >> 64);
  return hi ? std::countl_zero(hi) : 64 + std::countl_zero(uint64_t(x));
}

// Whether to add one unit in the last kept place, given the kept LSB, the first
// dropped bit and whether anything below it is nonzero.
bool round_increment(unsigned rm, bool sign, bool lsb, bool rbit, bool sticky) {
  switch (rm) {
  case kRTZ: return false;
  case kRDN: return sign && (rbit || sticky);
  case kRUP: return !sign && (rbit || sticky);
  case kRMM: return rbit;
  default: return rbit && (sticky || lsb);
  }
}

// IEEE overflow result: infinity, or the largest finite value when the mode rounds toward zero.
uint32_t overflow(bool sign, unsigned rm, uint32_t &flags) {
  flags |= kOF | kNX;
  bool to_inf = rm == kRNE || rm == kRMM || (rm == kRDN && sign) || (rm == kRUP && !sign);
  return (sign ? kSign : 0) | (to_inf ? kInf : kMaxFinite);
}

uint32_t signed_zero(bool sign) { return sign ? kSign : 0; }

// The sign of an exact zero sum of operands with opposite signs (IEEE 754 6.3).
uint32_t cancelled_zero(unsigned rm) { return rm == kRDN ? kSign : 0; }

// Rounds sig * 2^q (sig != 0) to binary32. Bit 0 of sig may be a sticky bit
// standing for nonzero bits below it; callers then keep at least 26 significant
// bits above it so it stays below the rounding position.
uint32_t round_pack(bool sign, int q, uint64_t sig, unsigned rm, uint32_t &flags) {
  int lz = std::countl_zero(sig);
  sig <<= lz;
  int e = q + 63 - lz;  // value in [2^e, 2^(e+1))
  uint32_t s = sign ? kSign : 0;
  if (e > 127) return overflow(sign, rm, flags);
  uint64_t kept24 = sig >> 40;
  bool rbit24 = (sig >> 39) & 1, sticky24 = (sig << 25) != 0;
  bool inc24 = round_increment(rm, sign, kept24 & 1, rbit24, sticky24);
  if (e >= -126) {
    if (inc24 && ++kept24 == (1u << 24)) {
      kept24 >>= 1;
      if (++e > 127) return overflow(sign, rm, flags);
    }
    if (rbit24 || sticky24) flags |= kNX;
    return s | (uint32_t(e + 127) << 23) | (uint32_t(kept24) & 0x7fffff);
  }
  // Tininess after rounding: tiny unless rounding to 24 bits with an unbounded
  // exponent reaches 2^-126, which is only possible from e == -127.
  bool tiny = !(e == -127 && inc24 && kept24 == 0xffffff);
  int drop = 40 + (-126 - e);  // >= 41: fewer bits survive as a subnormal
  uint64_t kept;
  bool rbit, sticky;
  if (drop < 64) {
    kept = sig >> drop;
    rbit = (sig >> (drop - 1)) & 1;
    sticky = (sig << (65 - drop)) != 0;
  } else if (drop == 64) {
    kept = 0;
    rbit = sig >> 63;
    sticky = (sig << 1) != 0;
  } else {
    kept = 0;
    rbit = false;
    sticky = true;
  }
  if (round_increment(rm, sign, kept & 1, rbit, sticky)) ++kept;  // may carry into the min normal: same bits
  if (rbit || sticky) flags |= tiny ? (kNX | kUF) : kNX;
  return s | uint32_t(kept);
}

// Common NaN rule: canonical NaN, NV if any operand is signaling.
uint32_t nan_result(uint32_t a, uint32_t b, uint32_t &flags) {
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  return kCanonicalNaN;
}

uint32_t invalid(uint32_t &flags) {
  flags |= kNV;
  return kCanonicalNaN;
}

// Adds two finite nonzero values exactly (up to a sticky bit) and rounds once.
uint32_t add_finite(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  if ((a & kAbs) < (b & kAbs)) std::swap(a, b);  // |a| >= |b|: the sum takes a's sign
  Unpacked ua = unpack(a), ub = unpack(b);
  // 39 spare low bits: alignment of close exponents is exact, far ones only lose sticky bits.
  uint64_t ma = ua.m << 39, mb = shift_right_jam(ub.m << 39, ua.q - ub.q);
  uint64_t sum = sign_of(a) == sign_of(b) ? ma + mb : ma - mb;
  if (sum == 0) return cancelled_zero(rm);
  return round_pack(sign_of(a), ua.q - 39, sum, rm, flags);
}

// Integer square root of n < 2^63; *rem = n - root^2.
#ifdef IPU_FPU_X86
// The host's double sqrt gives the root to within one, corrected exactly below.
// It runs under a known MXCSR (default mode, all masked) and the host's MXCSR,
// status bits included, is reloaded afterwards, so the host sees nothing.
uint64_t isqrt(uint64_t n, uint64_t *rem) {
  uint32_t host, known = 0x1f80;
  asm volatile("stmxcsr %0\n\tldmxcsr %1" : "=m"(host) : "m"(known));
  double d = double(n);
  asm volatile("" : "+x"(d));
  d = __builtin_sqrt(d);
  asm volatile("" : "+x"(d));
  uint64_t r = uint64_t(d);
  asm volatile("ldmxcsr %0" : : "m"(host));
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  *rem = n - r * r;
  return r;
}
#else
// Digit-by-digit method: integer only, so no host floating-point state is touched.
uint64_t isqrt(uint64_t n, uint64_t *rem) {
  uint64_t r = 0, bit = uint64_t(1) << 62;
  while (bit > n) bit >>= 2;
  for (; bit != 0; bit >>= 2) {
    if (n >= r + bit) {
      n -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
  }
  *rem = n;
  return r;
}
#endif

} // namespace

uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  if (is_inf(a)) return (is_inf(b) && sign_of(a ^ b)) ? invalid(flags) : a;
  if (is_inf(b)) return b;
  if (is_zero(a) && is_zero(b)) return sign_of(a) == sign_of(b) ? a : cancelled_zero(rm);
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  return add_finite(a, b, rm, flags);
}

uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  bool sign = sign_of(a ^ b);
  if (is_inf(a) || is_inf(b))
    return (is_zero(a) || is_zero(b)) ? invalid(flags) : (signed_zero(sign) | kInf);
  if (is_zero(a) || is_zero(b)) return signed_zero(sign);
  Unpacked ua = unpack(a), ub = unpack(b);
  return round_pack(sign, ua.q + ub.q, ua.m * ub.m, rm, flags);  // 48-bit product: exact
}

uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(a, b, flags);
  bool sign = sign_of(a ^ b);
  if (is_inf(a)) return is_inf(b) ? invalid(flags) : (signed_zero(sign) | kInf);
  if (is_inf(b)) return signed_zero(sign);
  if (is_zero(b)) {
    if (is_zero(a)) return invalid(flags);
    flags |= kDZ;
    return signed_zero(sign) | kInf;
  }
  if (is_zero(a)) return signed_zero(sign);
  Unpacked ua = normalize24(unpack(a)), ub = normalize24(unpack(b));
  // Dividend at bits 63..40 over a 24-bit divisor: a quotient of >= 40 bits plus a remainder sticky.
  uint64_t n = ua.m << 40;
  uint64_t quo = n / ub.m, rem = n % ub.m;
  return round_pack(sign, ua.q - 40 - ub.q, quo | (rem != 0), rm, flags);
}

uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags) {
  if (is_nan(a)) return nan_result(a, a, flags);
  if (is_zero(a)) return a;
  if (sign_of(a)) return invalid(flags);
  if (is_inf(a)) return a;
  Unpacked u = normalize24(unpack(a));
  if (u.q & 1) {  // make the exponent even so it halves exactly
    u.m <<= 1;
    u.q -= 1;
  }
  uint64_t rem;
  uint64_t r = isqrt(u.m << 38, &rem);  // radicand < 2^63, root has >= 30 bits
  return round_pack(false, (u.q - 38) / 2, r | (rem != 0), rm, flags);
}

uint32_t fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  bool inf_times_zero = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    if (is_snan(a) || is_snan(b) || is_snan(c) || inf_times_zero) flags |= kNV;
    return kCanonicalNaN;
  }
  if (inf_times_zero) return invalid(flags);
  bool ps = sign_of(a ^ b);  // product sign
  if (is_inf(a) || is_inf(b)) return (is_inf(c) && sign_of(c) != ps) ? invalid(flags) : (signed_zero(ps) | kInf);
  if (is_inf(c)) return c;
  if (is_zero(a) || is_zero(b)) {
    if (!is_zero(c)) return c;
    return sign_of(c) == ps ? signed_zero(ps) : cancelled_zero(rm);
  }
  Unpacked ua = unpack(a), ub = unpack(b);
  if (is_zero(c)) return round_pack(ps, ua.q + ub.q, ua.m * ub.m, rm, flags);
  Unpacked uc = unpack(c);
  // Both terms normalized to bit 125: the sum cannot overflow 128 bits and
  // small exponent differences align without losing bits.
  u128 x = ua.m * ub.m, y = uc.m;
  int lx = clz128(x) - 2, ly = clz128(y) - 2;
  x <<= lx;
  y <<= ly;
  int qx = ua.q + ub.q - lx, qy = uc.q - ly;
  bool sx = ps, sy = sign_of(c);
  if (qx < qy) {
    std::swap(x, y);
    std::swap(qx, qy);
    std::swap(sx, sy);
  }
  y = shift_right_jam128(y, qx - qy);
  u128 r;
  bool sign = sx;
  if (sx == sy) {
    r = x + y;
  } else if (x >= y) {
    r = x - y;
  } else {
    r = y - x;
    sign = sy;
  }
  if (r == 0) return cancelled_zero(rm);
  int lz = clz128(r);
  r <<= lz;
  uint64_t sig = uint64_t(r >> 64) | (uint64_t(r) != 0);
  return round_pack(sign, qx - lz + 64, sig, rm, flags);
}

namespace {

// Rounds a finite float to an integer magnitude per rm; sets *inexact. Magnitudes
// of 2^40 and above are clamped to 2^40: the caller rejects them as out of range anyway.
uint64_t round_to_integer(uint32_t a, unsigned rm, bool *inexact) {
  Unpacked u = unpack(a);
  bool sign = sign_of(a);
  *inexact = false;
  if (u.q >= 0) return u.q > 16 ? (uint64_t(1) << 40) : (u.m << u.q);
  int sh = -u.q;  // >= 1
  uint64_t kept = sh >= 64 ? 0 : u.m >> sh;
  bool rbit = sh <= 64 && ((u.m >> (sh - 1)) & 1);
  bool sticky = sh > 64 ? u.m != 0 : (u.m & ((uint64_t(1) << (sh - 1)) - 1)) != 0;
  *inexact = rbit || sticky;
  return kept + round_increment(rm, sign, kept & 1, rbit, sticky);
}

} // namespace

uint32_t cvt_w_s(uint32_t a, unsigned rm, uint32_t &flags) {
  if (is_nan(a)) {
    flags |= kNV;
    return 0x7fffffff;
  }
  bool sign = sign_of(a), inexact = false;
  uint64_t mag = is_inf(a) ? (uint64_t(1) << 40) : round_to_integer(a, rm, &inexact);
  if (mag > (sign ? 0x80000000u : 0x7fffffffu)) {
    flags |= kNV;  // invalid conversions raise NV only, never NX
    return sign ? 0x80000000u : 0x7fffffffu;
  }
  if (inexact) flags |= kNX;
  return sign ? uint32_t(0 - mag) : uint32_t(mag);
}

uint32_t cvt_wu_s(uint32_t a, unsigned rm, uint32_t &flags) {
  if (is_nan(a)) {
    flags |= kNV;
    return 0xffffffffu;
  }
  bool sign = sign_of(a), inexact = false;
  uint64_t mag = is_inf(a) ? (uint64_t(1) << 40) : round_to_integer(a, rm, &inexact);
  if (sign && mag != 0) {
    flags |= kNV;
    return 0;
  }
  if (mag > 0xffffffffu) {
    flags |= kNV;
    return 0xffffffffu;
  }
  if (inexact) flags |= kNX;
  return uint32_t(mag);
}

uint32_t cvt_s_w(uint32_t int_bits, unsigned rm, uint32_t &flags) {
  if (int_bits == 0) return 0;
  bool sign = sign_of(int_bits);
  uint32_t mag = sign ? 0 - int_bits : int_bits;  // INT32_MIN stays 2^31 as unsigned
  return round_pack(sign, 0, mag, rm, flags);
}

uint32_t cvt_s_wu(uint32_t v, unsigned rm, uint32_t &flags) {
  if (v == 0) return 0;
  return round_pack(false, 0, v, rm, flags);
}

} // namespace ipu::fpu::soft
