// Tile code that PopLibs libraries' codelets share (popc finds this folder through poplibs_codelets() in
// hostlib/poplibs.cmake): an IEEE single's bits and back, for the conversions the tiles do in integer code
// (popops' QUARTER casts, popfloat's gfloat formats). A byte copy, not a pointer cast or a union, so the compiler
// sees no aliasing and still emits a plain register move.
#ifndef POPLIBS_FLOAT_BITS_H
#define POPLIBS_FLOAT_BITS_H

namespace poplibs_tile {

inline unsigned floatBits(float f) {
  static_assert(sizeof(unsigned) == sizeof(float), "the tile's float is 32 bits");
  unsigned u;
  __builtin_memcpy(&u, &f, sizeof u);
  return u;
}

inline float bitsFloat(unsigned u) {
  float f;
  __builtin_memcpy(&f, &u, sizeof f);
  return f;
}

} // namespace poplibs_tile

#endif // POPLIBS_FLOAT_BITS_H
