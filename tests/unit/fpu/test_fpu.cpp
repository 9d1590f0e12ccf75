// CMocka tests: ipu_fpu (hardware and integer paths) against the MPFR oracle in all five rounding modes.
#include "fpu.h"
#include "fpu_fast.h"
#include "fpu_soft.h"
#include "mpfr_oracle.h"

#include <bit>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <setjmp.h>
#include <vector>
#include <xmmintrin.h>

extern "C" {
#include <cmocka.h>
}

namespace {

namespace fpu = ipu::fpu;
using oracle::Op;
using oracle::Result;
using ipu::fpu::fast::Path;

// Every public-API check runs once per fast path this host supports (the
// integer path, SSE with the host MXCSR, AVX-512 static rounding).
constexpr Path kPaths[] = {Path::Soft, Path::Sse, Path::Evex};
const char *const kPathNames[] = {"public/soft-path", "public/sse-path", "public/evex-path"};

// Restores the start-up path when a test ends, even by failure.
struct PathGuard {
  Path saved = fpu::fast::active();
  ~PathGuard() { fpu::fast::select(saved); }
};

constexpr unsigned kModes = 5;
// Random cases per op and rounding mode; keeps the sanitizer build well under 20 s.
constexpr int kRandomPerMode = 25000;

// Operands that exercise every class and the rounding/overflow/underflow boundaries.
const std::vector<uint32_t> kSpecials = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xff800123,
    0x7fa00000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001,
    0x00400000, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff,
    0x3fffffff, 0x40000000, 0x3f000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0x33800000, 0x34000000,
    0x4f000000, 0xcf000000, 0x4f800000, 0x4effffff, 0x5f000000, 0x3effffff, 0xbecccccd, 0x0c000000,
    0x1f800000, 0x20000000, 0x5f800000, 0x3f800002, 0x40400000, 0x3eaaaaab};

// A smaller set for the cubic fused-op sweep.
const std::vector<uint32_t> kFusedSpecials = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x807fffff,
    0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x33800000,
    0x1f800000, 0x5f800000, 0x3fc00000, 0x3eaaaaab};

// xorshift64*: fixed seed so failures reproduce.
struct Rng {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  uint32_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return uint32_t((s * 0x2545f4914f6cdd1dull) >> 32);
  }
  uint32_t below(uint32_t n) { return next() % n; }
};

uint32_t make(uint32_t sign, uint32_t exp, uint32_t frac) { return (sign << 31) | (exp << 23) | (frac & 0x7fffff); }

// A mantissa with only its top k bits random: sums and products of such values hit exact ties.
uint32_t short_frac(Rng &r) {
  unsigned k = 1 + r.below(14);
  return (r.next() & 0x7fffff) & ~((1u << (23 - k + 1)) - 1) & 0x7fffff;
}

// Random operand biased toward the interesting regions.
uint32_t gen(Rng &r) {
  uint32_t s = r.below(2);
  switch (r.below(8)) {
  case 0: return r.next();
  case 1: return make(s, 100 + r.below(55), r.next());
  case 2: return make(s, r.below(25), r.next());
  case 3: return make(s, 230 + r.below(25), r.next());
  case 4: return make(s, r.below(255), short_frac(r));
  case 5: return make(s, 120 + r.below(40), short_frac(r));
  case 6: return kSpecials[r.below(uint32_t(kSpecials.size()))];
  default: return make(s, r.below(255), 0x7fffff - r.below(4));
  }
}

uint32_t exp_of(uint32_t x) { return (x >> 23) & 0xff; }

uint32_t clamp_exp(int e) { return uint32_t(e < 0 ? 0 : (e > 254 ? 254 : e)); }

