// popops' casts to and from QUARTER (8-bit floats read with a QUARTER_METADATA byte), included by
// popops_codelets.cpp. The tiles have no fp8 instructions, so the conversions are integer code on the element's
// bits; the host connects QUARTER and QUARTER_METADATA tensors as UNSIGNED_CHAR views.
#include "float_bits.h"

namespace popops {
namespace quarter {

/// The layout a metadata byte names (bit 7: F152, else F143; bits 0-5: the scale, a signed 6-bit power of two),
/// as poplar::QuarterMetadata::getBinary writes it.
struct Layout {
  int mantissaBits, bias, scale;
};

inline Layout layoutOf(unsigned char metadata) {
  const int raw = metadata & 63;
  Layout l;
  l.mantissaBits = (metadata & 0x80) ? 2 : 3;
  l.bias = (metadata & 0x80) ? 16 : 8;
  l.scale = raw >= 32 ? raw - 64 : raw;
  return l;
}

using poplibs_tile::bitsFloat;
using poplibs_tile::floatBits;

/// `m` shifted right by `s` bits, rounded to nearest with ties to even (0 once every bit is shifted out).
inline unsigned shiftRoundEven(unsigned m, unsigned s) {
  if (s == 0)
    return m;
  if (s > 31)
    return 0;
  const unsigned kept = m >> s, rest = m & ((1u << s) - 1), half = 1u << (s - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

/// The quarter byte nearest value / 2^scale: both formats have no infinity and one NaN (0x80), which infinities
/// and NaNs become; a finite value that rounds beyond the largest is NaN with `nanoo` (the floating-point
/// control's NaN-on-overflow), else the largest of its sign (saturation); zero has no sign.
inline unsigned char encode(float value, const Layout &l, bool nanoo) {
  const unsigned bits = floatBits(value), biased = (bits >> 23) & 255u;
  if (biased == 255u)
    return 0x80;
  if (biased == 0)
    return 0; // float denormals are far below every quarter's smallest value
  const int M = l.mantissaBits, maxExp = (1 << (7 - M)) - 1;
  const unsigned char largest = (unsigned char)((maxExp << M) | ((1 << M) - 1));
  const unsigned sig = (bits & 0x7fffffu) | 0x800000u; // value = sig * 2^(e - 23)
  int e = int(biased) - 127 - l.scale;
  unsigned code;
  if (e >= 1 - l.bias) { // normal: round the significand to M fraction bits
    unsigned r = shiftRoundEven(sig, unsigned(23 - M));
    if (r >> (M + 1)) { // rounded up to the next power of two
      r >>= 1;
      ++e;
    }
    if (e + l.bias > maxExp && nanoo)
      return 0x80;
    code = e + l.bias > maxExp ? largest : unsigned(((e + l.bias) << M) | int(r - (1u << M)));
  } else { // subnormal: units of 2^(1 - bias - M); rounding up to 2^M is the smallest normal's code
    code = shiftRoundEven(sig, unsigned(23 + 1 - l.bias - M - e));
  }
  return (unsigned char)(code == 0 ? 0 : code | ((bits >> 31) ? 0x80u : 0u));
}

/// The value of quarter byte `q`, times 2^scale (exact in float for every format and scale).
inline float decode(unsigned char q, const Layout &l) {
  if (q == 0x80)
    return bitsFloat(0x7fc00000u);
  const int M = l.mantissaBits, e = (q & 0x7f) >> M, m = q & ((1 << M) - 1);
  // value = significand * 2^power, with the power of two built as a float (within float's normal range).
  const int power = (e == 0 ? 1 - l.bias : e - l.bias) - M + l.scale;
  const float significand = float(e == 0 ? m : (1 << M) + m);
  const float mag = significand * bitsFloat(unsigned(power + 127) << 23);
  return (q & 0x80) ? -mag : mag;
}

/// The low byte of the integer nearest `v` (ties to even), that integer held as a signed 32-bit one (saturating):
/// what the tile's float-to-int conversion followed by a byte store gives. NaN gives 0.
inline unsigned char nearestSignedLowByte(float v) {
  if (v != v)
    return 0;
  const float r = nearbyintf(v);
  const int i = r >= 2147483648.0f ? 2147483647 : r < -2147483648.0f ? int(-2147483647 - 1) : int(r);
  return (unsigned char)(unsigned(i) & 255u);
}

/// As nearestSignedLowByte, through an unsigned 32-bit integer (negative values saturate to 0).
inline unsigned char nearestUnsignedLowByte(float v) {
  if (v != v)
    return 0;
  const float r = nearbyintf(v);
  const unsigned u = r <= 0.0f ? 0u : r >= 4294967296.0f ? 4294967295u : unsigned(r);
  return (unsigned char)(u & 255u);
}

/// A decoded quarter value as an element of T: floats as they are (half rounds), the 8-bit integers as the tile's
/// conversion through a 32-bit integer gives them.
template <typename T> inline T fromValue(float v) { return T(v); }
template <> inline char fromValue<char>(float v) { return char(nearestSignedLowByte(v)); }
template <> inline signed char fromValue<signed char>(float v) { return (signed char)(nearestSignedLowByte(v)); }
template <> inline unsigned char fromValue<unsigned char>(float v) { return nearestUnsignedLowByte(v); }

/// An element of T as a float. Poplar's CHAR is signed, but the tile compiler's plain char is unsigned (RISC-V),
/// so a char is read through signed char.
template <typename T> inline float toValue(T x) { return float(x); }
template <> inline float toValue<char>(char x) { return float((signed char)x); }

} // namespace quarter

/// out[i] = in[i] as a quarter byte with the format and scale of metadata[0]; an overflow is NaN when bit 0 of
/// fpControl (poplar::getFloatingPointControlTensor, the emulated nanoo) is set, else saturates.
template <typename T> class CastToQuarter : public Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<unsigned char>> out;
  Input<Vector<unsigned char>> metadata;
  Input<unsigned> fpControl;
  bool compute() {
    const quarter::Layout l = quarter::layoutOf(metadata[0]);
    const bool nanoo = (fpControl & 1u) != 0;
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = quarter::encode(quarter::toValue<T>(in[i]), l, nanoo);
    return true;
  }
};

/// out[i] = the value of quarter byte in[i] read with metadata[0] (rounded to half for a HALF output).
template <typename T> class CastFromQuarter : public Vertex {
public:
  Input<Vector<unsigned char>> in;
  Output<Vector<T>> out;
  Input<Vector<unsigned char>> metadata;
  bool compute() {
    const quarter::Layout l = quarter::layoutOf(metadata[0]);
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = quarter::fromValue<T>(quarter::decode(in[i], l));
    return true;
  }
};

/// out[i] = quarter byte in[i], read with inMetadata[0], re-encoded with outMetadata[0] (rounded to nearest even,
/// overflowing as CastToQuarter does under fpControl; NaN stays NaN).
class CastQuarterToQuarter : public Vertex {
public:
  Input<Vector<unsigned char>> in;
  Output<Vector<unsigned char>> out;
  Input<Vector<unsigned char>> inMetadata;
  Input<Vector<unsigned char>> outMetadata;
  Input<unsigned> fpControl;
  bool compute() {
    const quarter::Layout li = quarter::layoutOf(inMetadata[0]), lo = quarter::layoutOf(outMetadata[0]);
    const bool nanoo = (fpControl & 1u) != 0;
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = quarter::encode(quarter::decode(in[i], li), lo, nanoo);
    return true;
  }
};

template struct VertexInstances<CastToQuarter<float>, CastToQuarter<half>, CastToQuarter<char>,
                                CastToQuarter<signed char>, CastToQuarter<unsigned char>, CastFromQuarter<float>,
                                CastFromQuarter<half>, CastFromQuarter<char>, CastFromQuarter<signed char>,
                                CastFromQuarter<unsigned char>>;

} // namespace popops
