// A user's program on the Poplar names Graphcore's public PopLibs tests need first: TensorCloneMethod and the
// clone/cloneN overloads (storage order and aliases, seen through getSortedContiguousRegions and a run),
// StringRef, TypeTraits, MetadataCreation, VariableMappingMethod.hpp on its own, Interval::lower/upper,
// DeviceManager::getChildDeviceIds, program::AssumeEqualAcrossReplicas, program::dumpProgram and the engine options that have no effect
// on an emulator (accepted when valid, refused when not).
#include <poplar/VariableMappingMethod.hpp> // first: the header stands on its own

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Interval.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/TensorCloneMethod.hpp>
#include <poplar/TypeTraits.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

/// The memory-order sequences of t's elements (each a list of flat intervals), e.g. "{[0,1)[2,3)}{[1,2)}".
static std::string storage(const Graph &g, const Tensor &t, bool removeAliases = false) {
  const Tensor f = t.flatten();
  std::vector<Interval> all(1, Interval(0, f.numElements()));
  const std::vector<std::vector<Interval> > seqs = g.getSortedContiguousRegions(f, all, removeAliases);
  std::ostringstream s;
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    s << "{";
    for (std::size_t j = 0; j < seqs[i].size(); ++j)
      s << "[" << seqs[i][j].lower() << "," << seqs[i][j].upper() << ")";
    s << "}";
  }
  return s.str();
}

