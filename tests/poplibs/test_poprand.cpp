// poprand on IPU Models: statistics of each distribution on 100k samples (bounds stated per check, in standard
// errors), exact agreement with the host Philox reference, determinism across tile counts and mappings, the
// generator state (setSeed, getHwSeeds, setHwSeeds), dropout, and argument errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>

#include "../../hostlib/poprand/codelets/philox.h"
#include "poplibs_test.hpp"

using namespace poplar;
using poplibs_test::expectThrow;
using poputil::poplibs_error;

namespace {

const std::size_t kSamples = 100000;
const unsigned kSeed[2] = {0x12345678u, 0x9abcdef0u};

/// A graph with poprand's codelets on `tiles` tiles, a seed tensor written before the program, and helpers to
/// read results back as doubles.
struct RandFixture {
  explicit RandFixture(unsigned tiles = 16)
      : device(poplibs_test::model(tiles).createDevice()), graph(device.getTarget()) {
    poprand::addCodelets(graph);
    seed = graph.addVariable(UNSIGNED_INT, {2}, "seed");
    graph.setTileMapping(seed, tiles - 1);
    graph.createHostWrite("seed", seed);
  }
  /// A FLOAT reference of `n` elements spread linearly over the tiles.
  Tensor reference(std::vector<std::size_t> shape) {
    Tensor t = graph.addVariable(FLOAT, shape, "ref");
    poputil::mapTensorLinearly(graph, t);
    return t;
  }
  void readable(const Tensor &t, const std::string &h) {
    graph.createHostRead(h, t);
    sizes[h] = t.numElements();
    types[h] = t.elementType();
  }
  /// Compiles and loads the program, then runs it with the seed `seedValue`.
  void run(const unsigned *seedValue = kSeed) {
    engine.reset(new Engine(graph, prog));
    engine->load(device);
    rerun(seedValue);
  }
  /// Runs the loaded program again with the seed `seedValue`.
  void rerun(const unsigned *seedValue) {
    engine->writeTensor("seed", seedValue, seedValue + 2);
    engine->run(0);
  }
  std::vector<double> read(const std::string &h) {
    const std::size_t n = sizes.at(h);
    std::vector<double> out(n);
    if (types.at(h) == FLOAT) {
      std::vector<float> v(n);
      engine->readTensor(h, v.data(), v.data() + n);
      std::copy(v.begin(), v.end(), out.begin());
    } else if (types.at(h) == HALF) {
      std::vector<std::uint16_t> raw(n);
      std::vector<float> v(n);
      engine->readTensor(h, raw.data(), raw.data() + n);
      copyDeviceHalfToFloat(graph.getTarget(), raw.data(), v.data(), n);
      std::copy(v.begin(), v.end(), out.begin());
    } else {
      std::vector<int> v(n);
      engine->readTensor(h, v.data(), v.data() + n);
      std::copy(v.begin(), v.end(), out.begin());
    }
    return out;
  }
  Device device;
  Graph graph;
  Tensor seed;
  program::Sequence prog;
  std::unique_ptr<Engine> engine;
  std::map<std::string, std::size_t> sizes;
  std::map<std::string, Type> types;
};

struct Stats {
  double mean = 0, var = 0, min = 0, max = 0;
};
Stats stats(const std::vector<double> &v) {
  Stats s;
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  for (double x : v)
    s.mean += x;
  s.mean /= double(v.size());
  for (double x : v)
    s.var += (x - s.mean) * (x - s.mean);
  s.var /= double(v.size() - 1);
  return s;
}

/// |got - want| <= k standard errors, reported with both numbers.
void expectWithin(double got, double want, double stdErr, double k, const char *what) {
  if (!(std::fabs(got - want) <= k * stdErr)) {
    print_error("%s: %.6g, expected %.6g within %.1f standard errors of %.3g\n", what, got, want, k, stdErr);
    fail();
  }
}

double phi(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI); }
double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// ---- distributions ----