// Second operand related to the first: close exponents (cancellation, ties) or
// exponents whose product/quotient lands near the overflow or underflow boundary.
uint32_t gen_partner(Rng &r, uint32_t a, Op op) {
  uint32_t s = r.below(2), frac = r.below(2) ? short_frac(r) : r.next();
  int ea = int(exp_of(a)), d = int(r.below(9)) - 4;
  switch (r.below(4)) {
  case 0: return gen(r);
  case 1:
    if (op == Op::Mul) return make(s, clamp_exp(127 - ea + d), frac);
    if (op == Op::Div) return make(s, clamp_exp(ea + 127 + d), frac);
    return make(s, clamp_exp(ea + int(r.below(61)) - 30), frac);
  case 2:
    if (op == Op::Mul) return make(s, clamp_exp(381 - ea + d), frac);
    if (op == Op::Div) return make(s, clamp_exp(ea - 127 + d), frac);
    return make(s, clamp_exp(ea + d), (a ^ r.below(8)) & 0x7fffff);
  default: return make(s, clamp_exp(ea + d), frac);
  }
}

// Addend near -(a*b) (massive cancellation) or near its rounding position.
uint32_t gen_addend(Rng &r, uint32_t a, uint32_t b) {
  float p = std::bit_cast<float>(a) * std::bit_cast<float>(b);
  uint32_t pb = std::bit_cast<uint32_t>(p);
  switch (r.below(4)) {
  case 0: return gen(r);
  case 1: return (pb ^ 0x80000000u) ^ r.below(4);
  case 2: return make(r.below(2), clamp_exp(int(exp_of(pb)) - 24 + int(r.below(5)) - 2), short_frac(r));
  default: return make(r.below(2), clamp_exp(int(exp_of(pb)) + int(r.below(9)) - 4), r.next());
  }
}

// Collects mismatches and reports the first few; finish() fails the test if any
// were seen (call it with no containers alive: cmocka's failure longjmps).
struct Checker {
  const char *name;
  int failures = 0;
  long cases = 0;
  void check(const char *path, unsigned rm, uint32_t a, uint32_t b, uint32_t c, Result want, uint32_t got,
             uint32_t got_flags) {
    ++cases;
    if (got == want.bits && got_flags == want.flags) return;
    if (++failures <= 12)
      std::printf("MISMATCH %s/%s rm=%u a=%08x b=%08x c=%08x: want %08x flags %02x, got %08x flags %02x\n", name,
                  path, rm, a, b, c, want.bits, want.flags, got, got_flags);
  }
  void finish() {
    std::printf("%s: %ld cases, %d mismatches\n", name, cases, failures);
    if (failures) fail_msg("%s: %d mismatches against MPFR", name, failures);
  }
};

// Public entry point and integer implementation for each arithmetic op.
struct Impl {
  uint32_t (*pub)(uint32_t, uint32_t, uint32_t, unsigned, uint32_t &);
  uint32_t (*soft)(uint32_t, uint32_t, uint32_t, unsigned, uint32_t &);
};

Impl impl_of(Op op) {
  switch (op) {
  case Op::Add:
    return {[](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::add(a, b, rm, f); },
            [](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::soft::add(a, b, rm, f); }};
  case Op::Sub:
    return {[](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::sub(a, b, rm, f); },
            [](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) {
              return fpu::soft::add(a, b ^ 0x80000000u, rm, f);
            }};
  case Op::Mul:
    return {[](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::mul(a, b, rm, f); },
            [](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::soft::mul(a, b, rm, f); }};
  case Op::Div:
    return {[](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::div(a, b, rm, f); },
            [](uint32_t a, uint32_t b, uint32_t, unsigned rm, uint32_t &f) { return fpu::soft::div(a, b, rm, f); }};
  case Op::Sqrt:
    return {[](uint32_t a, uint32_t, uint32_t, unsigned rm, uint32_t &f) { return fpu::sqrt(a, rm, f); },
            [](uint32_t a, uint32_t, uint32_t, unsigned rm, uint32_t &f) { return fpu::soft::sqrt(a, rm, f); }};
  case Op::Madd:
    return {fpu::madd, [](uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &f) {
              return fpu::soft::fma(a, b, c, rm, f);
            }};
  case Op::Msub:
    return {fpu::msub, [](uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &f) {
              return fpu::soft::fma(a, b, c ^ 0x80000000u, rm, f);
            }};
  case Op::Nmsub:
    return {fpu::nmsub, [](uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &f) {
              return fpu::soft::fma(a ^ 0x80000000u, b, c, rm, f);
            }};
  default:
    return {fpu::nmadd, [](uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &f) {
              return fpu::soft::fma(a ^ 0x80000000u, b, c ^ 0x80000000u, rm, f);
            }};
  }
}

