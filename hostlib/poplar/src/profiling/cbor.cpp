// ProfileValue as CBOR (RFC 8949): definite-length items only, integers in their shortest form, doubles as
// binary64. Written here rather than with libcbor because these few major types are all a profile needs.
#include <cstdint>
#include <cstring>

#include "profile_limits.hpp"
#include "poplar/ProfileValue.hpp"

namespace poplar {

namespace {

/// The head of a data item: major type in the top 3 bits, then the argument in the shortest encoding.
void head(std::ostream &out, unsigned major, std::uint64_t arg) {
  unsigned char m = static_cast<unsigned char>(major << 5);
  if (arg < 24) {
    out.put(char(m | arg));
    return;
  }
  unsigned bytes = arg <= 0xFF ? 1 : arg <= 0xFFFF ? 2 : arg <= 0xFFFFFFFFull ? 4 : 8;
  out.put(char(m | (bytes == 1 ? 24 : bytes == 2 ? 25 : bytes == 4 ? 26 : 27)));
  for (unsigned i = bytes; i-- > 0;)
    out.put(char((arg >> (8 * i)) & 0xFF));
}

void write(std::ostream &out, const ProfileValue &v) {
  switch (v.type()) {
  case ProfileValue::Type::STRING:
    head(out, 3, v.asString().size());
    out << v.asString();
    break;
  case ProfileValue::Type::BOOLEAN:
    out.put(char(v.asBool() ? 0xF5 : 0xF4));
    break;
  case ProfileValue::Type::NUMBER:
    if (v.isInteger()) {
      if (v.asDouble() < 0)
        head(out, 1, std::uint64_t(-1 - v.asInt()));
      else
        head(out, 0, v.asUInt());
    } else {
      double d = v.asDouble();
      std::uint64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      out.put(char(0xFB));
      for (unsigned i = 8; i-- > 0;)
        out.put(char((bits >> (8 * i)) & 0xFF));
    }
    break;
  case ProfileValue::Type::VECTOR:
    head(out, 4, v.asVector().size());
    for (const auto &e : v.asVector())
      write(out, e);
    break;
  case ProfileValue::Type::MAP:
    head(out, 5, v.asMap().size());
    for (const auto &kv : v.asMap()) {
      head(out, 3, kv.first.size());
      out << kv.first;
      write(out, kv.second);
    }
    break;
  }
}

class Reader {
public:
  explicit Reader(const std::string &b) : b_(b) {}
  ProfileValue document() {
    ProfileValue v = item();
    if (p_ != b_.size())
      fail("bytes after the end of the document");
    return v;
  }

private:
  const std::string &b_;
  std::size_t p_ = 0;
  unsigned depth_ = 0;

  [[noreturn]] void fail(const std::string &what) const {
    throw profiling_error("parseProfileCBOR: " + what + " at offset " + std::to_string(p_));
  }
  unsigned byte() {
    if (p_ >= b_.size())
      fail("unexpected end of the document");
    return static_cast<unsigned char>(b_[p_++]);
  }
  std::uint64_t argument(unsigned info) {
    if (info < 24)
      return info;
    unsigned bytes = info == 24 ? 1 : info == 25 ? 2 : info == 26 ? 4 : info == 27 ? 8 : 0;
    if (!bytes)
      fail("an indefinite length or reserved argument (" + std::to_string(info) + ")");
    std::uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i)
      v = (v << 8) | byte();
    return v;
  }
  std::string text(std::uint64_t n) {
    if (n > b_.size() - p_)
      fail("a string longer than the document");
    std::string s = b_.substr(p_, std::size_t(n));
    p_ += std::size_t(n);
    return s;
  }
  /// One data item. Arrays and maps recurse, so the nesting is bounded (a crafted file would exhaust the stack).
  ProfileValue item() {
    if (++depth_ > kProfileMaxDepth)
      fail("arrays and maps nested deeper than " + std::to_string(kProfileMaxDepth) +
           " levels (a profile nests a few; the file is corrupt)");
    ProfileValue v = itemAtDepth();
    --depth_;
    return v;
  }
  ProfileValue itemAtDepth() {
    unsigned ib = byte();
    unsigned major = ib >> 5, info = ib & 31;
    switch (major) {
    case 0:
      return ProfileValue((unsigned long long)argument(info));
    case 1: {
      std::uint64_t n = argument(info);
      if (n > std::uint64_t(INT64_MAX))
        fail("a negative integer below -2^63");
      return ProfileValue((long long)(-1 - std::int64_t(n)));
    }
    case 3:
      return ProfileValue(text(argument(info)));
    case 4: {
      ProfileValue::Vector v;
      for (std::uint64_t n = argument(info), i = 0; i < n; ++i)
        v.push_back(item());
      return ProfileValue(v);
    }
    case 5: {
      ProfileValue::Map m;
      for (std::uint64_t n = argument(info), i = 0; i < n; ++i) {
        ProfileValue key = item();
        if (!key.isString())
          fail("a map key that is not a text string");
        m[key.asString()] = item();
      }
      return ProfileValue(m);
    }
    case 7:
      if (info == 20 || info == 21)
        return ProfileValue(info == 21);
      if (info == 27) {
        std::uint64_t bits = argument(27);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        return ProfileValue(d);
      }
      fail("a simple value or float other than false, true or a binary64 double");
    default:
      fail("major type " + std::to_string(major) + " (byte strings and tags are not used in profiles)");
    }
  }
};

} // namespace

void serializeToCBOR(std::ostream &out, const ProfileValue &value) { write(out, value); }

ProfileValue parseProfileCBOR(const std::string &bytes) { return Reader(bytes).document(); }

} // namespace poplar
