// String key/value options for the engine and targets, also read from POPLAR_ENGINE_OPTIONS (JSON).
#ifndef POPLAR_OPTION_FLAGS_HPP
#define POPLAR_OPTION_FLAGS_HPP

#include <initializer_list>
#include <istream>
#include <ostream>
#include <map>
#include <string>
#include <utility>

#include "poplar/ProfileValue.hpp"
#include "poplar/StringRef.hpp"
#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

/// A set of option names and string values ("debug.instrument": "true").
class OptionFlags {
public:
  /// One option as iteration yields it: (name, value).
  typedef std::pair<const std::string, std::string> OptionFlag;
  typedef std::map<std::string, std::string>::const_iterator iterator;

  OptionFlags() {}
  /// The given options.
  OptionFlags(std::initializer_list<OptionFlag> init);
  /// Sets one option (replacing an earlier value).
  void set(const std::string &option, const std::string &value);
  /// Sets several options.
  void set(std::initializer_list<OptionFlag> options);
  /// The value of `option`; throws poplar::invalid_option naming the options that are set when it is not.
  const std::string &at(const std::string &option) const;
  /// True when `option` is set.
  bool contains(const std::string &option) const;
  /// The value of `option`, or a null pointer when it is not set (valid until the flags change).
  const std::string *find(const std::string &option) const;
  /// Removes `option` if set.
  void remove(const std::string &option);
  /// Removes every option.
  void clear();
  /// Iteration over the options in name order; each is an OptionFlag (`for (const auto &o : flags) o.first...`).
  iterator begin() const { return values_.begin(); }
  iterator end() const { return values_.end(); }
  /// Number of options set.
  std::size_t size() const { return values_.size(); }
  bool operator==(const OptionFlags &o) const { return values_ == o.values_; }
  bool operator!=(const OptionFlags &o) const { return values_ != o.values_; }

private:
  std::map<std::string, std::string> values_;
};

/// Reads a flat JSON object of options ({"a": "x", "b": true, "c": 3}) into `flags`; the text is UTF-8, as JSON
/// requires. Throws poplar::invalid_option naming the position of a syntax error.
void readJSON(std::istream &is, OptionFlags &flags);
/// Reads a JSON object from a string (as POPLAR_ENGINE_OPTIONS holds it).
void readJSON(const std::string &text, OptionFlags &flags);
/// Writes the options as a JSON object (`{"a": "x"}`) that readJSON reads back.
std::ostream &operator<<(std::ostream &os, const OptionFlags &flags);
/// Reads the JSON object held by environment variable `envVarName` into `flags`, as readJSON does (the variable's
/// options replace those already set); an unset or empty variable leaves `flags` as they are. Throws
/// poplar::invalid_option naming the variable when its text is not a flat JSON object of options.
void readJSONFromEnv(StringRef envVarName, OptionFlags &flags);
/// The options as a ProfileValue map from each name to its value (a string), e.g. to store them in a report.
ProfileValue getAsProfileValue(const OptionFlags &flags);

} // namespace poplar

#endif // POPLAR_OPTION_FLAGS_HPP
