// Internal: portable integer implementation of the rounding arithmetic (all modes incl. RMM).
#pragma once

#include <cstdint>

// fpu.cpp uses these for RMM, special operands, results near overflow or
// underflow, a host without FMA or with a non-default MXCSR, and non-x86 hosts.
// The unit tests call them directly in every rounding mode so this path is
// verified in full on any host.
// Semantics are exactly those of the same-named functions in fpu.h; rm must be 0..4.
namespace ipu::fpu::soft {

uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags);
// a*b + c with one rounding (negated variants are built by flipping signs).
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);

// Float <-> integer conversions (the public functions always use these: they
// are integer-only and cheaper than switching the host rounding mode).
uint32_t cvt_w_s(uint32_t a, unsigned rm, uint32_t &flags);
uint32_t cvt_wu_s(uint32_t a, unsigned rm, uint32_t &flags);
uint32_t cvt_s_w(uint32_t int_bits, unsigned rm, uint32_t &flags);
uint32_t cvt_s_wu(uint32_t v, unsigned rm, uint32_t &flags);

} // namespace ipu::fpu::soft
