// Option flags and the small JSON reader behind POPLAR_ENGINE_OPTIONS.
#include "poplar/OptionFlags.hpp"

#include <cctype>
#include <iterator>
#include <sstream>

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
    expect('"');
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size())
        ++pos_;
      out += s_[pos_++];
    }
    expect('"');
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

static void writeJsonString(std::ostream &os, const std::string &text) {
  os << '"';
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      const char *hex = "0123456789abcdef";
      os << "\\u00" << hex[(c >> 4) & 0xf] << hex[c & 0xf];
    } else
      os << c;
  }
  os << '"';
}

std::ostream &operator<<(std::ostream &os, const OptionFlags &flags) {
  os << '{';
  bool first = true;
  for (const auto &o : flags) {
    os << (first ? "" : ", ");
    writeJsonString(os, o.first);
    os << ": ";
    writeJsonString(os, o.second);
    first = false;
  }
  return os << '}';
}

} // namespace poplar
