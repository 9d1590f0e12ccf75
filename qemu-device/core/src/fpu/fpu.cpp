// Public FPU entry points: a host-FPU fast path for common cases, the integer path for everything else.
#include "fpu.h"

#include "fpu_bits.h"
#include "fpu_soft.h"

#include <bit>
#include <cmath>

// Fast path design. Switching the MXCSR rounding mode stalls the pipeline for
// ~16 ns and reading the status flags costs ~4 ns per STMXCSR, so the fast path
// never changes the rounding mode and reads no result flags. With the host in
// its default environment (RNE, all exceptions masked, no FTZ/DAZ) it computes
// the round-to-nearest-even binary32 result r0 with host instructions, plus the
// sign of the exact residual x - r0 (exact error terms: TwoSum, exact products,
// Sterbenz subtraction). The residual gives NX and turns r0 into the directed
// results. Anything near overflow or underflow (|r0| <= 2^-126, |r0| >= max
// finite), any special operand, and RMM take the integer path, which is exact
// in every mode. The host MXCSR is saved before and reloaded after (cheap: only
// status bits differ), so host code sees no change at all.
namespace ipu::fpu {
namespace {

using namespace ipu::fpu::bits;

#if defined(__x86_64__)
#define IPU_FPU_FAST 1

constexpr uint32_t kMxcsrControl = 0xffc0;  // everything but the six status bits
constexpr uint32_t kMxcsrDefault = 0x1f80;  // RNE, all masked, FTZ/DAZ off

uint32_t read_mxcsr() {
  uint32_t c;
  asm volatile("stmxcsr %0" : "=m"(c));
  return c;
}

void write_mxcsr(uint32_t c) { asm volatile("ldmxcsr %0" : : "m"(c)); }

// Host FMA needs the CPU feature and OS-enabled AVX state; libgcc checks both.
bool detect_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma");
}
const bool kHostFma = detect_fma();

float to_float(uint32_t x) { return std::bit_cast<float>(x); }
uint32_t to_bits(float x) { return std::bit_cast<uint32_t>(x); }

// r0 is a normal number strictly inside the range where neither tininess nor
// overflow can arise for any rounding mode.
bool safe_magnitude(uint32_t r0) {
  uint32_t m = r0 & kAbs;
  return m > 0x00800000u && m < kMaxFinite;
}

// Moves the round-to-nearest result r0 one ulp as the mode requires, given the
// sign of the exact residual x - r0 (whose magnitude is at most half an ulp).
uint32_t apply_mode(uint32_t r0, double residual, unsigned rm) {
  bool neg = sign_of(r0);
  bool toward_plus;
  switch (rm) {
  case kRUP:
    if (!(residual > 0)) return r0;
    toward_plus = true;
    break;
  case kRDN:
    if (!(residual < 0)) return r0;
    toward_plus = false;
    break;
  case kRTZ:
    if (neg ? !(residual > 0) : !(residual < 0)) return r0;
    toward_plus = neg;
    break;
  default: return r0;
  }
  return toward_plus != neg ? r0 + 1 : r0 - 1;  // bit patterns order magnitudes
}

// Finishes a fast-path result: restores the host status bits, falls back to the
// integer path outside the safe range, else applies the mode and NX.
template <class Slow>
uint32_t finish(uint32_t host, float r, double residual, unsigned rm, uint32_t &flags, Slow slow) {
  asm volatile("" : : "x"(r), "x"(residual));  // computed before the restore below
  write_mxcsr(host);
  uint32_t r0 = to_bits(r);
  if (!safe_magnitude(r0)) return slow();
  if (residual != 0) flags |= kNX;
  return apply_mode(r0, residual, rm);
}

// Operands as doubles, converted only after the host state was saved.
struct Pair {
  double a, b;
};

Pair widen(uint32_t a, uint32_t b) {
  double x = to_float(a), y = to_float(b);
  asm volatile("" : "+x"(x), "+x"(y));
  return {x, y};
}

// Fast add: s = RN53(a+b), whose RN24 is the correctly rounded sum (53 >= 2*24+2);
// TwoSum gives the exact error e, and s - r0 is exact (Sterbenz).
uint32_t fast_add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  uint32_t host = read_mxcsr();
  if ((host & kMxcsrControl) != kMxcsrDefault) return soft::add(a, b, rm, flags);
  auto [x, y] = widen(a, b);
  double s = x + y, bb = s - x;
  double e = (x - (s - bb)) + (y - bb);
  float r = float(s);
  double residual = (s - double(r)) + e;
  return finish(host, r, residual, rm, flags, [&] { return soft::add(a, b, rm, flags); });
}

