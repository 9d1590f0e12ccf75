// ProfileValue: typed access and its errors, sums, JSON written and read back, CBOR against the examples of
// RFC 8949 appendix A and read back.
#include <sstream>
#include <string>

#include "poplar/ProfileValue.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using poplar::ProfileValue;

namespace {

std::string hex(const ProfileValue &v) {
  std::ostringstream os;
  poplar::serializeToCBOR(os, v);
  std::string out;
  const char *digits = "0123456789abcdef";
  for (unsigned char c : os.str()) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string json(const ProfileValue &v, bool pretty = false) {
  std::ostringstream os;
  poplar::serializeToJSON(os, v, pretty);
  return os.str();
}

template <typename Fn> void expectError(Fn fn, const char *text) {
  try {
    fn();
  } catch (const poplar::profiling_error &e) {
    if (std::string(e.what()).find(text) == std::string::npos) {
      print_error("message '%s' lacks '%s'\n", e.what(), text);
      fail();
    }
    return;
  }
  print_error("no profiling_error containing '%s'\n", text);
  fail();
}

void test_access(void **) {
  ProfileValue v;
  assert_true(v.isMap());
  v["name"] = "mul";
  v["cycles"] = ProfileValue::Vector{ProfileValue(3u), ProfileValue(4u), ProfileValue::Vector{ProfileValue(5u)}};
  v["ok"] = true;
  v["ratio"] = 0.5;
  v["delta"] = -7;
  const ProfileValue &c = v;
  assert_string_equal(c["name"].asString().c_str(), "mul");
  assert_int_equal(c["cycles"].size(), 3);
  assert_int_equal(c["cycles"][1].asUInt(), 4);
  assert_int_equal(c["cycles"].sumUInt(), 12);
  assert_true(c["ok"].asBool());
  assert_true(c["ratio"].asDouble() == 0.5);
  assert_int_equal(c["delta"].asInt(), -7);
  assert_true(c["cycles"].type() == ProfileValue::Type::VECTOR);
  assert_true(c.contains("ok") && !c.contains("missing"));
  expectError([&] { (void)c["missing"]; }, "no key 'missing' (keys: cycles, delta, name, ok, ratio)");
  expectError([&] { (void)c["name"].asUInt(); }, "asked for a number but the value is a string");
  expectError([&] { (void)c["delta"].asUInt(); }, "is negative");
  expectError([&] { (void)c["ratio"].asUInt(); }, "not a whole");
  expectError([&] { (void)c["cycles"][7]; }, "index 7 is out of range (size 3)");
  expectError([&] { (void)c["ok"].size(); }, "has no size");
}

void test_json(void **) {
  ProfileValue v;
  v["a"] = ProfileValue::Vector{ProfileValue(1u), ProfileValue(-2), ProfileValue(2.5), ProfileValue(3.0)};
  v["s"] = "q\"\\\n";
  v["b"] = false;
  v["m"] = ProfileValue::Map{};
  assert_string_equal(json(v).c_str(), "{\"a\":[1,-2,2.5,3.0],\"b\":false,\"m\":{},\"s\":\"q\\\"\\\\\\n\"}");
  assert_string_equal(json(v, true).c_str(),
                      "{\n  \"a\": [1, -2, 2.5, 3.0],\n  \"b\": false,\n  \"m\": {},\n  \"s\": \"q\\\"\\\\\\n\"\n}\n");
  assert_true(poplar::parseProfileJSON(json(v)) == v);
  assert_true(poplar::parseProfileJSON(json(v, true)) == v);
  assert_true(poplar::parseProfileJSON(json(v))["a"][3].isInteger() == false);
  expectError([] { poplar::parseProfileJSON("{\"a\": [1, }"); }, "at offset 10");
}

void test_cbor_rfc8949(void **) {
  // RFC 8949 appendix A: value -> encoding.
  assert_string_equal(hex(ProfileValue(0u)).c_str(), "00");
  assert_string_equal(hex(ProfileValue(1u)).c_str(), "01");
  assert_string_equal(hex(ProfileValue(10u)).c_str(), "0a");
  assert_string_equal(hex(ProfileValue(23u)).c_str(), "17");
  assert_string_equal(hex(ProfileValue(24u)).c_str(), "1818");
  assert_string_equal(hex(ProfileValue(100u)).c_str(), "1864");
  assert_string_equal(hex(ProfileValue(1000u)).c_str(), "1903e8");
  assert_string_equal(hex(ProfileValue(1000000u)).c_str(), "1a000f4240");
  assert_string_equal(hex(ProfileValue(1000000000000ull)).c_str(), "1b000000e8d4a51000");
  assert_string_equal(hex(ProfileValue(18446744073709551615ull)).c_str(), "1bffffffffffffffff");
  assert_string_equal(hex(ProfileValue(-1)).c_str(), "20");
  assert_string_equal(hex(ProfileValue(-10)).c_str(), "29");
  assert_string_equal(hex(ProfileValue(-100)).c_str(), "3863");
  assert_string_equal(hex(ProfileValue(-1000)).c_str(), "3903e7");
  assert_string_equal(hex(ProfileValue(1.1)).c_str(), "fb3ff199999999999a");
  assert_string_equal(hex(ProfileValue(1.0e+300)).c_str(), "fb7e37e43c8800759c");
  assert_string_equal(hex(ProfileValue(-4.1)).c_str(), "fbc010666666666666");
  assert_string_equal(hex(ProfileValue(false)).c_str(), "f4");
  assert_string_equal(hex(ProfileValue(true)).c_str(), "f5");
  assert_string_equal(hex(ProfileValue("")).c_str(), "60");
  assert_string_equal(hex(ProfileValue("a")).c_str(), "6161");
  assert_string_equal(hex(ProfileValue("IETF")).c_str(), "6449455446");
  assert_string_equal(hex(ProfileValue(ProfileValue::Vector{})).c_str(), "80");
  ProfileValue::Vector v123{ProfileValue(1u), ProfileValue(2u), ProfileValue(3u)};
  assert_string_equal(hex(ProfileValue(v123)).c_str(), "83010203");
  ProfileValue::Vector nested{ProfileValue(1u), ProfileValue::Vector{ProfileValue(2u), ProfileValue(3u)},
                              ProfileValue::Vector{ProfileValue(4u), ProfileValue(5u)}};
  assert_string_equal(hex(ProfileValue(nested)).c_str(), "8301820203820405");
  assert_string_equal(hex(ProfileValue()).c_str(), "a0");
  ProfileValue m;
  m["a"] = 1u;
  m["b"] = ProfileValue::Vector{ProfileValue(2u), ProfileValue(3u)};
  assert_string_equal(hex(m).c_str(), "a26161016162820203");
  ProfileValue::Vector items;
  for (unsigned i = 0; i < 25; ++i)
    items.push_back(ProfileValue(i + 1));
  assert_string_equal(hex(ProfileValue(items)).substr(0, 6).c_str(), "981901"); // 25 items: one-byte length
  // Read back.
  std::ostringstream os;
  ProfileValue all;
  all["m"] = m;
  all["n"] = ProfileValue(nested);
  all["d"] = -4.1;
  all["neg"] = -1000;
  all["t"] = true;
  poplar::serializeToCBOR(os, all);
  assert_true(poplar::parseProfileCBOR(os.str()) == all);
  expectError([] { poplar::parseProfileCBOR(std::string("\x9f", 1)); }, "indefinite length");
}

/// Issue 36: 30,000 nested arrays crashed the readers (they recurse); now a clear error at a documented depth.
void test_nesting_limit(void **) {
  const std::string deepJson = std::string(30000, '[') + std::string(30000, ']');
  expectError([&] { poplar::parseProfileJSON(deepJson); }, "nested deeper than 512 levels");
  const std::string deepCbor = std::string(30000, '\x81') + std::string(1, '\0');
  expectError([&] { poplar::parseProfileCBOR(deepCbor); }, "nested deeper than 512 levels");
  // 512 levels (the limit) still read, in both formats.
  ProfileValue v(1u);
  for (int i = 1; i < 512; ++i)
    v = ProfileValue(ProfileValue::Vector{v});
  assert_true(poplar::parseProfileJSON(json(v)) == v);
  std::ostringstream os;
  poplar::serializeToCBOR(os, v);
  assert_true(poplar::parseProfileCBOR(os.str()) == v);
}

/// Issue 36: numbers that do not fit were shown as something else (2^64 as 2^64-1, 1e300 as 0).
void test_numbers_out_of_range(void **) {
  expectError([] { poplar::parseProfileJSON("18446744073709551616"); }, "out of range");
  expectError([] { poplar::parseProfileJSON("-9223372036854775809"); }, "out of range");
  expectError([] { poplar::parseProfileJSON("1e999"); }, "out of range");
  expectError([] { poplar::parseProfileJSON("[1-2]"); }, "unexpected number literal; expected ']' at offset 3");
  assert_true(poplar::parseProfileJSON("18446744073709551615").asUInt() == 18446744073709551615ull);
  expectError([] { poplar::parseProfileJSON("1e300").asUInt(); }, "not a whole number from 0 to 2^64-1");
  expectError([] { ProfileValue(18446744073709551616.0).asUInt(); }, "2^64-1");
  expectError([] { ProfileValue(1e300).asInt(); }, "not a whole number from -2^63");
  expectError([] { ProfileValue(18446744073709551615ull).asInt(); }, "above 2^63-1");
  assert_true(ProfileValue(9007199254740992.0).asUInt() == 9007199254740992ull);
  expectError([] { poplar::parseProfileCBOR(std::string("\x3b\xff\xff\xff\xff\xff\xff\xff\xff", 9)); },
              "below -2^63");
  // Surrogate pairs in profile strings (one JSON string reader for options and profiles).
  assert_true(poplar::parseProfileJSON("\"\\ud83d\\ude00\"").asString() == "\xF0\x9F\x98\x80");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_access),
      cmocka_unit_test(test_json),
      cmocka_unit_test(test_cbor_rfc8949),
      cmocka_unit_test(test_nesting_limit),
      cmocka_unit_test(test_numbers_out_of_range),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
