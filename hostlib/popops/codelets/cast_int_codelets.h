// popops' casts between an 8- or 16-bit integer type (CHAR, SIGNED_CHAR, UNSIGNED_CHAR, SHORT, UNSIGNED_SHORT)
// and FLOAT, HALF, INT or UNSIGNED_INT, either way, included by popops_codelets.cpp. The map interpreter holds only
// 32-bit and bool elements, so these types get vertices of their own.
//
// Rules (the same on the host reference, tests/poplibs/cast_int_example): a value converted into an integer type
// saturates at that type's range, a floating value is first truncated toward zero, NaN gives 0; an integer
// converted into FLOAT or HALF is the nearest value of that type.
namespace popops {
namespace castint {

// Poplar's CHAR is signed, but the tile compiler's plain char is unsigned (RISC-V): a char is read through
// signed char, or -1 would read as 255.
inline long long wide(char x) { return (signed char)x; }
inline long long wide(signed char x) { return x; }
inline long long wide(unsigned char x) { return x; }
inline long long wide(short x) { return x; }
inline long long wide(unsigned short x) { return x; }
inline long long wide(int x) { return x; }
inline long long wide(unsigned x) { return x; }

// x saturated at [lo, hi]; a floating x truncated toward zero, NaN giving 0.
template <typename T> inline long long clamped(T x, long long lo, long long hi) {
  const long long v = wide(x);
  return v < lo ? lo : v > hi ? hi : v;
}
inline long long clamped(float x, long long lo, long long hi) {
  if (x != x)
    return 0;
  if (x <= float(lo))
    return lo;
  if (x >= float(hi))
    return hi;
  return (long long)x;
}
inline long long clamped(half x, long long lo, long long hi) { return clamped(float(x), lo, hi); }

// The range of each result type, and how a value already in range is stored in it.
template <typename T> struct Range;
template <> struct Range<char> { static const long long lo = -128, hi = 127; };
template <> struct Range<signed char> { static const long long lo = -128, hi = 127; };
template <> struct Range<unsigned char> { static const long long lo = 0, hi = 255; };
template <> struct Range<short> { static const long long lo = -32768, hi = 32767; };
template <> struct Range<unsigned short> { static const long long lo = 0, hi = 65535; };
template <> struct Range<int> { static const long long lo = -2147483647LL - 1, hi = 2147483647LL; };
template <> struct Range<unsigned> { static const long long lo = 0, hi = 4294967295LL; };
// Every 8- or 16-bit integer is inside a float's and a half's range (a half rounds above 2048).
template <> struct Range<float> { static const long long lo = -65536, hi = 65535; };
template <> struct Range<half> { static const long long lo = -65536, hi = 65535; };

template <typename T> inline T store(long long v) { return T(v); }
template <> inline float store<float>(long long v) { return float(v); }
template <> inline half store<half>(long long v) { return half(float(v)); }

} // namespace castint

/// out[i] = in[i] converted as the rules above say. One vertex per worker's run of a tile's output.
template <typename In, typename Out> class CastInt : public Vertex {
public:
  Input<Vector<In>> in;
  Output<Vector<Out>> out;
  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = castint::store<Out>(castint::clamped(in[i], castint::Range<Out>::lo, castint::Range<Out>::hi));
    return true;
  }
};

// Each small integer type from and to each of FLOAT, HALF, INT and UNSIGNED_INT (the instances popops::cast uses).
#define POPOPS_CAST_INT_BOTH_WAYS(S)                                                                               \
  CastInt<S, float>, CastInt<S, half>, CastInt<S, int>, CastInt<S, unsigned>, CastInt<float, S>, CastInt<half, S>, \
      CastInt<int, S>, CastInt<unsigned, S>
template struct VertexInstances<POPOPS_CAST_INT_BOTH_WAYS(char), POPOPS_CAST_INT_BOTH_WAYS(signed char),
                                POPOPS_CAST_INT_BOTH_WAYS(unsigned char), POPOPS_CAST_INT_BOTH_WAYS(short),
                                POPOPS_CAST_INT_BOTH_WAYS(unsigned short)>;
#undef POPOPS_CAST_INT_BOTH_WAYS

} // namespace popops