// The host reference itself (philox.h, which the tile codelets compile too) against the known-answer vectors that
// Random123 publishes for Philox4x32-10 (its kat_vectors file): so "agrees with the host reference" below means
// "agrees with Philox", not only "agrees with our own copy".
void test_philox_known_answer_vectors(void **) {
  struct Kat {
    unsigned ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
       {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
       {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const Kat &k : kats) {
    poprand::philox::Block in;
    for (int i = 0; i < 4; ++i)
      in.w[i] = k.ctr[i];
    const poprand::philox::Block out = poprand::philox::philox4x32(in, k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i)
      assert_int_equal(out.w[i], k.out[i]);
  }
}

void test_uniform_float_statistics_and_host_reference(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  f.readable(poprand::uniform(f.graph, &f.seed, 7, ref, FLOAT, -2.0, 3.0, f.prog), "u");
  f.run();
  std::vector<double> v = f.read("u");
  Stats s = stats(v);
  assert_true(s.min >= -2.0 && s.max <= 3.0);
  const double sd = 5.0 / std::sqrt(12.0);
  expectWithin(s.mean, 0.5, sd / std::sqrt(double(kSamples)), 4, "uniform mean");
  // Var(sample variance) = (mu4 - sigma^4) / n with mu4 = range^4 / 80 for a uniform.
  const double var = sd * sd, mu4 = std::pow(5.0, 4) / 80.0;
  expectWithin(s.var, var, std::sqrt((mu4 - var * var) / double(kSamples)), 4, "uniform variance");
  // Element k is word k % 4 of the host's Philox block k / 4 of (seed, modifier 7).
  for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(12345), kSamples - 1}) {
    unsigned bits = poprand::philox::seeded(kSeed[0], kSeed[1], 7, unsigned(k / 4), 0, 0).w[k % 4];
    double want = -2.0f + 5.0f * poprand::philox::unitOpen1(bits);
    if (std::fabs(v[k] - want) > 1e-6) {
      print_error("uniform[%zu] = %.9g, host Philox reference %.9g\n", k, v[k], want);
      fail();
    }
  }
}

void test_uniform_half_and_int(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  f.readable(poprand::uniform(f.graph, &f.seed, 1, ref, HALF, 1.0, 2.0, f.prog), "h");
  f.readable(poprand::uniform(f.graph, &f.seed, 2, ref, INT, -3.0, 4.0, f.prog), "i");
  // Bounds no half holds: the values stay inside them all the same.
  f.readable(poprand::uniform(f.graph, &f.seed, 5, ref.slice(0, 20000), HALF, 0.1, 0.3, f.prog), "hnarrow");
  f.readable(poprand::uniform(f.graph, &f.seed, 6, ref.slice(0, 20000), HALF, -3.3, -1.1, f.prog), "hneg");
  f.readable(poprand::uniform(f.graph, &f.seed, 3, ref.slice(0, 1001), INT, 5.0, 5.0, f.prog), "one");
  f.readable(poprand::uniform(f.graph, &f.seed, 4, ref.slice(0, 4000), INT, -2147483648.0, 2147483647.0, f.prog),
             "full");
  f.run();
  Stats h = stats(f.read("h"));
  assert_true(h.min >= 1.0 && h.max <= 2.0);
  expectWithin(h.mean, 1.5, (1.0 / std::sqrt(12.0)) / std::sqrt(double(kSamples)), 4, "half uniform mean");
  Stats narrow = stats(f.read("hnarrow")), neg = stats(f.read("hneg"));
  assert_true(narrow.min >= 0.1 && narrow.max <= 0.3);
  assert_true(neg.min >= -3.3 && neg.max <= -1.1);
  std::vector<double> iv = f.read("i");
  std::map<int, std::size_t> counts;
  for (double x : iv)
    ++counts[int(x)];
  // Every integer of [-3, 4] occurs, none outside; each count is within 5 standard errors of n/8.
  assert_int_equal(counts.size(), 8);
  assert_int_equal(counts.begin()->first, -3);
  assert_int_equal(counts.rbegin()->first, 4);
  const double p = 1.0 / 8, n = double(kSamples);
  for (const auto &c : counts)
    expectWithin(double(c.second), n * p, std::sqrt(n * p * (1 - p)), 5, "int uniform count");
  for (double x : f.read("one"))
    assert_true(x == 5.0);
  // The whole int range (2^32 values): about half the samples negative, the mean near 0.
  std::vector<double> full = f.read("full");
  double negative = 0;
  for (double x : full)
    negative += x < 0;
  expectWithin(negative, 2000, std::sqrt(1000.0), 4, "full-range int uniform negatives");
  expectWithin(stats(full).mean, 0, 4294967296.0 / std::sqrt(12.0 * 4000), 4, "full-range int uniform mean");
}