// Fast mul: the double product is exact, so r0 = RN24(p) and p - r0 is exact.
uint32_t fast_mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  uint32_t host = read_mxcsr();
  if ((host & kMxcsrControl) != kMxcsrDefault) return soft::mul(a, b, rm, flags);
  auto [x, y] = widen(a, b);
  double p = x * y;
  float r = float(p);
  return finish(host, r, p - double(r), rm, flags, [&] { return soft::mul(a, b, rm, flags); });
}

// Fast div: a quotient of 24-bit numbers is never within 2^-49 (relative) of a
// 25-bit number it does not equal, so RN53 then RN24 is correctly rounded. The
// residual sign is that of (a - r0*b) * sign(b), with r0*b exact in double.
uint32_t fast_div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  uint32_t host = read_mxcsr();
  if ((host & kMxcsrControl) != kMxcsrDefault) return soft::div(a, b, rm, flags);
  auto [x, y] = widen(a, b);
  float r = float(x / y);
  double t = x - double(r) * y;
  return finish(host, r, sign_of(b) ? -t : t, rm, flags, [&] { return soft::div(a, b, rm, flags); });
}

// Fast sqrt: as for division (53 >= 2*24+2); the residual is a - r0^2, exact.
uint32_t fast_sqrt(uint32_t a, unsigned rm, uint32_t &flags) {
  uint32_t host = read_mxcsr();
  if ((host & kMxcsrControl) != kMxcsrDefault) return soft::sqrt(a, rm, flags);
  auto [x, unused] = widen(a, 0);
  (void)unused;
  float r = float(std::sqrt(x));
  return finish(host, r, x - double(r) * double(r), rm, flags, [&] { return soft::sqrt(a, rm, flags); });
}

// Fast fused multiply-add: the host's single-precision FMA gives r0 = RN24(a*b+c)
// directly; TwoSum of the exact product and c gives the exact value as s + e.
uint32_t fast_fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  uint32_t host = read_mxcsr();
  if ((host & kMxcsrControl) != kMxcsrDefault) return soft::fma(a, b, c, rm, flags);
  float fa = to_float(a), fb = to_float(b), fc = to_float(c);
  asm volatile("" : "+x"(fa), "+x"(fb), "+x"(fc));
  float r = fc;
  asm("vfmadd231ss %[y], %[x], %[z]" : [z] "+x"(r) : [x] "x"(fa), [y] "x"(fb));
  double p = double(fa) * double(fb), s = p + double(fc), bb = s - p;
  double e = (p - (s - bb)) + (double(fc) - bb);
  double residual = (s - double(r)) + e;
  return finish(host, r, residual, rm, flags, [&] { return soft::fma(a, b, c, rm, flags); });
}

#endif

// Out-of-range modes are a caller bug; treating them as RNE keeps behaviour defined.
unsigned sanitize(unsigned rm) { return rm > kRMM ? kRNE : rm; }

// Whether the fast path may handle these operands in this mode.
bool fast_ok(unsigned rm, uint32_t a, uint32_t b) {
#ifdef IPU_FPU_FAST
  return rm != kRMM && !is_special(a) && !is_special(b);
#else
  (void)rm, (void)a, (void)b;
  return false;
#endif
}

uint32_t add_dispatch(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
#ifdef IPU_FPU_FAST
  if (fast_ok(rm, a, b)) return fast_add(a, b, rm, flags);
#endif
  return soft::add(a, b, rm, flags);
}

uint32_t fused(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
#ifdef IPU_FPU_FAST
  if (kHostFma && fast_ok(rm, a, b) && !is_special(c)) return fast_fma(a, b, c, rm, flags);
#endif
  return soft::fma(a, b, c, rm, flags);
}

// Maps a non-NaN bit pattern to a signed integer with the same order, -0 < +0.
int32_t order_key(uint32_t x) {
  int32_t s = int32_t(x);
  return s ^ int32_t(uint32_t(s >> 31) >> 1);
}

