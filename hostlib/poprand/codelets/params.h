// What a poprand generation vertex draws: shared by the host (src/generate.cpp fills the fields) and the tile
// codelets (poprand_codelets.cpp reads them), so both agree on every number.
#ifndef POPRAND_PARAMS_H
#define POPRAND_PARAMS_H

namespace poprand {
namespace dist {

/// Value of a generation vertex's `dist` field, and the meaning of its a, b, c, d (float) and u0, u1 (unsigned).
enum Kind {
  UNIFORM = 0,       ///< a + b * U[0,1), clamped to [d, c]
  UNIFORM_INT = 1,   ///< int(u0) + the top of (bits * u1) (u1 = max - min + 1; 0 stands for 2^32)
  NORMAL = 2,        ///< a + b * N(0, 1)
  TRUNC_NORMAL = 3,  ///< a + b * N(0, 1) restricted to [-c, c]
  BERNOULLI = 4,     ///< 1 when bits < u0 (always when u1 != 0), else 0
  LOG_UNIFORM = 5,   ///< exp(a + b * U[0,1)), clamped to [c, d] (rounded first for int)
  DROPOUT = 6        ///< in * a when bits < u0 (always when u1 != 0), else 0
};

/// Random words an element takes from its block's first attempt: a normal sample takes two (Box-Muller), the
/// others one, so a Philox block serves 2 or 4 elements.
inline unsigned wordsPerElement(unsigned kind) { return kind == NORMAL || kind == TRUNC_NORMAL ? 2u : 1u; }

} // namespace dist
} // namespace poprand

#endif // POPRAND_PARAMS_H
