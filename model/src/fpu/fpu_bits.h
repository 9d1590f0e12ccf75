// Internal: binary32 bit-pattern predicates shared by the FPU implementation files.
#pragma once

#include <cstdint>

// Host-specific code (x86-64 SSE/AVX-512) is compiled only here; defining
// IPU_FPU_PORTABLE builds the pure integer implementation on any host.
#if defined(__x86_64__) && !defined(IPU_FPU_PORTABLE)
#define IPU_FPU_X86 1
#endif

namespace ipu::fpu::bits {

constexpr uint32_t kSign = 0x80000000u;
constexpr uint32_t kAbs = 0x7fffffffu;
constexpr uint32_t kInf = 0x7f800000u;
constexpr uint32_t kMaxFinite = 0x7f7fffffu;
constexpr uint32_t kQuietBit = 0x00400000u;

constexpr bool is_nan(uint32_t x) { return (x & kAbs) > kInf; }
constexpr bool is_snan(uint32_t x) { return is_nan(x) && !(x & kQuietBit); }
constexpr bool is_inf(uint32_t x) { return (x & kAbs) == kInf; }
constexpr bool is_zero(uint32_t x) { return (x & kAbs) == 0; }
constexpr bool sign_of(uint32_t x) { return (x >> 31) != 0; }
// Exponent field all ones: infinity or NaN.
constexpr bool is_special(uint32_t x) { return (x & kInf) == kInf; }

} // namespace ipu::fpu::bits