// fmin/fmax NaN handling; returns true with *r set when a NaN decided the result.
bool minmax_nan(uint32_t a, uint32_t b, uint32_t &flags, uint32_t *r) {
  bool na = is_nan(a), nb = is_nan(b);
  if (!na && !nb) return false;
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  *r = (na && nb) ? kCanonicalNaN : (na ? b : a);
  return true;
}

// Signaling compares: NV and false for any NaN operand.
bool unordered_signaling(uint32_t a, uint32_t b, uint32_t &flags) {
  if (!is_nan(a) && !is_nan(b)) return false;
  flags |= kNV;
  return true;
}

bool both_zero(uint32_t a, uint32_t b) { return ((a | b) & kAbs) == 0; }

} // namespace

uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return add_dispatch(a, b, rm, flags); }

// Flipping b's sign is exact, and any NaN result is canonical anyway.
uint32_t sub(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return add_dispatch(a, b ^ kSign, rm, flags); }

uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
#ifdef IPU_FPU_FAST
  if (fast_ok(rm, a, b)) return fast_mul(a, b, rm, flags);
#endif
  return soft::mul(a, b, rm, flags);
}

uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
#ifdef IPU_FPU_FAST
  if (fast_ok(rm, a, b) && !is_zero(b)) return fast_div(a, b, rm, flags);
#endif
  return soft::div(a, b, rm, flags);
}

uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
#ifdef IPU_FPU_FAST
  if (fast_ok(rm, a, 0) && !sign_of(a)) return fast_sqrt(a, rm, flags);
#endif
  return soft::sqrt(a, rm, flags);
}

// Negating an operand before the fused op is exact, so the variants share one rounding.
uint32_t madd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) { return fused(a, b, c, rm, flags); }
uint32_t msub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  return fused(a, b, c ^ kSign, rm, flags);
}
uint32_t nmsub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  return fused(a ^ kSign, b, c, rm, flags);
}
uint32_t nmadd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  return fused(a ^ kSign, b, c ^ kSign, rm, flags);
}

uint32_t min(uint32_t a, uint32_t b, uint32_t &flags) {
  uint32_t r;
  if (minmax_nan(a, b, flags, &r)) return r;
  return order_key(a) < order_key(b) ? a : b;
}

uint32_t max(uint32_t a, uint32_t b, uint32_t &flags) {
  uint32_t r;
  if (minmax_nan(a, b, flags, &r)) return r;
  return order_key(a) < order_key(b) ? b : a;
}

uint32_t eq(uint32_t a, uint32_t b, uint32_t &flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_snan(a) || is_snan(b)) flags |= kNV;
    return 0;
  }
  return (a == b) | both_zero(a, b);
}

uint32_t lt(uint32_t a, uint32_t b, uint32_t &flags) {
  if (unordered_signaling(a, b, flags)) return 0;
  return (order_key(a) < order_key(b)) & !both_zero(a, b);  // & not &&: no branch
}

uint32_t le(uint32_t a, uint32_t b, uint32_t &flags) {
  if (unordered_signaling(a, b, flags)) return 0;
  return (order_key(a) <= order_key(b)) | both_zero(a, b);
}

uint32_t cvt_w_s(uint32_t a, unsigned rm, uint32_t &flags) { return soft::cvt_w_s(a, sanitize(rm), flags); }
uint32_t cvt_wu_s(uint32_t a, unsigned rm, uint32_t &flags) { return soft::cvt_wu_s(a, sanitize(rm), flags); }
uint32_t cvt_s_w(uint32_t int_bits, unsigned rm, uint32_t &flags) {
  return soft::cvt_s_w(int_bits, sanitize(rm), flags);
}
uint32_t cvt_s_wu(uint32_t v, unsigned rm, uint32_t &flags) { return soft::cvt_s_wu(v, sanitize(rm), flags); }

uint32_t classify(uint32_t a) {
  bool neg = sign_of(a);
  if (is_nan(a)) return is_snan(a) ? 1u << 8 : 1u << 9;
  if (is_inf(a)) return neg ? 1u << 0 : 1u << 7;
  if (is_zero(a)) return neg ? 1u << 3 : 1u << 4;
  bool subnormal = (a & kInf) == 0;
  if (subnormal) return neg ? 1u << 2 : 1u << 5;
  return neg ? 1u << 1 : 1u << 6;
}

} // namespace ipu::fpu
