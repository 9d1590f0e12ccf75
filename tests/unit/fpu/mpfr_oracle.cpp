// MPFR-based oracle: exact (or round-to-odd) results at high precision, then one IEEE binary32 rounding.
#include "mpfr_oracle.h"

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>

namespace oracle {
namespace {

constexpr uint32_t kNaN = 0x7fc00000;
constexpr uint32_t NV = 0x10, DZ = 0x08, OF = 0x04, UF = 0x02, NX = 0x01;
// Wide enough that sums, products and fused results of binary32 values are exact.
constexpr mpfr_prec_t kWide = 800;

bool is_nan(uint32_t x) { return (x & 0x7fffffff) > 0x7f800000; }
bool is_snan(uint32_t x) { return is_nan(x) && !(x & 0x00400000); }
bool is_inf(uint32_t x) { return (x & 0x7fffffff) == 0x7f800000; }
bool is_zero(uint32_t x) { return (x & 0x7fffffff) == 0; }

mpfr_rnd_t mpfr_mode(unsigned rm) {
  switch (rm) {
  case 1: return MPFR_RNDZ;
  case 2: return MPFR_RNDD;
  case 3: return MPFR_RNDU;
  default: return MPFR_RNDN;
  }
}

// RAII holder for one MPFR variable. The oracle is single-threaded, so hot
// functions keep theirs in statics.
struct Var {
  mpfr_t v;
  explicit Var(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Var() { mpfr_clear(v); }
  Var(const Var &) = delete;
  Var &operator=(const Var &) = delete;
};

void set_float(mpfr_t x, uint32_t bits) { mpfr_set_flt(x, std::bit_cast<float>(bits), MPFR_RNDN); }

uint32_t float_bits(mpfr_t x) { return std::bit_cast<uint32_t>(mpfr_get_flt(x, MPFR_RNDN)); }

// Makes a truncated result "round to odd": if inexact, force its last bit to 1.
// Rounding that value to any precision <= kWide-2 then equals rounding the exact one.
void make_odd(mpfr_t x, int ternary) {
  if (ternary == 0 || mpfr_min_prec(x) == mpfr_get_prec(x)) return;
  if (mpfr_sgn(x) > 0)
    mpfr_nextabove(x);
  else
    mpfr_nextbelow(x);
}

// Rounds X to binary32 in a directed or nearest-even mode with IEEE flags;
// tininess is judged on the 24-bit result with an unbounded exponent.
Result round_mpfr_mode(mpfr_t x, mpfr_rnd_t rnd) {
  static Var r(24), min_normal(24);  // static: MPFR allocation dominates otherwise
  mpfr_set_ui_2exp(min_normal.v, 1, -126, MPFR_RNDN);
  int t = mpfr_set(r.v, x, rnd);
  bool tiny = !mpfr_zero_p(r.v) && mpfr_cmpabs(r.v, min_normal.v) < 0;
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
  mpfr_clear_flags();
  t = mpfr_check_range(r.v, t, rnd);
  t = mpfr_subnormalize(r.v, t, rnd);
  bool of = mpfr_overflow_p();
  uint32_t bits = float_bits(r.v);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  uint32_t flags = (t ? NX : 0) | (t && tiny ? UF : 0) | (of ? OF : 0);
  return {bits, flags};
}

// Round to nearest, ties away: pick between the truncated value and its
// successor by comparing X with their midpoint (exact in double).
Result round_rmm(mpfr_t x) {
  Result z = round_mpfr_mode(x, MPFR_RNDZ);
  Result r{z.bits, 0};
  if (z.flags & NX) {
    uint32_t away = z.bits + 1;  // next magnitude up; max finite + 1 is infinity
    bool neg = z.bits >> 31;
    double lo = std::bit_cast<float>(z.bits);
    double hi = is_inf(away) ? std::ldexp(neg ? -1.0 : 1.0, 128) : double(std::bit_cast<float>(away));
    static Var mid(kWide);
    mpfr_set_d(mid.v, (lo + hi) / 2, MPFR_RNDN);
    if (mpfr_cmpabs(x, mid.v) >= 0) r.bits = away;
    r.flags = NX;
    if (is_inf(r.bits)) r.flags |= OF;
    static Var tiny_bound(kWide);  // 24-bit RMM result below 2^-126 iff |X| < 2^-126 - 2^-151
    mpfr_set_ui_2exp(tiny_bound.v, (uint64_t(1) << 25) - 1, -151, MPFR_RNDN);
    if (mpfr_cmpabs(x, tiny_bound.v) < 0) r.flags |= UF;
  }
  return r;
}

Result round_to_binary32(mpfr_t x, unsigned rm) {
  if (mpfr_inf_p(x)) return {mpfr_sgn(x) < 0 ? 0xff800000u : 0x7f800000u, 0};
  if (mpfr_zero_p(x)) return {mpfr_signbit(x) ? 0x80000000u : 0u, 0};
  return rm == 4 ? round_rmm(x) : round_mpfr_mode(x, mpfr_mode(rm));
}

bool fused(Op op) { return op == Op::Madd || op == Op::Msub || op == Op::Nmsub || op == Op::Nmadd; }

// Computes op exactly into x with rounding rnd (div/sqrt may be inexact); returns the ternary.
int compute(Op op, mpfr_t x, mpfr_t a, mpfr_t b, mpfr_t c, mpfr_rnd_t rnd) {
  switch (op) {
  case Op::Add: return mpfr_add(x, a, b, rnd);
  case Op::Sub: return mpfr_sub(x, a, b, rnd);
  case Op::Mul: return mpfr_mul(x, a, b, rnd);
  case Op::Div: return mpfr_div(x, a, b, rnd);
  case Op::Sqrt: return mpfr_sqrt(x, a, rnd);
  default: return mpfr_fma(x, a, b, c, rnd);
  }
}

// RISC-V NaN-operand rule: canonical NaN, NV for a signaling operand and, for
// fused ops, for inf * 0 even with a quiet NaN addend.
bool nan_operand(Op op, uint32_t a, uint32_t b, uint32_t c, Result *r) {
  bool uses_b = op != Op::Sqrt, uses_c = fused(op);
  bool any = is_nan(a) || (uses_b && is_nan(b)) || (uses_c && is_nan(c));
  if (!any) return false;
  bool nv = is_snan(a) || (uses_b && is_snan(b)) || (uses_c && is_snan(c));
  if (uses_c && ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b)))) nv = true;
  *r = {kNaN, nv ? NV : 0};
  return true;
}

} // namespace