void test_normal_float_and_half(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  f.readable(poprand::normal(f.graph, &f.seed, 0, ref, FLOAT, 1.5, 2.0, f.prog), "n");
  f.readable(poprand::normal(f.graph, &f.seed, 0, ref, HALF, -1.0, 0.5, f.prog), "h");
  f.run();
  const double n = double(kSamples);
  Stats s = stats(f.read("n"));
  expectWithin(s.mean, 1.5, 2.0 / std::sqrt(n), 4, "normal mean");
  expectWithin(s.var, 4.0, 4.0 * std::sqrt(2.0 / n), 4, "normal variance");
  // Element k is Box-Muller of words 2 (k % 2), 2 (k % 2) + 1 of the host's Philox block k / 2.
  std::vector<double> v = f.read("n");
  for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(777), kSamples - 1}) {
    poprand::philox::Block blk = poprand::philox::seeded(kSeed[0], kSeed[1], 0, unsigned(k / 2), 0, 0);
    const unsigned w0 = blk.w[(k % 2) * 2], w1 = blk.w[(k % 2) * 2 + 1];
    const double z = std::sqrt(-2.0 * std::log(double(poprand::philox::unitOpen0(w0)))) *
                     std::cos(2 * M_PI * double(poprand::philox::unitOpen1(w1)));
    if (std::fabs(v[k] - (1.5 + 2.0 * z)) > 1e-4) {
      print_error("normal[%zu] = %.7g, host Box-Muller of Philox %.7g\n", k, v[k], 1.5 + 2.0 * z);
      fail();
    }
  }
  Stats h = stats(f.read("h"));
  expectWithin(h.mean, -1.0, 0.5 / std::sqrt(n), 4, "half normal mean");
  expectWithin(h.var, 0.25, 0.25 * std::sqrt(2.0 / n) + 1e-4, 4, "half normal variance"); // + half rounding
}

void test_truncated_normal_bounds_and_moments(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  // alpha 1 takes the uniform-proposal path, alpha 2.5 the Box-Muller one.
  f.readable(poprand::truncatedNormal(f.graph, &f.seed, 0, ref, FLOAT, 3.0, 2.0, 1.0, f.prog), "t1");
  f.readable(poprand::truncatedNormal(f.graph, &f.seed, 0, ref, FLOAT, 0.0, 1.0, 2.5, f.prog), "t2");
  f.readable(poprand::truncatedNormal(f.graph, &f.seed, 0, ref.slice(0, 5000), HALF, 0.0, 1.0, 0.5, f.prog),
             "th");
  f.run();
  const double n = double(kSamples);
  struct Case {
    const char *h;
    double mean, sd, alpha;
  } cases[] = {{"t1", 3.0, 2.0, 1.0}, {"t2", 0.0, 1.0, 2.5}};
  for (const Case &c : cases) {
    Stats s = stats(f.read(c.h));
    assert_true(s.min >= c.mean - c.alpha * c.sd - 1e-5 && s.max <= c.mean + c.alpha * c.sd + 1e-5);
    // Variance of a normal truncated at -/+alpha: sd^2 (1 - 2 alpha phi(alpha) / (2 Phi(alpha) - 1)).
    const double var = c.sd * c.sd * (1 - 2 * c.alpha * phi(c.alpha) / (2 * Phi(c.alpha) - 1));
    expectWithin(s.mean, c.mean, std::sqrt(var / n), 4, "truncated normal mean");
    expectWithin(s.var, var, var * std::sqrt(2.0 / n), 5, "truncated normal variance");
  }
  Stats h = stats(f.read("th"));
  assert_true(h.min >= -0.5 && h.max <= 0.5);
}

