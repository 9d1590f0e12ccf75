// Unit tests of the Target API with the values of boards/*.toml: every getter, the type limits, the serialize
// round trip, hash and order, the target options and POPLAR_TARGET_OPTIONS, and the IPUModel fields.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <unordered_set>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "poplar/Target.hpp"
#include "poplar/exceptions.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;

namespace {

void test_board_getters(void **) {
  Target t = Target::createIPUTarget("ipu2");
  // boards/ipu2.toml
  assert_true(t.getTargetType() == TargetType::IPU);
  assert_true(t.getTargetSystemString() == "ipu2");
  assert_int_equal(t.getNumIPUs(), 1);
  assert_int_equal(t.getTilesPerIPU(), 1472);
  assert_int_equal(t.getNumTiles(), 1472);
  assert_int_equal(t.getBytesPerTile(), 638976);
  assert_int_equal(t.getMemoryBytes(), 638976ull * 1472);
  assert_int_equal(t.getNumWorkerContexts(), 6);
  assert_int_equal(t.getExchangeBytesPerCycle(), 4);
  assert_int_equal(t.getMemcpyBytesPerCycle(), 8);
  assert_int_equal(t.getMinIPUSyncDelay(), 0);
  assert_int_equal(t.getGlobalSyncCycles(), 15);
  assert_int_equal(t.getDataPathWidth(), 64);
  assert_int_equal(t.getNumStrideBits(), 10);
  assert_int_equal(t.getRptCountMax(), 65535);
  assert_true(t.supportsExchangeBusSharing());
  assert_int_equal(t.getTilesPerSharedExchangeBus(), 2);
  assert_int_equal(t.getAtomicStoreGranularity(), 4);
  assert_true(t.getTileClockFrequency() == 1.33e9);
  assert_int_equal(t.getFloatVectorWidth(), 2);
  assert_int_equal(t.getHalfVectorWidth(), 4);
  assert_int_equal(t.getQuarterVectorWidth(), 8);
  assert_int_equal(t.getQuarterMetadataVectorWidth(), 8);
  assert_int_equal(t.getVectorWidth(HALF), 4);
  // 624 KiB in 64 KiB elements: ten, the last one 48 KiB
  const std::vector<unsigned> &m = t.getMemoryElementOffsets();
  assert_int_equal(m.size(), 10);
  assert_int_equal(m[1], 65536);
  assert_int_equal(m[9], 589824);
  assert_int_equal(t.getInterleavedMemoryElementIndex(), 0);
  assert_true(t.getGlobalExchangeConstraints().empty());
  // ipu1 has its own board values
  Target t1 = Target::createIPUTarget("ipu1");
  assert_int_equal(t1.getTilesPerIPU(), 1216);
  assert_int_equal(t1.getBytesPerTile(), 262144);
  assert_int_equal(t1.getMemoryElementOffsets().size(), 4);
  // a virtual target with fewer tiles
  Target v = Target::createIPUTarget(1, 16, "ipu2");
  assert_int_equal(v.getNumTiles(), 16);
  expectThrow<invalid_option>([] { Target::createIPUTarget(1, 5000, "ipu2"); }, "1 .. 1472");
}

void test_conv_units_and_exchange(void **) {
  Target t2 = Target::createIPUTarget("ipu2"), t1 = Target::createIPUTarget("ipu1"),
         t21 = Target::createIPUTarget("ipu21");
  assert_int_equal(t2.getFp16InFp16OutConvUnitsPerTile(), 16);
  assert_int_equal(t2.getFp16InFp32OutConvUnitsPerTile(), 8);
  assert_int_equal(t2.getFp32InFp32OutConvUnitsPerTile(), 8);
  assert_int_equal(t2.getFp16ConvUnitMaxPipelineDepth(), 4);
  assert_int_equal(t2.getFp32ConvUnitMaxPipelineDepth(), 2);
  assert_int_equal(t2.getFp16ConvUnitInputLoadElemsPerCycle(), 8);
  assert_int_equal(t2.getFp32ConvUnitInputLoadElemsPerCycle(), 4);
  assert_int_equal(t2.getConvUnitCoeffLoadBytesPerCycle(), 16);
  assert_int_equal(t2.getFp8InFp16OutConvUnitsPerTile(), 0);
  assert_int_equal(t2.getFp8ConvUnitMaxPipelineDepth(), 0);
  assert_int_equal(t2.getFp8ConvUnitInputLoadElemsPerCycle(), 0);
  assert_int_equal(t2.getWeightsPerConvUnit(HALF), 8);
  assert_int_equal(t2.getWeightsPerConvUnit(FLOAT), 4);
  assert_int_equal(t2.getConvUnitInputLoadElemsPerCycle(HALF), 8);
  assert_int_equal(t2.getConvUnitMaxPipelineDepth(FLOAT), 2);
  assert_int_equal(t2.getNumConvUnits(HALF, HALF), 16);
  assert_int_equal(t2.getNumConvUnits(HALF, FLOAT), 8);
  assert_int_equal(t2.getNumConvUnits(FLOAT, FLOAT), 8);
  assert_int_equal(t2.getNumConvUnits(INT, INT), 0);
  expectThrow<poplar_error>([&] { t2.getConvUnitInputLoadElemsPerCycle(INT); }, "half or float, not int");
  assert_int_equal(t1.getFp16InFp16OutConvUnitsPerTile(), 8);
  assert_int_equal(t1.getFp32InFp32OutConvUnitsPerTile(), 4);
  assert_int_equal(t21.getFp8InFp16OutConvUnitsPerTile(), 16);
  assert_true(t21.getTargetSystemString() == "ipu21");
  assert_int_equal(t21.getTilesPerIPU(), 1472);
  // host exchange blocks: 16 contexts of 4 tiles
  assert_int_equal(t2.getNumTilesPerXBContext(), 4);
  assert_int_equal(t2.getNumContextsPerXB(), 16);
  assert_int_equal(t2.getTileHostExchangeXB(1471), 22);
  assert_int_equal(t2.getTileHostExchangeContext(70), 1);
  assert_int_equal(t2.getTileHostExchangeContextPosition(70), 2);
  expectThrow<index_error>([&] { t2.getTileHostExchangeXB(1472); }, "has 1472 tiles");
  // registers of the RISC-V tile
  assert_int_equal(t2.getFpIctlRegIndex(), 0x003);
  assert_int_equal(t2.getDbgDataRegIndex(), 0x806);
  assert_int_equal(t2.makeFpIctlValue(true, true, true, true, true), 0);
  assert_int_equal(t2.getInstanceSize(), 1);
  assert_false(t2.getGatewayMode());
}

void test_type_limits(void **) {
  Target t = Target::createIPUTarget("tiny");
  assert_true(t.getTypeLimitsMaxAs<double>(HALF) == 65504.0);
  assert_true(t.getTypeLimitsLowestAs<double>(HALF) == -65504.0);
  assert_true(t.getTypeLimitsMaxAs<double>(FLOAT) == 3.4028234663852886e38);
  assert_true(t.getTypeLimitsMaxAs<std::int64_t>(INT) == 2147483647);
  assert_true(t.getTypeLimitsLowestAs<std::int64_t>(INT) == -2147483648LL);
  assert_true(t.getTypeLimitsMaxAs<std::uint64_t>(UNSIGNED_INT) == 4294967295ull);
  assert_true(t.getTypeLimitsLowestAs<std::uint64_t>(UNSIGNED_SHORT) == 0);
  assert_true(t.getTypeLimitsMaxAs<std::int64_t>(CHAR) == 127);
  assert_true(t.getTypeLimitsLowestAs<std::int64_t>(SHORT) == -32768);
  assert_true(t.getTypeLimitsMaxAs<std::uint64_t>(BOOL) == 1);
  assert_true(t.getTypeLimitsMaxAs<std::int64_t>(HALF) == 65504);
  expectThrow<poplar_error>([&] { t.getTypeLimitsMaxAs<std::int64_t>(FLOAT); }, "not exactly representable");
  expectThrow<poplar_error>([&] { t.getTypeLimitsLowestAs<std::uint64_t>(INT); }, "as uint64_t");
}

void test_serialize_hash_order(void **) {
  Target a = Target::createIPUTarget("ipu2");
  std::stringstream ss;
  a.serialize(ss);
  Target b(ss);
  assert_true(a == b);
  assert_int_equal(a.hash(), b.hash());
  assert_int_equal(b.getTilesPerIPU(), 1472);
  assert_int_equal(b.getMemoryElementOffsets().size(), 10);
  assert_true(b.getTargetType() == TargetType::IPU);
  // IPU Model targets round-trip with their changed fields
  IPUModel model("tiny");
  model.tilesPerIPU = 2;
  model.fp16InFp16OutConvUnitsPerTile = 3;
  model.compileIPUCode = false;
  Target m = model.createTarget();
  std::stringstream ms;
  m.serialize(ms);
  Target m2(ms);
  assert_true(m == m2);
  assert_int_equal(m2.getNumTiles(), 2);
  assert_int_equal(m2.getFp16InFp16OutConvUnitsPerTile(), 3);
  assert_true(m2.getTargetType() == TargetType::IPU_MODEL);
  // different values: unequal, ordered one way, and usable as keys
  Target c = Target::createIPUTarget("ipu1");
  assert_true(a != c);
  assert_true((a < c) != (c < a));
  assert_false(a < b || b < a);
  std::map<Target, int> byTarget;
  byTarget[a] = 1;
  byTarget[b] = 2;
  byTarget[c] = 3;
  assert_int_equal(byTarget.size(), 2);
  std::unordered_set<Target> set = {a, b, c, m};
  assert_int_equal(set.size(), 3);
  // a moved-from target is invalid, the moved-to one keeps the values
  Target moved(std::move(c));
  assert_int_equal(moved.getTilesPerIPU(), 1216);
  // bad streams are refused with what is wrong
  std::stringstream bad("not a target\n");
  expectThrow<poplar_error>([&] { Target x(bad); }, "does not start with");
  std::string text = ss.str();
  std::stringstream cut(text.substr(0, text.find("fp8")));
  expectThrow<poplar_error>([&] { Target x(cut); }, "cut short");
  std::string edited = text;
  edited.replace(edited.find("tiles_per_ipu 1472"), 18, "tiles_per_ipu -3");
  std::stringstream neg(edited);
  // Board values are read back by the board reader's rules (ipu_board_set): a sign, or a value past the key's
  // range, names the key and its range.
  expectThrow<poplar_error>([&] { Target x(neg); },
                            "key 'tiles_per_ipu': expected an integer from 1 to 4096 (tiles per IPU), got '-3'");
  edited = text;
  edited.replace(edited.find("worker_contexts 6"), 17, "worker_contexts 9");
  std::stringstream many(edited);
  expectThrow<poplar_error>([&] { Target x(many); }, "key 'worker_contexts': expected an integer from 1 to 6");
  // and a board value still reads back as written: the description of a target round-trips with its spaces.
  std::stringstream again(text);
  assert_true(Target(again) == a);
}

void test_target_options(void **) {
  unsetenv("POPLAR_TARGET_OPTIONS");
  Target d = Target::createIPUTarget("ipu2");
  assert_true(d.getIpuLinkConfiguration() == IpuLinkConfiguration::Default);
  assert_true(d.getIpuLinkTopology() == IpuLinkTopology::Mesh);
  assert_true(d.getSyncConfiguration() == SyncConfiguration::IntraReplicaAndAll);
  assert_int_equal(d.getIpuLinkDomainSize(), 64);
  Target t = Target::createIPUTarget("ipu2", {{"ipuLinkTopology", "torus"},
                                              {"ipuLinkConfiguration", "barleyTwist"},
                                              {"syncConfiguration", "ipuAndAll"},
                                              {"ipuLinkDomainSize", "16"}});
  assert_true(t.getIpuLinkTopology() == IpuLinkTopology::Torus);
  assert_true(t.getIpuLinkConfiguration() == IpuLinkConfiguration::BarleyTwist);
  assert_true(t.getSyncConfiguration() == SyncConfiguration::IpuAndAll);
  assert_int_equal(t.getIpuLinkDomainSize(), 16);
  assert_true(t != d);
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2", {{"ipuLinkTopolgy", "line"}}); },
                              "unknown target option 'ipuLinkTopolgy'");
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2", {{"ipuLinkTopology", "ring"}}); },
                              "ipuLinkTopology = 'ring': not a valid value; use one of mesh, torus, line");
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2", {{"ipuLinkDomainSize", "-1"}}); },
                              "ipuLinkDomainSize = '-1'");
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2", {{"ipuLinkDomainSize", "abc"}}); },
                              "ipuLinkDomainSize = 'abc'");
  // the environment overrides the options passed
  setenv("POPLAR_TARGET_OPTIONS", "{\"ipuLinkTopology\": \"line\"}", 1);
  assert_true(Target::createIPUTarget("ipu2", {{"ipuLinkTopology", "torus"}}).getIpuLinkTopology() ==
              IpuLinkTopology::Line);
  assert_true(IPUModel("tiny").createDevice().getTarget().getIpuLinkTopology() == IpuLinkTopology::Line);
  setenv("POPLAR_TARGET_OPTIONS", "{\"bogus\": 1}", 1);
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2"); },
                              "POPLAR_TARGET_OPTIONS: unknown target option 'bogus'");
  setenv("POPLAR_TARGET_OPTIONS", "{\"ipuLinkTopology\": ", 1);
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu2"); }, "POPLAR_TARGET_OPTIONS is not a JSON object");
  unsetenv("POPLAR_TARGET_OPTIONS");
}

