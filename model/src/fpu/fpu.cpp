// Public FPU entry points: dispatch to the host-FPU fast path (fpu_fast.cpp) or the integer path (fpu_soft.cpp).
#include "fpu.h"

#include "fpu_bits.h"
#include "fpu_fast.h"
#include "fpu_soft.h"

namespace ipu::fpu {
namespace {

using namespace ipu::fpu::bits;

// Out-of-range modes are a caller bug; treating them as RNE keeps behaviour defined.
unsigned sanitize(unsigned rm) { return rm > kRMM ? kRNE : rm; }

uint32_t add_dispatch(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
  if (fast::eligible(rm, a, b)) return fast::add(a, b, rm, flags);
  return soft::add(a, b, rm, flags);
}

uint32_t fused(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
  if (fast::eligible(rm, a, b, c)) return fast::fma(a, b, c, rm, flags);
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
  if (fast::eligible(rm, a, b)) return fast::mul(a, b, rm, flags);
  return soft::mul(a, b, rm, flags);
}

uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
  if (fast::eligible(rm, a, b) && !is_zero(b)) return fast::div(a, b, rm, flags);
  return soft::div(a, b, rm, flags);
}

uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags) {
  rm = sanitize(rm);
  if (fast::eligible(rm, a, 0) && !sign_of(a)) return fast::sqrt(a, rm, flags);
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