void test_bernoulli_rates(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  f.readable(poprand::bernoulli(f.graph, &f.seed, 0, ref, FLOAT, 0.3, f.prog), "f");
  f.readable(poprand::bernoulli(f.graph, &f.seed, 1, ref, HALF, 0.75, f.prog), "h");
  f.readable(poprand::bernoulli(f.graph, &f.seed, 2, ref.slice(0, 999), INT, 0.0, f.prog), "zero");
  f.readable(poprand::bernoulli(f.graph, &f.seed, 3, ref.slice(0, 999), INT, 1.0, f.prog), "one");
  f.run();
  const double n = double(kSamples);
  struct Case {
    const char *h;
    double p;
  } cases[] = {{"f", 0.3}, {"h", 0.75}};
  for (const Case &c : cases) {
    std::vector<double> v = f.read(c.h);
    double ones = 0;
    for (double x : v) {
      assert_true(x == 0.0 || x == 1.0);
      ones += x;
    }
    expectWithin(ones, n * c.p, std::sqrt(n * c.p * (1 - c.p)), 4, "bernoulli ones");
  }
  for (double x : f.read("zero"))
    assert_true(x == 0.0);
  for (double x : f.read("one"))
    assert_true(x == 1.0);
}

void test_log_uniform(void **) {
  RandFixture f;
  Tensor ref = f.reference({kSamples});
  f.readable(poprand::logUniform(f.graph, &f.seed, 0, ref, FLOAT, 1.0, 1000.0, f.prog), "f");
  f.readable(poprand::logUniform(f.graph, &f.seed, 1, ref.slice(0, 20000), INT, 2.5, 100.0, f.prog, 10.0), "i");
  f.readable(poprand::logUniform(f.graph, &f.seed, 2, ref.slice(0, 20000), HALF, 2049.0, 4098.0, f.prog), "h");
  f.run();
  std::vector<double> v = f.read("f");
  std::vector<double> logs;
  for (double x : v) {
    assert_true(x >= 1.0 && x <= 1000.0);
    logs.push_back(std::log(x));
  }
  // ln(x) is uniform on [0, ln 1000].
  const double range = std::log(1000.0);
  expectWithin(stats(logs).mean, range / 2, range / std::sqrt(12.0 * double(kSamples)), 4, "log-uniform log mean");
  Stats i = stats(f.read("i"));
  assert_true(i.min >= 3.0 && i.max <= 100.0);
  Stats h = stats(f.read("h")); // squeezed to the half values 2050 .. 4096
  assert_true(h.min >= 2050.0 && h.max <= 4096.0);
}

// ---- dropout ----

void test_dropout_keeps_p_and_scales_exactly(void **) {
  RandFixture f;
  Tensor in = f.reference({400, 250});
  f.graph.createHostWrite("in", in);
  const double keep = 0.8, scale = 1.0 / keep;
  Tensor ref = f.graph.clone(in, "dropref");
  f.readable(poprand::dropout(f.graph, &f.seed, 5, in, ref, keep, scale, f.prog), "d");
  f.readable(poprand::bernoulli(f.graph, &f.seed, 5, ref, FLOAT, keep, f.prog), "mask");
  Tensor inH = f.graph.addVariable(HALF, {999}, "inH");
  poputil::mapTensorLinearly(f.graph, inH);
  f.graph.createHostWrite("inH", inH);
  f.readable(poprand::dropout(f.graph, &f.seed, 6, inH, inH, 0.5, 2.0, false, f.prog), "dh");
  std::vector<float> host = poplibs_test::floats(kSamples, 3);
  f.engine.reset(new Engine(f.graph, f.prog));
  f.engine->load(f.device);
  f.engine->writeTensor("seed", kSeed, kSeed + 2);
  f.engine->writeTensor("in", host.data(), host.data() + host.size());
  std::vector<float> ones(999, 1.25f);
  std::vector<std::uint16_t> onesH(999);
  copyFloatToDeviceHalf(f.graph.getTarget(), ones.data(), onesH.data(), ones.size());
  f.engine->writeTensor("inH", onesH.data(), onesH.data() + onesH.size());
  f.engine->run(0);
  std::vector<double> d = f.read("d"), mask = f.read("mask");
  double kept = 0;
  for (std::size_t k = 0; k < d.size(); ++k) {
    const float want = host[k] * float(scale); // exactly the float product
    if (mask[k] == 1.0) {
      kept += 1;
      if (d[k] != double(want)) {
        print_error("dropout[%zu] = %.9g, want %.9g (input %.9g * scale)\n", k, d[k], double(want), host[k]);
        fail();
      }
    } else if (d[k] != 0.0) {
      print_error("dropout[%zu] = %.9g where the bernoulli mask of the same seed is 0\n", k, d[k]);
      fail();
    }
  }
  const double n = double(kSamples);
  expectWithin(kept, n * keep, std::sqrt(n * keep * (1 - keep)), 4, "dropout kept elements");
  double keptH = 0;
  for (double x : f.read("dh")) { // HALF: 0 or exactly 2 * 1.25
    assert_true(x == 0.0 || x == 2.5);
    keptH += x != 0.0;
  }
  expectWithin(keptH, 999 * 0.5, std::sqrt(999 * 0.25), 4, "half dropout kept elements");
}

