// Option flags and the small JSON reader behind POPLAR_ENGINE_OPTIONS.
#include "poplar/OptionFlags.hpp"

#include <cctype>
#include <iterator>
#include <sstream>

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

/// A recursive-descent reader of one flat JSON object whose values are strings, numbers or booleans.
class JsonReader {
public:
  explicit JsonReader(const std::string &text) : s_(text) {}
  void read(OptionFlags &flags) {
    skip();
    expect('{');
    skip();
    if (peek() == '}') {
      ++pos_;
      return finish();
    }
    for (;;) {
      skip();
      std::string key = string();
      skip();
      expect(':');
      skip();
      flags.set(key, value());
      skip();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return finish();
    }
  }

private:
  void finish() {
    skip();
    if (pos_ != s_.size())
      fail("text after the closing brace");
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
  }
  void expect(char c) {
    if (peek() != c)
      fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  [[noreturn]] void fail(const std::string &what) const {
    throw invalid_option("options JSON: " + what + " at offset " + std::to_string(pos_) +
                         " (write a flat object such as {\"debug.instrument\": \"true\"})");
  }
  std::string string() {
    std::string out;
    std::string problem = detail::readJsonString(s_, pos_, out);
    if (!problem.empty())
      fail(problem);
    return out;
  }
  std::string value() {
    if (peek() == '"')
      return string();
    std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    if (start == pos_)
      fail("expected a string, number or boolean value");
    return s_.substr(start, pos_ - start);
  }
  const std::string &s_;
  std::size_t pos_ = 0;
};

} // namespace

void readJSON(const std::string &text, OptionFlags &flags) { JsonReader(text).read(flags); }

void readJSON(std::istream &is, OptionFlags &flags) {
  std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  readJSON(text, flags);
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
