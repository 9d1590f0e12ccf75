// poplibs::OptionSpec and poplibs::OptionHandler: a table of option names, each with the handler that turns the
// option's text into a value and stores it, so that a library can read an OptionFlags in one loop and report a
// bad name or value as poplar::invalid_option naming both. Header-only, as in Graphcore's PopLibs. The helpers
// over std::optional need C++17; the rest is C++11.
#ifndef POPUTIL_OPTION_PARSING_HPP
#define POPUTIL_OPTION_PARSING_HPP

#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>

#if __cplusplus >= 201703L
#include <optional>
#endif

namespace poplibs {

/// Conversions of an option's text to a value; each throws poplar::invalid_option saying what was expected.
namespace parse {

/// A whole decimal integer, or hexadecimal when the text holds "0x".
template <typename T> T asInteger(const poplar::StringRef &str) {
  const std::string text = str.cloneAsString();
  std::istringstream in(text);
  T value;
  if (text.find("0x") != std::string::npos)
    in >> std::hex >> value;
  else
    in >> std::dec >> value;
  if (in.fail() || !in.eof())
    throw poplar::invalid_option("Not a valid integer");
  return value;
}

/// A floating-point number (leading text that reads as one).
template <typename T> T asFloatingPoint(const poplar::StringRef &str) {
  std::istringstream in(str.cloneAsString());
  T value;
  in >> value;
  if (in.fail())
    throw poplar::invalid_option("Not a floating point number");
  return value;
}

/// The names of an enum map as "['a', 'b']", for messages.
template <typename T> inline std::string describeEnumValues(const std::map<std::string, T> &valueMap) {
  std::string s = "[";
  for (typename std::map<std::string, T>::const_iterator it = valueMap.begin(); it != valueMap.end(); ++it)
    s += (it == valueMap.begin() ? "'" : ", '") + it->first + "'";
  return s + "]";
}

/// The value the text names in `map`.
template <typename T> T asEnum(const poplar::StringRef &value, const std::map<std::string, T> &map) {
  typename std::map<std::string, T>::const_iterator it = map.find(value.cloneAsString());
  if (it == map.end())
    throw poplar::invalid_option("Not one of the values: " + describeEnumValues(map));
  return it->second;
}

/// "true" or "false".
inline bool asBool(const poplar::StringRef &value) {
  std::map<std::string, bool> m;
  m["true"] = true;
  m["false"] = false;
  return asEnum<bool>(value, m);
}

} // namespace parse

/// What to do with one option's text: parse it and store the result where the handler was told to.
class OptionHandler {
  std::function<void(poplar::StringRef)> valueHandler;

  template <typename T> struct EnumSetter {
    T *output;
    std::map<std::string, T> map;
    void operator()(poplar::StringRef value) const { *output = parse::asEnum<T>(value, map); }
  };
  template <typename T> struct DoubleSetter {
    T *output;
    double lower, upper;
    bool lowerInclusive, upperInclusive;
    void operator()(poplar::StringRef value) const {
      const double v = parse::asFloatingPoint<double>(value);
      ensureValueIsWithinBounds(v, lower, lowerInclusive, upper, upperInclusive);
      *output = static_cast<T>(v);
    }
  };
  template <typename T> struct ListSetter {
    std::vector<T> *output;
    void operator()(poplar::StringRef values) const {
      std::istringstream in(values.cloneAsString());
      for (std::string element; std::getline(in, element, ',');)
        output->push_back(parse::asInteger<T>(element));
    }
  };

public:
  /// Any callable taking the option's text.
  template <typename T> OptionHandler(T &&handler) : valueHandler(std::forward<T>(handler)) {}
  /// Runs the handler on the text.
  void parseValue(poplar::StringRef value) const { valueHandler(value); }