// Checks one operand tuple in one mode through both implementations.
void check_arith(Checker &ck, Op op, uint32_t a, uint32_t b, uint32_t c, unsigned rm) {
  Result want = oracle::arith(op, a, b, c, rm);
  Impl impl = impl_of(op);
  uint32_t f, got;
  for (Path p : kPaths) {
    if (!fpu::fast::supported(p)) continue;
    fpu::fast::select(p);
    f = 0;
    got = impl.pub(a, b, c, rm, f);
    ck.check(kPathNames[int(p)], rm, a, b, c, want, got, f);
  }
  f = 0;
  got = impl.soft(a, b, c, rm, f);
  ck.check("soft", rm, a, b, c, want, got, f);
}

Checker run_arith(const char *name, Op op) {
  PathGuard guard;
  Checker ck{name};
  Rng r;
  bool fused = op == Op::Madd || op == Op::Msub || op == Op::Nmsub || op == Op::Nmadd;
  for (unsigned rm = 0; rm < kModes; ++rm) {
    if (fused) {
      for (uint32_t a : kFusedSpecials)
        for (uint32_t b : kFusedSpecials)
          for (uint32_t c : kFusedSpecials) check_arith(ck, op, a, b, c, rm);
    } else if (op == Op::Sqrt) {
      for (uint32_t a : kSpecials) check_arith(ck, op, a, 0, 0, rm);
    } else {
      for (uint32_t a : kSpecials)
        for (uint32_t b : kSpecials) check_arith(ck, op, a, b, 0, rm);
    }
    for (int i = 0; i < kRandomPerMode; ++i) {
      uint32_t a = gen(r), b = gen_partner(r, a, op), c = fused ? gen_addend(r, a, b) : 0;
      check_arith(ck, op, a, b, c, rm);
    }
  }
  return ck;
}

void test_add(void **) { run_arith("add", Op::Add).finish(); }
void test_sub(void **) { run_arith("sub", Op::Sub).finish(); }
void test_mul(void **) { run_arith("mul", Op::Mul).finish(); }
void test_div(void **) { run_arith("div", Op::Div).finish(); }
void test_sqrt(void **) { run_arith("sqrt", Op::Sqrt).finish(); }
void test_madd(void **) { run_arith("madd", Op::Madd).finish(); }
void test_msub(void **) { run_arith("msub", Op::Msub).finish(); }
void test_nmsub(void **) { run_arith("nmsub", Op::Nmsub).finish(); }
void test_nmadd(void **) { run_arith("nmadd", Op::Nmadd).finish(); }

// Dense sweep of sqrt (about 260k inputs per mode): every fast path must
// agree bit for bit with the integer path, which the MPFR tests above verify.
void test_sqrt_dense(void **) {
  int failures = 0;
  {
    PathGuard guard;
    for (Path p : kPaths) {
      if (p == Path::Soft || !fpu::fast::supported(p)) continue;
      fpu::fast::select(p);
      for (unsigned rm = 0; rm < kModes; ++rm)
        for (uint64_t x = rm; x <= 0xffffffffu; x += 16381) {
          uint32_t a = uint32_t(x), f1 = 0, f2 = 0;
          uint32_t r1 = fpu::sqrt(a, rm, f1), r2 = fpu::soft::sqrt(a, rm, f2);
          if ((r1 != r2 || f1 != f2) && ++failures <= 10)
            std::printf("MISMATCH sqrt dense path=%d rm=%u a=%08x: fast %08x/%02x soft %08x/%02x\n", int(p), rm, a, r1,
                        f1, r2, f2);
        }
    }
  }
  if (failures) fail_msg("%d sqrt mismatches between fast and integer paths", failures);
}

