// Host-FPU fast paths: the round-to-nearest result plus the exact residual's sign, for every mode but RMM.
#include "fpu_fast.h"

#include "fpu_soft.h"

#include <bit>

// Design. Changing the MXCSR rounding mode stalls the pipeline (~16 ns here) and
// each STMXCSR costs ~4 ns, so no path switches modes or reads result flags.
// Each op computes r0, the round-to-nearest-even binary32 result, and the sign of
// the exact residual x - r0 from exact error terms (TwoSum, exact products of
// 24-bit values, Sterbenz subtractions). The residual gives NX and steps r0 to
// the directed results. Results near the thresholds (|r0| <= 2^-126 or
// >= max finite), where UF/OF and subnormal rounding need care, go to the
// integer path, which is exact in every mode.
//
// Two host flavours of the same arithmetic:
// - Evex (AVX-512): every instruction carries static rounding {rn-sae}, so the
//   MXCSR is neither read nor written and no host status bit is ever raised.
// - Sse: compiler-generated double arithmetic, valid only when the host MXCSR
//   is the default (RNE, all masked, no FTZ/DAZ); the MXCSR is saved first and
//   reloaded afterwards (cheap: only status bits differ), so host code sees no
//   change. Any other host MXCSR uses the integer path.
namespace ipu::fpu::fast {
namespace {

using namespace ipu::fpu::bits;

#ifdef IPU_FPU_X86

float to_float(uint32_t x) { return std::bit_cast<float>(x); }
uint32_t to_bits(float x) { return std::bit_cast<uint32_t>(x); }

// r0 is normal and strictly inside the range where neither tininess nor
// overflow can arise in any rounding mode.
bool safe_magnitude(uint32_t r0) {
  uint32_t m = r0 & kAbs;
  return m > 0x00800000u && m < kMaxFinite;
}

// -1, 0 or +1 from the bits, so no host compare (and no host flag) is involved.
// Branch-free: residual signs are data-dependent and would mispredict.
int sign_of_residual(double d) {
  uint64_t b = std::bit_cast<uint64_t>(d);
  int nonzero = (b << 1) != 0, neg = int(b >> 63);
  return nonzero - 2 * (nonzero & neg);
}

// Steps the round-to-nearest result r0 by at most one ulp as the mode requires,
// given the sign of the exact residual x - r0 (at most half an ulp in size).
// Adding 1 to the bit pattern moves one ulp away from zero for either sign.
uint32_t apply_mode(uint32_t r0, int residual, unsigned rm) {
  int neg = int(r0 >> 31);
  int away = residual != 0 && (residual > 0) != (neg != 0);  // x beyond r0, away from zero
  int toward = residual != 0 && !away;
  switch (rm) {
  case kRTZ: return r0 - uint32_t(toward);
  case kRUP: return neg ? r0 - uint32_t(toward) : r0 + uint32_t(away);
  case kRDN: return neg ? r0 + uint32_t(away) : r0 - uint32_t(toward);
  default: return r0;
  }
}

// Final step shared by all ops: integer fallback near the thresholds, else NX and the mode.
template <class Slow>
uint32_t finish(float r, int residual, unsigned rm, uint32_t &flags, Slow slow) {
  uint32_t r0 = to_bits(r);
  if (!safe_magnitude(r0)) return slow();
  if (residual != 0) flags |= kNX;
  return apply_mode(r0, residual, rm);
}


// Host arithmetic in the (verified default) host MXCSR.
struct SseOps {
  static double add(double x, double y) { return x + y; }
  static double sub(double x, double y) { return x - y; }
  static double mul(double x, double y) { return x * y; }
  static double div(double x, double y) { return x / y; }
  static double sqrt(double x) { return __builtin_sqrt(x); }
  static double widen(float x) { return x; }
  static float narrow(double x) { return float(x); }
  static float fmaf(float a, float b, float c) {
    asm("vfmadd231ss %[b], %[a], %[c]" : [c] "+x"(c) : [a] "x"(a), [b] "x"(b));
    return c;
  }
};

// Saves the host MXCSR, and reloads it once the results exist. The empty asm
// statements order the arithmetic between the two (volatile asm is not reordered).
struct SseEnv {
  uint32_t host;
  SseEnv() { asm volatile("stmxcsr %0" : "=m"(host)); }
  bool usable() const { return (host & 0xffc0) == 0x1f80; }
  template <class T>
  T in(T v) const {
    asm volatile("" : "+x"(v));
    return v;
  }
  void release(float r, double residual) const {
    asm volatile("" : : "x"(r), "x"(residual));
    asm volatile("ldmxcsr %0" : : "m"(host));
  }
};

// AVX-512 static rounding: round to nearest even, all exceptions suppressed, MXCSR untouched.
// ("%{" escapes a brace in GCC's asm templates.)
#define IPU_EVEX_BINOP(name, insn)                                                  \
  static double name(double x, double y) {                                          \
    double r;                                                                       \
    asm(insn " %{rn-sae%}, %[y], %[x], %[r]" : [r] "=x"(r) : [x] "x"(x), [y] "x"(y)); \
    return r;                                                                       \
  }
struct EvexOps {
  IPU_EVEX_BINOP(add, "vaddsd")
  IPU_EVEX_BINOP(sub, "vsubsd")
  IPU_EVEX_BINOP(mul, "vmulsd")
  IPU_EVEX_BINOP(div, "vdivsd")
  static double sqrt(double x) {
    double r;
    asm("vsqrtsd %{rn-sae%}, %[x], %[x], %[r]" : [r] "=x"(r) : [x] "x"(x));
    return r;
  }
  static double widen(float x) {
    double r;
    asm("vcvtss2sd %{sae%}, %[x], %[x], %[r]" : [r] "=x"(r) : [x] "x"(x));
    return r;
  }
  static float narrow(double x) {
    float r;
    asm("vcvtsd2ss %{rn-sae%}, %[x], %[x], %[r]" : [r] "=x"(r) : [x] "x"(x));
    return r;
  }
  static float fmaf(float a, float b, float c) {
    asm("vfmadd231ss %{rn-sae%}, %[b], %[a], %[c]" : [c] "+x"(c) : [a] "x"(a), [b] "x"(b));
    return c;
  }
};
#undef IPU_EVEX_BINOP

// Nothing to save: EVEX code never touches the MXCSR.
struct EvexEnv {
  bool usable() const { return true; }
  template <class T>
  T in(T v) const {
    return v;
  }
  void release(float, double) const {}
};

// add: s = RN53(a+b) and RN24(s) is the correctly rounded sum (53 >= 2*24+2);
// TwoSum gives the exact error e, and s - r0 is exact (Sterbenz).
template <class Env, class Ops>
uint32_t add_t(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  Env env;
  if (!env.usable()) return soft::add(a, b, rm, flags);
  double x = Ops::widen(env.in(to_float(a))), y = Ops::widen(env.in(to_float(b)));
  double s = Ops::add(x, y), bb = Ops::sub(s, x);
  double e = Ops::add(Ops::sub(x, Ops::sub(s, bb)), Ops::sub(y, bb));
  float r = Ops::narrow(s);
  double residual = Ops::add(Ops::sub(s, Ops::widen(r)), e);
  env.release(r, residual);
  return finish(r, sign_of_residual(residual), rm, flags, [&] { return soft::add(a, b, rm, flags); });
}

// mul: the double product is exact, so r0 = RN24(p) and p - r0 is exact.
template <class Env, class Ops>
uint32_t mul_t(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  Env env;
  if (!env.usable()) return soft::mul(a, b, rm, flags);
  double p = Ops::mul(Ops::widen(env.in(to_float(a))), Ops::widen(env.in(to_float(b))));
  float r = Ops::narrow(p);
  double residual = Ops::sub(p, Ops::widen(r));
  env.release(r, residual);
  return finish(r, sign_of_residual(residual), rm, flags, [&] { return soft::mul(a, b, rm, flags); });
}

// div: a quotient of 24-bit numbers is never within 2^-49 (relative) of a
// 25-bit number it does not equal, so RN53 then RN24 is correctly rounded. The
// residual's sign is that of (a - r0*b) * sign(b); r0*b is exact in double.
template <class Env, class Ops>
uint32_t div_t(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) {
  Env env;
  if (!env.usable()) return soft::div(a, b, rm, flags);
  double x = Ops::widen(env.in(to_float(a))), y = Ops::widen(env.in(to_float(b)));
  float r = Ops::narrow(Ops::div(x, y));
  double t = Ops::sub(x, Ops::mul(Ops::widen(r), y));
  env.release(r, t);
  int residual = sign_of(b) ? -sign_of_residual(t) : sign_of_residual(t);
  return finish(r, residual, rm, flags, [&] { return soft::div(a, b, rm, flags); });
}

// sqrt: as for division (53 >= 2*24+2); the residual is a - r0^2, exact.
template <class Env, class Ops>
uint32_t sqrt_t(uint32_t a, unsigned rm, uint32_t &flags) {
  Env env;
  if (!env.usable()) return soft::sqrt(a, rm, flags);
  double x = Ops::widen(env.in(to_float(a)));
  float r = Ops::narrow(Ops::sqrt(x));
  double w = Ops::widen(r);
  double t = Ops::sub(x, Ops::mul(w, w));
  env.release(r, t);
  return finish(r, sign_of_residual(t), rm, flags, [&] { return soft::sqrt(a, rm, flags); });
}

// fma: the host's single-precision FMA gives r0 = RN24(a*b+c) directly; the
// exact product plus c by TwoSum gives the exact value as s + e.
template <class Env, class Ops>
uint32_t fma_t(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  Env env;
  if (!env.usable()) return soft::fma(a, b, c, rm, flags);
  float fa = env.in(to_float(a)), fb = env.in(to_float(b)), fc = env.in(to_float(c));
  float r = Ops::fmaf(fa, fb, fc);
  double z = Ops::widen(fc), p = Ops::mul(Ops::widen(fa), Ops::widen(fb));
  double s = Ops::add(p, z), bb = Ops::sub(s, p);
  double e = Ops::add(Ops::sub(p, Ops::sub(s, bb)), Ops::sub(z, bb));
  double residual = Ops::add(Ops::sub(s, Ops::widen(r)), e);
  env.release(r, residual);
  return finish(r, sign_of_residual(residual), rm, flags, [&] { return soft::fma(a, b, c, rm, flags); });
}

// libgcc's checks include the OS having enabled the AVX / AVX-512 register state.
bool cpu_has_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma");
}

bool cpu_has_avx512f() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

const bool kHostFma = cpu_has_fma();
const bool kHostAvx512 = cpu_has_avx512f();

// Picks the template instance for the active path (a well-predicted branch).
#define IPU_FAST_DISPATCH(fn, ...)                                                             \
  (detail::g_path == Path::Evex ? fn<EvexEnv, EvexOps>(__VA_ARGS__) : fn<SseEnv, SseOps>(__VA_ARGS__))

#endif

Path best_path() {
#ifdef IPU_FPU_X86
  return kHostAvx512 ? Path::Evex : Path::Sse;
#else
  return Path::Soft;
#endif
}

} // namespace