  /// Stores the value `valueMap` gives the text.
  template <typename T, typename ValueMapT = std::map<std::string, T> >
  static inline OptionHandler createWithEnum(T &output, ValueMapT &&valueMap) {
    EnumSetter<T> s = {&output, std::map<std::string, T>(std::forward<ValueMapT>(valueMap))};
    return OptionHandler(s);
  }
  /// Stores an integer (read as an int).
  template <typename T> static inline OptionHandler createWithInteger(T &output) {
    T *out = &output;
    return OptionHandler([out](poplar::StringRef value) { *out = static_cast<T>(parse::asInteger<int>(value)); });
  }
  /// Stores true or false.
  template <typename T> static inline OptionHandler createWithBool(T &output) {
    std::map<std::string, T> m;
    m["true"] = static_cast<T>(true);
    m["false"] = static_cast<T>(false);
    return createWithEnum(output, m);
  }
  /// Throws poplar::invalid_option unless value lies between the bounds (each inclusive or not).
  template <typename T>
  static inline void ensureValueIsWithinBounds(T value, const T &lowerBound, bool lowerBoundIsInclusive,
                                               const T &upperBound, bool upperBoundIsInclusive) {
    if (value < lowerBound || (!lowerBoundIsInclusive && value == lowerBound))
      throw poplar::invalid_option("Value must be greater than " +
                                   std::string(lowerBoundIsInclusive ? "or equal to " : "") +
                                   std::to_string(lowerBound));
    if (value > upperBound || (!upperBoundIsInclusive && value == upperBound))
      throw poplar::invalid_option("Value must be less than " +
                                   std::string(upperBoundIsInclusive ? "or equal to " : "") +
                                   std::to_string(upperBound));
  }
  /// Stores a number within the bounds.
  template <typename T>
  static inline OptionHandler createWithDouble(T &output, double lowerBound = std::numeric_limits<double>::min(),
                                               bool lowerBoundIsInclusive = true,
                                               double upperBound = std::numeric_limits<double>::max(),
                                               bool upperBoundIsInclusive = true) {
    DoubleSetter<T> s = {&output, lowerBound, upperBound, lowerBoundIsInclusive, upperBoundIsInclusive};
    return OptionHandler(s);
  }
  /// Stores the text.
  static inline OptionHandler createWithString(std::string &output) {
    std::string *out = &output;
    return OptionHandler([out](poplar::StringRef value) { *out = value.cloneAsString(); });
  }
  /// Appends each integer of a comma-separated list (decimal, or hexadecimal with "0x").
  template <typename T> static inline OptionHandler createWithList(std::vector<T> &output) {
    ListSetter<T> s = {&output};
    return OptionHandler(s);
  }
};

/// The options a function accepts, each with its handler.
class OptionSpec {
  typedef std::pair<const std::string, OptionHandler> value_type;
  typedef std::map<const std::string, OptionHandler> map_type;
  typedef std::initializer_list<value_type> initializer_list_t;
  map_type handlers;

public:
  OptionSpec(initializer_list_t &&h) : handlers(h) {}

  /// Parses one option: an unknown name throws poplar::invalid_option (unless ignoreUnknown), and so does a bad
  /// value, naming the option, the value and what was wrong.
  void parse(poplar::StringRef option, poplar::StringRef value, bool ignoreUnknown = false) const {
    map_type::const_iterator it = handlers.find(option.cloneAsString());
    if (it == handlers.end()) {
      if (ignoreUnknown)
        return;
      throw poplar::invalid_option("Unrecognised option '" + option.cloneAsString() + "'");
    }
    try {
      it->second.parseValue(value);
    } catch (const poplar::invalid_option &e) {
      throw poplar::invalid_option("Invalid value '" + value.cloneAsString() + "' for option '" +
                                   option.cloneAsString() + "': " + e.what());
    }
  }
};

#if __cplusplus >= 201703L
/// Stores a number within the bounds in an optional.
template <typename T>
inline OptionHandler createOptionalDoubleHandler(std::optional<T> &output,
                                                 double lowerBound = std::numeric_limits<double>::min(),
                                                 bool lowerBoundIsInclusive = true,
                                                 double upperBound = std::numeric_limits<double>::max(),
                                                 bool upperBoundIsInclusive = true) {
  return OptionHandler([&output, lowerBound, lowerBoundIsInclusive, upperBound,
                        upperBoundIsInclusive](poplar::StringRef value) {
    const double v = parse::asFloatingPoint<double>(value);
    OptionHandler::ensureValueIsWithinBounds(v, lowerBound, lowerBoundIsInclusive, upperBound, upperBoundIsInclusive);
    output = static_cast<T>(v);
  });
}

/// Stores the value `valueMap` gives the text in an optional; "none" empties it.
template <typename T, typename ValueMapT = std::map<std::string, T> >
inline OptionHandler createOptionalEnumHandler(std::optional<T> &output, ValueMapT &&valueMap) {
  return OptionHandler([&output, map = std::map<std::string, T>(std::forward<ValueMapT>(valueMap))](
                           poplar::StringRef value) {
    if (value == "none") {
      output = std::nullopt;
      return;
    }
    output = parse::asEnum<T>(value, map);
  });
}
#endif

} // namespace poplibs

#endif // POPUTIL_OPTION_PARSING_HPP