// Integer operands: small, near powers of two, and with 25+ significant bits (ties).
uint32_t gen_int(Rng &r) {
  switch (r.below(4)) {
  case 0: return r.next();
  case 1: return r.below(2) ? r.below(64) : 0u - r.below(64);
  case 2: return (r.next() | 1u) >> r.below(32);
  default: return ((0x1000000u | r.below(0x2000000)) << r.below(8)) ^ (r.below(2) ? 0x80000000u : 0);
  }
}

using CvtFn = uint32_t (*)(uint32_t, unsigned, uint32_t &);

Checker run_cvt(const char *name, bool from_float, CvtFn pub, CvtFn soft, Result (*want_fn)(uint32_t, unsigned)) {
  Checker ck{name};
  Rng r;
  std::vector<uint32_t> inputs = from_float ? kSpecials
                                            : std::vector<uint32_t>{0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u,
                                                                    0x80000001u, 0x01000001u, 0x01000003u,
                                                                    0xfefffffdu, 0x00ffffffu};
  for (int i = 0; i < kRandomPerMode * 2; ++i) inputs.push_back(from_float ? gen(r) : gen_int(r));
  for (unsigned rm = 0; rm < kModes; ++rm)
    for (uint32_t a : inputs) {
      Result want = want_fn(a, rm);
      uint32_t f = 0;
      uint32_t got = pub(a, rm, f);
      ck.check("public", rm, a, 0, 0, want, got, f);
      f = 0;
      got = soft(a, rm, f);
      ck.check("soft", rm, a, 0, 0, want, got, f);
    }
  return ck;
}

void test_cvt_w_s(void **) { run_cvt("cvt_w_s", true, fpu::cvt_w_s, fpu::soft::cvt_w_s, oracle::cvt_w_s).finish(); }
void test_cvt_wu_s(void **) { run_cvt("cvt_wu_s", true, fpu::cvt_wu_s, fpu::soft::cvt_wu_s, oracle::cvt_wu_s).finish(); }
void test_cvt_s_w(void **) { run_cvt("cvt_s_w", false, fpu::cvt_s_w, fpu::soft::cvt_s_w, oracle::cvt_s_w).finish(); }
void test_cvt_s_wu(void **) { run_cvt("cvt_s_wu", false, fpu::cvt_s_wu, fpu::soft::cvt_s_wu, oracle::cvt_s_wu).finish(); }

// Hand-computed results, independent of MPFR, so an oracle bug cannot hide an FPU bug.
void expect(uint32_t got, uint32_t got_flags, uint32_t want, uint32_t want_flags) {
  if (got != want || got_flags != want_flags)
    fail_msg("got %08x flags %02x, want %08x flags %02x", got, got_flags, want, want_flags);
}

#define EXPECT(call, want, want_flags)          \
  do {                                          \
    uint32_t f_ = 0;                            \
    uint32_t r_ = fpu::call;                    \
    expect(r_, f_, want, want_flags);           \
  } while (0)

