// The compute-set and program-returning forms of popops::cast (to HALF, INT and QUARTER, from QUARTER) and
// checkAccuracyWhenCast, on an ipu2-shaped IPU Model and a one-tile one, against the host's conversions.
#include <cmath>

#include <poplar/MetadataCreation.hpp>
#include <poplar/TypeConversion.hpp>
#include <popops/Cast.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

void checkForms(unsigned tiles) {
  Fixture f(tiles);
  const std::size_t n = 30;
  const QuarterMetadata md(QuarterMetadata::Format::F152, 1);
  Tensor x = f.var(FLOAT, {n}, "x"), hOut = f.var(HALF, {n}, "hOut"), iOut = f.var(INT, {n}, "iOut");
  Tensor back = f.var(FLOAT, {n}, "back");
  Tensor mdT = createConstantMetadataTensor(f.graph, md.getFormat(), md.getScale());
  ComputeSet cs = f.graph.addComputeSet("casts");
  Tensor hNew = popops::cast(f.graph, x, HALF, cs, "toHalf");
  assert_true(hNew.elementType() == HALF && hNew.shape() == x.shape());
  popops::cast(f.graph, x, hOut, cs);
  Tensor q = popops::cast(f.graph, x, QUARTER, mdT, cs);
  assert_true(q.elementType() == QUARTER && q.hasMetadata());
  f.prog.add(Execute(cs));
  f.prog.add(popops::cast(f.graph, x, iOut));        // the program-returning form
  f.prog.add(popops::cast(f.graph, q, back, "back")); // ... from QUARTER
  // checkAccuracyWhenCast of each element of `a` alone.
  const std::vector<float> av = {1.0f, 1.0001f, 1e6f, 0.0f, 3.0f / 7.0f};
  const double tol = 1e-3;
  Tensor a = f.var(FLOAT, {av.size()}, "a");
  for (std::size_t k = 0; k < av.size(); ++k) {
    Tensor ok = popops::checkAccuracyWhenCast(f.graph, a.slice(k, k + 1), HALF, tol, f.prog);
    assert_true(ok.elementType() == BOOL && ok.numElements() == 1);
    f.readable(ok, "ok" + std::to_string(k));
  }
  f.readable(hNew, "hNew");
  f.readable(q.reinterpret(UNSIGNED_CHAR), "q");
  f.build();
  std::vector<float> v = floats(n, 5);
  for (std::size_t k = 0; k < n; ++k)
    v[k] *= 7.3f;
  f.write("x", v);
  f.write("a", av);
  f.engine->run(0);

  expectNear(f.readHalf("hNew", n), f.rh(v), "cast to a new HALF tensor in a compute set", 0);
  expectNear(f.readHalf("hOut.r", n), f.rh(v), "cast into a HALF tensor in a compute set", 0);
  std::vector<int> wantI(n);
  for (std::size_t k = 0; k < n; ++k)
    wantI[k] = int(v[k]); // truncation toward zero
  expectEqual(f.read<int>("iOut.r", n), wantI, "the program form, FLOAT to INT");
  std::vector<unsigned char> wantQ(n);
  convertToDeviceType(QUARTER, md, v, wantQ.data());
  expectEqual(f.read<unsigned char>("q", n), wantQ, "cast to QUARTER in a compute set");
  std::vector<float> wantBack(n);
  convertFromDeviceType(QUARTER, md, wantQ.data(), wantBack);
  expectNear(f.read<float>("back.r", n), wantBack, "the program form from QUARTER", 0);
  for (std::size_t k = 0; k < av.size(); ++k) {
    const float err = std::fabs(f.rh(av[k]) - av[k]);
    const unsigned char want = std::fabs(av[k]) * float(tol) > err ? 1 : 0;
    expectEqual(f.read<unsigned char>("ok" + std::to_string(k), 1), {want}, "checkAccuracyWhenCast");
  }
}

void test_cast_forms_ipu2(void **) { checkForms(1472); }
void test_cast_forms_tiny(void **) { checkForms(1); }

void test_cast_form_errors(void **) {
  Fixture f(4);
  Tensor x = f.var(FLOAT, {8}, "x"), h = f.var(HALF, {1}, "h");
  using poputil::poplibs_error;
  Sequence p;
  ComputeSet cs = f.graph.addComputeSet("bad");
  // No longer an error: without metadata the QUARTER result gets its own (quarter_cast_group_example runs it).
  assert_true(popops::cast(f.graph, x, QUARTER, cs).hasMetadata());
  expectThrow<poplibs_error>([&] { popops::checkAccuracyWhenCast(f.graph, h, HALF, 0.1, p); }, "FLOAT input");
  expectThrow<poplibs_error>([&] { popops::checkAccuracyWhenCast(f.graph, x, HALF, 0.1, p); },
                             "pass a tensor of one element");
  expectThrow<poplibs_error>([&] { popops::cast(f.graph, Tensor(), HALF, cs); }, "invalid");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cast_forms_ipu2),
      cmocka_unit_test(test_cast_forms_tiny),
      cmocka_unit_test(test_cast_form_errors),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
