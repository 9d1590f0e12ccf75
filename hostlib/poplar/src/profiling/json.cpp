// ProfileValue as JSON: the writer (compact or indented) and a reader for report files.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "json_string.hpp"
#include "profile_limits.hpp"
#include "poplar/ProfileValue.hpp"

namespace poplar {

namespace {

void writeString(std::ostream &out, const std::string &s) { detail::writeJsonString(out, s); }

void writeNumber(std::ostream &out, const ProfileValue &v) {
  if (v.isInteger()) {
    if (v.asDouble() < 0)
      out << v.asInt();
    else
      out << v.asUInt();
    return;
  }
  double d = v.asDouble();
  if (!std::isfinite(d)) { // JSON has no infinities or NaN
    out << "null";
    return;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0"; // stays a double when read back
  out << s;
}

void write(std::ostream &out, const ProfileValue &v, bool pretty, unsigned depth) {
  std::string nl = pretty ? "\n" + std::string(2 * (depth + 1), ' ') : "";
  std::string close = pretty ? "\n" + std::string(2 * depth, ' ') : "";
  switch (v.type()) {
  case ProfileValue::Type::STRING:
    writeString(out, v.asString());
    break;
  case ProfileValue::Type::BOOLEAN:
    out << (v.asBool() ? "true" : "false");
    break;
  case ProfileValue::Type::NUMBER:
    writeNumber(out, v);
    break;
  case ProfileValue::Type::VECTOR: {
    const auto &vec = v.asVector();
    // Vectors of numbers stay on one line: per-tile arrays would otherwise take a line per tile.
    bool flat = true;
    for (const auto &e : vec)
      flat = flat && e.isNumber();
    out << '[';
    for (std::size_t i = 0; i < vec.size(); ++i) {
      out << (i ? "," : "") << (flat ? (pretty && i ? " " : "") : nl);
      write(out, vec[i], pretty, depth + 1);
    }
    out << (flat || vec.empty() ? "" : close) << ']';
    break;
  }
  case ProfileValue::Type::MAP: {
    const auto &m = v.asMap();
    out << '{';
    bool first = true;
    for (const auto &kv : m) {
      out << (first ? "" : ",") << nl;
      first = false;
      writeString(out, kv.first);
      out << (pretty ? ": " : ":");
      write(out, kv.second, pretty, depth + 1);
    }
    out << (m.empty() ? "" : close) << '}';
    break;
  }
  }
}

class Reader {
public:
  explicit Reader(const std::string &t) : t_(t) {}
  ProfileValue document() {
    ProfileValue v = value();
    skip();
    if (p_ != t_.size())
      fail("text after the end of the document");
    return v;
  }

private:
  const std::string &t_;
  std::size_t p_ = 0;
  unsigned depth_ = 0;

  [[noreturn]] void fail(const std::string &what) const {
    throw profiling_error("parseProfileJSON: " + what + " at offset " + std::to_string(p_));
  }
  void skip() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\t' || t_[p_] == '\r'))
      ++p_;
  }
  bool take(char c) {
    skip();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c))
      fail(std::string("expected '") + c + "'");
  }
  bool word(const char *w) {
    std::string s(w);
    if (t_.compare(p_, s.size(), s) == 0) {
      p_ += s.size();
      return true;
    }
    return false;
  }
  std::string string() {
    skip();
    std::string s;
    std::string problem = detail::readJsonString(t_, p_, s);
    if (!problem.empty())
      fail(problem);
    return s;
  }
  ProfileValue number() {
    std::size_t start = p_;
    bool isDouble = false;
    while (p_ < t_.size() && std::string("+-0123456789.eE").find(t_[p_]) != std::string::npos) {
      isDouble = isDouble || t_[p_] == '.' || t_[p_] == 'e' || t_[p_] == 'E';
      ++p_;
    }
    std::string s = t_.substr(start, p_ - start);
    if (s.empty() || s == "-")
      fail("expected a value");
    // Out of range is an error, not the nearest value: 2^64 read as 2^64-1 would be shown as a count.
    errno = 0;
    char *end = nullptr;
    ProfileValue v;
    if (isDouble)
      v = ProfileValue(std::strtod(s.c_str(), &end));
    else if (s[0] == '-')
      v = ProfileValue((long long)std::strtoll(s.c_str(), &end, 10));
    else
      v = ProfileValue((unsigned long long)std::strtoull(s.c_str(), &end, 10));
    if (!end || *end) {
      p_ = start;
      fail("'" + s + "' is not a number");
    }
    if (errno == ERANGE && !(isDouble && !std::isinf(v.asDouble()))) { // a double's underflow is kept (0, denormal)
      p_ = start;
      fail("the number " + s + " is out of range (" + (isDouble ? "a double" : "a 64-bit integer") + ")");
    }
    return v;
  }
  ProfileValue value() {
    skip();
    if (p_ >= t_.size())
      fail("unexpected end of the document");
    char c = t_[p_];
    if (c == '{' || c == '[')
      return nested(c);
    if (c == '"')
      return ProfileValue(string());
    if (word("true"))
      return ProfileValue(true);
    if (word("false"))
      return ProfileValue(false);
    if (word("null"))
      return ProfileValue(std::nan(""));
    return number();
  }
  /// An object or array: the reader recurses, so the nesting is bounded (a crafted file would exhaust the stack).
  ProfileValue nested(char c) {
    if (++depth_ > kProfileMaxDepth)
      fail("arrays and objects nested deeper than " + std::to_string(kProfileMaxDepth) +
           " levels (a profile nests a few; the file is corrupt)");
    ProfileValue v = c == '{' ? object() : array();
    --depth_;
    return v;
  }
  ProfileValue object() {
    ++p_;
    ProfileValue::Map m;
    if (take('}'))
      return ProfileValue(m);
    do {
      skip();
      std::string key = string();
      expect(':');
      m[key] = value();
    } while (take(','));
    expect('}');
    return ProfileValue(m);
  }
  ProfileValue array() {
    ++p_;
    ProfileValue::Vector v;
    if (take(']'))
      return ProfileValue(v);
    do
      v.push_back(value());
    while (take(','));
    expect(']');
    return ProfileValue(v);
  }
};

} // namespace

void serializeToJSON(std::ostream &out, const ProfileValue &value, bool prettyPrint) {
  write(out, value, prettyPrint, 0);
  if (prettyPrint)
    out << "\n";
}

ProfileValue parseProfileJSON(const std::string &text) { return Reader(text).document(); }

} // namespace poplar