void test_known_values(void **) {
  using namespace ipu::fpu;
  const uint32_t one = 0x3f800000, tiny = 0x33800000;  // 1 + 2^-24 is a tie
  for (unsigned rm : {kRNE, kRTZ, kRDN})
    EXPECT(add(one, tiny, rm, f_), one, kNX);
  EXPECT(add(one, tiny, kRUP, f_), 0x3f800001, kNX);
  EXPECT(add(one, tiny, kRMM, f_), 0x3f800001, kNX);
  EXPECT(add(0x3f800001, tiny, kRNE, f_), 0x3f800002, kNX);  // tie to even goes up here
  EXPECT(mul(0x7f7fffff, 0x40000000, kRNE, f_), 0x7f800000, kOF | kNX);
  EXPECT(mul(0x7f7fffff, 0x40000000, kRTZ, f_), 0x7f7fffff, kOF | kNX);
  EXPECT(mul(0xff7fffff, 0x40000000, kRUP, f_), 0xff7fffff, kOF | kNX);
  EXPECT(mul(0xff7fffff, 0x40000000, kRMM, f_), 0xff800000, kOF | kNX);
  EXPECT(mul(0x00800000, 0x3f000000, kRNE, f_), 0x00400000, 0u);  // exact subnormal: no UF
  // (1 - 2^-24) * 2^-126 rounds up to 2^-126 but is tiny after rounding to 24 bits: UF.
  EXPECT(mul(0x3f7fffff, 0x00800000, kRNE, f_), 0x00800000, kUF | kNX);
  EXPECT(mul(0x3f7fffff, 0x00800000, kRMM, f_), 0x00800000, kUF | kNX);
  EXPECT(mul(0x3f7fffff, 0x00800000, kRTZ, f_), 0x007fffff, kUF | kNX);
  EXPECT(mul(0x00000001, 0x3f000000, kRNE, f_), 0x00000000, kUF | kNX);
  EXPECT(mul(0x00000001, 0x3f000000, kRMM, f_), 0x00000001, kUF | kNX);
  EXPECT(div(one, 0, kRNE, f_), 0x7f800000, kDZ);
  EXPECT(div(0x80000000, 0, kRNE, f_), kCanonicalNaN, kNV);
  EXPECT(div(one, 0x40400000, kRMM, f_), 0x3eaaaaab, kNX);
  EXPECT(sqrt(0xbf800000, kRNE, f_), kCanonicalNaN, kNV);
  EXPECT(sqrt(0x80000000, kRNE, f_), 0x80000000, 0u);
  EXPECT(sqrt(0x40800000, kRMM, f_), 0x40000000, 0u);
  EXPECT(sqrt(0x7f800001, kRNE, f_), kCanonicalNaN, kNV);
  EXPECT(add(0, 0x80000000, kRNE, f_), 0, 0u);
  EXPECT(add(0, 0x80000000, kRDN, f_), 0x80000000, 0u);
  EXPECT(sub(0x3fc00000, 0x3fc00000, kRDN, f_), 0x80000000, 0u);
  EXPECT(sub(0x3fc00000, 0x3fc00000, kRMM, f_), 0, 0u);
  EXPECT(add(0x7f800000, 0xff800000, kRNE, f_), kCanonicalNaN, kNV);
  EXPECT(add(0xffc00001, one, kRNE, f_), kCanonicalNaN, 0u);  // payload not propagated
  EXPECT(madd(0x7f800000, 0, 0x7fc00000, kRNE, f_), kCanonicalNaN, kNV);
  EXPECT(madd(0x7f800000, 0, 0x7fc00000, kRMM, f_), kCanonicalNaN, kNV);
  EXPECT(madd(one, one, 0xbf800000, kRDN, f_), 0x80000000, 0u);
  EXPECT(nmsub(one, one, one, kRNE, f_), 0, 0u);
  EXPECT(nmadd(one, one, one, kRNE, f_), 0xc0000000, 0u);
  EXPECT(msub(0x3f800001, 0x3f800001, 0x3f800002, kRNE, f_), 0x28800000, 0u);  // exact 2^-46 only if fused
}

