// poputil/OptionParsing.hpp: an OptionSpec stores each option's parsed value through its handler (enum, bool,
// integer in decimal and hex, bounded double, string, integer list, the optional forms), and rejects an unknown
// name, a value outside the enum, a bound crossed and text that is not a number, naming the option and value.
#include <optional>

#include <poputil/OptionParsing.hpp>

#include "poplibs_test.hpp"

using namespace poplibs;
using namespace poplibs_test;

namespace {

enum class Mode { FAST, SMALL };

void test_parse_values(void **) {
  Mode mode = Mode::FAST;
  bool flag = false;
  unsigned count = 0;
  double ratio = 0;
  std::string name;
  std::vector<unsigned> list;
  std::optional<float> limit;
  std::optional<Mode> maybe = Mode::SMALL;
  const OptionSpec spec{
      {"mode", OptionHandler::createWithEnum(mode, {{"fast", Mode::FAST}, {"small", Mode::SMALL}})},
      {"flag", OptionHandler::createWithBool(flag)},
      {"count", OptionHandler::createWithInteger(count)},
      {"ratio", OptionHandler::createWithDouble(ratio, 0.0, false, 1.0, true)},
      {"name", OptionHandler::createWithString(name)},
      {"list", OptionHandler::createWithList(list)},
      {"limit", createOptionalDoubleHandler(limit, 0.0)},
      {"maybe", createOptionalEnumHandler(maybe, {{"fast", Mode::FAST}, {"small", Mode::SMALL}})},
  };
  spec.parse("mode", "small");
  spec.parse("flag", "true");
  spec.parse("count", "0x1f");
  spec.parse("ratio", "1");
  spec.parse("name", "abc");
  spec.parse("list", "3,0x10,7");
  spec.parse("limit", "2.5");
  spec.parse("maybe", "none");
  spec.parse("unknown", "x", true); // ignored when asked
  assert_true(mode == Mode::SMALL);
  assert_true(flag);
  assert_int_equal(count, 31);
  assert_true(ratio == 1.0);
  assert_true(name == "abc");
  assert_true(list == (std::vector<unsigned>{3, 16, 7}));
  assert_true(limit && *limit == 2.5f);
  assert_false(maybe.has_value());
  spec.parse("count", "12");
  assert_int_equal(count, 12);
}

void test_parse_errors(void **) {
  Mode mode = Mode::FAST;
  double ratio = 0;
  unsigned count = 0;
  const OptionSpec spec{
      {"mode", OptionHandler::createWithEnum(mode, {{"fast", Mode::FAST}, {"small", Mode::SMALL}})},
      {"ratio", OptionHandler::createWithDouble(ratio, 0.0, false, 1.0, true)},
      {"count", OptionHandler::createWithInteger(count)},
  };
  expectThrow<poplar::invalid_option>([&] { spec.parse("speed", "1"); }, "Unrecognised option 'speed'");
  expectThrow<poplar::invalid_option>([&] { spec.parse("mode", "slow"); },
                                      "Invalid value 'slow' for option 'mode': Not one of the values: ['fast', "
                                      "'small']");
  expectThrow<poplar::invalid_option>([&] { spec.parse("ratio", "0"); }, "greater than 0");
  expectThrow<poplar::invalid_option>([&] { spec.parse("ratio", "1.5"); }, "less than or equal to 1");
  expectThrow<poplar::invalid_option>([&] { spec.parse("count", "12a"); }, "Not a valid integer");
  expectThrow<poplar::invalid_option>([&] { spec.parse("ratio", "x"); }, "Not a floating point number");
  expectThrow<poplar::invalid_option>(
      [] { OptionHandler::ensureValueIsWithinBounds(10.0, 0.0, false, 10.0, false); }, "less than 10");
  assert_true(parse::asBool("false") == false);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_values),
      cmocka_unit_test(test_parse_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