void test_system_names(void **) {
  assert_true(Target::createIPUTarget(1, "C600").getTargetSystemString() == "ipu21");
  assert_true(Target::createIPUTarget(1, "IPU-POD16").getTargetSystemString() == "ipu2");
  assert_int_equal(Target::createIPUTarget("IPU-POD16").getNumIPUs(), 16);
  expectThrow<invalid_option>([] { Target::createIPUTarget("IPU-POD128"); }, "a card has 1 .. 64 IPUs");
  expectThrow<invalid_option>([] { Target::createIPUTarget("ipu9"); }, "known boards: ipu1, ipu2, ipu21");
  expectThrow<invalid_option>([] { Target::createIPUTarget(0, "ipu2"); }, "0 IPUs asked for");
  Target cpu = Target::createCPUTarget();
  assert_true(cpu.getTargetType() == TargetType::CPU);
  assert_int_equal(cpu.getNumTiles(), 1);
  assert_int_equal(Target::createCPUTarget(false, 2).getNumTiles(), 2);
}

// Several IPUs on one card: one global tile space of IPUs x tiles per IPU.
void test_multi_ipu_targets(void **) {
  Target t = Target::createIPUTarget(4, "ipu2");
  assert_int_equal(t.getNumIPUs(), 4);
  assert_int_equal(t.getTilesPerIPU(), 1472);
  assert_int_equal(t.getNumTiles(), 4 * 1472);
  Target small = Target::createIPUTarget(2, 8, "ipu2");
  assert_int_equal(small.getNumTiles(), 16);
  expectThrow<invalid_option>([] { Target::createIPUTarget(64, "ipu2"); }, "exceed the card's 65535 tiles");
  IPUModel m("tiny");
  m.numIPUs = 4;
  Target mt = m.createTarget();
  assert_int_equal(mt.getNumIPUs(), 4);
  assert_int_equal(mt.getTilesPerIPU(), 4);
  assert_int_equal(mt.getNumTiles(), 16);
  m.numIPUs = 65;
  expectThrow<invalid_option>([&] { m.createTarget(); }, "IPUModel.numIPUs: 65 IPUs asked for");
  Target board = Target::createIPUTarget(1, "ipu2x4");
  assert_int_equal(board.getTilesPerIPU(), 1472);
  Target tiny2 = Target::createIPUTarget(2, "tiny2");
  assert_int_equal(tiny2.getNumTiles(), 8);
}