void test_cvt_edges(void **) {
  using namespace ipu::fpu;
  EXPECT(cvt_w_s(0x7fc00000, kRNE, f_), 0x7fffffff, kNV);
  EXPECT(cvt_w_s(0xffc00000, kRNE, f_), 0x7fffffff, kNV);
  EXPECT(cvt_w_s(0x7f800000, kRNE, f_), 0x7fffffff, kNV);
  EXPECT(cvt_w_s(0xff800000, kRNE, f_), 0x80000000, kNV);
  EXPECT(cvt_w_s(0x4f000000, kRNE, f_), 0x7fffffff, kNV);  // 2^31
  EXPECT(cvt_w_s(0xcf000000, kRNE, f_), 0x80000000, 0u);   // -2^31 fits
  EXPECT(cvt_w_s(0xcf000001, kRNE, f_), 0x80000000, kNV);
  EXPECT(cvt_w_s(0x3fc00000, kRNE, f_), 2, kNX);   // 1.5
  EXPECT(cvt_w_s(0x40200000, kRNE, f_), 2, kNX);   // 2.5 ties to even
  EXPECT(cvt_w_s(0x40200000, kRMM, f_), 3, kNX);   // 2.5 ties away
  EXPECT(cvt_w_s(0xc0200000, kRMM, f_), 0xfffffffd, kNX);
  EXPECT(cvt_w_s(0xc0200000, kRDN, f_), 0xfffffffd, kNX);
  EXPECT(cvt_w_s(0xc0200000, kRTZ, f_), 0xfffffffe, kNX);
  EXPECT(cvt_w_s(0x00000001, kRUP, f_), 1, kNX);
  EXPECT(cvt_wu_s(0x7fc00000, kRNE, f_), 0xffffffff, kNV);
  EXPECT(cvt_wu_s(0x7f800000, kRNE, f_), 0xffffffff, kNV);
  EXPECT(cvt_wu_s(0xff800000, kRNE, f_), 0, kNV);
  EXPECT(cvt_wu_s(0x4f800000, kRNE, f_), 0xffffffff, kNV);  // 2^32
  EXPECT(cvt_wu_s(0x4f7fffff, kRNE, f_), 0xffffff00, 0u);
  EXPECT(cvt_wu_s(0xbecccccd, kRNE, f_), 0, kNX);  // -0.4 rounds to 0: not invalid
  EXPECT(cvt_wu_s(0xbecccccd, kRDN, f_), 0, kNV);  // rounds to -1
  EXPECT(cvt_wu_s(0x80000000, kRNE, f_), 0, 0u);
  EXPECT(cvt_wu_s(0xbf800000, kRNE, f_), 0, kNV);
  EXPECT(cvt_s_w(0x80000000, kRNE, f_), 0xcf000000, 0u);
  EXPECT(cvt_s_w(0x01000001, kRNE, f_), 0x4b800000, kNX);  // 2^24+1 ties to even
  EXPECT(cvt_s_w(0x01000001, kRMM, f_), 0x4b800001, kNX);
  EXPECT(cvt_s_w(0xffffffff, kRNE, f_), 0xbf800000, 0u);
  EXPECT(cvt_s_wu(0xffffffff, kRNE, f_), 0x4f800000, kNX);
  EXPECT(cvt_s_wu(0xffffffff, kRTZ, f_), 0x4f7fffff, kNX);
}

void test_minmax(void **) {
  using namespace ipu::fpu;
  const uint32_t qnan = 0x7fc00000, snan = 0x7f800001, one = 0x3f800000;
  EXPECT(min(0x80000000, 0, f_), 0x80000000, 0u);
  EXPECT(min(0, 0x80000000, f_), 0x80000000, 0u);
  EXPECT(max(0x80000000, 0, f_), 0, 0u);
  EXPECT(max(0, 0x80000000, f_), 0, 0u);
  EXPECT(min(qnan, one, f_), one, 0u);
  EXPECT(max(one, qnan, f_), one, 0u);
  EXPECT(min(snan, one, f_), one, kNV);
  EXPECT(max(one, snan, f_), one, kNV);
  EXPECT(min(snan, qnan, f_), kCanonicalNaN, kNV);
  EXPECT(max(0xffc00001, 0xffc00002, f_), kCanonicalNaN, 0u);
  EXPECT(min(0xff800000, 0x7f800000, f_), 0xff800000, 0u);
  EXPECT(max(0xbf800000, 0xc0000000, f_), 0xbf800000, 0u);
  EXPECT(min(0xbf800000, 0xc0000000, f_), 0xc0000000, 0u);
  // Random pairs against host comparisons.
  Rng r;
  for (int i = 0; i < 200000; ++i) {
    uint32_t a = gen(r), b = r.below(4) ? gen(r) : a ^ 0x80000000u;
    float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b);
    bool na = std::isnan(fa), nb = std::isnan(fb);
    uint32_t nv = ((na && !(a & 0x400000)) || (nb && !(b & 0x400000))) ? kNV : 0;
    uint32_t wmin, wmax;
    if (na && nb) {
      wmin = wmax = kCanonicalNaN;
    } else if (na || nb) {
      wmin = wmax = na ? b : a;
    } else if (fa < fb || (fa == fb && std::signbit(fa))) {
      wmin = a;
      wmax = b;
    } else {
      wmin = b;
      wmax = a;
    }
    if (fa == fb && !na) wmin = std::signbit(fa) ? a : b, wmax = std::signbit(fa) ? b : a;
    EXPECT(min(a, b, f_), wmin, nv);
    EXPECT(max(a, b, f_), wmax, nv);
  }
}

