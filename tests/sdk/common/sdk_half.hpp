// Host data of FLOAT or HALF tensors in an SDK-surface program: values as a tensor of the type holds them, and
// engine writes and reads of float vectors, converted to and from half bits for HALF with Poplar's
// TypeConversion.hpp. run_sdk.sh copies this header next to the program, like sdk_check.hpp.
#ifndef SDK_HALF_HPP
#define SDK_HALF_HPP

#include <poplar/Engine.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/TypeConversion.hpp>

#include <string>
#include <vector>

/// `v` as a tensor of `type` holds it: rounded to half for HALF (so host references use the device's operands).
inline std::vector<float> asDeviceValues(const poplar::Target &target, const poplar::Type &type, std::vector<float> v) {
  if (type == poplar::HALF) {
    std::vector<unsigned short> bits(v.size());
    poplar::copyFloatToDeviceHalf(target, v.data(), bits.data(), v.size());
    poplar::copyDeviceHalfToFloat(target, bits.data(), v.data(), v.size());
  }
  return v;
}

/// Writes `v` through the host write `name` of a tensor of `type` (FLOAT, or HALF as half bits).
inline void writeAs(poplar::Engine &engine, const poplar::Target &target, const poplar::Type &type,
                    const std::string &name, const std::vector<float> &v) {
  if (type == poplar::HALF) {
    std::vector<unsigned short> bits(v.size());
    poplar::copyFloatToDeviceHalf(target, v.data(), bits.data(), v.size());
    engine.writeTensor(name, bits.data(), bits.data() + bits.size());
  } else {
    engine.writeTensor(name, v.data(), v.data() + v.size());
  }
}

/// Reads `n` elements through the host read `name` of a tensor of `type` as floats.
inline std::vector<float> readAs(poplar::Engine &engine, const poplar::Target &target, const poplar::Type &type,
                                 const std::string &name, std::size_t n) {
  std::vector<float> v(n);
  if (type == poplar::HALF) {
    std::vector<unsigned short> bits(n);
    engine.readTensor(name, bits.data(), bits.data() + n);
    poplar::copyDeviceHalfToFloat(target, bits.data(), v.data(), n);
  } else {
    engine.readTensor(name, v.data(), v.data() + n);
  }
  return v;
}

#endif // SDK_HALF_HPP
