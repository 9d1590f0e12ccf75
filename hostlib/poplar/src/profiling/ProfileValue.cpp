// poplar::ProfileValue: construction, typed access and sums.
#include "poplar/ProfileValue.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace poplar {

namespace {

const char *typeName(ProfileValue::Type t) {
  switch (t) {
  case ProfileValue::Type::STRING:
    return "a string";
  case ProfileValue::Type::VECTOR:
    return "a vector";
  case ProfileValue::Type::MAP:
    return "a map";
  case ProfileValue::Type::NUMBER:
    return "a number";
  case ProfileValue::Type::BOOLEAN:
    return "a bool";
  }
  return "?";
}

std::string shortText(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

[[noreturn]] void wrongType(ProfileValue::Type actual, const char *wanted) {
  throw profiling_error(std::string("ProfileValue: asked for ") + wanted + " but the value is " + typeName(actual));
}

} // namespace

ProfileValue::ProfileValue() : type_(Type::MAP) {}
ProfileValue::ProfileValue(const String &s) : type_(Type::STRING), s_(s) {}
ProfileValue::ProfileValue(const char *s) : type_(Type::STRING), s_(s) {}
ProfileValue::ProfileValue(const Vector &v) : type_(Type::VECTOR), v_(v) {}
ProfileValue::ProfileValue(const Map &m) : type_(Type::MAP), m_(m) {}
ProfileValue::ProfileValue(bool b) : type_(Type::BOOLEAN), b_(b) {}
ProfileValue::ProfileValue(double d) : type_(Type::NUMBER), kind_(DOUBLE), d_(d) {}
ProfileValue::ProfileValue(float f) : ProfileValue(double(f)) {}
ProfileValue::ProfileValue(int i) : ProfileValue((long long)i) {}
ProfileValue::ProfileValue(long i) : ProfileValue((long long)i) {}
ProfileValue::ProfileValue(long long i) : type_(Type::NUMBER) {
  if (i < 0) {
    kind_ = INT;
    i_ = i;
  } else {
    u_ = std::uint64_t(i);
  }
}
ProfileValue::ProfileValue(unsigned i) : ProfileValue((unsigned long long)i) {}
ProfileValue::ProfileValue(unsigned long i) : ProfileValue((unsigned long long)i) {}
ProfileValue::ProfileValue(unsigned long long i) : type_(Type::NUMBER), u_(i) {}

const ProfileValue::String &ProfileValue::asString() const {
  if (type_ != Type::STRING)
    wrongType(type_, "a string");
  return s_;
}
const ProfileValue::Vector &ProfileValue::asVector() const {
  if (type_ != Type::VECTOR)
    wrongType(type_, "a vector");
  return v_;
}
const ProfileValue::Map &ProfileValue::asMap() const {
  if (type_ != Type::MAP)
    wrongType(type_, "a map");
  return m_;
}
ProfileValue::Vector &ProfileValue::asVector() {
  if (type_ != Type::VECTOR)
    wrongType(type_, "a vector");
  return v_;
}
ProfileValue::Map &ProfileValue::asMap() {
  if (type_ != Type::MAP)
    wrongType(type_, "a map");
  return m_;
}
bool ProfileValue::asBool() const {
  if (type_ != Type::BOOLEAN)
    wrongType(type_, "a bool");
  return b_;
}
double ProfileValue::asDouble() const {
  if (type_ != Type::NUMBER)
    wrongType(type_, "a number");
  return kind_ == DOUBLE ? d_ : kind_ == INT ? double(i_) : double(u_);
}
std::uint64_t ProfileValue::asUInt() const {
  if (type_ != Type::NUMBER)
    wrongType(type_, "a number");
  if (kind_ == UINT)
    return u_;
  if (kind_ == INT)
    throw profiling_error("ProfileValue::asUInt: the value " + std::to_string(i_) + " is negative; use asInt");
  // 2^64 as a double is the first value that does not convert (the conversion would be undefined, 0 in practice).
  if (!(d_ >= 0) || d_ != std::floor(d_) || d_ >= 18446744073709551616.0)
    throw profiling_error("ProfileValue::asUInt: the value " + shortText(d_) +
                          " is not a whole number from 0 to 2^64-1; use asDouble");
  return std::uint64_t(d_);
}
std::int64_t ProfileValue::asInt() const {
  if (type_ != Type::NUMBER)
    wrongType(type_, "a number");
  if (kind_ == INT)
    return i_;
  if (kind_ == UINT) {
    if (u_ > std::uint64_t(INT64_MAX))
      throw profiling_error("ProfileValue::asInt: the value " + std::to_string(u_) + " is above 2^63-1; use asUInt");
    return std::int64_t(u_);
  }
  if (d_ != std::floor(d_) || !(d_ >= -9223372036854775808.0 && d_ < 9223372036854775808.0))
    throw profiling_error("ProfileValue::asInt: the value " + shortText(d_) +
                          " is not a whole number from -2^63 to 2^63-1; use asDouble");
  return std::int64_t(d_);
}

std::size_t ProfileValue::size() const {
  switch (type_) {
  case Type::STRING:
    return s_.size();
  case Type::VECTOR:
    return v_.size();
  case Type::MAP:
    return m_.size();
  default:
    throw profiling_error(std::string("ProfileValue::size: the value is ") + typeName(type_) +
                          ", which has no size");
  }
}

const ProfileValue &ProfileValue::operator[](const std::string &key) const {
  const Map &m = asMap();
  auto it = m.find(key);
  if (it == m.end()) {
    std::string keys;
    for (const auto &kv : m)
      keys += (keys.empty() ? "" : ", ") + kv.first;
    throw profiling_error("ProfileValue: no key '" + key + "' (keys: " + (keys.empty() ? "none" : keys) + ")");
  }
  return it->second;
}

const ProfileValue &ProfileValue::operator[](std::size_t i) const {
  const Vector &v = asVector();
  if (i >= v.size())
    throw profiling_error("ProfileValue: index " + std::to_string(i) + " is out of range (size " +
                          std::to_string(v.size()) + ")");
  return v[i];
}

ProfileValue &ProfileValue::operator[](const std::string &key) { return asMap()[key]; }

bool ProfileValue::contains(const std::string &key) const { return type_ == Type::MAP && m_.count(key) != 0; }

const ProfileValue *ProfileValue::getOrNull(const std::string &key) const {
  if (type_ != Type::MAP)
    return nullptr;
  auto it = m_.find(key);
  return it == m_.end() ? nullptr : &it->second;
}

std::vector<std::uint64_t> ProfileValue::toUintVector() const {
  std::vector<std::uint64_t> out;
  for (const ProfileValue &v : asVector())
    out.push_back(v.asUInt());
  return out;
}

std::uint64_t ProfileValue::sumUInt() const {
  if (type_ != Type::VECTOR)
    return asUInt();
  std::uint64_t sum = 0;
  for (const auto &e : v_)
    sum += e.sumUInt();
  return sum;
}
std::int64_t ProfileValue::sumInt() const {
  if (type_ != Type::VECTOR)
    return asInt();
  std::int64_t sum = 0;
  for (const auto &e : v_)
    sum += e.sumInt();
  return sum;
}
double ProfileValue::sumDouble() const {
  if (type_ != Type::VECTOR)
    return asDouble();
  double sum = 0;
  for (const auto &e : v_)
    sum += e.sumDouble();
  return sum;
}

bool ProfileValue::operator==(const ProfileValue &o) const {
  if (type_ != o.type_)
    return false;
  switch (type_) {
  case Type::STRING:
    return s_ == o.s_;
  case Type::VECTOR:
    return v_ == o.v_;
  case Type::MAP:
    return m_ == o.m_;
  case Type::BOOLEAN:
    return b_ == o.b_;
  case Type::NUMBER:
    if (kind_ != DOUBLE && o.kind_ != DOUBLE)
      return kind_ == o.kind_ && u_ == o.u_ && i_ == o.i_;
    return asDouble() == o.asDouble();
  }
  return false;
}

} // namespace poplar
