// popfloat/experimental (libpopfloat): the enumerations' names and storage types, the host single<->half
// conversions against the compiler's _Float16 (every half; singles across half's range, its denormals, ties and
// overflow) and against popops' FLOAT to HALF cast on 16-tile and one-tile IPU Models after popfloat's addCodelets.
#include <cmath>
#include <cstring>

#include <popfloat/experimental/CastToHalf.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <popops/Cast.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
namespace pf = popfloat::experimental;

namespace {

uint16_t bitsOf(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

void test_names(void **) {
  assert_string_equal(pf::roundTypeToString(pf::RoundType::RN).c_str(), "RN");
  assert_string_equal(pf::roundTypeToString(pf::RoundType::INV).c_str(), "INV");
  assert_string_equal(pf::formatTypeToString(pf::FormatType::BFLOAT16).c_str(), "BFLOAT16");
  assert_string_equal(pf::formatTypeToString(pf::FormatType::ENABLE_DENORM_GF16).c_str(), "ENABLE_DENORM_GF16");
  assert_string_equal(pf::srDensityTypeToString(pf::SRDensityType::TRUNCATED_LOGIT_NORMAL).c_str(),
                      "TRUNCATED_LOGIT_NORMAL");
  assert_string_equal(pf::specTypeToString(pf::SpecType::AUTO).c_str(), "AUTO");
  assert_string_equal(poputil::templateVertex("V", pf::RoundType::SR, pf::SpecType::FP16).c_str(),
                      "V<popfloat::experimental::RoundType::SR,popfloat::experimental::SpecType::FP16>");
  assert_true(pf::specTypeToPoplarType(pf::SpecType::FP32) == FLOAT);
  assert_true(pf::specTypeToPoplarType(pf::SpecType::BF16) == FLOAT);
  assert_true(pf::specTypeToPoplarType(pf::SpecType::FP16) == HALF);
  assert_true(pf::specTypeToPoplarType(pf::SpecType::INT8) == SIGNED_CHAR);
  assert_true(pf::specTypeToPoplarType(pf::SpecType::INT16) == SHORT);
  assert_true(pf::specTypeToPoplarType(pf::SpecType::INT32) == INT);
  expectThrow<poputil::poplibs_error>([] { pf::specTypeToPoplarType(pf::SpecType::AUTO); }, "no single type");
  expectThrow<poputil::poplibs_error>([] { pf::roundTypeToString(static_cast<pf::RoundType>(99)); }, "RoundType");
}

void test_half_to_single(void **) {
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    _Float16 h;
    const uint16_t hb = uint16_t(b);
    std::memcpy(&h, &hb, 2);
    const float got = pf::halfToSingle(hb), want = float(h);
    if (std::isnan(want)) {
      assert_true(std::isnan(got));
      assert_int_equal(pf::singleToHalf(got) & 0x200u, hb & 0x200u); // the quiet bit survives a round trip
    } else {
      assert_memory_equal(&got, &want, 4);
      assert_int_equal(pf::singleToHalf(got), hb); // exact both ways
    }
  }
}

// Singles spread over half's range (normals, denormals, exact ties between neighbours) convert as _Float16 does.
std::vector<float> inRangeSingles() {
  std::vector<float> v;
  for (int e = -26; e <= 15; ++e)
    for (unsigned k = 0; k < 64; ++k) {
      const float m = 1.0f + float(k * 131 % 1024) / 1024.0f + float(k % 3) / 4096.0f; // some ties
      v.push_back(std::ldexp(m, e));
      v.push_back(-std::ldexp(m, e) * 0.999f);
    }
  return v;
}

void test_single_to_half(void **) {
  for (float f : inRangeSingles())
    if (std::fabs(f) < 65504.0f)
      assert_int_equal(pf::singleToHalf(f), bitsOf(_Float16(f)));
  // Overflow saturates (either NaN-on-overflow setting); infinities stay; NaN stays NaN with its quiet bit.
  for (bool nanoo : {false, true}) {
    assert_int_equal(pf::singleToHalf(1e6f, nanoo), 0x7bff);
    assert_int_equal(pf::singleToHalf(-70000.0f, nanoo), 0xfbff);
  }
  assert_int_equal(pf::singleToHalf(INFINITY), 0x7c00);
  assert_int_equal(pf::singleToHalf(-INFINITY), 0xfc00);
  const uint16_t qnan = pf::singleToHalf(std::nanf(""));
  assert_int_equal(qnan & 0x7c00u, 0x7c00u);
  assert_int_equal(qnan & 0x200u, 0x200u);
  const uint32_t snanBits = 0x7f800001u; // signalling, payload below half's mantissa: still a NaN
  float snan;
  std::memcpy(&snan, &snanBits, 4);
  const uint16_t s = pf::singleToHalf(snan);
  assert_int_equal(s & 0x7c00u, 0x7c00u);
  assert_true((s & 0x3ffu) != 0 && (s & 0x200u) == 0);
  assert_int_equal(pf::singleToHalf(1e-9f), 0);
  assert_int_equal(pf::singleToHalf(-1e-9f), 0x8000);
}

// popfloat::addCodelets gives a graph what popops' cast needs; the device's FLOAT to HALF agrees with singleToHalf.
void checkDevice(unsigned tiles) {
  IPUModel m = model(tiles);
  Device device = m.createDevice();
  Graph graph(device.getTarget());
  pf::addCodelets(graph);
  pf::addCodelets(graph); // twice is harmless
  const std::vector<float> v = inRangeSingles();
  Tensor x = graph.addVariable(FLOAT, {v.size()}, "x");
  poputil::mapTensorLinearly(graph, x);
  program::Sequence prog;
  Tensor h = popops::cast(graph, x, HALF, prog);
  graph.createHostWrite("x", x);
  graph.createHostRead("h", h.reinterpret(UNSIGNED_SHORT));
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("x", v.data(), v.data() + v.size());
  engine.run(0);
  std::vector<uint16_t> got(v.size());
  engine.readTensor("h", got.data(), got.data() + got.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    assert_int_equal(got[i], pf::singleToHalf(v[i]));
}

void test_device(void **) {
  checkDevice(16);
  checkDevice(1);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_half_to_single),
      cmocka_unit_test(test_single_to_half),
      cmocka_unit_test(test_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
