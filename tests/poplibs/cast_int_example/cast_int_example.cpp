// popops::cast between the 8- and 16-bit integer types (CHAR, SIGNED_CHAR, UNSIGNED_CHAR, SHORT, UNSIGNED_SHORT)
// and FLOAT, HALF, INT and UNSIGNED_INT, both ways, as a user of Graphcore's SDK writes it (C++11, linked with
// -lpopops -lpoputil -lpoplar), on a one-tile and the full ipu2 IPU Model, each result checked element by element
// against a host reference:
// - into an integer type a value saturates at the type's range, a floating value is first truncated toward zero,
//   NaN gives 0; into FLOAT or HALF an integer becomes the nearest value (a HALF rounds to nearest even);
// - CHAR is signed: -128 .. -1 must come back negative (the tile compiler's plain char is unsigned);
// - the three forms: a new tensor (cast(graph, src, type, prog)), into a given one (cast(graph, src, dst, prog)) and
//   a compute set (cast(graph, src, dst, cs));
// - a cast between two of these types (CHAR to SHORT) is refused, naming the way round (through INT).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>
#include <popops/Cast.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "sdk_check.hpp"
#include "sdk_half.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

bool isFloating(const Type &t) { return t == FLOAT || t == HALF; }

// The Poplar constant's name (Type::toString spells the C++ type, "char").
std::string nameOf(const Type &t) {
  const Type types[] = {CHAR, SIGNED_CHAR, UNSIGNED_CHAR, SHORT, UNSIGNED_SHORT, FLOAT, HALF, INT, UNSIGNED_INT};
  const char *names[] = {"CHAR", "SIGNED_CHAR", "UNSIGNED_CHAR", "SHORT", "UNSIGNED_SHORT", "FLOAT", "HALF", "INT",
                         "UNSIGNED_INT"};
  for (std::size_t i = 0; i < 9; ++i)
    if (t == types[i])
      return names[i];
  return t.toString();
}

// The range of an integer type.
void rangeOf(const Type &t, double &lo, double &hi) {
  if (t == CHAR || t == SIGNED_CHAR) {
    lo = -128;
    hi = 127;
  } else if (t == UNSIGNED_CHAR) {
    lo = 0;
    hi = 255;
  } else if (t == SHORT) {
    lo = -32768;
    hi = 32767;
  } else if (t == UNSIGNED_SHORT) {
    lo = 0;
    hi = 65535;
  } else if (t == INT) {
    lo = -2147483648.0;
    hi = 2147483647.0;
  } else {
    lo = 0;
    hi = 4294967295.0;
  }
}

// `x` as the nearest half (through the target's conversion, round to nearest even).
double asHalf(const Target &target, double x) { return asDeviceValues(target, HALF, std::vector<float>(1, float(x)))[0]; }

// The host reference: `x` (a value of the source type) converted to `to`.
double reference(const Target &target, double x, const Type &to) {
  if (to == FLOAT)
    return double(float(x));
  if (to == HALF)
    return asHalf(target, x);
  if (x != x)
    return 0;
  double lo, hi;
  rangeOf(to, lo, hi);
  x = std::trunc(x);
  return x < lo ? lo : x > hi ? hi : x;
}

// Source values of each type: both ends of the small types' ranges, just past them, fractions either side of 0.
std::vector<double> sourceValues(const Target &target, const Type &t) {
  std::vector<double> v;
  if (isFloating(t)) {
    const double xs[] = {-70000, -300.7, -128.5, -128, -127.9, -1.9, -0.5, 0, 0.4, 1.5, 126.9, 127.5, 200.2,
                         255.9,  256,    32767.4, 32768, 40000.5, 65535.9, 1e9, kNaN};
    for (std::size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i)
      v.push_back(t == HALF ? asHalf(target, xs[i]) : double(float(xs[i])));
  } else if (t == INT || t == UNSIGNED_INT) {
    const double xs[] = {-70000, -32769, -300, -129, -128, -1, 0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                         2147483647.0};
    for (std::size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i)
      if (t == INT || xs[i] >= 0)
        v.push_back(xs[i]);
    if (t == UNSIGNED_INT)
      v.push_back(4294967295.0);
  } else {
    double lo, hi;
    rangeOf(t, lo, hi);
    const double xs[] = {lo, lo + 1, -1, 0, 1, 100, hi - 1, hi, std::floor((lo + hi) / 3)};
    for (std::size_t i = 0; i < sizeof xs / sizeof xs[0]; ++i)
      if (xs[i] >= lo && xs[i] <= hi)
        v.push_back(xs[i]);
  }
  return v;
}

// Host values to and from the device's bytes of type `t`.
std::vector<unsigned char> toBytes(const Target &target, const Type &t, const std::vector<double> &v) {
  const std::size_t size = target.getTypeSize(t);
  std::vector<unsigned char> out(v.size() * size);
  for (std::size_t i = 0; i < v.size(); ++i) {
    unsigned char *p = &out[i * size];
    if (t == FLOAT) {
      const float f = float(v[i]);
      std::memcpy(p, &f, 4);
    } else if (t == HALF) {
      const float f = float(v[i]);
      copyFloatToDeviceHalf(target, &f, p, 1);
    } else {
      const long long x = (long long)v[i];
      for (std::size_t b = 0; b < size; ++b)
        p[b] = (unsigned char)((unsigned long long)x >> (8 * b));
    }
  }
  return out;
}

