// Shared helpers of the PopLibs tests: an IPU Model with a given number of tiles, a graph with popops' codelets,
// tensors mapped over the tiles with host handles, and the check that an error names its problem.
#pragma once

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" {
#include <cmocka.h>
}

namespace poplibs_test {

/// Runs fn and checks that it throws E with `text` in its message.
template <typename E, typename Fn> void expectThrow(Fn fn, const char *text) {
  try {
    fn();
  } catch (const E &e) {
    if (std::string(e.what()).find(text) == std::string::npos) {
      print_error("message '%s' lacks '%s'\n", e.what(), text);
      fail();
    }
    return;
  }
  print_error("no exception containing '%s'\n", text);
  fail();
}

inline poplar::IPUModel model(unsigned tiles) {
  poplar::IPUModel m("ipu2");
  m.tilesPerIPU = tiles;
  return m;
}

/// A graph on an ipu2-like IPU Model of `tiles` tiles with popops' codelets, and a program to append to.
struct Fixture {
  explicit Fixture(unsigned tiles = 16) : device(model(tiles).createDevice()), graph(device.getTarget()) {
    popops::addCodelets(graph);
  }
  /// A variable of `shape` mapped linearly over the tiles with grains of 1 and 3 elements per tile at least
  /// (so that small tensors still span several tiles), with host handles "<name>" (write) and "<name>.r" (read).
  poplar::Tensor var(const poplar::Type &type, const std::vector<std::size_t> &shape, const std::string &name) {
    poplar::Tensor t = graph.addVariable(type, shape, name);
    poputil::mapTensorLinearly(graph, t, 3, 1);
    graph.createHostWrite(name, t);
    graph.createHostRead(name + ".r", t);
    return t;
  }
  /// A host read handle for a result.
  void readable(const poplar::Tensor &t, const std::string &name) { graph.createHostRead(name, t); }
  /// Compiles `prog` and loads it.
  poplar::Engine &build() {
    engine.reset(new poplar::Engine(graph, prog));
    engine->load(device);
    return *engine;
  }
  template <typename T> void write(const std::string &h, const std::vector<T> &v) {
    engine->writeTensor(h, v.data(), v.data() + v.size());
  }
  template <typename T> std::vector<T> read(const std::string &h, std::size_t n) {
    std::vector<T> v(n);
    engine->readTensor(h, v.data(), v.data() + n);
    return v;
  }
  /// Writes floats to a HALF tensor (rounded to nearest even, as copyFloatToDeviceHalf does).
  void writeHalf(const std::string &h, const std::vector<float> &v) {
    std::vector<unsigned short> bits(v.size());
    poplar::copyFloatToDeviceHalf(device.getTarget(), v.data(), bits.data(), v.size());
    write(h, bits);
  }
  /// Reads a HALF tensor as floats.
  std::vector<float> readHalf(const std::string &h, std::size_t n) {
    std::vector<unsigned short> bits = read<unsigned short>(h, n);
    std::vector<float> v(n);
    poplar::copyDeviceHalfToFloat(device.getTarget(), bits.data(), v.data(), n);
    return v;
  }
  /// Writes floats to a FLOAT or HALF tensor, as its type asks.
  void writeAs(const poplar::Type &type, const std::string &h, const std::vector<float> &v) {
    if (type == poplar::HALF)
      writeHalf(h, v);
    else
      write(h, v);
  }
  /// Reads a FLOAT or HALF tensor as floats.
  std::vector<float> readAs(const poplar::Type &type, const std::string &h, std::size_t n) {
    return type == poplar::HALF ? readHalf(h, n) : read<float>(h, n);
  }
  /// x rounded to the nearest HALF value (ties to even): the host reference's rounding of each half result.
  float rh(float x) const {
    unsigned short b;
    float r;
    poplar::copyFloatToDeviceHalf(device.getTarget(), &x, &b, 1);
    poplar::copyDeviceHalfToFloat(device.getTarget(), &b, &r, 1);
    return r;
  }
  /// Every element of v rounded to half.
  std::vector<float> rh(std::vector<float> v) const {
    for (float &x : v)
      x = rh(x);
    return v;
  }
  poplar::Device device;
  poplar::Graph graph;
  poplar::program::Sequence prog;
  std::unique_ptr<poplar::Engine> engine;
};

/// Deterministic test values: float in about [-4, 4] (never 0), int in [-9, 9].
inline std::vector<float> floats(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 37 + seed * 11) % 17) - 8) * 0.5f + 0.25f;
  return v;
}
/// floats(n, seed), each multiplied by k (smaller weights keep the recurrent layers' tests away from saturation).
inline std::vector<float> scaled(std::size_t n, unsigned seed, float k) {
  std::vector<float> v = floats(n, seed);
  for (float &x : v)
    x *= k;
  return v;
}
inline std::vector<int> ints(std::size_t n, unsigned seed) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = int((i * 29 + seed * 7) % 19) - 9;
  return v;
}

/// The relative tolerance of HALF results: a few units in the last place of binary16 (2^-10).
const float kHalfTol = 3e-3f;

/// Checks that got matches want within a relative tolerance.
inline void expectNear(const std::vector<float> &got, const std::vector<float> &want, const char *what,
                       float tol = 1e-5f) {
  assert_int_equal(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i] || std::fabs(got[i] - want[i]) <= tol * std::max(1.0f, std::fabs(want[i])))) {
      print_error("%s[%zu]: got %g, want %g\n", what, i, double(got[i]), double(want[i]));
      fail();
    }
}
template <typename T> void expectEqual(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
  assert_int_equal(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      print_error("%s[%zu]: got %lld, want %lld\n", what, i, (long long)got[i], (long long)want[i]);
      fail();
    }
}

} // namespace poplibs_test
