// TypeTraits: what the SDK's templates need to know of a host element type (and, from Type.hpp,
// equivalent_device_type: the Poplar Type with the same representation as a host type).
#ifndef POPLAR_TYPE_TRAITS_HPP
#define POPLAR_TYPE_TRAITS_HPP

#include <cstddef>
#include <type_traits>

#include "poplar/Type.hpp"

namespace poplar {

/// The size, alignment and kind of a host type whose values Poplar copies as plain bytes.
struct TypeTraits {
  std::size_t size;  ///< sizeof(T)
  std::size_t align; ///< alignof(T)
  bool isIntegral;   ///< an integer type (bool and the character types included)
  bool isFloat;      ///< a floating-point type
  bool isSigned;     ///< a signed integer or a floating-point type

  TypeTraits() : size(0), align(0), isIntegral(false), isFloat(false), isSigned(false) {}

  /// Whether T is a type Poplar copies as plain bytes and converts to device types: the arithmetic types.
  template <typename T> static constexpr bool isSimpleType() { return std::is_arithmetic<T>::value; }

  /// Whether host type T needs metadata (a format and scale) to be copied to the device, as the SDK's host quarter
  /// type does. No host type here needs it (QUARTER data moves as bytes with a QuarterMetadata, see Quarter.hpp).
  template <typename T> static constexpr bool requiresMetadata() { return false; }

  /// The traits of simple type T (isSimpleType<T>(); any other type does not compile).
  template <typename T> static TypeTraits make() {
    static_assert(std::is_arithmetic<T>::value, "poplar::TypeTraits::make: T must be an arithmetic type");
    TypeTraits t;
    t.size = sizeof(T);
    t.align = alignof(T);
    t.isIntegral = std::is_integral<T>::value;
    t.isFloat = std::is_floating_point<T>::value;
    t.isSigned = std::is_signed<T>::value;
    return t;
  }
};

// equivalent_device_type<T>().value, the device Type with host type T's representation, is declared in
// poplar/Type.hpp (included above) so that every program that names a Type has it.

} // namespace poplar

// The host half type and its traits (TypeTraits::make<IeeeHalf>()), as the SDK's TypeTraits.hpp provides them.
#include "poplar/IeeeHalf.hpp"

#endif
