// Element types of tensors (FLOAT, HALF, INT, ...), with their size and name.
#ifndef POPLAR_TYPE_HPP
#define POPLAR_TYPE_HPP

#include <cstddef>
#include <ostream>
#include <string>

#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

/// An element type. The values are the contract's DTYPE codes (docs/hardware.md), so the graph compiler can
/// pass them straight to the tile runtime.
class Type {
public:
  /// An invalid type (use one of the constants below).
  Type() : id_(~0u) {}
  /// The type with DTYPE code `id`; prefer the named constants.
  explicit Type(unsigned id) : id_(id) {}
  /// The DTYPE code.
  unsigned id() const { return id_; }
  /// Bytes per element on the device (HALF is 2, BOOL is 1).
  std::size_t getSize() const;
  /// The Poplar name: "float", "half", "int", "unsigned int", "short", "unsigned short", "char",
  /// "unsigned char", "bool", "signed char", "long", "unsigned long", "long long", "unsigned long long",
  /// "quarter", "quarter_metadata".
  std::string toString() const;
  /// True for FLOAT, HALF and QUARTER.
  bool isFloatingPoint() const;
  /// True when the type is one of the named constants.
  bool isValid() const;
  /// A hash of the type, equal for equal types (for unordered containers).
  std::size_t hash() const { return std::size_t(id_) * 0x9e3779b97f4a7c15ull; }
  /// Whether tensors of this type carry metadata (QUARTER: the fp8 format and scale, see QUARTER_METADATA).
  bool requiresMetadata() const;
  bool operator==(const Type &o) const { return id_ == o.id_; }
  bool operator!=(const Type &o) const { return id_ != o.id_; }
  bool operator<(const Type &o) const { return id_ < o.id_; }

private:
  unsigned id_;
};

extern const Type FLOAT;          ///< IEEE binary32
extern const Type HALF;           ///< IEEE binary16
extern const Type INT;            ///< int32_t
extern const Type UNSIGNED_INT;   ///< uint32_t
extern const Type SHORT;          ///< int16_t
extern const Type UNSIGNED_SHORT; ///< uint16_t
extern const Type CHAR;           ///< int8_t
extern const Type UNSIGNED_CHAR;  ///< uint8_t
extern const Type BOOL;           ///< bool, one byte
extern const Type SIGNED_CHAR;    ///< signed char: int8_t, a type of its own (CHAR is char)
/// long: 8 bytes, as the host's (a codelet takes it as long long: the tiles' long is 4 bytes)
extern const Type LONG;
extern const Type UNSIGNED_LONG;  ///< unsigned long: 8 bytes (as LONG)
extern const Type LONGLONG;       ///< long long: int64_t (a codelet field of long long takes it)
extern const Type UNSIGNED_LONGLONG; ///< unsigned long long: uint64_t (as LONGLONG)
/// The 8-bit float of IPU21 (with QUARTER_METADATA, its scale and format). Tensors of it can be created, mapped,
/// copied and moved to and from the host; vertices, PrintTensor and constants of it are refused with an error that
/// says so (the emulated tiles have no fp8 arithmetic).
extern const Type QUARTER;
extern const Type QUARTER_METADATA; ///< the metadata (format and scale) of QUARTER data, one byte

/// The type named like Type::toString() ("float", "int", ...); throws poplar_error for an unknown name.
Type typeFromString(const std::string &name);

/// Prints Type::toString().
std::ostream &operator<<(std::ostream &os, const Type &t);

/// Maps a C++ type to its poplar Type (equivalent_device_type<float>().value == FLOAT).
template <typename T> struct equivalent_device_type;
template <> struct equivalent_device_type<float> { const Type &value = FLOAT; };
template <> struct equivalent_device_type<int> { const Type &value = INT; };
template <> struct equivalent_device_type<unsigned> { const Type &value = UNSIGNED_INT; };
template <> struct equivalent_device_type<short> { const Type &value = SHORT; };
template <> struct equivalent_device_type<unsigned short> { const Type &value = UNSIGNED_SHORT; };
template <> struct equivalent_device_type<signed char> { const Type &value = SIGNED_CHAR; };
template <> struct equivalent_device_type<long> { const Type &value = LONG; };
template <> struct equivalent_device_type<unsigned long> { const Type &value = UNSIGNED_LONG; };
template <> struct equivalent_device_type<long long> { const Type &value = LONGLONG; };
template <> struct equivalent_device_type<unsigned long long> { const Type &value = UNSIGNED_LONGLONG; };
template <> struct equivalent_device_type<char> { const Type &value = CHAR; };
template <> struct equivalent_device_type<unsigned char> { const Type &value = UNSIGNED_CHAR; };
template <> struct equivalent_device_type<bool> { const Type &value = BOOL; };

} // namespace poplar

#endif // POPLAR_TYPE_HPP