Result arith(Op op, uint32_t a, uint32_t b, uint32_t c, unsigned rm) {
  Result r;
  if (nan_operand(op, a, b, c, &r)) return r;
  static Var A(24), B(24), C(24), X(kWide);
  set_float(A.v, a);
  set_float(B.v, b);
  set_float(C.v, c);
  if (op == Op::Msub || op == Op::Nmadd) mpfr_neg(C.v, C.v, MPFR_RNDN);
  if (op == Op::Nmsub || op == Op::Nmadd) mpfr_neg(A.v, A.v, MPFR_RNDN);
  mpfr_clear_flags();
  int t = compute(op, X.v, A.v, B.v, C.v, MPFR_RNDZ);
  if (mpfr_nan_p(X.v)) return {kNaN, NV};
  uint32_t dz = mpfr_divby0_p() ? DZ : 0;
  // An exact zero's sign depends on the mode (x - x is -0 only when rounding down).
  if (mpfr_zero_p(X.v)) compute(op, X.v, A.v, B.v, C.v, rm == 2 ? MPFR_RNDD : MPFR_RNDN);
  make_odd(X.v, t);
  r = round_to_binary32(X.v, rm);
  r.flags |= dz;
  return r;
}

namespace {

// Rounds float a to an integer per rm (RMM = mpfr_round: nearest, ties away).
void round_integer(mpfr_t r, uint32_t a, unsigned rm) {
  Var x(24);
  set_float(x.v, a);
  if (rm == 4)
    mpfr_round(r, x.v);
  else
    mpfr_rint(r, x.v, mpfr_mode(rm));
}

bool is_integral(uint32_t a) {
  Var x(24);
  set_float(x.v, a);
  return mpfr_integer_p(x.v);
}

} // namespace

Result cvt_w_s(uint32_t a, unsigned rm) {
  if (is_nan(a)) return {0x7fffffff, NV};
  Var r(256);
  round_integer(r.v, a, rm);
  if (mpfr_cmp_si(r.v, INT32_MAX) > 0) return {0x7fffffff, NV};
  if (mpfr_cmp_si(r.v, INT32_MIN) < 0) return {0x80000000u, NV};
  return {uint32_t(int32_t(mpfr_get_si(r.v, MPFR_RNDN))), is_integral(a) ? 0 : NX};
}

Result cvt_wu_s(uint32_t a, unsigned rm) {
  if (is_nan(a)) return {0xffffffffu, NV};
  Var r(256);
  round_integer(r.v, a, rm);
  if (mpfr_sgn(r.v) < 0) return {0, NV};
  if (mpfr_cmp_ui(r.v, UINT32_MAX) > 0) return {0xffffffffu, NV};
  return {uint32_t(mpfr_get_ui(r.v, MPFR_RNDN)), is_integral(a) ? 0 : NX};
}

Result cvt_s_w(uint32_t v, unsigned rm) {
  Var x(64);
  mpfr_set_si(x.v, int32_t(v), MPFR_RNDN);
  return round_to_binary32(x.v, rm);
}

Result cvt_s_wu(uint32_t v, unsigned rm) {
  Var x(64);
  mpfr_set_ui(x.v, v, MPFR_RNDN);
  return round_to_binary32(x.v, rm);
}

} // namespace oracle
