// ProfileValue as JSON: the writer (compact or indented; written here because nlohmann's dump would put each
// element of a per-tile array on its own line and print doubles differently) and the reader (nlohmann's, through
// profile_reader.hpp).
#include <cmath>
#include <cstdio>

#include "json_string.hpp"
#include "profile_reader.hpp"
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

} // namespace

void serializeToJSON(std::ostream &out, const ProfileValue &value, bool prettyPrint) {
  write(out, value, prettyPrint, 0);
  if (prettyPrint)
    out << "\n";
}

ProfileValue parseProfileJSON(const std::string &text) { return detail::readProfile(text, detail::ProfileFormat::JSON); }

} // namespace poplar
