// A user's program on Graph::setInitCallback (poplar/LateInitCallback.hpp): two plain fields of a vertex are set by
// callbacks from the compiled layout of its edges (VertexEdgeInfo), and the vertex on the device reports the values
// it received next to the addresses it sees. Also: a setInitialValue is replaced by the callback, and bad calls
// (empty callback, an edge field, a type of the wrong size) throw graph_connection_error naming the field; on a
// replicated graph each replica gets the value from its own layout.
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/LateInitCallback.hpp>
#include <poplar/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;


template <typename Fn> static std::string connectionError(Fn fn) {
  try {
    fn();
  } catch (const graph_connection_error &e) {
    return e.what();
  }
  return "";
}

// On a graph replicated twice, the callback runs once per replica, each time with that replica's layout, and each
// replica's vertex holds its own value.
static void replicated() {
  IPUModel ipuModel;
  ipuModel.numIPUs = 2; // one IPU of 2 tiles per replica
  ipuModel.tilesPerIPU = 2;
  Device device = ipuModel.createDevice();
  Graph top(device.getTarget());
  Graph graph = top.createReplicatedGraph(2);
  graph.addCodelets("graph_init_callback_codelets.cpp");
  Tensor a = graph.addVariable(INT, {2}, "a");
  Tensor b = graph.addVariable(INT, {1}, "b");
  Tensor out = graph.addVariable(UNSIGNED_INT, {5}, "out");
  graph.setTileMapping(a, 1);
  graph.setTileMapping(b, 1);
  graph.setTileMapping(out, 1);
  ComputeSet cs = graph.addComputeSet("where");
  VertexRef v = graph.addVertex(cs, "Where", {{"a", a}, {"b", b}, {"out", out}});
  graph.setTileMapping(v, 1);
  unsigned calls = 0;
  graph.setInitCallback<unsigned>(v["gap"], [&](const VertexEdgeInfo &info) {
    ++calls;
    return unsigned(info.storage.at("b")[0].startOffs - info.storage.at("a")[0].startOffs);
  });
  graph.setInitCallback<unsigned>(v["start"], [](const VertexEdgeInfo &info) {
    return unsigned(info.storage.at("a")[0].startOffs);
  });
  top.createHostRead("out", top.getNonReplicatedTensor(out));
  Engine engine(top, Execute(cs));
  check(calls == 2, "on 2 replicas the callback ran twice (" + std::to_string(calls) + " calls)");
  engine.load(device);
  engine.run(0);
  std::vector<unsigned> got(10);
  engine.readTensor("out", got.data(), got.data() + got.size());
  for (unsigned r = 0; r < 2; ++r)
    check(got[5 * r] == got[5 * r + 1] && got[5 * r + 2] == got[5 * r + 3],
          "replica " + std::to_string(r) + " holds its own gap (" + std::to_string(got[5 * r]) + ") and start (" +
              std::to_string(got[5 * r + 2]) + ") as its tile sees them");
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("graph_init_callback_codelets.cpp");

  Tensor a = graph.addVariable(INT, {3}, "a");
  Tensor b = graph.addVariable(INT, {5}, "b");
  Tensor out = graph.addVariable(UNSIGNED_INT, {5}, "out");
  graph.setTileMapping(a, 2);
  graph.setTileMapping(b, 2);
  graph.setTileMapping(out, 2);
  graph.setInitialValue(a, std::vector<int>{40, 0, 0});
  graph.setInitialValue(b, std::vector<int>{2, 0, 0, 0, 0});
  ComputeSet cs = graph.addComputeSet("where");
  VertexRef v = graph.addVertex(cs, "Where", {{"a", a}, {"b", b}, {"out", out}});
  graph.setTileMapping(v, 2);

  // What the callbacks saw, to compare with what the tile sees.
  unsigned calls = 0;
  VertexEdgeInfo seen;
  graph.setInitialValue(v["gap"], 7u); // replaced by the callback below
  graph.setInitCallback<unsigned>(v["gap"], [&](const VertexEdgeInfo &info) {
    ++calls;
    seen = info;
    return unsigned(info.storage.at("b")[0].startOffs - info.storage.at("a")[0].startOffs);
  });
  LateInitCallback<unsigned> start = [](const VertexEdgeInfo &info) {
    return unsigned(info.storage.at("a").front().startOffs);
  };
  graph.setInitCallback(v["start"], start);

  std::string e = connectionError([&] { graph.setInitCallback<unsigned>(v["gap"], LateInitCallback<unsigned>()); });
  check(e.find("gap") != std::string::npos && e.find("empty") != std::string::npos,
        "an empty callback throws graph_connection_error naming the field: " + e);
  e = connectionError([&] { graph.setInitCallback<unsigned>(v["a"], start); });
  check(e.find("Where.a") != std::string::npos && e.find("plain field") != std::string::npos,
        "a callback on an edge field throws graph_connection_error: " + e);
  e = connectionError([&] {
    graph.setInitCallback<unsigned short>(v["gap"], [](const VertexEdgeInfo &) { return (unsigned short)1; });
  });
  check(e.find("4 bytes") != std::string::npos && e.find("2") != std::string::npos,
        "a callback type of the wrong size throws graph_connection_error: " + e);

  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  check(calls == 1, "the gap callback ran once, at compile time (" + std::to_string(calls) + " calls)");
  check(seen.storage.size() == 3 && seen.storage.count("out") == 1, "VertexEdgeInfo lists the three edge fields");
  check(seen.storage["a"].size() == 1 && seen.storage["a"][0].len == 12, "a is one run of 12 bytes");
  check(seen.storage["b"].size() == 1 && seen.storage["b"][0].len == 20, "b is one run of 20 bytes");
  check(seen.storage["out"].size() == 1 && seen.storage["out"][0].len == 20, "out is one run of 20 bytes");

  engine.load(device);
  engine.run(0);
  std::vector<unsigned> got(5);
  engine.readTensor("out", got.data(), got.data() + got.size());
  check(got[0] == got[1] && got[0] != 7,
        "the vertex holds the callback's gap (" + std::to_string(got[0]) + "), the distance it sees from a to b (" +
            std::to_string(got[1]) + ")");
  check(got[2] == got[3] && got[2] == seen.storage["a"][0].startOffs,
        "the start offset the callback computed (" + std::to_string(got[2]) + ") is a's offset on the tile (" +
            std::to_string(got[3]) + ")");
  check(got[4] == 42, "the vertex read its inputs (40 + 2 = " + std::to_string(got[4]) + ")");

  replicated();
  return checksDone("all setInitCallback checks passed");
}
