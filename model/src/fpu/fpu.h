// RISC-V "F" extension (IEEE 754 binary32) arithmetic, bit-exact, for the card model's ISS.
#pragma once

#include <cstdint>

// All operands and results are raw binary32 bit patterns. `rm` is an already
// resolved RISC-V rounding mode (0=RNE, 1=RTZ, 2=RDN, 3=RUP, 4=RMM); values
// above 4 are a caller bug (the ISS must trap on them) and are treated as RNE.
// `flags` accumulates (|=) RISC-V fflags bits. Any NaN result is the canonical
// NaN: RISC-V does not propagate payloads. Tininess is detected after rounding.
// All functions are thread-safe and leave the host floating-point state (MXCSR
// mode and status bits) exactly as they found it, whatever that state is.
namespace ipu::fpu {

// RISC-V rounding modes (frm / instruction rm field values).
constexpr unsigned kRNE = 0, kRTZ = 1, kRDN = 2, kRUP = 3, kRMM = 4;

// RISC-V fflags bits.
constexpr uint32_t kNV = 0x10, kDZ = 0x08, kOF = 0x04, kUF = 0x02, kNX = 0x01;

constexpr uint32_t kCanonicalNaN = 0x7fc00000;

// fadd.s: a + b, rounded per rm.
uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
// fsub.s: a - b, rounded per rm.
uint32_t sub(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
// fmul.s: a * b, rounded per rm.
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
// fdiv.s: a / b, rounded per rm (DZ for finite nonzero / zero).
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
// fsqrt.s: square root of a (sqrt(-0) = -0; NV for a < 0).
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags);

// fmadd.s: a*b + c with a single rounding. NV for inf*0 even if c is a quiet NaN.
uint32_t madd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);
// fmsub.s: a*b - c with a single rounding.
uint32_t msub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);
// fnmsub.s: -(a*b) + c with a single rounding.
uint32_t nmsub(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);
// fnmadd.s: -(a*b) - c with a single rounding.
uint32_t nmadd(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);

// fmin.s (RISC-V 2.2+): one NaN -> the other operand, both NaN -> canonical
// NaN, NV only for a signaling NaN operand, -0 is less than +0.
uint32_t min(uint32_t a, uint32_t b, uint32_t &flags);
// fmax.s: as min, choosing the larger operand (+0 over -0).
uint32_t max(uint32_t a, uint32_t b, uint32_t &flags);

// feq.s: 1 if a == b else 0; quiet compare, NV only for a signaling NaN.
uint32_t eq(uint32_t a, uint32_t b, uint32_t &flags);
// flt.s: 1 if a < b else 0; signaling compare, NV for any NaN operand.
uint32_t lt(uint32_t a, uint32_t b, uint32_t &flags);
// fle.s: 1 if a <= b else 0; signaling compare, NV for any NaN operand.
uint32_t le(uint32_t a, uint32_t b, uint32_t &flags);

// fcvt.w.s: float -> int32 (returned as its bits). Out of range saturates
// (NaN and +overflow -> 0x7fffffff, -overflow -> 0x80000000) with NV only;
// in range but not integral sets NX.
uint32_t cvt_w_s(uint32_t a, unsigned rm, uint32_t &flags);
// fcvt.wu.s: float -> uint32. NaN and +overflow -> 0xffffffff, a value that
// rounds below zero -> 0, both with NV only; -0.4 (rounding to 0) gives 0 with NX.
uint32_t cvt_wu_s(uint32_t a, unsigned rm, uint32_t &flags);
// fcvt.s.w: int32 (given as its bits) -> float, NX if not exact.
uint32_t cvt_s_w(uint32_t int_bits, unsigned rm, uint32_t &flags);
// fcvt.s.wu: uint32 -> float, NX if not exact.
uint32_t cvt_s_wu(uint32_t v, unsigned rm, uint32_t &flags);

// fclass.s: one-hot 10-bit mask (bit 0 -inf, 1 -normal, 2 -subnormal, 3 -0,
// 4 +0, 5 +subnormal, 6 +normal, 7 +inf, 8 signaling NaN, 9 quiet NaN).
uint32_t classify(uint32_t a);

} // namespace ipu::fpu
