// Host <-> device conversions of element values (poplar/TypeConversion.hpp) and QuarterMetadata
// (poplar/Quarter.hpp).
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "poplar/TypeConversion.hpp"
#include "poplar/exceptions.hpp"
#include "half.hpp"

namespace poplar {

// --- QuarterMetadata --------------------------------------------------------------------------------------------

QuarterMetadata::QuarterMetadata(Format format, std::int8_t scale) : format_(format), scale_(scale) {
  if (format != Format::F143 && format != Format::F152)
    throw poplar_error("QuarterMetadata: the format must be F143 or F152");
  if (scale < -32 || scale > 31)
    throw poplar_error("QuarterMetadata: scale " + std::to_string(int(scale)) +
                       " is outside [-32, 31]; the device's metadata byte holds 6 bits of scale");
}

std::uint8_t QuarterMetadata::getBinary() const {
  return std::uint8_t((format_ == Format::F152 ? 0x80u : 0u) | (std::uint8_t(scale_) & 0x3fu));
}

QuarterMetadata QuarterMetadata::fromBinary(std::uint8_t binary) {
  const int raw = binary & 0x3f;
  return QuarterMetadata(binary & 0x80 ? Format::F152 : Format::F143, std::int8_t(raw >= 32 ? raw - 64 : raw));
}

std::string toString(QuarterMetadata::Format format) {
  return format == QuarterMetadata::Format::F152 ? "F152" : "F143";
}

std::string QuarterMetadata::toString() const {
  return poplar::toString(format_) + " scale " + std::to_string(int(scale_));
}

std::ostream &operator<<(std::ostream &os, const QuarterMetadata &md) { return os << md.toString(); }

namespace {

// --- 8-bit floats -----------------------------------------------------------------------------------------------
// Both formats have no infinities and no negative zero: 0x80 is the one NaN, which infinities also become. A finite
// value that rounds beyond the largest one overflows: to NaN in NaN-on-overflow mode, else to the largest value of
// its sign (saturation), as the device's conversions do under the floating-point control's nanoo bit.

struct Fp8Layout {
  int mantissaBits, bias;
};

Fp8Layout layoutOf(QuarterMetadata::Format f) {
  return f == QuarterMetadata::Format::F152 ? Fp8Layout{2, 16} : Fp8Layout{3, 8};
}

std::uint8_t encodeQuarter(double host, const QuarterMetadata &md, bool nanoo) {
  if (std::isnan(host) || std::isinf(host))
    return 0x80;
  const Fp8Layout l = layoutOf(md.getFormat());
  const int expBits = 7 - l.mantissaBits, maxExp = (1 << expBits) - 1;
  const double x = std::ldexp(host, -md.getScale());
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(x);
  const std::uint8_t largest = std::uint8_t((maxExp << l.mantissaBits) | ((1 << l.mantissaBits) - 1));
  const double maxValue = std::ldexp(2.0 - std::ldexp(1.0, -l.mantissaBits), maxExp - l.bias);
  // Round to nearest: only from half a unit in the last place above the largest value does a value overflow.
  const double overflowAt = maxValue + std::ldexp(1.0, maxExp - l.bias - l.mantissaBits - 1);
  std::uint8_t code;
  if (a >= overflowAt && nanoo) {
    return 0x80;
  } else if (a >= maxValue) {
    code = largest;
  } else {
    int e = std::ilogb(a);
    if (a == 0 || e < 1 - l.bias) {
      // Subnormal (or zero): the mantissa counts units of 2^(1 - bias - mantissaBits); rounding up to 2^M is the
      // smallest normal, which the same code expresses.
      code = std::uint8_t(std::nearbyint(std::ldexp(a, l.bias - 1 + l.mantissaBits)));
    } else {
      double m = std::nearbyint((std::ldexp(a, -e) - 1.0) * (1 << l.mantissaBits));
      if (m >= (1 << l.mantissaBits)) {
        m = 0;
        ++e;
      }
      code = e + l.bias > maxExp ? largest : std::uint8_t(((e + l.bias) << l.mantissaBits) | int(m));
    }
  }
  return code == 0 ? 0 : std::uint8_t(code | sign);
}

double decodeQuarter(std::uint8_t q, const QuarterMetadata &md) {
  if (q == 0x80)
    return std::numeric_limits<double>::quiet_NaN();
  const Fp8Layout l = layoutOf(md.getFormat());
  const int e = (q & 0x7f) >> l.mantissaBits, m = q & ((1 << l.mantissaBits) - 1);
  const double mag = e == 0 ? std::ldexp(double(m), 1 - l.bias - l.mantissaBits)
                            : std::ldexp(1.0 + std::ldexp(double(m), -l.mantissaBits), e - l.bias);
  return std::ldexp(q & 0x80 ? -mag : mag, md.getScale());
}

// --- element loops ----------------------------------------------------------------------------------------------

template <typename D, typename T> void store(const ArrayRef<T> &src, void *dst) {
  auto *out = static_cast<std::uint8_t *>(dst);
  for (std::size_t i = 0; i < src.size(); ++i) {
    const D v = static_cast<D>(src[i]);
    std::memcpy(out + i * sizeof(D), &v, sizeof(D));
  }
}

template <typename D, typename T> void load(const void *src, const ArrayRef<T> &dst) {
  const auto *in = static_cast<const std::uint8_t *>(src);
  T *out = const_cast<T *>(dst.data()); // the caller's writable buffer (see the header)
  for (std::size_t i = 0; i < dst.size(); ++i) {
    D v;
    std::memcpy(&v, in + i * sizeof(D), sizeof(D));
    out[i] = static_cast<T>(v);
  }
}

[[noreturn]] void unsupported(const Type &t, const char *what) {
  throw poplar_error(std::string(what) + ": type " + t.toString() +
                     " has no host conversion; use HALF, QUARTER (with QuarterMetadata), FLOAT, BOOL or an integer "
                     "type");
}

template <typename T>
void toDevice(const Type &t, const QuarterMetadata *md, ArrayRef<T> src, void *dst, bool nanoo = false) {
  if (t == HALF) {
    auto *out = static_cast<std::uint8_t *>(dst);
    for (std::size_t i = 0; i < src.size(); ++i) {
      const std::uint16_t h = detail::doubleToHalf(double(src[i])); // exact for every source type
      std::memcpy(out + 2 * i, &h, 2);
    }
  } else if (t == QUARTER) {
    if (!md)
      throw poplar_error("convertToDeviceType: QUARTER needs its QuarterMetadata; pass it as the second argument");
    auto *out = static_cast<std::uint8_t *>(dst);
    for (std::size_t i = 0; i < src.size(); ++i)
      out[i] = encodeQuarter(double(src[i]), *md, nanoo);
  } else if (t == FLOAT) store<float>(src, dst);
  else if (t == INT) store<int>(src, dst);
  else if (t == UNSIGNED_INT) store<unsigned>(src, dst);
  else if (t == SHORT) store<short>(src, dst);
  else if (t == UNSIGNED_SHORT) store<unsigned short>(src, dst);
  else if (t == CHAR || t == SIGNED_CHAR) store<signed char>(src, dst);
  else if (t == UNSIGNED_CHAR) store<unsigned char>(src, dst);
  else if (t == BOOL) store<bool>(src, dst);
  else if (t == LONGLONG || t == LONG) store<long long>(src, dst);
  else if (t == UNSIGNED_LONGLONG || t == UNSIGNED_LONG) store<unsigned long long>(src, dst);
  else unsupported(t, "convertToDeviceType");
}

template <typename T>
void fromDevice(const Type &t, const QuarterMetadata *md, const void *src, ArrayRef<T> dst) {
  T *out = const_cast<T *>(dst.data());
  if (t == HALF) {
    const auto *in = static_cast<const std::uint8_t *>(src);
    for (std::size_t i = 0; i < dst.size(); ++i) {
      std::uint16_t h;
      std::memcpy(&h, in + 2 * i, 2);
      out[i] = static_cast<T>(detail::halfToFloat(h));
    }
  } else if (t == QUARTER) {
    if (!md)
      throw poplar_error("convertFromDeviceType: QUARTER needs its QuarterMetadata; pass it as the second argument");
    const auto *in = static_cast<const std::uint8_t *>(src);
    for (std::size_t i = 0; i < dst.size(); ++i)
      out[i] = static_cast<T>(decodeQuarter(in[i], *md));
  } else if (t == FLOAT) load<float>(src, dst);
  else if (t == INT) load<int>(src, dst);
  else if (t == UNSIGNED_INT) load<unsigned>(src, dst);
  else if (t == SHORT) load<short>(src, dst);
  else if (t == UNSIGNED_SHORT) load<unsigned short>(src, dst);
  else if (t == CHAR || t == SIGNED_CHAR) load<signed char>(src, dst);
  else if (t == UNSIGNED_CHAR) load<unsigned char>(src, dst);
  else if (t == BOOL) load<bool>(src, dst);
  else if (t == LONGLONG || t == LONG) load<long long>(src, dst);
  else if (t == UNSIGNED_LONGLONG || t == UNSIGNED_LONG) load<unsigned long long>(src, dst);
  else unsupported(t, "convertFromDeviceType");
}

} // namespace

template <typename T> void convertToDeviceType(Type t, ArrayRef<T> src, void *dst) { toDevice(t, nullptr, src, dst); }
template <typename T> void convertToDeviceType(Type t, const QuarterMetadata &md, ArrayRef<T> src, void *dst) {
  toDevice(t, &md, src, dst);
}
template <typename T>
void convertToDeviceType(Type t, const QuarterMetadata &md, ArrayRef<T> src, void *dst, bool enableNanooMode) {
  toDevice(t, &md, src, dst, enableNanooMode);
}
template <typename T> void convertFromDeviceType(Type t, const void *src, ArrayRef<T> dst) {
  fromDevice(t, nullptr, src, dst);
}
template <typename T> void convertFromDeviceType(Type t, const QuarterMetadata &md, const void *src, ArrayRef<T> dst) {
  fromDevice(t, &md, src, dst);
}

#define POPLAR_CONVERSIONS(T)                                                                                      \
  template void convertToDeviceType<T>(Type, ArrayRef<T>, void *);                                                 \
  template void convertToDeviceType<T>(Type, const QuarterMetadata &, ArrayRef<T>, void *);                        \
  template void convertToDeviceType<T>(Type, const QuarterMetadata &, ArrayRef<T>, void *, bool);                  \
  template void convertFromDeviceType<T>(Type, const void *, ArrayRef<T>);                                         \
  template void convertFromDeviceType<T>(Type, const QuarterMetadata &, const void *, ArrayRef<T>);
POPLAR_CONVERSIONS(float)
POPLAR_CONVERSIONS(double)
POPLAR_CONVERSIONS(bool)
POPLAR_CONVERSIONS(char)
POPLAR_CONVERSIONS(signed char)
POPLAR_CONVERSIONS(unsigned char)
POPLAR_CONVERSIONS(short)
POPLAR_CONVERSIONS(unsigned short)
POPLAR_CONVERSIONS(int)
POPLAR_CONVERSIONS(unsigned)
POPLAR_CONVERSIONS(long)
POPLAR_CONVERSIONS(unsigned long)
POPLAR_CONVERSIONS(long long)
POPLAR_CONVERSIONS(unsigned long long)
#undef POPLAR_CONVERSIONS

} // namespace poplar
