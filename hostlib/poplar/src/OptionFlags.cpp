// Option flags, and their JSON (POPLAR_ENGINE_OPTIONS) read with nlohmann-json.
#include "poplar/OptionFlags.hpp"

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "json_read.hpp"
#include "json_string.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

OptionFlags::OptionFlags(std::initializer_list<OptionFlag> init) { set(init); }

void OptionFlags::set(const std::string &option, const std::string &value) { values_[option] = value; }

void OptionFlags::set(std::initializer_list<OptionFlag> options) {
  for (const auto &o : options)
    values_[o.first] = o.second;
}

const std::string &OptionFlags::at(const std::string &option) const {
  auto it = values_.find(option);
  if (it == values_.end()) {
    std::string known;
    for (const auto &kv : values_)
      known += (known.empty() ? "" : ", ") + kv.first;
    throw invalid_option("option '" + option + "' is not set (set: " + (known.empty() ? "none" : known) + ")");
  }
  return it->second;
}

bool OptionFlags::contains(const std::string &option) const { return values_.count(option) != 0; }
const std::string *OptionFlags::find(const std::string &option) const {
  auto it = values_.find(option);
  return it == values_.end() ? nullptr : &it->second;
}
void OptionFlags::remove(const std::string &option) { values_.erase(option); }
void OptionFlags::clear() { values_.clear(); }

namespace {

/// The SAX handler that fills OptionFlags from nlohmann-json's parser: one flat object whose values are strings,
/// numbers, booleans or null, each kept as text (a number as written: "1.50" stays "1.50").
class FlagsReader final : public nlohmann::json_sax<nlohmann::json> {
public:
  explicit FlagsReader(OptionFlags &flags) : flags_(flags) {}

  bool null() override { return value("null"); }
  bool boolean(bool b) override { return value(b ? "true" : "false"); }
  bool number_integer(std::int64_t i) override { return value(std::to_string(i)); }
  bool number_unsigned(std::uint64_t u) override { return value(std::to_string(u)); }
  bool number_float(double, const std::string &text) override { return value(text); }
  bool string(std::string &s) override { return value(s); }
  bool binary(nlohmann::json::binary_t &) override { return value(""); } // JSON has none
  bool start_object(std::size_t) override {
    if (opened_)
      fail("expected a string, number or boolean value, not an object");
    opened_ = true;
    return true;
  }
  bool key(std::string &k) override {
    key_ = std::move(k);
    return true;
  }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override {
    fail(opened_ ? "expected a string, number or boolean value, not an array" : "expected '{'");
  }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string &lastToken, const nlohmann::detail::exception &e) override {
    fail(detail::jsonParseProblem(position, lastToken, e));
  }

private:
  OptionFlags &flags_;
  bool opened_ = false;
  std::string key_;

  bool value(const std::string &v) {
    if (!opened_)
      fail("expected '{'");
    flags_.set(key_, v);
    return true;
  }
  [[noreturn]] static void fail(const std::string &what) {
    throw invalid_option("options JSON: " + what + " (write a flat object such as {\"debug.instrument\": \"true\"})");
  }
};

} // namespace

void readJSON(const std::string &text, OptionFlags &flags) {
  FlagsReader reader(flags);
  nlohmann::json::sax_parse(text, &reader); // every refusal throws invalid_option
}

void readJSON(std::istream &is, OptionFlags &flags) {
  std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  readJSON(text, flags);
}

void readJSONFromEnv(StringRef envVarName, OptionFlags &flags) {
  const std::string name = envVarName.cloneAsString();
  if (name.empty())
    throw invalid_option("readJSONFromEnv: the environment variable's name is empty; pass the name of the variable "
                         "that holds the options (e.g. \"POPLAR_ENGINE_OPTIONS\")");
  const char *text = std::getenv(name.c_str());
  if (!text || !*text)
    return;
  try {
    readJSON(std::string(text), flags);
  } catch (const invalid_option &e) {
    throw invalid_option("readJSONFromEnv: environment variable " + name + ": " + e.what() +
                         "; set it to a JSON object of options, e.g. {\"debug.instrument\": \"true\"}");
  }
}

ProfileValue getAsProfileValue(const OptionFlags &flags) {
  ProfileValue::Map map;
  for (const auto &o : flags)
    map[o.first] = ProfileValue(o.second);
  return ProfileValue(map);
}

std::ostream &operator<<(std::ostream &os, const OptionFlags &flags) {
  os << '{';
  bool first = true;
  for (const auto &o : flags) {
    os << (first ? "" : ", ");
    detail::writeJsonString(os, o.first);
    os << ": ";
    detail::writeJsonString(os, o.second);
    first = false;
  }
  return os << '}';
}

} // namespace poplar
