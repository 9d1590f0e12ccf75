// ProfileValue as CBOR (RFC 8949). The writer writes definite-length items only, integers in their shortest form
// and every double as binary64; it is written here because nlohmann's to_cbor writes a double that fits a float as
// binary32 and a NaN as a half, so files and the RFC's examples would change. The reader is nlohmann's, through
// profile_reader.hpp.
#include <cstdint>
#include <cstring>

#include "profile_reader.hpp"
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

} // namespace

void serializeToCBOR(std::ostream &out, const ProfileValue &value) { write(out, value); }

ProfileValue parseProfileCBOR(const std::string &bytes) {
  return detail::readProfile(bytes, detail::ProfileFormat::CBOR);
}

} // namespace poplar
