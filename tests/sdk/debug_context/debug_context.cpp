// A user's program on poplar/DebugContext.hpp: source locations taken by default arguments, name paths through
// DebugNameAndId and DebugContext, DebugInfo records written by the streamer, and the Graph and program API taking
// a DebugContext ({dnai, "name"}, {debugInfo, "name"}) as Graphcore's SDK 3.x does while plain strings still work.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

static SourceLocation here(SourceLocation loc = SourceLocation::Current()) { return loc; }
// An operation in the SDK's style: the default argument records the caller's location.
static DebugContext operation(const DebugContext &dc = {}) { return DebugContext(dc); }
// An operation that makes its own DebugInfo and names what it creates below it.
static Tensor makeScaled(Graph &graph, const DebugContext &dc = {}) {
  DebugInfo di(dc, "userlib");
  di.setValue("scale", ProfileValue(2.5));
  Tensor t = graph.addVariable(FLOAT, {2}, {di, "scaled"});
  graph.setTileMapping(t, 0);
  return t;
}

int main() {
  check(SUPPORTS_LOCATION_BUILTINS == 1, "SUPPORTS_LOCATION_BUILTINS is 1 with g++");
  SourceLocation none;
  check(!none.isValid() && none.getLineNumber() == 0 && std::strcmp(none.getFileName(), "") == 0,
        "a default SourceLocation is invalid");
  const unsigned line = __LINE__; SourceLocation loc = here();
  check(loc.isValid() && loc.getLineNumber() == line,
        "SourceLocation::Current() in a default argument is the caller's line");
  check(std::strcmp(loc.getFunctionName(), "main") == 0, "... and the caller's function");
  check(std::strstr(loc.getFileName(), "debug_context.cpp") != nullptr, "... and the caller's file");
  SourceLocation explicitLoc("f", "g.cpp", 7);
  check(explicitLoc.isValid() && explicitLoc.getLineNumber() == 7 &&
            std::strcmp(explicitLoc.getFileName(), "g.cpp") == 0,
        "SourceLocation(function, file, line)");

  const unsigned opLine = __LINE__; DebugContext fromDefault = operation();
  check(fromDefault.getLocation().getLineNumber() == opLine, "DebugContext {} default argument records the call line");
  check(fromDefault.getPathName().empty() && fromDefault.getId() == 0, "an unnamed DebugContext has no path or id");

  DebugNameAndId outer("outer");
  DebugNameAndId inner(outer, "inner");
  check(inner.getPathName() == "outer/inner", "DebugNameAndId(parent, name) path is parent/name");
  check(DebugNameAndId(outer).getPathName() == "outer", "DebugNameAndId(parent) keeps the parent path");
  check(DebugNameAndId("leaf", 42, "root").getPathName() == "root/leaf" &&
            DebugNameAndId("leaf", 42, "root").getId() == 42,
        "DebugNameAndId(name, id, parentPath)");
  DebugContext dc{inner, "x"};
  check(dc.getPathName() == "outer/inner/x", "DebugContext{dnai, name}");
  check(DebugContext(dc, "y").getPathName() == "outer/inner/x/y", "DebugContext(parent, name)");
  check(DebugContext(std::string("s")).getPathName() == "s" && DebugContext("c").getPathName() == "c",
        "DebugContext from std::string and const char *");
  std::ostringstream printed;
  printed << dc << " " << inner;
  check(printed.str() == "outer/inner/x outer/inner", "operator<< prints the path names");

  const std::string file = "debug.json";
  DebugInfo::initializeStreamer(file, DebugSerializationFormat::JSON);
  DebugId firstId = 0, secondId = 0;
  {
    DebugInfo first(DebugContext("first"), "poplar");
    DebugInfo second({first, "second"}, "popops");
    firstId = first.getId();
    secondId = second.getId();
    check(firstId != 0 && secondId != 0 && firstId != secondId, "each DebugInfo has its own non-zero id");
    check(second.getPathName() == "first/second", "DebugInfo path below its parent DebugInfo");
    check(DebugNameAndId(second).getId() == secondId, "a DebugInfo converts to its DebugNameAndId");
    check(first.setValue("answer", ProfileValue(42)), "setValue adds a new name");
    check(!first.setValue("answer", ProfileValue(43)), "setValue keeps an existing name");
    check(!first.setValue("layer", ProfileValue("x")), "setValue refuses the record's own fields");
  }

  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 2;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  DebugNameAndId model("model");
  Tensor a = graph.addVariable(FLOAT, {2}, {model, "a"});
  Tensor b = graph.addVariable(FLOAT, {2}, "b");
  Tensor c = graph.addConstant<float>(FLOAT, {2}, 1.5f, {model, "c"});
  graph.setTileMapping(a, 0);
  Tensor d = graph.clone(a, {model, "d"}); // mapped as `a`
  Tensor s = makeScaled(graph, {model, "op"});
  graph.setTileMapping(b, 1);
  graph.setTileMapping(c, 1);
  check(a.getDebugStr() == "model/a" && b.getDebugStr() == "b" && c.getDebugStr() == "model/c" &&
            d.getDebugStr() == "model/d",
        "Graph::addVariable, addConstant and clone take a DebugContext or a string");
  check(s.getDebugStr() == "model/op/scaled", "a name below a DebugInfo: " + s.getDebugStr());
  ComputeSet cs = graph.addComputeSet({model, "cs"});
  (void)cs;
  Sequence prog({Copy(c, a, false, {model, "copy"}), Copy(a, b, false, "copy2"), Copy(b, d), Copy(d, s)},
                {model, "main"});
  prog.add(Repeat(1, Sequence(DebugContext("inner")), {model, "repeat"}));
  graph.createHostRead("s", s);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  float out[2] = {0, 0};
  engine.readTensor("s", out);
  check(out[0] == 1.5f && out[1] == 1.5f, "the program built with DebugContexts runs");

  DebugInfo::closeStreamer();
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  ProfileValue doc = parseProfileJSON(text.str());
  const ProfileValue::Vector &contexts = doc["contexts"].asVector();
  bool sawFirst = false, sawSecond = false, sawScaled = false;
  for (const ProfileValue &r : contexts) {
    if (r["id"].asUInt() == firstId)
      sawFirst = r["layer"].asString() == "poplar" && r["name"].asString() == "first" && r["answer"].asInt() == 42 &&
                 r["location"]["fileName"].asString().find("debug_context.cpp") != std::string::npos;
    if (r["id"].asUInt() == secondId)
      sawSecond = r["parentId"].asUInt() == firstId && r["layer"].asString() == "popops";
    if (r["layer"].asString() == "userlib")
      sawScaled = r["name"].asString() == "model/op" && r["scale"].asDouble() == 2.5;
  }
  check(contexts.size() == 3 && sawFirst && sawSecond && sawScaled,
        "the streamer wrote every DebugInfo with its layer, path, parent, location and values");
  return checksDone("debug context: all checks passed");
}
