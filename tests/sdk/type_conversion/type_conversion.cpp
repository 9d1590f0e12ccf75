// poplar/TypeConversion.hpp and poplar/Quarter.hpp as a program uses them to prepare writeTensor buffers: HALF,
// QUARTER in both formats with a scale, FLOAT and the integer types, round trips and the documented errors; and a
// HALF tensor written with convertToDeviceType and read back through the engine.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/TypeConversion.hpp>

using namespace poplar;

namespace {

const char *yes(bool b) { return b ? "yes" : "no"; }

template <typename T> std::vector<T> roundTrip(Type t, const std::vector<T> &in) {
  std::vector<unsigned char> device(in.size() * 8);
  std::vector<T> out(in.size());
  convertToDeviceType(t, ArrayRef<T>(in), device.data());
  convertFromDeviceType(t, device.data(), ArrayRef<T>(out));
  return out;
}

std::vector<double> quarterRoundTrip(const QuarterMetadata &md, const std::vector<double> &in,
                                     std::vector<unsigned char> &bytes) {
  bytes.assign(in.size(), 0);
  std::vector<double> out(in.size());
  convertToDeviceType(QUARTER, md, ArrayRef<double>(in), bytes.data());
  convertFromDeviceType(QUARTER, md, bytes.data(), ArrayRef<double>(out));
  return out;
}

} // namespace

int main() {
  // HALF: exact for values half holds, rounded to nearest otherwise; 1/3 comes back within half's precision.
  std::vector<float> h = roundTrip<float>(HALF, {1.0f, -2.5f, 65504.0f, 1.0f / 3});
  std::cout << "half: " << h[0] << " " << h[1] << " " << h[2] << " third close: " << yes(std::fabs(h[3] - 1.0f / 3) < 1e-3)
            << "\n";
  std::vector<int> i = roundTrip<int>(SHORT, {-7, 300, 32767});
  std::cout << "short: " << i[0] << " " << i[1] << " " << i[2] << "\n";
  std::vector<double> f = roundTrip<double>(FLOAT, {0.1, -1e10});
  std::cout << "float: " << yes(f[0] == double(0.1f)) << " " << yes(f[1] == -1e10) << "\n";

  // QUARTER, F143: 1.5 and -0.25 exact; 300 saturates to the largest value (240 with bias 8); NaN is 0x80.
  QuarterMetadata f143(QuarterMetadata::Format::F143, 0);
  std::vector<unsigned char> bytes;
  std::vector<double> q = quarterRoundTrip(f143, {1.5, -0.25, 300.0, std::numeric_limits<double>::quiet_NaN(), 0.0},
                                           bytes);
  std::cout << "f143: " << q[0] << " " << q[1] << " " << q[2] << " nan: " << yes(std::isnan(q[3])) << " byte "
            << unsigned(bytes[3]) << " zero byte " << unsigned(bytes[4]) << "\n";
  // A scale of 4: the 8-bit values stand for 16 times as much, so 24 is 1.5 in the byte.
  QuarterMetadata f152(QuarterMetadata::Format::F152, 4);
  std::vector<unsigned char> scaled;
  std::vector<double> s = quarterRoundTrip(f152, {24.0, 1.0}, scaled);
  std::vector<unsigned char> unscaled;
  quarterRoundTrip(QuarterMetadata(QuarterMetadata::Format::F152, 0), {1.5}, unscaled);
  std::cout << "f152 scale 4: " << s[0] << " " << s[1] << " same byte as 1.5 unscaled: " << yes(scaled[0] == unscaled[0])
            << "\n";
  std::cout << "metadata: " << f152 << ", binary round trip: "
            << yes(QuarterMetadata::fromBinary(f152.getBinary()) == f152) << "\n";

  // A double just above the tie between halves 1 and 1 + 2^-10 (1 + 2^-11 + 2^-40) rounds up to 1 + 2^-10 when
  // converted in one step; through float it would first become the tie itself and then round to even (1.0).
  const double aboveTie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  std::vector<double> rounded = roundTrip<double>(HALF, {aboveTie, -aboveTie, 1.0 + std::ldexp(1.0, -11)});
  std::cout << "double to half, one rounding: " << yes(rounded[0] == 1.0 + std::ldexp(1.0, -10)) << " "
            << yes(rounded[1] == -(1.0 + std::ldexp(1.0, -10))) << " tie to even: " << yes(rounded[2] == 1.0) << "\n";
  std::vector<unsigned char> halfBits(2);
  IPUModel halfModel;
  Device halfDevice = halfModel.createDevice();
  copyDoubleToDeviceHalf(halfDevice.getTarget(), &aboveTie, halfBits.data(), 1);
  std::cout << "copyDoubleToDeviceHalf: 0x" << std::hex << (unsigned(halfBits[1]) << 8 | halfBits[0]) << std::dec
            << "\n";

  try {
    QuarterMetadata bad(QuarterMetadata::Format::F143, 40);
    std::cout << "scale 40 accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "scale 40 refused: " << e.what() << "\n";
  }
  try {
    std::vector<float> one(1, 1.0f);
    unsigned char b = 0;
    convertToDeviceType(QUARTER, ArrayRef<float>(one), &b);
    std::cout << "quarter without metadata accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "quarter without metadata refused: " << e.what() << "\n";
  }

  // A HALF tensor written from a buffer convertToDeviceType filled, and read back the same way.
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(HALF, {4}, "x");
  graph.setTileMapping(x, 0);
  graph.createHostWrite("x-in", x);
  graph.createHostRead("x-out", x);
  Engine engine(graph, program::Sequence());
  engine.load(device);
  std::vector<float> in{0.5f, 2.0f, -3.0f, 1024.0f}, out(4, 0.0f);
  std::vector<unsigned char> raw(8), back(8);
  convertToDeviceType(HALF, ArrayRef<float>(in), raw.data());
  engine.writeTensor("x-in", raw.data(), raw.data() + raw.size());
  engine.run(0);
  engine.readTensor("x-out", back.data(), back.data() + back.size());
  convertFromDeviceType(HALF, back.data(), ArrayRef<float>(out));
  std::cout << "device half: " << out[0] << " " << out[1] << " " << out[2] << " " << out[3] << "\n";
  return 0;
}
