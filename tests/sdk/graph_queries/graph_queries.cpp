// A user's program on the Graph, Tensor, Type, OptionFlags, FieldRef, DataStream and ProfileValue queries of the
// API reference: getNumVertices, hasCodelet, isConstant, getVariable, addConstantHalf/setInitialValueHalf (read back
// through a run), getSortedContiguousRegions (memory order, tile splits, aliases), tile numbering of a virtual
// graph, Tensor::getVarStr, Type::hash/requiresMetadata, OptionFlags::find, FieldRef::isIndexed/getIndex,
// DataStream::replicatedMode/replicationFactor, ProfileValue's SDK spellings, Engine::getEngineOptions and
// Engine::listStreams, IPUModel ==/!=.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/ProfileValue.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

static std::string str(const std::vector<std::vector<Interval>> &seqs) {
  std::string s;
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    s += "{";
    for (std::size_t j = 0; j < seqs[i].size(); ++j)
      s += (j ? "," : "") + std::string("[") + std::to_string(seqs[i][j].begin()) + "," +
           std::to_string(seqs[i][j].end()) + ")";
    s += "}";
  }
  return s;
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  Tensor a = graph.addVariable(FLOAT, {8}, "a");
  graph.setTileMapping(a.slice(0, 4), 0);
  graph.setTileMapping(a.slice(4, 8), 1);
  Tensor b = graph.addVariable(FLOAT, {4}, "b");
  graph.setTileMapping(b, 0);
  Tensor c = graph.addConstant(FLOAT, {2}, 1.5f, "c");
  graph.setTileMapping(c, 0);

  check(graph.isConstant(c) && !graph.isConstant(a) && graph.isConstant(c.getVarRegions()[0].var),
        "isConstant on tensors and variables");
  check(!graph.isConstant(concat(a.slice(0, 1), c)), "a tensor over a variable and a constant is not constant");
  Tensor whole = graph.getVariable(a.slice(2, 3).getVarRegions()[0].var);
  check(whole.numElements() == 8 && whole.getVarRegions()[0].interval == Interval(0, 8), "getVariable");

  // t = b[2:4] ++ a[6:8] ++ a[0:6] ++ b[0:2]: memory order is a (tile 0 run, tile 1 run) then b.
  Tensor t = concat({b.slice(2, 4), a.slice(6, 8), a.slice(0, 6), b.slice(0, 2)});
  std::vector<Interval> all = {Interval(0, t.numElements())};
  std::string got = str(graph.getSortedContiguousRegions(t, all));
  check(got == "{[4,8)}{[8,10),[2,4)}{[10,12),[0,2)}", "getSortedContiguousRegions: " + got);
  // A broadcast view reaches a[0] three times; removing aliases keeps it once.
  Tensor rep = a.slice(0, 1).broadcast(3, 0);
  std::vector<std::size_t> aliases;
  got = str(graph.getSortedContiguousRegions(rep, {Interval(0, 3)}, true, &aliases));
  check(got == "{[0,1)}" && aliases.size() == 4, "getSortedContiguousRegions removes aliases: " + got);

  // Half constants and initial values: the device holds the given bit patterns.
  Tensor h = graph.addConstantHalf(HALF, {2}, std::uint16_t(0x3c00)); // 1.0
  graph.setTileMapping(h, 2);
  const std::uint16_t hv[] = {0x4000, 0xc400}; // 2.0, -4.0
  Tensor h2 = graph.addConstantHalf(HALF, {2}, hv);
  graph.setTileMapping(h2, 2);
  Tensor hvar = graph.addVariable(HALF, {2}, "hvar");
  graph.setTileMapping(hvar, 2);
  std::vector<std::uint16_t> init = {0x3800, 0x4200}; // 0.5, 3.0
  graph.setInitialValueHalf(hvar, init);
  Tensor hout = graph.addVariable(HALF, {6}, "hout");
  graph.setTileMapping(hout, 2);
  graph.createHostRead("hout", hout);

  graph.addCodelets("graph_queries_codelets.cpp");
  check(graph.hasCodelet("Doubler") && !graph.hasCodelet("NoSuchVertex"), "hasCodelet");
  ComputeSet cs = graph.addComputeSet("double");
  VertexRef v = graph.addVertex(cs, "Doubler", {{"x", b}});
  graph.setTileMapping(v, 0);
  check(graph.getNumVertices() == 1, "getNumVertices");
  FieldRef whole_field = v["x"], element = v["x"][3];
  check(!whole_field.isIndexed() && element.isIndexed() && element.getIndex() == 3, "FieldRef isIndexed/getIndex");
  bool threw = false;
  try {
    (void)whole_field.getIndex();
  } catch (const std::logic_error &) {
    threw = true;
  }
  check(threw, "getIndex of a whole field throws");

  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4, ReplicatedStreamMode::BROADCAST);
  check(in.replicatedMode() == ReplicatedStreamMode::BROADCAST && in.replicationFactor() == 1,
        "DataStream replicatedMode/replicationFactor");

  Graph vg = graph.createVirtualGraph(2, 4);
  check(vg.convertTileToTopLevelGraphTile(1) == 3 && vg.convertTopLevelGraphTileToTile(2) == 0, "virtual tiles");
  threw = false;
  try {
    vg.convertTopLevelGraphTileToTile(0);
  } catch (const index_error &) {
    threw = true;
  }
  check(threw, "a top-level tile outside the virtual graph throws index_error");
  check(graph.convertVirtualTileToPhysicalTile(5) == 5 && graph.convertPhysicalTileToVirtualTile(5) == 5,
        "virtual and physical tile ids");

  IPUModel same, other("ipu1");
  check(same == ipuModel && other != ipuModel, "IPUModel operator== and operator!=");
  check(!a.getVarStr().empty(), "getVarStr: " + a.getVarStr());
  check(FLOAT.hash() == Type(FLOAT).hash() && FLOAT.hash() != HALF.hash(), "Type::hash");
  check(QUARTER.requiresMetadata() && !HALF.requiresMetadata(), "Type::requiresMetadata");
  OptionFlags flags{{"debug.instrument", "true"}};
  check(flags.find("debug.instrument") && *flags.find("debug.instrument") == "true" && !flags.find("nope"),
        "OptionFlags::find");

  Sequence prog;
  prog.add(Execute(cs));
  prog.add(Copy(concat({h, h2, hvar}), hout));
  Engine engine(graph, prog, OptionFlags{{"debug.instrument", "true"}});
  const OptionFlags given = engine.getEngineOptions();
  check(given.find("debug.instrument") && *given.find("debug.instrument") == "true", "Engine::getEngineOptions");
  std::vector<std::string> streams = engine.listStreams();
  check(std::find(streams.begin(), streams.end(), "in") != streams.end() &&
            std::none_of(streams.begin(), streams.end(),
                         [](const std::string &s) { return s.compare(0, 2, "__") == 0; }),
        "Engine::listStreams names the user's streams only");
  engine.load(device);
  engine.run(0);
  std::uint16_t back[6] = {0, 0, 0, 0, 0, 0};
  engine.readTensor("hout", back, back + 6);
  check(back[0] == 0x3c00 && back[1] == 0x3c00 && back[2] == 0x4000 && back[3] == 0xc400 && back[4] == 0x3800 &&
            back[5] == 0x4200,
        "half constants and initial values reach the device bit-exact");

  {
    // reorderToSimplify: a view that reads b backwards and then a is put in variable order, and a second tensor
    // follows the same permutation, so that pairs of elements stay pairs.
    Graph g(device.getTarget());
    Tensor a = g.addVariable(FLOAT, {4}, "ra");
    Tensor b = g.addVariable(FLOAT, {4}, "rb");
    Tensor view = concat(b.reverse(0), a);
    Tensor other = g.addVariable(FLOAT, {8}, "rother");
    Tensor partner = other;
    g.reorderToSimplify(&view, {&partner});
    const auto regions = view.getVarRegions();
    check(regions.size() >= 2 && regions.front().var == a.getVarRegions()[0].var, "reorderToSimplify puts a first");
    // other[4..7] was paired with a[0..3]: after the reorder the first four partners are other[4..7].
    check(partner.slice(0, 4).getVarRegions()[0].interval.begin() == 4, "the partner follows the same permutation");
    Tensor wrong = g.addVariable(FLOAT, {3}, "rwrong");
    bool refused = false;
    try {
      g.reorderToSimplify(&view, {&wrong});
    } catch (const poplar_error &) {
      refused = true;
    }
    check(refused, "reorderToSimplify refuses tensors of another size");

    // Hashing variable references, and QUARTER variables with metadata.
    std::unordered_map<VariableRef, int> seen;
    seen[a.getVarRegions()[0].var] = 1;
    seen[b.getVarRegions()[0].var] = 2;
    check(seen.size() == 2 && seen[a.getVarRegions()[0].var] == 1, "std::hash<VariableRef>");
    Tensor md = g.addVariable(QUARTER_METADATA, {}, "md");
    Tensor q = g.addVariable(QUARTER, md, {8}, "q");
    check(q.hasMetadata() && q.getMetadata().getVarRegions() == md.getVarRegions() && !a.hasMetadata(),
          "a QUARTER variable keeps its metadata");
    refused = false;
    try {
      g.addVariable(FLOAT, md, {2}, "fm");
    } catch (const poplar_error &) {
      refused = true;
    }
    check(refused, "metadata for a FLOAT variable is refused");
  }

  ProfileValue::Map m;
  m["n"] = ProfileValue(5u);
  m["rows"] = ProfileValue(ProfileValue::Vector{ProfileValue(ProfileValue::Vector{1u, 2u}),
                                                ProfileValue(ProfileValue::Vector{3u})});
  ProfileValue pv(m);
  check(pv.getOrNull("n") && pv.getOrNull("n")->asUint() == 5 && !pv.getOrNull("missing"), "getOrNull, asUint");
  check(pv["rows"].sum2DUint() == 6 && pv["rows"].sum2DInt() == 6 && pv["rows"][0].toUintVector().size() == 2 &&
            pv["rows"][1].sumUint() == 3,
        "sum2DUint, sum2DInt, toUintVector, sumUint");

  return checksDone("all graph query checks passed");
}