void test_shaped_dropout_drops_whole_rows(void **) {
  RandFixture f(8);
  Tensor in = f.reference({64, 33});
  f.graph.createHostWrite("in", in);
  Tensor ref = f.reference({64, 1});
  f.readable(poprand::shapedDropout(f.graph, &f.seed, 0, in, ref, 0.5, 2.0, f.prog), "s");
  // HALF, a rank-1 reference broadcast over the rows of a transposed view: whole columns drop.
  Tensor inH = f.graph.addVariable(HALF, {40, 7}, "inH");
  poputil::mapTensorLinearly(f.graph, inH);
  f.graph.createHostWrite("inH", inH);
  Tensor refH = f.reference({40});
  f.readable(poprand::shapedDropout(f.graph, &f.seed, 1, inH.transpose(), refH, 0.5, 4.0, f.prog), "sh");
  std::vector<float> host(64 * 33, 1.5f), hostH(40 * 7, 0.5f);
  std::vector<std::uint16_t> rawH(hostH.size());
  copyFloatToDeviceHalf(f.graph.getTarget(), hostH.data(), rawH.data(), hostH.size());
  f.engine.reset(new Engine(f.graph, f.prog));
  f.engine->load(f.device);
  f.engine->writeTensor("seed", kSeed, kSeed + 2);
  f.engine->writeTensor("in", host.data(), host.data() + host.size());
  f.engine->writeTensor("inH", rawH.data(), rawH.data() + rawH.size());
  f.engine->run(0);
  std::vector<double> sh = f.read("sh"); // {7, 40}: column c of row r is element r * 40 + c
  unsigned keptCols = 0;
  for (unsigned c = 0; c < 40; ++c) {
    const double first = sh[c];
    assert_true(first == 0.0 || first == 2.0);
    for (unsigned r = 0; r < 7; ++r)
      assert_true(sh[r * 40 + c] == first);
    keptCols += first != 0.0;
  }
  assert_true(keptCols > 0 && keptCols < 40);
  std::vector<double> s = f.read("s");
  unsigned keptRows = 0;
  for (unsigned r = 0; r < 64; ++r) {
    const double first = s[r * 33];
    assert_true(first == 0.0 || first == 3.0);
    for (unsigned c = 0; c < 33; ++c)
      assert_true(s[r * 33 + c] == first);
    keptRows += first != 0.0;
  }
  assert_true(keptRows > 0 && keptRows < 64);
}

// ---- determinism ----

/// uniform and normal of 5000 elements under the fixed seed on `tiles` tiles, the reference mapped `how`.
std::vector<double> drawOn(unsigned tiles, int how, uint32_t modifier) {
  RandFixture f(tiles);
  Tensor ref = f.graph.addVariable(FLOAT, {50, 100}, "ref");
  if (how == 0)
    poputil::mapTensorLinearly(f.graph, ref);
  else // column-major blocks: the element order on the tiles differs from the reference's
    for (unsigned c = 0; c < 100; ++c)
      f.graph.setTileMapping(ref.slice(c, c + 1, 1), (c * 7) % tiles);
  std::vector<double> out;
  f.readable(poprand::uniform(f.graph, &f.seed, modifier, ref, FLOAT, 0.0, 1.0, f.prog), "u");
  f.readable(poprand::normal(f.graph, &f.seed, modifier, ref.transpose(), FLOAT, 0.0, 1.0, f.prog), "n");
  f.run();
  std::vector<double> u = f.read("u"), n = f.read("n");
  out.insert(out.end(), u.begin(), u.end());
  out.insert(out.end(), n.begin(), n.end());
  return out;
}