std::vector<double> fromBytes(const Target &target, const Type &t, const std::vector<unsigned char> &bytes) {
  const std::size_t size = target.getTypeSize(t), n = bytes.size() / size;
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char *p = &bytes[i * size];
    if (t == FLOAT) {
      float f;
      std::memcpy(&f, p, 4);
      v[i] = f;
    } else if (t == HALF) {
      float f;
      copyDeviceHalfToFloat(target, p, &f, 1);
      v[i] = f;
    } else {
      unsigned long long x = 0;
      for (std::size_t b = 0; b < size; ++b)
        x |= (unsigned long long)p[b] << (8 * b);
      const bool isSigned = t == CHAR || t == SIGNED_CHAR || t == SHORT || t == INT;
      const unsigned long long sign = 1ULL << (8 * size - 1);
      v[i] = isSigned && (x & sign) ? double((long long)x - (long long)(sign << 1)) : double(x);
    }
  }
  return v;
}

// One cast: its source (values written before the run) and result (read after it).
struct CastCase {
  Type from, to;
  std::string src, dst;
  std::vector<double> values;
  Tensor out;
};

std::string describe(const CastCase &c) { return nameOf(c.from) + " to " + nameOf(c.to); }

bool same(double got, double want) { return got == want || (got != got && want != want); }

void deviceCases(Device device, const std::string &where) {
  Graph graph(device.getTarget());
  const Target &target = graph.getTarget();
  popops::addCodelets(graph);
  Sequence prog;
  const Type smalls[] = {CHAR, SIGNED_CHAR, UNSIGNED_CHAR, SHORT, UNSIGNED_SHORT};
  const Type others[] = {FLOAT, HALF, INT, UNSIGNED_INT};
  std::vector<CastCase> cases;
  unsigned form = 0;
  for (std::size_t s = 0; s < 5; ++s)
    for (std::size_t o = 0; o < 4; ++o)
      for (int way = 0; way < 2; ++way) {
        CastCase c;
        c.from = way == 0 ? smalls[s] : others[o];
        c.to = way == 0 ? others[o] : smalls[s];
        c.values = sourceValues(target, c.from);
        c.src = "w" + std::to_string(cases.size());
        c.dst = "r" + std::to_string(cases.size());
        Tensor src = graph.addVariable(c.from, {c.values.size()}, c.src);
        poputil::mapTensorLinearly(graph, src, 1, 4);
        graph.createHostWrite(c.src, src);
        // The three forms in turn.
        if (form % 3 == 0) {
          c.out = popops::cast(graph, src, c.to, prog, describe(c));
        } else {
          c.out = graph.addVariable(c.to, {c.values.size()}, describe(c));
          poputil::mapTensorLinearly(graph, c.out, 1, 4);
          if (form % 3 == 1) {
            popops::cast(graph, src, c.out, prog, describe(c));
          } else {
            ComputeSet cs = graph.addComputeSet(describe(c));
            popops::cast(graph, src, c.out, cs);
            prog.add(Execute(cs));
          }
        }
        ++form;
        graph.createHostRead(c.dst, c.out);
        cases.push_back(c);
      }
  Engine engine(graph, prog);
  engine.load(device);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::vector<unsigned char> bytes = toBytes(target, cases[i].from, cases[i].values);
    engine.writeTensor(cases[i].src, bytes.data(), bytes.data() + bytes.size());
  }
  engine.run(0);
  // One line per small type and direction: every element of its four casts matches.
  for (std::size_t s = 0; s < 5; ++s)
    for (int way = 0; way < 2; ++way) {
      bool ok = true;
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const CastCase &c = cases[i];
        if ((way == 0 ? c.from : c.to) != smalls[s] || (way == 0) != (c.from == smalls[s]))
          continue;
        std::vector<unsigned char> bytes(c.values.size() * target.getTypeSize(c.to));
        engine.readTensor(c.dst, bytes.data(), bytes.data() + bytes.size());
        const std::vector<double> got = fromBytes(target, c.to, bytes);
        for (std::size_t k = 0; k < got.size(); ++k) {
          const double want = reference(target, c.values[k], c.to);
          if (!same(got[k], want)) {
            std::cout << "  " << describe(c) << " element " << k << " (" << c.values[k] << "): got " << got[k]
                      << ", want " << want << "\n";
            ok = false;
          }
        }
        if (c.from == CHAR && c.to == INT) { // the signedness of CHAR, shown
          std::cout << "  " << where << ": CHAR " << c.values[0] << " -> INT " << got[0] << "\n";
          check(got[0] == -128, where + ": CHAR -128 reads as -128 on the tiles, not 128");
        }
      }
      const std::string name = nameOf(smalls[s]);
      check(ok, where + ": " + (way == 0 ? name + " to FLOAT, HALF, INT and UNSIGNED_INT"
                                         : "FLOAT, HALF, INT and UNSIGNED_INT to " + name) +
                    " match the host reference");
    }
}

void refusals() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 1;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;
  Tensor c = graph.addVariable(CHAR, {4}, "c");
  graph.setTileMapping(c, 0);
  checkThrows([&] { popops::cast(graph, c, SHORT, prog); }, "cast through INT",
              "a cast from CHAR to SHORT is refused, naming the way through INT");
}

} // namespace

int main() {
  try {
    refusals();
    IPUModel tiny("ipu2");
    tiny.tilesPerIPU = 1;
    deviceCases(tiny.createDevice(), "one tile");
    IPUModel ipu2("ipu2");
    deviceCases(ipu2.createDevice(), "ipu2");
  } catch (const std::exception &e) {
    std::cout << "FAIL: unexpected exception: " << e.what() << "\n";
    return 1;
  }
  return checksDone("all small-integer cast checks passed");
}
