// Internal: host-FPU fast paths for the common binary32 cases, and which one is in use.
#pragma once

#include "fpu.h"
#include "fpu_bits.h"

#include <cstdint>

namespace ipu::fpu::fast {

// Soft: integer path only. Sse: host SSE/FMA3 in the host's own (default)
// MXCSR, saved and reloaded around each op. Evex: AVX-512 static rounding with
// exceptions suppressed, which never reads or writes the MXCSR.
enum class Path { Soft, Sse, Evex };

// The path chosen at start-up: the fastest the host supports.
Path active();
// Whether this host can run the given path.
bool supported(Path p);
// Switches paths (unit tests only: not synchronised with concurrent callers).
void select(Path p);

namespace detail {
extern Path g_path;

// Zero or normal: a host with DAZ set would read a subnormal operand as zero.
constexpr bool plain(uint32_t x) {
  uint32_t e = x & bits::kInf;
  return e != bits::kInf && (e != 0 || (x & bits::kAbs) == 0);
}
} // namespace detail

// Whether the fast path may take these operands: a fast path exists, the mode
// is not RMM, and each operand is zero or normal (inline: called on every op).
inline bool eligible(unsigned rm, uint32_t a, uint32_t b, uint32_t c = 0) {
  return detail::g_path != Path::Soft && rm != kRMM && detail::plain(a) && detail::plain(b) && detail::plain(c);
}

// Fast-path ops. Preconditions: eligible(...), the divisor of div nonzero, the
// operand of sqrt not negative. They return bit-exact results and flags for
// every case, falling back to the integer path where the result is near the
// overflow or underflow threshold or the host environment is unusual.
uint32_t add(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t mul(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t div(uint32_t a, uint32_t b, unsigned rm, uint32_t &flags);
uint32_t sqrt(uint32_t a, unsigned rm, uint32_t &flags);
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t &flags);

} // namespace ipu::fpu::fast
