// A user's program on host-side value types: poplar::IeeeHalf (IEEE binary16 on the host, with TypeTraits),
// ProfileValue::Storage (storage for any one kind of profile value), and FieldData's item access (SizeT,
// operator[], getInitialValues of a VectorList field) as a perf estimator sees a vertex.
#include <cstdint>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/TypeTraits.hpp>
#include <poplar/VertexIntrospector.hpp>

#include "sdk_check.hpp"

using namespace poplar;

int main() {
  // IeeeHalf: round to nearest even, exact back to float, bit patterns, traits.
  IeeeHalf one(1.0f), third(1.0f / 3.0f), big(1e6f);
  check(one.bit16() == 0x3c00 && float(one) == 1.0f, "IeeeHalf(1.0f) is 0x3c00 and converts back to 1.0f");
  check(third.bit16() == 0x3555 && float(third) == 0.333251953125f, "1/3 rounds to binary16 0x3555 (0.333251953125)");
  check(big.bit16() == 0x7c00 && float(big) == std::numeric_limits<float>::infinity(),
        "1e6 is beyond binary16: +infinity");
  check(IeeeHalf::fromBits(0xc000) == IeeeHalf(-2.0f) && float(IeeeHalf()) == 0.0f,
        "fromBits(0xc000) is -2; a default IeeeHalf is 0");
  TypeTraits traits = TypeTraits::make<IeeeHalf>();
  check(traits.size == 2 && traits.align == 2 && traits.isFloat && traits.isSigned && !traits.isIntegral &&
            TypeTraits::isSimpleType<IeeeHalf>(),
        "TypeTraits::make<IeeeHalf>: 2 bytes, a signed float type, a simple type");

  // ProfileValue::Storage holds any one kind of value.
  ProfileValue::Storage storage;
  check(sizeof(storage) >= sizeof(ProfileValue::Map) && sizeof(storage) >= sizeof(ProfileValue::String) &&
            alignof(ProfileValue::Storage) >= alignof(ProfileValue::Vector),
        "ProfileValue::Storage is large and aligned enough for a Map, a String or a Vector");
  typedef ProfileValue::Map Map;
  Map *map = new (&storage.buffer) Map();
  (*map)["cycles"] = ProfileValue(12.0);
  check(map->at("cycles").asUInt() == 12, "a Map placed in the storage works");
  map->~Map();

  // FieldData of a VectorList field connected to constants: sizes by operator[], values by getInitialValues.
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("list_codelet.cpp");
  std::vector<int> a = {1, 2, 3}, b = {10, 20};
  Tensor ta = graph.addConstant<int>(INT, {3}, a.data(), "a"), tb = graph.addConstant<int>(INT, {2}, b.data(), "b");
  Tensor sum = graph.addVariable(INT, {}, "sum");
  for (Tensor t : {ta, tb, sum})
    graph.setTileMapping(t, 1);
  graph.createHostRead("sum", sum);
  ComputeSet cs = graph.addComputeSet("sum");
  VertexRef v = graph.addVertex(cs, "SumLists");
  graph.connect(v["lists"], std::vector<Tensor>{ta, tb});
  graph.connect(v["sum"], sum);
  graph.setTileMapping(v, 1);
  std::vector<std::size_t> seenSizes;
  std::vector<std::vector<int>> seenValues;
  std::string rankError;
  graph.registerPerfEstimator("SumLists", [&](const VertexIntrospector &vertex, const Target &t) {
    FieldData lists = vertex.getFieldInfo("lists");
    seenSizes.clear();
    for (std::size_t i = 0; i < lists.size(); ++i) {
      FieldData::SizeT item = lists[i];
      seenSizes.push_back(item.size());
    }
    seenValues = lists.getInitialValues<std::vector<int>>(t);
    rankError = refusal<poplar_error>([&] { vertex.getFieldInfo("sum").getInitialValues<std::vector<int>>(t); });
    return VertexPerfEstimate(100);
  });
  Engine engine(graph, program::Execute(cs));
  engine.loadAndRun(device);
  int total = 0;
  engine.readTensor("sum", &total, &total + 1);
  check(total == 36, "the vertex sums both items (36)");
  check(seenSizes.size() == 2 && seenSizes[0] == 3 && seenSizes[1] == 2,
        "field[i].size() gives each item's size (3, 2)");
  check(seenValues.size() == 2 && seenValues[0] == a && seenValues[1] == b,
        "getInitialValues<std::vector<int>> gives each item's constant values");
  check(has(rankError, "rank 1") && has(rankError, "scalar T"),
        "getInitialValues<std::vector<int>> of an Output<int> field throws poplar_error naming its rank: " + rankError);
  return checksDone("host_value_types: all checks passed");
}
