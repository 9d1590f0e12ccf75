// Reference binary32 results and RISC-V fflags computed with GNU MPFR, for checking ipu_fpu.
#pragma once

#include <cstdint>

namespace oracle {

struct Result {
  uint32_t bits;
  uint32_t flags;
};

enum class Op { Add, Sub, Mul, Div, Sqrt, Madd, Msub, Nmsub, Nmadd };

// Result of an arithmetic op (sqrt ignores b and c, two-operand ops ignore c)
// in RISC-V rounding mode rm (0..4), including the RISC-V NaN rules.
Result arith(Op op, uint32_t a, uint32_t b, uint32_t c, unsigned rm);

// Conversions with RISC-V saturation semantics.
Result cvt_w_s(uint32_t a, unsigned rm);
Result cvt_wu_s(uint32_t a, unsigned rm);
Result cvt_s_w(uint32_t v, unsigned rm);
Result cvt_s_wu(uint32_t v, unsigned rm);

} // namespace oracle
