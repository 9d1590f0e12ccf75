// Unit tests of the Poplar API surface that needs no device: types, tensor views, tile mappings, targets, options,
// program construction and its errors.
#include <sstream>
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;

namespace {

/// Runs `fn` and checks that it throws E whose message contains `text`.
std::string str(const Tensor &t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

void test_types(void **) {
  assert_int_equal(FLOAT.getSize(), 4);
  assert_int_equal(HALF.getSize(), 2);
  assert_int_equal(UNSIGNED_SHORT.getSize(), 2);
  assert_int_equal(BOOL.getSize(), 1);
  assert_true(FLOAT.toString() == "float");
  assert_true(typeFromString("unsigned int") == UNSIGNED_INT);
  assert_true(FLOAT != INT);
  expectThrow<poplar_error>([] { typeFromString("double"); }, "unknown type name 'double'");
  Target t = Target::createIPUTarget("tiny");
  float in[4] = {1.5f, -2.0f, 65504.0f, 0.1f}, out[4];
  unsigned short half[4];
  copyFloatToDeviceHalf(t, in, half, 4);
  assert_int_equal(half[0], 0x3e00);
  assert_int_equal(half[1], 0xc000);
  assert_int_equal(half[2], 0x7bff);
  copyDeviceHalfToFloat(t, half, out, 4);
  assert_true(out[0] == 1.5f && out[1] == -2.0f && out[2] == 65504.0f);
  assert_true(out[3] > 0.0999f && out[3] < 0.1001f);
}

void test_targets(void **) {
  Target t1 = Target::createIPUTarget("ipu1");
  assert_int_equal(t1.getNumTiles(), 1216);
  assert_int_equal(t1.getBytesPerTile(), 256 * 1024);
  Target t2 = Target::createIPUTarget(1, "ipu2");
  assert_int_equal(t2.getTilesPerIPU(), 1472);
  assert_int_equal(t2.getBytesPerTile(), 638976);
  assert_int_equal(t2.getNumWorkerContexts(), 6);
  assert_true(t2.getTileClockFrequency() > 1e9);
  assert_int_equal(t2.getFloatVectorWidth(), t2.getDataPathWidth() / 32);
  Target cpu = Target::createCPUTarget();
  assert_int_equal(cpu.getNumTiles(), 1);
  assert_int_equal(cpu.getNumWorkerContexts(), 1);
  assert_true(cpu.getTargetType() == TargetType::CPU);
  IPUModel model("ipu1");
  model.tilesPerIPU = 8;
  model.memoryPerTile = 128 * 1024;
  Device d = model.createDevice();
  assert_int_equal(d.getTarget().getNumTiles(), 8);
  assert_int_equal(d.getTarget().getBytesPerTile(), 128 * 1024);
  assert_true(d.getTarget().getTargetType() == TargetType::IPU_MODEL);
  expectThrow<invalid_option>([] { IPUModel m("ipu9"); }, "unknown IPU version or board 'ipu9'");
  model.memoryPerTile = 2u << 20;
  expectThrow<invalid_option>([&] { model.createTarget(); }, "memoryPerTile");
}

void test_tensor_views(void **) {
  Graph g(Target::createIPUTarget("tiny"));
  Tensor v = g.addVariable(FLOAT, {4, 4}, "v");
  assert_int_equal(v.numElements(), 16);
  assert_int_equal(v.rank(), 2);
  Tensor s = v.slice({1, 1}, {2, 4});
  assert_int_equal(s.numElements(), 3);
  assert_true(str(s) == "float{1,3} {v[5,8)}");
  assert_true(str(v[2]) == "float{4} {v[8,12)}");
  assert_true(str(v.slice(1, 3, 1)) == "float{4,2} {v[1,3), v[5,7), v[9,11), v[13,15)}");
  Tensor t = v.transpose();
  assert_int_equal(t.dim(0), 4);
  assert_true(str(t[0]) == "float{4} {v[0,1), v[4,5), v[8,9), v[12,13)}");
  assert_true(str(v.reshape({2, 8})[1]) == "float{8} {v[8,16)}");
  assert_true(str(v.flatten().slice(3, 6)) == "float{3} {v[3,6)}");
  Tensor w = g.addVariable(FLOAT, {2, 4}, "w");
  Tensor c = concat(v, w);
  assert_int_equal(c.dim(0), 6);
  assert_true(str(concat(v[0].reshape({1, 4}), w.slice(0, 1), 0)) == "float{2,4} {v[0,4), w[0,4)}");
  assert_true(str(concat(v.slice(0, 2), w, 1)) == "float{2,8} {v[0,4), w[0,4), v[4,8), w[4,8)}");
  assert_true(str(v[0].reverse(0)) == "float{4} {v[3,4), v[2,3), v[1,2), v[0,1)}");
  assert_true(str(v.dimShuffle({1, 0})) == str(t));
  assert_true(v.slice(0, 1).isContiguous());
  assert_false(t.isContiguous());
  assert_true(v.expand({0}).rank() == 3);
  assert_true(v.expand({0}).squeeze({0}).rank() == 2);
  expectThrow<index_error>([&] { v.slice(2, 5); }, "not inside dimension 0 of size 4");
  expectThrow<index_error>([&] { v[4]; }, "index out of range");
  expectThrow<index_error>([&] { v.reshape({3, 5}); }, "does not have the 16 elements");
  expectThrow<index_error>([&] { v.dimShuffle({0, 0}); }, "not a permutation");
  expectThrow<index_error>([&] { concat(v, g.addVariable(INT, {4, 4})); }, "element types differ");
}

void test_mapping(void **) {
  Graph g(Target::createIPUTarget("tiny"));
  Tensor v = g.addVariable(INT, {8}, "v");
  for (unsigned i = 0; i < 4; ++i)
    g.setTileMapping(v.slice(2 * i, 2 * i + 2), i);
  TileToTensorMapping m = g.getTileMapping(v);
  assert_int_equal(m.size(), 4);
  assert_true(m[2].size() == 1 && m[2][0] == Interval(4, 6));
  g.setTileMapping(v.slice(1, 3), 3);
  m = g.getTileMapping(v);
  assert_true(m[0].size() == 1 && m[0][0] == Interval(0, 1));
  assert_true(m[3].size() == 2 && m[3][0] == Interval(1, 3) && m[3][1] == Interval(6, 8));
  Tensor u = g.addVariable(INT, {2}, "u");
  expectThrow<poplar_error>([&] { g.getTileMapping(u); }, "not mapped to a tile");
  expectThrow<poplar_error>([&] { g.setTileMapping(u, 4); }, "the graph has tiles 0..3");
  Graph vg = g.createVirtualGraph(2, 4);
  assert_int_equal(vg.getTarget().getNumTiles(), 2);
  Tensor x = vg.addVariable(FLOAT, {2}, "x");
  vg.setTileMapping(x, 1);
  assert_true(g.getTileMapping(x)[3].size() == 1);
  assert_true(vg.getTileMapping(x)[1].size() == 1);
}

void test_options(void **) {
  OptionFlags o{{"a", "1"}};
  readJSON(std::string("{\"debug.instrument\": \"true\", \"n\": 3, \"b\": false}"), o);
  assert_true(o.at("debug.instrument") == "true");
  assert_true(o.at("n") == "3");
  assert_true(o.at("b") == "false");
  assert_int_equal(o.size(), 4);
  expectThrow<invalid_option>([&] { o.at("zzz"); }, "option 'zzz' is not set");
  expectThrow<invalid_option>([&] { readJSON(std::string("{\"a\" \"b\"}"), o); }, "expected ':'");
}

/// Issue 36: the reader dropped the backslash of every escape ("tab\u0009here" read back "tabu0009here").
std::string optionFromJSON(const std::string &jsonValue) {
  OptionFlags o;
  readJSON("{\"k\": \"" + jsonValue + "\"}", o);
  return o.at("k");
}

void test_options_json_escapes(void **) {
  assert_true(optionFromJSON("r\\u0065p") == "rep");
  assert_true(optionFromJSON("tab\\u0009here") == "tab\there");
  assert_true(optionFromJSON("x\\ny") == "x\ny");
  assert_true(optionFromJSON("q\\\"b\\\\s\\/\\b\\f\\r\\t") == "q\"b\\s/\b\f\r\t");
  assert_true(optionFromJSON("\\u00e9\\u20AC") == "\xC3\xA9\xE2\x82\xAC");
  assert_true(optionFromJSON("\\ud83d\\ude00") == "\xF0\x9F\x98\x80"); // a surrogate pair: one code point
  expectThrow<invalid_option>([] { optionFromJSON("\\ud83d"); }, "high surrogate");
  expectThrow<invalid_option>([] { optionFromJSON("\\ude00"); }, "low surrogate");
  expectThrow<invalid_option>([] { optionFromJSON("\\u12"); }, "four hex digits");
  expectThrow<invalid_option>([] { optionFromJSON("\\q"); }, "unknown escape '\\q'");
  // JSON text is UTF-8 (RFC 8259): nlohmann-json refuses a byte that is not, rather than guess its character.
  expectThrow<invalid_option>([] { optionFromJSON("caf\xE9"); }, "ill-formed UTF-8 byte");
  // So the writer never writes such a byte: each maximal ill-formed subpart (Unicode chapter 3's practice for U+FFFD,
  // which nlohmann's replace handler and the WHATWG decoder follow) is written as U+FFFD, and the file reads back:
  // a cut sequence (Latin-1's lone lead byte, E2 82 with no third byte) is one replacement; a byte that no sequence
  // can go on with (an overlong lead, a surrogate's or a past-U+10FFFF second byte, a stray continuation) one each.
  const std::string replacement = "\xEF\xBF\xBD";
  OptionFlags notUtf8{{"latin1", "caf\xE9"}, {"cut", "\xE2\x82"}, {"cut.then.text", "\xE2\x82x\xE2\x82\xAC"},
                      {"overlong", "\xC0\xAF"}, {"surrogate", "\xED\xA0\x80"}, {"too.big", "\xF4\x90\x80\x80"}};
  std::ostringstream written;
  written << notUtf8;
  OptionFlags readBack;
  readJSON(written.str(), readBack);
  assert_true(readBack.at("latin1") == "caf" + replacement);
  assert_true(readBack.at("cut") == replacement);
  assert_true(readBack.at("cut.then.text") == replacement + "x\xE2\x82\xAC");
  assert_true(readBack.at("overlong") == replacement + replacement);
  assert_true(readBack.at("surrogate") == replacement + replacement + replacement);
  assert_true(readBack.at("too.big") == replacement + replacement + replacement + replacement);
  // Every ASCII byte, characters of two, three and four bytes, and every option the writer writes, read back
  // unchanged.
  std::string all;
  for (int c = 1; c < 128; ++c)
    all += char(c);
  all += "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  OptionFlags out{{"autoReport.directory", "r\\u0065p"}, {"all", all}, {"key\n\"quoted\"", "x\ny"}, {"e", ""}};
  std::ostringstream os;
  os << out;
  OptionFlags back;
  readJSON(os.str(), back);
  assert_int_equal(back.size(), out.size());
  for (const auto &kv : out)
    if (!back.contains(kv.first) || back.at(kv.first) != kv.second)
      fail_msg("option '%s' did not survive the round trip through %s", kv.first.c_str(), os.str().c_str());
}

