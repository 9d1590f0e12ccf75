// A JSON-compatible value (map, vector, string, number, bool) holding the graph and execution profiles, and the
// functions that write one as JSON or CBOR (RFC 8949).
#ifndef POPLAR_PROFILEVALUE_HPP
#define POPLAR_PROFILEVALUE_HPP

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "poplar/detail/StandardHeaders.hpp"
#include "poplar/detail/PoplarError.hpp"

namespace poplar {

/// A profile value was read as the wrong type, a key or index is missing, or a serialised profile is malformed.
struct profiling_error : poplar_error {
  explicit profiling_error(const std::string &s) : poplar_error(s) { type = "profiling_error"; }
};

/// One node of a profile: a string, a number, a bool, a vector of values or a map from strings to values.
/// Numbers keep whether they were given as an unsigned integer, a signed integer or a double, so that JSON and CBOR
/// write integers exactly; the as*() accessors convert between the three.
class ProfileValue {
public:
  /// BOOLEAN rather than BOOL: poplar::BOOL is the boolean element Type.
  enum class Type { STRING, VECTOR, MAP, NUMBER, BOOLEAN };
  typedef std::string String;
  typedef std::vector<ProfileValue> Vector;
  typedef std::map<std::string, ProfileValue> Map;
  typedef bool Boolean;
  typedef double Number;
  /// Raw storage sized and aligned for any one kind of value (Boolean, Number, String, Vector or Map), the layout
  /// type the SDK names for a value's payload: a program may place any of the five in it. This ProfileValue keeps
  /// one member per kind instead, so that numbers stay exact integers when they were given as integers.
  struct Storage {
    std::aligned_union<1, Boolean, Number, String, Vector, Map>::type buffer;
  };

  /// An empty map (what an empty profile is).
  ProfileValue();
  ProfileValue(const String &s);
  ProfileValue(const char *s);
  ProfileValue(const Vector &v);
  ProfileValue(const Map &m);
  ProfileValue(bool b);
  ProfileValue(double d);
  ProfileValue(float f);
  ProfileValue(int i);
  ProfileValue(long i);
  ProfileValue(long long i);
  ProfileValue(unsigned i);
  ProfileValue(unsigned long i);
  ProfileValue(unsigned long long i);

  Type type() const { return type_; }
  bool isString() const { return type_ == Type::STRING; }
  bool isVector() const { return type_ == Type::VECTOR; }
  bool isMap() const { return type_ == Type::MAP; }
  bool isNumber() const { return type_ == Type::NUMBER; }
  bool isBool() const { return type_ == Type::BOOLEAN; }
  /// True for a number given as an integer (asUInt/asInt are exact).
  bool isInteger() const { return type_ == Type::NUMBER && kind_ != DOUBLE; }

  /// The value as the named type; throws poplar::profiling_error (naming the actual type) when it is another.
  const String &asString() const;
  const Vector &asVector() const;
  const Map &asMap() const;
  Vector &asVector();
  Map &asMap();
  bool asBool() const;
  double asDouble() const;
  /// A number as an integer; throws profiling_error for a negative value (asUInt) or a double with a fraction.
  std::uint64_t asUInt() const;
  std::int64_t asInt() const;
  /// The SDK's spelling of asUInt.
  std::uint64_t asUint() const { return asUInt(); }
  /// The numbers of a vector as unsigned integers (each as asUInt converts it).
  std::vector<std::uint64_t> toUintVector() const;

  /// Elements of a vector, entries of a map, characters of a string; throws for a number or bool.
  std::size_t size() const;
  /// The entry `key` of a map; throws profiling_error naming the key and the keys present when it is missing.
  const ProfileValue &operator[](const std::string &key) const;
  const ProfileValue &operator[](const char *key) const { return (*this)[std::string(key)]; }
  /// Element `i` of a vector; throws profiling_error when out of range.
  const ProfileValue &operator[](std::size_t i) const;
  const ProfileValue &operator[](int i) const { return (*this)[std::size_t(i)]; }
  const ProfileValue &operator[](unsigned i) const { return (*this)[std::size_t(i)]; }
  /// Inserts `key` into a map (turning an empty value into a map) and returns its value.
  ProfileValue &operator[](const std::string &key);
  ProfileValue &operator[](const char *key) { return (*this)[std::string(key)]; }
  /// True when a map holds `key`.
  bool contains(const std::string &key) const;
  /// The entry `key` of a map, or a null pointer when the map has no such entry (or this is not a map).
  const ProfileValue *getOrNull(const std::string &key) const;

  /// Sum of the numbers of a vector, recursively through nested vectors (a number sums to itself).
  std::uint64_t sumUInt() const;
  std::int64_t sumInt() const;
  double sumDouble() const;
  /// The SDK's spellings: sumUint as sumUInt; sum2DUint and sum2DInt sum a vector of vectors (a profile's
  /// per-step, per-tile figures) over both dimensions, which the recursive sums already do.
  std::uint64_t sumUint() const { return sumUInt(); }
  std::uint64_t sum2DUint() const { return sumUInt(); }
  std::int64_t sum2DInt() const { return sumInt(); }

  bool operator==(const ProfileValue &other) const;
  bool operator!=(const ProfileValue &other) const { return !(*this == other); }

private:
  enum NumberKind { UINT, INT, DOUBLE };
  Type type_;
  NumberKind kind_ = UINT;
  std::uint64_t u_ = 0;
  std::int64_t i_ = 0;
  double d_ = 0;
  bool b_ = false;
  String s_;
  Vector v_;
  Map m_;
};

/// Writes `value` as JSON; `prettyPrint` indents nested values by two spaces per level.
void serializeToJSON(std::ostream &out, const ProfileValue &value, bool prettyPrint = false);
/// Writes `value` as CBOR (RFC 8949): maps with text keys, arrays, text strings, unsigned and negative integers,
/// doubles (IEEE 754 binary64), true and false.
void serializeToCBOR(std::ostream &out, const ProfileValue &value);
/// Reads a JSON document written by serializeToJSON (or any JSON nested at most 512 levels deep); throws
/// profiling_error with the offset of the first character it cannot read.
ProfileValue parseProfileJSON(const std::string &text);
/// Reads a CBOR document of the kinds serializeToCBOR writes (nested at most 512 levels deep); throws
/// profiling_error on anything else.
ProfileValue parseProfileCBOR(const std::string &bytes);

} // namespace poplar

#endif // POPLAR_PROFILEVALUE_HPP