static void cloneMethods(Graph &g) {
  // x: 4 INTs, one per tile; v: x broadcast twice (8 elements, each of x's twice).
  Tensor x = g.addVariable(INT, {4}, VariableMappingMethod::LINEAR, "x");
  Tensor v = x.broadcast(2, 0);
  Tensor a = g.clone(v, "a", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);
  check(a.numElements() == 8 && a.containsAliases(), "PRESERVE_ORDER_AND_ALIASES keeps the broadcast's aliases");
  check(storage(g, a, true) == storage(g, v, true), "... and its storage: " + storage(g, a, true));
  check(g.getTileMapping(a) == g.getTileMapping(v), "... and its tile mapping");
  Tensor u = g.clone(v, "u", TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  check(!u.containsAliases() && g.getTileMapping(u) == g.getTileMapping(v),
        "PRESERVE_ORDER_UNLESS_ALIASES drops aliases, keeps the mapping");
  Tensor n = g.clone(v, "n", TensorCloneMethod::CREATE_NEW_ORDER);
  check(!n.containsAliases() && g.getTileMapping(n) == g.getTileMapping(v), "CREATE_NEW_ORDER has no aliases");

  // m: 2x3 on one tile, seen transposed (3x2): the default clone keeps the storage order, CREATE_NEW_ORDER does
  // not (its storage is row-major in the transposed shape).
  Tensor m = g.addVariable(FLOAT, {2, 3}, "m");
  g.setTileMapping(m, 0);
  Tensor t = m.transpose();
  Tensor keep = g.clone(t, "keep");
  Tensor fresh = g.clone(t, "fresh", TensorCloneMethod::CREATE_NEW_ORDER);
  check(storage(g, keep) == storage(g, t), "the default clone keeps the storage order: " + storage(g, keep));
  check(storage(g, fresh) == "{[0,6)}", "CREATE_NEW_ORDER stores row-major: " + storage(g, fresh));

  // y: elements 0 and 2 on tile 1, 1 and 3 on tile 0. GATHER_... groups each tile's elements in memory, tile 0's
  // first; PRESERVE_ORDER_AND_ALIASES keeps y's order (each element its own run).
  Tensor y = g.addVariable(FLOAT, {4}, "y");
  for (unsigned i = 0; i < 4; ++i)
    g.setTileMapping(y[i], i % 2 ? 0 : 1);
  Tensor gathered = g.clone(y, "gathered", TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES);
  Tensor ordered = g.clone(y, "ordered", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);
  check(storage(g, gathered) == "{[1,2)[3,4)}{[0,1)[2,3)}", "GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES: " +
                                                              storage(g, gathered));
  check(storage(g, ordered) == "{[0,1)}{[1,2)}{[2,3)}{[3,4)}", "PRESERVE_ORDER_AND_ALIASES: " + storage(g, ordered));
  check(g.getTileMapping(gathered) == g.getTileMapping(y), "the gathered clone is mapped as the source");
  Tensor gv = g.clone(v, "gv", TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES);
  check(gv.containsAliases() && storage(g, gv, true) == storage(g, v, true), "GATHER_... keeps aliases too");

  // clone(type, t) and cloneN.
  Tensor h = g.clone(HALF, m, "h");
  check(h.elementType() == HALF && h.shape() == m.shape() && g.getTileMapping(h) == g.getTileMapping(m),
        "clone(HALF, t): t's shape and mapping, HALF elements");
  Tensor c3 = g.cloneN(x, 3, "c3");
  check(c3.shape() == std::vector<std::size_t>({3, 4}) && !c3.containsAliases() &&
            g.getTileMapping(c3[2]) == g.getTileMapping(x),
        "cloneN(t, 3): shape {3, 4}, three separate copies mapped as t");
  Tensor c2 = g.cloneN(SHORT, v, 2, "c2", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES,
                       TensorCloneDuplicationMethod::DUPLICATE_BY_TILE_CONTIGUOUS_REGION);
  check(c2.elementType() == SHORT && c2.dim(0) == 2 && c2[1].containsAliases() && !c2[0].intersectsWith(c2[1]),
        "cloneN(SHORT, v, 2, ..., PRESERVE_ORDER_AND_ALIASES, DUPLICATE_BY_TILE_CONTIGUOUS_REGION)");
  try {
    g.cloneN(x, 0);
    check(false, "cloneN(t, 0) refused");
  } catch (const poplar_error &e) {
    check(std::string(e.what()).find("N must be at least 1") != std::string::npos, "cloneN(t, 0) refused");
  }
  try {
    g.clone(Tensor());
    check(false, "clone of an invalid tensor refused");
  } catch (const poplar_error &) {
    check(true, "clone of an invalid tensor refused");
  }
}

static void stringRef() {
  const std::string s = "poplar";
  StringRef a(s), b("poplar"), c("poplarx", 6), d("popa"), empty;
  check(a.size() == 6 && a.data() == s.data() && std::string(a) == "poplar", "StringRef(std::string)");
  check(a == b && b == c && a != d && d < a && a > d && a <= b && a >= c, "StringRef comparisons");
  check(empty.empty() && empty.size() == 0 && StringRef(static_cast<const char *>(0)).empty(), "an empty StringRef");
  std::ostringstream os;
  os << c;
  std::string plus = std::string("lib") + a;
  plus += StringRef("!");
  check(os.str() == "poplar" && plus == "libpoplar!" && a.cloneAsString() + "." == "poplar.", "<<, + and +=");
}

static void typeTraits() {
  const TypeTraits ti = TypeTraits::make<int>(), tf = TypeTraits::make<float>();
  check(ti.size == 4 && ti.align == alignof(int) && ti.isIntegral && ti.isSigned && !ti.isFloat,
        "TypeTraits::make<int>()");
  check(tf.size == 4 && tf.isFloat && !tf.isIntegral, "TypeTraits::make<float>()");
  check(TypeTraits::isSimpleType<unsigned short>() && !TypeTraits::isSimpleType<std::string>(), "isSimpleType");
  check(equivalent_device_type<unsigned short>().value == UNSIGNED_SHORT, "equivalent_device_type");
}

int main() {
  check(Interval(3, 7).lower() == 3 && Interval(3, 7).upper() == 7, "Interval::lower/upper");
  stringRef();
  typeTraits();

  IPUModel model;
  Device device = model.createDevice();
  Graph g(device.getTarget());
  cloneMethods(g);

  // Metadata tensors, read back after a run; the variable one changed by a program, the constant one not.
  Tensor mv = createVariableMetadataTensor(g, QuarterMetadata::Format::F152, 4, "mv");
  Tensor mc = createConstantMetadataTensor(g, QuarterMetadata::Format::F143, -3);
  check(mv.elementType() == QUARTER_METADATA && mv.numElements() == 1 && !g.isConstant(mv) && g.isConstant(mc),
        "createVariableMetadataTensor / createConstantMetadataTensor");
  try {
    createVariableMetadataTensor(g, QuarterMetadata::Format::F143, 40);
    check(false, "scale 40 refused");
  } catch (const poplar_error &e) {
    check(std::string(e.what()).find("fp8Scale 40") != std::string::npos, "scale 40 refused");
  }

  // A run: x written, its broadcast clone `a2` (aliases kept) written through its first half and read through its
  // second; AssumeEqualAcrossReplicas runs its body.
  Tensor x = g.addVariable(INT, {4}, VariableMappingMethod::LINEAR, "x2");
  Tensor a2 = g.clone(x.broadcast(2, 0), "a2", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);
  Tensor mcopy = g.clone(mc, "mcopy");
  g.createHostWrite("x", x);
  g.createHostRead("a2-second", a2.slice(4, 8));
  g.createHostRead("mv", mv);
  g.createHostRead("mcopy", mcopy);
  Sequence body;
  body.add(Copy(x, a2.slice(0, 4)));
  body.add(Copy(mc, mcopy));
  const OptionFlags quiet{{"debug.runtimeVerify", "true"},
                          {"debug.trace", "false"},
                          {"debug.floatPointOpException", "false"},
                          {"debug.nanOverflowMode", "true"},
                          {"debug.executionProfile", "compute_sets"},
                          {"debug.loweredVarDumpFile", "vars.txt"},
                          {"exchange.enablePrefetch", "true"},
                          {"exchange.multicastPolicy", "balanced"},
                          {"exchange.streamBufferOverlap", "hostRearrangeOnly"},
                          {"opt.enableInlining", "false"},
                          {"opt.maxCompilationThreads", "4"},
                          {"streamCallbacks.multiThreadMode", "collaborative"},
                          {"streamCallbacks.numWorkerThreads", "auto"},
                          {"streamCallbacks.numaAware", "true"},
                          {"target.exceptionPollPeriodUs", "100"},
                          {"target.firstRuntimeReplica", "0"},
                          {"target.numberRuntimeReplica", "1"},
                          {"target.syncMethod", "polling"},
                          {"target.syncPollPeriodUs", "0"},
                          {"target.syncReplicasIndependently", "false"},
                          {"target.workerStackSizeInBytes", "0x400"}};
  const AssumeEqualAcrossReplicas assume(body, "assume");
  std::ostringstream dump;
  dumpProgram(g, assume, dump);
  check(dump.str().find("\"Copy\"") != std::string::npos && dump.str().find("\"Execute\"") == std::string::npos &&
            dump.str().find("\"assume\"") != std::string::npos,
        "dumpProgram: " + dump.str().substr(0, dump.str().size() - 1));
  Engine engine(g, assume, quiet);
  engine.load(device);
  std::vector<int> in = {5, -6, 7, -8}, out(4, 0);
  unsigned char mvByte = 0, mcByte = 0;
  engine.writeTensor("x", in.data(), in.data() + 4);
  engine.run(0);
  engine.readTensor("a2-second", out.data(), out.data() + 4);
  engine.readTensor("mv", &mvByte, &mvByte + 1);
  engine.readTensor("mcopy", &mcByte, &mcByte + 1);
  check(out == in, "the aliased clone's second half reads what its first half was written (AssumeEqual... ran)");
  check(mvByte == QuarterMetadata(QuarterMetadata::Format::F152, 4).getBinary() &&
            mcByte == QuarterMetadata(QuarterMetadata::Format::F143, -3).getBinary(),
        "the metadata tensors hold their format and scale");

  // Each option refuses a value of the wrong type or outside its set.
  const char *bad[][2] = {{"debug.runtimeVerify", "yes"},       {"opt.maxCompilationThreads", "-1"},
                          {"target.syncMethod", "spin"},         {"exchange.streamBufferOverlap", "all"},
                          {"streamCallbacks.numWorkerThreads", "many"}, {"target.workerStackSizeInBytes", "0xg"},
                          {"debug.loweredVarDumpFile", ""}};
  for (const auto &kv : bad) {
    try {
      Engine e(g, Sequence(), OptionFlags{{kv[0], kv[1]}});
      check(false, std::string(kv[0]) + "=\"" + kv[1] + "\" refused");
    } catch (const invalid_option &e) {
      check(std::string(e.what()).find(kv[0]) != std::string::npos, std::string(kv[0]) + "=\"" + kv[1] + "\" refused");
    }
  }

  // getChildDeviceIds: an emulated card is one device; asked for children of its own size, it is its own child.
  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> devices = manager.getDevices();
  check(!devices.empty(), "the device manager lists devices");
  if (!devices.empty()) {
    const unsigned id = devices[0].getId(), ipus = devices[0].getTarget().getNumIPUs();
    const std::vector<unsigned> own = manager.getChildDeviceIds(id, ipus);
    check(own.size() == 1 && own[0] == id, "getChildDeviceIds(id, its IPUs) is {id}");
    try {
      manager.getChildDeviceIds(id, 0);
      check(false, "getChildDeviceIds(id, 0) refused");
    } catch (const poplar_error &e) {
      check(std::string(e.what()).find("numChildIpus") != std::string::npos, "getChildDeviceIds(id, 0) refused");
    }
  }
  return checksDone("all poplar name checks passed");
}