void test_programs(void **) {
  Graph g(Target::createIPUTarget("tiny"));
  Tensor a = g.addVariable(FLOAT, {4}, "a");
  Tensor b = g.addVariable(FLOAT, {5}, "b");
  Tensor i = g.addVariable(INT, {4}, "i");
  expectThrow<poplar_error>([&] { program::Copy(a, b); }, "has 5 elements");
  expectThrow<poplar_error>([&] { program::Copy(a, i); }, "element types differ");
  Tensor p = g.addVariable(INT, {}, "p");
  program::Switch sw(p);
  sw.add(1, program::Sequence());
  expectThrow<poplar_error>([&] { sw.add(1, program::Sequence()); }, "case 1 already exists");
  expectThrow<poplar_error>([&] { program::If(a, program::Sequence()); }, "one element");
  DataStream s = g.addHostToDeviceFIFO("in", FLOAT, 4);
  expectThrow<poplar_error>([&] { program::Copy(a, s); }, "comes from the host");
  expectThrow<poplar_error>([&] { g.addHostToDeviceFIFO("in", FLOAT, 4); }, "already exists");
  program::Sequence seq(program::Copy(a, a), program::Sync(SyncType::INTERNAL));
  assert_false(seq.isEmpty());
  assert_true(program::Sequence().isEmpty());
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_types),    cmocka_unit_test(test_targets), cmocka_unit_test(test_tensor_views),
      cmocka_unit_test(test_mapping),  cmocka_unit_test(test_options), cmocka_unit_test(test_programs),
      cmocka_unit_test(test_options_json_escapes),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
