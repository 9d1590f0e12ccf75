// Device-side vector types of IPU codelets (float2, half4, int2, ...). On this target the tiles are scalar
// RV32IMF cores: the types keep their sizes and element access ([i]) and element-wise arithmetic, without the IPU's
// 64-bit vector instructions behind them.
#ifndef POPLAR_DEVICE_IPUDEF_H
#define POPLAR_DEVICE_IPUDEF_H

#include "ipu_half.h"

typedef float float2 __attribute__((vector_size(8)));
typedef float float4 __attribute__((vector_size(16)));
typedef int int2 __attribute__((vector_size(8)));
typedef int int4 __attribute__((vector_size(16)));
typedef unsigned uint2 __attribute__((vector_size(8)));
typedef unsigned uint4 __attribute__((vector_size(16)));
typedef short short2 __attribute__((vector_size(4)));
typedef short short4 __attribute__((vector_size(8)));
typedef unsigned short ushort2 __attribute__((vector_size(4)));
typedef unsigned short ushort4 __attribute__((vector_size(8)));
typedef char char2 __attribute__((vector_size(2)));
typedef char char4 __attribute__((vector_size(4)));
typedef unsigned char uchar2 __attribute__((vector_size(2)));
typedef unsigned char uchar4 __attribute__((vector_size(4)));

namespace poplar {
namespace detail {
/// N halves with element access and element-wise arithmetic (GCC vectors cannot hold a class type).
template <unsigned N> struct HalfVector {
  half v[N];
  half &operator[](unsigned i) { return v[i]; }
  const half &operator[](unsigned i) const { return v[i]; }
  friend HalfVector operator+(HalfVector a, const HalfVector &b) {
    for (unsigned i = 0; i < N; ++i)
      a.v[i] = float(a.v[i]) + float(b.v[i]);
    return a;
  }
  friend HalfVector operator-(HalfVector a, const HalfVector &b) {
    for (unsigned i = 0; i < N; ++i)
      a.v[i] = float(a.v[i]) - float(b.v[i]);
    return a;
  }
  friend HalfVector operator*(HalfVector a, const HalfVector &b) {
    for (unsigned i = 0; i < N; ++i)
      a.v[i] = float(a.v[i]) * float(b.v[i]);
    return a;
  }
};
} // namespace detail
} // namespace poplar

typedef poplar::detail::HalfVector<2> half2;
typedef poplar::detail::HalfVector<4> half4;

#endif // POPLAR_DEVICE_IPUDEF_H
