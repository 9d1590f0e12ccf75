// popops::cast to and from QUARTER with metadata (F143 and F152, positive and negative scales; from FLOAT and
// HALF, into a new tensor and into one with its own metadata; a variable metadata changed between runs) on an
// ipu2-shaped IPU Model and a one-tile one, against Poplar's host conversion (poplar::convertToDeviceType /
// convertFromDeviceType), and its errors.
#include <cmath>
#include <limits>

#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>
#include <popops/Cast.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

// Normals, subnormals, exact ties between neighbours, the largest values and beyond, zeros, infinities and NaN.
std::vector<float> quarterValues() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.3f, 3.14159f, -17.5f, 19.0f, 240.0f, 250.0f, 1000.0f, -1e6f,
                          1e-4f, std::ldexp(1.0f, -11), 3 * std::ldexp(1.0f, -11), std::ldexp(1.0f, -18), 1e-30f,
                          inf, -inf, std::numeric_limits<float>::quiet_NaN(), 57344.0f, 0.0625f, -0.1f};
  for (int k = -12; k < 12; ++k)
    v.push_back(std::ldexp(1.0f + float(k & 7) / 16.0f, k) * (k & 1 ? -1.0f : 1.0f));
  return v;
}

std::vector<unsigned char> toQuarter(const std::vector<float> &v, const QuarterMetadata &md) {
  std::vector<unsigned char> q(v.size());
  convertToDeviceType(QUARTER, md, v, q.data());
  return q;
}

std::vector<float> fromQuarter(const std::vector<unsigned char> &q, const QuarterMetadata &md) {
  std::vector<float> v(q.size());
  convertFromDeviceType(QUARTER, md, q.data(), v);
  return v;
}

// Equal values, or both NaN.
void expectSame(const std::vector<float> &got, const std::vector<float> &want, const char *what) {
  assert_int_equal(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))) {
      print_error("%s[%zu]: got %g, want %g\n", what, i, double(got[i]), double(want[i]));
      fail();
    }
}

void checkCast(unsigned tiles) {
  Fixture f(tiles);
  const std::vector<float> v = quarterValues();
  const std::size_t n = v.size();
  const QuarterMetadata a(QuarterMetadata::Format::F143, 0), b(QuarterMetadata::Format::F152, -3),
      c(QuarterMetadata::Format::F143, 5);
  Tensor x = f.var(FLOAT, {n}, "x"), h = f.var(HALF, {n}, "h");
  // FLOAT -> QUARTER (F143, scale 0, a variable metadata) -> FLOAT.
  Tensor mdA = createVariableMetadataTensor(f.graph, a.getFormat(), a.getScale());
  Tensor qa = popops::cast(f.graph, x, QUARTER, mdA, f.prog, "toA");
  assert_true(qa.elementType() == QUARTER && qa.hasMetadata() && qa.shape() == x.shape());
  Tensor backA = popops::cast(f.graph, qa, FLOAT, f.prog);
  // HALF -> QUARTER (F152, scale -3, a constant metadata) -> HALF.
  Tensor mdB = createConstantMetadataTensor(f.graph, b.getFormat(), b.getScale());
  Tensor qb = popops::cast(f.graph, h, QUARTER, mdB, f.prog);
  Tensor backB = popops::cast(f.graph, qb, HALF, f.prog);
  // Into a QUARTER variable with its own metadata (F143, scale 5), and from it into a FLOAT variable.
  Tensor mdC = createConstantMetadataTensor(f.graph, c.getFormat(), c.getScale());
  Tensor qc = f.graph.addVariable(QUARTER, mdC, {n}, "qc");
  poputil::mapTensorLinearly(f.graph, qc, 3, 1);
  Tensor backC = f.var(FLOAT, {n}, "backC");
  popops::castWithOutput(f.graph, x, qc, f.prog);
  popops::cast(f.graph, qc, backC, f.prog);
  f.graph.createHostWrite("mdA", mdA.reinterpret(UNSIGNED_CHAR)); // the variable metadata, changed between runs
  f.readable(qa.reinterpret(UNSIGNED_CHAR), "qa");
  f.readable(qb.reinterpret(UNSIGNED_CHAR), "qb");
  f.readable(qc.reinterpret(UNSIGNED_CHAR), "qc");
  f.readable(backA, "backA");
  f.readable(backB, "backB");
  f.build();
  f.write("x", v);
  f.writeHalf("h", v);
  f.engine->run(0);

  const std::vector<unsigned char> wantA = toQuarter(v, a), wantB = toQuarter(f.rh(v), b), wantC = toQuarter(v, c);
  expectEqual(f.read<unsigned char>("qa", n), wantA, "FLOAT to QUARTER F143");
  expectEqual(f.read<unsigned char>("qb", n), wantB, "HALF to QUARTER F152 scale -3");
  expectEqual(f.read<unsigned char>("qc", n), wantC, "castWithOutput FLOAT to QUARTER F143 scale 5");
  expectSame(f.read<float>("backA", n), fromQuarter(wantA, a), "QUARTER F143 to FLOAT");
  expectSame(f.readHalf("backB", n), f.rh(fromQuarter(wantB, b)), "QUARTER F152 to HALF");
  expectSame(f.read<float>("backC.r", n), fromQuarter(wantC, c), "cast QUARTER into a FLOAT tensor");

  // The vertices read the metadata when the program runs: a new format and scale in mdA change qa and backA.
  const QuarterMetadata a2(QuarterMetadata::Format::F152, -7);
  const std::vector<unsigned char> a2Byte = {a2.getBinary()};
  f.write("mdA", a2Byte);
  f.engine->run(0);
  const std::vector<unsigned char> wantA2 = toQuarter(v, a2);
  expectEqual(f.read<unsigned char>("qa", n), wantA2, "FLOAT to QUARTER after the metadata changed");
  expectSame(f.read<float>("backA", n), fromQuarter(wantA2, a2), "QUARTER to FLOAT after the metadata changed");
}

void test_cast_quarter_ipu2(void **) { checkCast(1472); }
void test_cast_quarter_tiny(void **) { checkCast(1); }

void test_cast_quarter_errors(void **) {
  Fixture f(4);
  Tensor x = f.var(FLOAT, {8}, "x"), i = f.var(INT, {8}, "i"), y = f.var(FLOAT, {4}, "y");
  Tensor md = createConstantMetadataTensor(f.graph, QuarterMetadata::Format::F143, 0);
  Tensor q = f.graph.addVariable(QUARTER, md, {8}, "q");
  poputil::mapTensorLinearly(f.graph, q);
  using poputil::poplibs_error;
  Sequence p;
  // No longer an error: without metadata the QUARTER result gets its own (quarter_cast_group_example runs it).
  assert_true(popops::cast(f.graph, x, QUARTER, p).hasMetadata());
  const char *onlyWith = "SIGNED_CHAR, UNSIGNED_CHAR and QUARTER only, not int";
  expectThrow<poplibs_error>([&] { popops::cast(f.graph, i, QUARTER, md, p); }, onlyWith);
  expectThrow<poplibs_error>([&] { popops::cast(f.graph, x, QUARTER, x, p); }, "one-element QUARTER_METADATA");
  expectThrow<poplibs_error>([&] { popops::cast(f.graph, q, i, p); }, onlyWith);
  expectThrow<poplibs_error>([&] { popops::castWithOutput(f.graph, y, q, p); }, "pass tensors of one shape");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cast_quarter_ipu2),
      cmocka_unit_test(test_cast_quarter_tiny),
      cmocka_unit_test(test_cast_quarter_errors),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