void test_same_seed_same_numbers_on_1_4_13_tiles(void **) {
  std::vector<double> base = drawOn(1, 0, 3);
  for (unsigned tiles : {4u, 13u})
    for (int how : {0, 1}) {
      std::vector<double> other = drawOn(tiles, how, 3);
      assert_int_equal(other.size(), base.size());
      for (std::size_t k = 0; k < base.size(); ++k)
        if (other[k] != base[k]) {
          print_error("%u tiles, mapping %d: element %zu is %.9g, on 1 tile %.9g\n", tiles, how, k, other[k],
                      base[k]);
          fail();
        }
    }
  std::vector<double> modified = drawOn(4, 0, 4);
  std::size_t differ = 0;
  for (std::size_t k = 0; k < base.size(); ++k)
    differ += modified[k] != base[k];
  assert_true(differ > base.size() * 99 / 100);
}

void test_same_seed_twice_and_other_seed(void **) {
  RandFixture f(4);
  Tensor ref = f.reference({3001});
  f.readable(poprand::uniform(f.graph, &f.seed, 9, ref, FLOAT, 0.0, 1.0, f.prog), "a");
  f.readable(poprand::uniform(f.graph, &f.seed, 9, ref, FLOAT, 0.0, 1.0, f.prog), "b");
  f.run();
  std::vector<double> a = f.read("a"), b = f.read("b");
  assert_true(a == b);
  const unsigned other[2] = {kSeed[0] + 1, kSeed[1]};
  f.rerun(other);
  std::vector<double> c = f.read("a");
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    differ += a[k] != c[k];
  assert_true(differ > a.size() * 99 / 100);
}

// ---- generator state ----

void test_set_seed_and_hw_seeds(void **) {
  RandFixture f(4);
  Tensor ref = f.reference({2000});
  poprand::setSeed(f.graph, f.seed, 11, f.prog);
  Tensor saved = poprand::getHwSeeds(f.graph, f.prog);
  assert_int_equal(saved.rank(), 3);
  assert_int_equal(saved.dim(0), 4);
  assert_int_equal(saved.dim(2), 4);
  f.readable(poprand::uniform(f.graph, nullptr, 0, ref, FLOAT, 0.0, 1.0, f.prog), "first");
  f.readable(poprand::uniform(f.graph, nullptr, 0, ref, FLOAT, 0.0, 1.0, f.prog), "advanced");
  poprand::setHwSeeds(f.graph, saved, f.prog);
  f.readable(poprand::uniform(f.graph, nullptr, 0, ref, FLOAT, 0.0, 1.0, f.prog), "restored");
  f.readable(saved, "saved");
  f.run();
  std::vector<double> first = f.read("first"), advanced = f.read("advanced"), restored = f.read("restored");
  assert_true(first == restored); // setHwSeeds brings the state back
  std::size_t differ = 0;
  for (std::size_t k = 0; k < first.size(); ++k)
    differ += first[k] != advanced[k];
  assert_true(differ > first.size() * 99 / 100); // the state advanced
  Stats s = stats(first);
  assert_true(s.min >= 0.0 && s.max <= 1.0);
  // setSeed's state: per worker (seed0, seed1 ^ mix, 0, stream), every stream distinct.
  std::vector<double> st = f.read("saved");
  assert_int_equal(st[0], kSeed[0]);
  assert_true(st[3] != st[7]);
  // The same seed in a second run gives the same numbers; another seed others.
  f.rerun(kSeed);
  assert_true(f.read("first") == first);
  const unsigned other[2] = {1, 2};
  f.rerun(other);
  assert_true(f.read("first") != first);
}

// ---- errors ----

