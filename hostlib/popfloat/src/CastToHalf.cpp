// popfloat's host conversions between IEEE single and half. Both go through Poplar's public conversions
// (copyFloatToDeviceHalf, copyDeviceHalfToFloat), so the SDK rounds to half in one place; popfloat only adds what
// its API documents on top: a finite single beyond half's range saturates instead of becoming infinite, and a NaN
// keeps its quiet bit and top payload bits instead of becoming the canonical quiet NaN.
#include "popfloat/experimental/CastToHalf.hpp"

#include <cmath>
#include <cstring>

#include <poplar/Target.hpp>

namespace popfloat {
namespace experimental {

namespace {
constexpr uint16_t kHalfSign = 0x8000, kHalfInf = 0x7c00, kHalfMax = 0x7bff, kHalfQuiet = 0x0200;
constexpr uint32_t kSingleQuiet = 0x00400000u;

// The conversions take a target but do not depend on its values: one IPU target serves every call.
const poplar::Target &conversionTarget() {
  static const poplar::Target target = poplar::Target::createIPUTarget(1, "ipu2");
  return target;
}

// A half NaN of the single NaN `bits`: its sign, its top 10 payload bits with the quiet bit as it was, and never an
// all-zero payload (that would be infinity).
uint16_t halfNaN(uint32_t bits) {
  const uint16_t sign = uint16_t((bits >> 16) & kHalfSign);
  uint16_t payload = uint16_t((bits >> 13) & 0x3ffu);
  payload = (bits & kSingleQuiet) ? uint16_t(payload | kHalfQuiet) : uint16_t(payload & ~kHalfQuiet);
  return uint16_t(sign | kHalfInf | (payload == 0 ? 1u : payload));
}
} // namespace

uint16_t singleToHalf(float value, bool) {
  if (std::isnan(value)) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return halfNaN(bits);
  }
  uint16_t h;
  poplar::copyFloatToDeviceHalf(conversionTarget(), &value, &h, 1);
  // Finite overflow saturates (PopLibs' behaviour with or without enNanoo); only an infinity stays infinite.
  if ((h & ~kHalfSign) == kHalfInf && std::isfinite(value))
    h = uint16_t((h & kHalfSign) | kHalfMax);
  return h;
}

float halfToSingle(uint16_t ihalf) {
  float f;
  poplar::copyDeviceHalfToFloat(conversionTarget(), &ihalf, &f, 1);
  return f;
}

} // namespace experimental
} // namespace popfloat