void test_ipumodel_fields(void **) {
  IPUModel m("ipu1");
  assert_true(m.IPUVersion == "ipu1");
  assert_int_equal(m.tilesPerIPU, 1216);
  assert_int_equal(m.memoryPerTile, 262144);
  assert_int_equal(m.dataPathWidth, 64);
  assert_true(m.relativeSyncDelay == IPUModel::RelativeSyncDelayType::NO_DELAY);
  assert_int_equal(m.fp16InFp16OutConvUnitsPerTile, 8);
  assert_true(m.compileIPUCode);
  m.tilesPerIPU = 8;
  m.memoryPerTile = 128 * 1024;
  m.numWorkerContexts = 4;
  m.minIPUSyncDelay = 3;
  m.globalSyncCycles = 20;
  m.relativeSyncDelay = IPUModel::RelativeSyncDelayType::AUTO;
  m.tileClockFrequency = 1e9;
  m.exchangeBytesPerCycle = 8;
  m.tilesCanShareExchangeBus = false;
  m.numStrideBits = 12;
  m.rptCountMax = 4095;
  m.fp32InFp32OutConvUnitsPerTile = 2;
  m.convUnitCoeffLoadBytesPerCycle = 32;
  m.dataPathWidth = 128;
  Target t = m.createDevice().getTarget();
  assert_true(t.getTargetType() == TargetType::IPU_MODEL);
  assert_int_equal(t.getNumTiles(), 8);
  assert_int_equal(t.getBytesPerTile(), 128 * 1024);
  assert_int_equal(t.getNumWorkerContexts(), 4);
  assert_int_equal(t.getMinIPUSyncDelay(), 3);
  assert_int_equal(t.getGlobalSyncCycles(), 20);
  assert_true(t.getTileClockFrequency() == 1e9);
  assert_int_equal(t.getExchangeBytesPerCycle(), 8);
  assert_false(t.supportsExchangeBusSharing());
  assert_int_equal(t.getNumStrideBits(), 12);
  assert_int_equal(t.getRptCountMax(), 4095);
  assert_int_equal(t.getNumConvUnits(FLOAT, FLOAT), 2);
  assert_int_equal(t.getWeightsPerConvUnit(FLOAT), 8);
  assert_int_equal(t.getDataPathWidth(), 128);
  assert_int_equal(t.getFloatVectorWidth(), 4);
  assert_int_equal(t.getMemoryElementOffsets().size(), 2);
  IPUModel bad("tiny");
  bad.dataPathWidth = 16;
  expectThrow<invalid_option>([&] { bad.createTarget(); }, "IPUModel.dataPathWidth");
  bad = IPUModel("tiny");
  bad.tileClockFrequency = 0;
  expectThrow<invalid_option>([&] { bad.createTarget(); }, "IPUModel.tileClockFrequency");
  bad = IPUModel("tiny");
  expectThrow<invalid_option>([&] { bad.createDevice({{"nope", "1"}}); }, "unknown target option 'nope'");
  assert_true(IPUModel("ipu21").createTarget().getFp8InFp16OutConvUnitsPerTile() == 16);
}