void test_compare(void **) {
  using namespace ipu::fpu;
  const uint32_t qnan = 0x7fc00000, snan = 0x7f800001, one = 0x3f800000;
  EXPECT(eq(0, 0x80000000, f_), 1, 0u);
  EXPECT(lt(0x80000000, 0, f_), 0, 0u);
  EXPECT(le(0x80000000, 0, f_), 1, 0u);
  EXPECT(eq(qnan, one, f_), 0, 0u);
  EXPECT(eq(snan, one, f_), 0, kNV);
  EXPECT(eq(qnan, qnan, f_), 0, 0u);
  EXPECT(lt(qnan, one, f_), 0, kNV);
  EXPECT(le(one, qnan, f_), 0, kNV);
  EXPECT(lt(0xff800000, 0x7f800000, f_), 1, 0u);
  EXPECT(le(0x7f800000, 0x7f800000, f_), 1, 0u);
  Rng r;
  for (int i = 0; i < 200000; ++i) {
    uint32_t a = gen(r), b = r.below(4) ? gen_partner(r, a, Op::Add) : a ^ (r.below(2) ? 0x80000000u : 0);
    float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b);
    bool any_nan = std::isnan(fa) || std::isnan(fb);
    bool any_snan = (std::isnan(fa) && !(a & 0x400000)) || (std::isnan(fb) && !(b & 0x400000));
    EXPECT(eq(a, b, f_), fa == fb, any_snan ? kNV : 0u);
    EXPECT(lt(a, b, f_), fa < fb, any_nan ? kNV : 0u);
    EXPECT(le(a, b, f_), fa <= fb, any_nan ? kNV : 0u);
  }
}

void test_classify(void **) {
  const uint32_t cases[][2] = {{0xff800000, 1u << 0}, {0xbf800000, 1u << 1}, {0x807fffff, 1u << 2},
                               {0x80000001, 1u << 2}, {0x80000000, 1u << 3}, {0x00000000, 1u << 4},
                               {0x00000001, 1u << 5}, {0x007fffff, 1u << 5}, {0x00800000, 1u << 6},
                               {0x7f7fffff, 1u << 6}, {0xff7fffff, 1u << 1}, {0x7f800000, 1u << 7},
                               {0x7f800001, 1u << 8}, {0xffbfffff, 1u << 8}, {0x7fc00000, 1u << 9},
                               {0xffffffff, 1u << 9}};
  for (const auto &c : cases)
    if (fpu::classify(c[0]) != c[1]) fail_msg("classify(%08x) = %03x, want %03x", c[0], fpu::classify(c[0]), c[1]);
}

// The library must leave the host's rounding mode and sticky flags exactly as it found them.
void test_host_mxcsr_preserved(void **) {
  PathGuard guard;
  unsigned saved = _mm_getcsr();
  // Default mode with no status bits, then round up with PE already set.
  for (unsigned host : {saved & ~0x3fu, (saved & ~0x603fu) | (2u << 13) | 0x20})
    for (Path p : kPaths) {
      if (!fpu::fast::supported(p)) continue;
      fpu::fast::select(p);
      _mm_setcsr(host);
      uint32_t f = 0;
      for (unsigned rm = 0; rm < kModes; ++rm) {
        fpu::add(0x3f800000, 0x33800000, rm, f);
        fpu::mul(0x3f800001, 0x3f800001, rm, f);
        fpu::div(0x3f800000, 0x40400000, rm, f);
        fpu::div(0x3f800000, 0, rm, f);
        fpu::sqrt(0x40000000, rm, f);
        fpu::sqrt(0xbf800000, rm, f);
        fpu::madd(0x3f800001, 0x3f800001, 0x3f800000, rm, f);
        fpu::madd(0x7f7fffff, 0x7f7fffff, 0x3f800000, rm, f);
      }
      unsigned after = _mm_getcsr();
      _mm_setcsr(saved);
      assert_int_equal(after, host);
      assert_int_equal(f, fpu::kNV | fpu::kDZ | fpu::kOF | fpu::kNX);
    }
}