// Defined after the feature flags above, which are initialized first.
Path detail::g_path = best_path();

Path active() { return detail::g_path; }

bool supported(Path p) {
#ifdef IPU_FPU_X86
  return p != Path::Evex || kHostAvx512;
#else
  return p == Path::Soft;
#endif
}

void select(Path p) {
  if (supported(p)) detail::g_path = p;
}

#ifdef IPU_FPU_X86
uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return IPU_FAST_DISPATCH(add_t, a, b, rm, flags); }
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return IPU_FAST_DISPATCH(mul_t, a, b, rm, flags); }
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return IPU_FAST_DISPATCH(div_t, a, b, rm, flags); }
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags) { return IPU_FAST_DISPATCH(sqrt_t, a, rm, flags); }
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  if (detail::g_path == Path::Sse && !kHostFma) return soft::fma(a, b, c, rm, flags);
  return IPU_FAST_DISPATCH(fma_t, a, b, c, rm, flags);
}
#else
uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return soft::add(a, b, rm, flags); }
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return soft::mul(a, b, rm, flags); }
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags) { return soft::div(a, b, rm, flags); }
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags) { return soft::sqrt(a, rm, flags); }
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags) {
  return soft::fma(a, b, c, rm, flags);
}
#endif

} // namespace ipu::fpu::fast
