// popfloat's tile codelets: the gfloat casts of popfloat/experimental/CastToGfloat.hpp (GfloatCast). The
// arithmetic is in gfloat_math.h; each vertex handles one run of a tile's elements.
#include <poplar/Vertex.hpp>

#include "gfloat_math.h"

using namespace poplar;

namespace popfloat {

// Completing each listed type makes popc see the class template instance as a vertex class (as popops'
// codelets do: see VertexInstances there).
template <typename... Vertices> struct VertexInstances {
  static_assert(((sizeof(Vertices) > 0) && ...), "a vertex class template instance must be complete");
};

/// The parameter words of a format (gfloat_math.h's ParamWord) from its packed struct word: what
/// GfloatCast::createCastOpParamsTensor computes on the device, so a struct held in a tensor works as a constant.
class GfloatParams : public Vertex {
public:
  Input<Vector<int>> gfStruct;
  Output<Vector<int>> param;
  bool compute() {
    const gf::Format f = gf::formatOf(unsigned(gfStruct[0]));
    param[gf::MAN] = f.man;
    param[gf::EXP] = f.exp;
    param[gf::BIAS] = f.bias;
    param[gf::FLAGS] = (f.denorms ? gf::DENORMS : 0) | (f.infNan ? gf::INFS_AND_NANS : 0);
    param[gf::MAX_BITS] = int(gf::floatBits(f.maxValue));
    param[gf::MIN_NORM_BITS] = int(gf::floatBits(f.minNormal));
    param[gf::DENORM_STEP_BITS] = int(gf::floatBits(f.denormStep));
    param[gf::PACKED_BITS] = 1 + f.exp + f.man;
    return true;
  }
};

/// What a cast's rounding fields hold, as gf::Rounding.
#define POPFLOAT_ROUNDING_FIELDS                                                                                  \
  unsigned roundMode;                                                                                            \
  unsigned srBits;                                                                                               \
  unsigned density;                                                                                              \
  float noiseOffset;                                                                                             \
  float noiseScale;                                                                                              \
  float noiseMin;                                                                                                \
  float noiseMax;                                                                                                \
  float bernoulli;                                                                                               \
  unsigned nanoo;                                                                                                \
  unsigned seed;                                                                                                 \
  unsigned first; /* the index of the run's first element in the cast (the noise's counter) */                   \
  gf::Rounding rounding() const {                                                                                \
    gf::Rounding r;                                                                                              \
    r.mode = roundMode;                                                                                          \
    r.srBits = srBits;                                                                                           \
    r.density = density;                                                                                         \
    r.offset = noiseOffset;                                                                                      \
    r.scale = noiseScale;                                                                                        \
    r.noiseMin = noiseMin;                                                                                       \
    r.noiseMax = noiseMax;                                                                                       \
    r.bernoulli = bernoulli;                                                                                     \
    r.nanoo = nanoo != 0;                                                                                        \
    r.seed = seed;                                                                                               \
    return r;                                                                                                    \
  }

// The bits of a packed storage element.
inline unsigned storageWord(signed char x) { return unsigned((unsigned char)x); }
inline unsigned storageWord(short x) { return unsigned((unsigned short)x); }
template <typename T> struct StorageBits { static const unsigned value = 8 * sizeof(T); };

// A quantised value as an output element: itself for float and half, packed into the format's bits for the
// storage types (signed char for 8-bit formats, short for 16-bit ones).
template <typename Out> inline Out stored(float v, const gf::Format &) { return Out(v); }
template <> inline signed char stored<signed char>(float v, const gf::Format &f) {
  return (signed char)gf::pack(v, f, 8);
}
template <> inline short stored<short>(float v, const gf::Format &f) { return (short)gf::pack(v, f, 16); }

/// out[i] = in[i] quantised to the format of `param`, held as Out (float or half; signed char or short packed).
template <typename In, typename Out> class CastToGfloat : public Vertex {
public:
  Input<Vector<In>> in;
  Output<Vector<Out>> out;
  Input<Vector<int>> param;
  POPFLOAT_ROUNDING_FIELDS
  bool compute() {
    const gf::Format f = gf::formatOf(&param[0]);
    const gf::Rounding r = rounding();
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = stored<Out>(gf::quantise(float(in[i]), f, r, first + i), f);
    return true;
  }
};

/// The same in place.
template <typename T> class CastToGfloatInPlace : public Vertex {
public:
  InOut<Vector<T>> inOut;
  Input<Vector<int>> param;
  POPFLOAT_ROUNDING_FIELDS
  bool compute() {
    const gf::Format f = gf::formatOf(&param[0]);
    const gf::Rounding r = rounding();
    for (unsigned i = 0; i < inOut.size(); ++i)
      inOut[i] = T(gf::quantise(float(inOut[i]), f, r, first + i));
    return true;
  }
};

/// out[i] = the value of packed gfloat in[i] (In = signed char or short) as Out (float or half).
template <typename In, typename Out> class CastGfloatToNative : public Vertex {
public:
  Input<Vector<In>> in;
  Output<Vector<Out>> out;
  Input<Vector<int>> param;
  bool compute() {
    const gf::Format f = gf::formatOf(&param[0]);
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = Out(gf::unpack(storageWord(in[i]), f, StorageBits<In>::value));
    return true;
  }
};

#undef POPFLOAT_ROUNDING_FIELDS

template struct VertexInstances<CastToGfloat<float, float>, CastToGfloat<float, half>, CastToGfloat<half, half>,
                                CastToGfloat<half, float>, CastToGfloatInPlace<float>, CastToGfloatInPlace<half>,
                                CastToGfloat<float, signed char>, CastToGfloat<float, short>,
                                CastToGfloat<half, signed char>, CastToGfloat<half, short>,
                                CastGfloatToNative<signed char, float>, CastGfloatToNative<signed char, half>,
                                CastGfloatToNative<short, float>, CastGfloatToNative<short, half>>;

} // namespace popfloat
