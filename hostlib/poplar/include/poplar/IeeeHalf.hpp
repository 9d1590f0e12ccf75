// poplar::IeeeHalf: a host value in IEEE binary16, the representation of a HALF element, so that a program can
// pass half data through the templates that take a host type (TypeTraits::make<IeeeHalf>()).
#ifndef POPLAR_IEEE_HALF_HPP
#define POPLAR_IEEE_HALF_HPP

#include <cstdint>

#include "poplar/TypeTraits.hpp"

namespace poplar {

/// One IEEE binary16 value held on the host (2 bytes, the bits a HALF tensor element has on the device).
/// Conversions round to nearest, ties to even, as the device's float-to-half conversion does; they are the same
/// conversions libpoplar uses for HALF tensors.
class IeeeHalf {
public:
  /// +0.0.
  IeeeHalf() : bits_(0) {}
  /// `value` rounded to the nearest binary16 (out of range: infinity of the sign; NaN stays NaN).
  explicit IeeeHalf(float value);
  /// The value as a float (exact: every binary16 value is a float).
  operator float() const;
  /// The value whose binary16 bit pattern is `bits`.
  static IeeeHalf fromBits(std::uint16_t bits) {
    IeeeHalf h;
    h.bits_ = bits;
    return h;
  }
  /// The binary16 bit pattern.
  std::uint16_t bit16() const { return bits_; }
  bool operator==(const IeeeHalf &o) const { return bits_ == o.bits_; }
  bool operator!=(const IeeeHalf &o) const { return bits_ != o.bits_; }

private:
  std::uint16_t bits_;
};

/// IeeeHalf is a simple type: copied as its 2 bytes, a signed floating-point type.
template <> constexpr bool TypeTraits::isSimpleType<IeeeHalf>() { return true; }
template <> inline TypeTraits TypeTraits::make<IeeeHalf>() {
  TypeTraits t;
  t.size = sizeof(IeeeHalf);
  t.align = alignof(IeeeHalf);
  t.isIntegral = false;
  t.isFloat = true;
  t.isSigned = true;
  return t;
}

} // namespace poplar

#endif // POPLAR_IEEE_HALF_HPP