/// The memory lines of the profile summary of a one-copy program on `model`.
std::string profileOf(const IPUModel &model) {
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(INT, {4}, "a"), b = graph.addVariable(INT, {4}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  Engine engine(graph, program::Copy(a, b));
  std::ostringstream os;
  engine.printProfileSummary(os);
  return os.str();
}

void test_compile_ipu_code(void **) {
  IPUModel model("tiny");
  std::string with = profileOf(model);
  assert_true(with.find("Total (tiles in use, including code)") != std::string::npos);
  assert_true(with.find("By Tile (Including Code)") != std::string::npos);
  model.compileIPUCode = false;
  std::string without = profileOf(model);
  assert_true(without.find("Total (tiles in use, excluding code):  ") != std::string::npos);
  assert_true(without.find("not counted (IPUModel::compileIPUCode is false)") != std::string::npos);
  assert_true(without.find("By Tile (Excluding Code)") != std::string::npos);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_board_getters),  cmocka_unit_test(test_conv_units_and_exchange),
      cmocka_unit_test(test_type_limits),    cmocka_unit_test(test_serialize_hash_order),
      cmocka_unit_test(test_target_options), cmocka_unit_test(test_system_names),
      cmocka_unit_test(test_multi_ipu_targets),
      cmocka_unit_test(test_ipumodel_fields), cmocka_unit_test(test_compile_ipu_code),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