// Counts mismatches of the public API while the host runs in a non-default
// MXCSR (round toward zero, FTZ, DAZ): results must not depend on the host mode.
int run_nondefault_host(unsigned host_csr) {
  struct Case {
    Op op;
    unsigned rm;
    uint32_t a, b, c;
    Result want;
  };
  std::vector<Case> cases;
  Rng r;
  for (Op op : {Op::Add, Op::Mul, Op::Div, Op::Sqrt, Op::Madd})
    for (unsigned rm = 0; rm < kModes; ++rm)
      for (int i = 0; i < 1500; ++i) {
        uint32_t a = gen(r), b = gen_partner(r, a, op), c = gen_addend(r, a, b);
        cases.push_back({op, rm, a, b, c, oracle::arith(op, a, b, c, rm)});
      }
  std::vector<Result> got(cases.size());
  unsigned saved = _mm_getcsr();
  _mm_setcsr(host_csr);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &k = cases[i];
    got[i].flags = 0;
    got[i].bits = impl_of(k.op).pub(k.a, k.b, k.c, k.rm, got[i].flags);
  }
  unsigned after = _mm_getcsr();
  _mm_setcsr(saved);
  int failures = after != host_csr;
  if (failures) std::printf("host MXCSR changed: %08x -> %08x\n", host_csr, after);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &k = cases[i];
    if (got[i].bits == k.want.bits && got[i].flags == k.want.flags) continue;
    if (++failures <= 10)
      std::printf("MISMATCH host-mode op=%d rm=%u a=%08x b=%08x c=%08x: want %08x/%02x got %08x/%02x\n", int(k.op),
                  k.rm, k.a, k.b, k.c, k.want.bits, k.want.flags, got[i].bits, got[i].flags);
  }
  return failures;
}

void test_nondefault_host_mode(void **) {
  int failures = 0;
  {
    PathGuard guard;
    for (Path p : kPaths) {
      if (!fpu::fast::supported(p)) continue;
      fpu::fast::select(p);
      failures += run_nondefault_host(0x1f80 | (3u << 13) | 0x8040);  // RTZ, FTZ, DAZ
    }
  }
  if (failures) fail_msg("%d mismatches with a non-default host MXCSR", failures);
}

// Reports which fast paths ran, so a log shows what was covered on this host.
void test_paths_available(void **) {
  std::printf("fast path at start-up: %s; supported:", kPathNames[int(fpu::fast::active())]);
  for (Path p : kPaths)
    if (fpu::fast::supported(p)) std::printf(" %s", kPathNames[int(p)]);
  std::printf("\n");
  assert_true(fpu::fast::supported(Path::Soft));
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_values), cmocka_unit_test(test_cvt_edges),
      cmocka_unit_test(test_minmax),       cmocka_unit_test(test_compare),
      cmocka_unit_test(test_classify),     cmocka_unit_test(test_host_mxcsr_preserved),
      cmocka_unit_test(test_nondefault_host_mode), cmocka_unit_test(test_paths_available),
      cmocka_unit_test(test_add),          cmocka_unit_test(test_sub),
      cmocka_unit_test(test_mul),          cmocka_unit_test(test_div),
      cmocka_unit_test(test_sqrt), cmocka_unit_test(test_sqrt_dense),         cmocka_unit_test(test_madd),
      cmocka_unit_test(test_msub),         cmocka_unit_test(test_nmsub),
      cmocka_unit_test(test_nmadd),        cmocka_unit_test(test_cvt_w_s),
      cmocka_unit_test(test_cvt_wu_s),     cmocka_unit_test(test_cvt_s_w),
      cmocka_unit_test(test_cvt_s_wu),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