void test_errors(void **) {
  RandFixture f(4);
  Tensor ref = f.reference({10});
  Tensor intSeed = f.graph.addVariable(INT, {2}, "intSeed");
  Tensor longSeed = f.graph.addVariable(UNSIGNED_INT, {3}, "longSeed");
  auto &g = f.graph;
  auto &p = f.prog;
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &intSeed, 0, ref, FLOAT, 0, 1, p); }, "two UNSIGNED_INT");
  expectThrow<poplibs_error>([&] { poprand::normal(g, &longSeed, 0, ref, FLOAT, 0, 1, p); }, "two UNSIGNED_INT");
  expectThrow<poplibs_error>([&] { poprand::setSeed(g, longSeed, 0, p); }, "two UNSIGNED_INT");
  expectThrow<poplibs_error>([&] { poprand::bernoulli(g, &f.seed, 0, ref, FLOAT, -0.1, p); }, "in [0, 1]");
  expectThrow<poplibs_error>([&] { poprand::bernoulli(g, &f.seed, 0, ref, FLOAT, 1.5, p); }, "in [0, 1]");
  expectThrow<poplibs_error>([&] { poprand::dropout(g, &f.seed, 0, ref, ref, 2.0, 0.5, p); }, "in [0, 1]");
  expectThrow<poplibs_error>([&] { poprand::normal(g, &f.seed, 0, ref, INT, 0, 1, p); }, "not supported");
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &f.seed, 0, ref, BOOL, 0, 1, p); }, "not supported");
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &f.seed, 0, ref, FLOAT, 1, 0, p); }, "minVal <= maxVal");
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &f.seed, 0, ref, INT, 0.5, 3, p); }, "integer bounds");
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &f.seed, 0, ref, HALF, 7e4, 8e4, p); }, "holds no value");
  expectThrow<poplibs_error>([&] { poprand::truncatedNormal(g, &f.seed, 0, ref, FLOAT, 0, 1, 0, p); }, "alpha");
  expectThrow<poplibs_error>([&] { poprand::normal(g, &f.seed, 0, ref, FLOAT, 0, -1, p); }, "stdDev");
  expectThrow<poplibs_error>([&] { poprand::logUniform(g, &f.seed, 0, ref, FLOAT, 0.5, 4, p); }, "starts at 1");
  expectThrow<poplibs_error>([&] { poprand::logUniform(g, &f.seed, 0, ref, INT, 2.2, 2.8, p); }, "holds no value");
  Tensor ints = f.graph.addVariable(INT, {10}, "ints");
  poputil::mapTensorLinearly(f.graph, ints);
  expectThrow<poplibs_error>([&] { poprand::dropout(g, &f.seed, 0, ints, ints, 0.5, 2, p); }, "FLOAT or HALF");
  Tensor other = f.reference({5, 2});
  expectThrow<poplibs_error>([&] { poprand::dropout(g, &f.seed, 0, ref, other, 0.5, 2, p); }, "shape");
  expectThrow<poplibs_error>([&] { poprand::shapedDropout(g, &f.seed, 0, other, ref, 0.5, 2, p); },
                             "does not broadcast");
  Tensor unmapped = f.graph.addVariable(FLOAT, {4}, "unmapped");
  expectThrow<poplibs_error>([&] { poprand::uniform(g, &f.seed, 0, unmapped, FLOAT, 0, 1, p); }, "unmapped");
  Tensor badSeeds = f.graph.addVariable(UNSIGNED_INT, {4, 6, 3}, "bad");
  expectThrow<poplibs_error>([&] { poprand::setHwSeeds(g, badSeeds, p); }, "(tiles, workers, 4)");
  // A graph that never saw poprand::addCodelets has no generator state.
  Graph bare(f.device.getTarget());
  Tensor bareRef = bare.addVariable(FLOAT, {4}, "r");
  bare.setTileMapping(bareRef, 0);
  expectThrow<poplibs_error>([&] { poprand::uniform(bare, nullptr, 0, bareRef, FLOAT, 0, 1, p); },
                             "poprand::addCodelets");
  // Nor does a graph made where a graph with poprand's state was destroyed (its heap block is often reused).
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<Graph> gone(new Graph(f.device.getTarget()));
    poprand::addCodelets(*gone);
    gone.reset();
    Graph fresh(f.device.getTarget());
    Tensor freshRef = fresh.addVariable(FLOAT, {4}, "r");
    fresh.setTileMapping(freshRef, 0);
    expectThrow<poplibs_error>([&] { poprand::setSeed(fresh, f.seed, 0, p); }, "poprand::addCodelets");
  }
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_philox_known_answer_vectors),
      cmocka_unit_test(test_uniform_float_statistics_and_host_reference),
      cmocka_unit_test(test_uniform_half_and_int),
      cmocka_unit_test(test_normal_float_and_half),
      cmocka_unit_test(test_truncated_normal_bounds_and_moments),
      cmocka_unit_test(test_bernoulli_rates),
      cmocka_unit_test(test_log_uniform),
      cmocka_unit_test(test_dropout_keeps_p_and_scales_exactly),
      cmocka_unit_test(test_shaped_dropout_drops_whole_rows),
      cmocka_unit_test(test_same_seed_same_numbers_on_1_4_13_tiles),
      cmocka_unit_test(test_same_seed_twice_and_other_seed),
      cmocka_unit_test(test_set_seed_and_hw_seeds),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
