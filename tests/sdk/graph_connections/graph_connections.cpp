// A user's program on Graph::ConnectionDesc (its Kind: a tensor, tensors for a VectorList, a value for a plain
// field, as addVertex takes them in a braced list), Graph::connect(field, tensors), FunctionBuffer with
// Graph::addFunctionBuffer and program::Copy(buffer, function), and GenericInterval (Interval is its std::size_t
// form).
#include <sstream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/FunctionBufferMappingType.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Interval.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("conn_codelets.cpp");
  Tensor a = graph.addConstant(INT, {2}, std::vector<int>{1, 2}.data(), "a");
  Tensor b = graph.addConstant(INT, {3}, std::vector<int>{3, 4, 5}.data(), "b");
  Tensor outs = graph.addVariable(INT, {2}, "outs");
  for (const Tensor &t : {a, b, outs})
    graph.setTileMapping(t, 1);

  Graph::ConnectionDesc tensorDesc("out", outs[0]);
  Graph::ConnectionDesc vectorDesc("parts", {a, b});
  Graph::ConnectionDesc valueDesc("n", 3u);
  check(tensorDesc.kind == Graph::ConnectionDesc::Kind::Tensor && vectorDesc.kind == Graph::ConnectionDesc::Kind::Vector &&
            valueDesc.kind == Graph::ConnectionDesc::Kind::Value,
        "ConnectionDesc::Kind: Tensor, Vector, Value by what is connected");
  check(vectorDesc.tensors.size() == 2 && valueDesc.value.size() == sizeof(unsigned),
        "a Vector connection holds its 2 tensors, a Value one its 4 bytes");

  ComputeSet cs = graph.addComputeSet("sum");
  // One vertex connected entirely by the braced list, one with connect(field, tensors).
  VertexRef v0 = graph.addVertex(cs, "Summer", {{"parts", {a, b}}, {"out", outs[0]}, {"n", 3u}, {"bias", -2}});
  VertexRef v1 = graph.addVertex(cs, "Summer", {{"out", outs[1]}, {"n", 2u}, {"bias", 1}});
  graph.connect(v1["parts"], std::vector<Tensor>{b, a, b});
  graph.setTileMapping(v0, 1);
  graph.setTileMapping(v1, 1);
  check(graph.getFieldSize(v0["parts"]) == 2 && graph.getFieldSize(v1["parts"]) == 3,
        "the VectorLists have 2 and 3 items");

  Function sum = graph.addFunction(Execute(cs));
  FunctionBuffer buffer = graph.addFunctionBuffer(sum, FunctionBufferMappingType::REMOTE);
  check(buffer.getId() == 0, "FunctionBuffer::getId: the graph's first buffer is 0");
  graph.createHostRead("outs", outs);
  Engine engine(graph, Sequence({Copy(buffer, sum), Call(sum)}));
  engine.load(device);
  engine.run(0);
  std::vector<int> got(2, 0);
  engine.readTensor("outs", got.data(), got.data() + 2);
  // (1+2+3+4+5) * 3 - 2 = 43; (12 + 3 + 12) * 2 + 1 = 55.
  check(got[0] == 43, "a vertex connected by tensor, tensors and values computes (1+..+5)*3-2 = 43");
  check(got[1] == 55, "connect(field, tensors) fills a VectorList: (12+3+12)*2+1 = 55");
  check(got == std::vector<int>({43, 55}), "Copy(buffer, function) then Call(function) runs the function");

  Function other = graph.addFunction(Sequence());
  check(has(refusal<poplar_error>([&] { Copy(buffer, other); }), "the buffer holds function 0's code"),
        "Copy of a buffer into another function is refused naming the function it holds");
  check(has(refusal<poplar_error>([&] { graph.addFunctionBuffer(Function(Sequence(), 9), FunctionBufferMappingType::REMOTE); }),
            "was not made by this graph"),
        "addFunctionBuffer of a function from elsewhere is refused");

  GenericInterval<int> gi(2, 5);
  check(gi.begin() == 2 && gi.end() == 5 && gi.lower() == 2 && gi.upper() == 5 && gi.size() == 3,
        "GenericInterval<int>(2, 5): begin 2, end 5, size 3");
  check(GenericInterval<int>(1, 9) < gi && gi <= gi && gi >= GenericInterval<int>(2, 4) && gi > GenericInterval<int>(0, 9),
        "GenericInterval orders by begin, then end");
  std::ostringstream os;
  os << gi;
  check(os.str() == "[2, 5)", "GenericInterval prints [2, 5)");
  check(has(refusal<index_error>([] { GenericInterval<unsigned> bad(5, 2); }), "end 2 is before begin 5"),
        "an end before the begin throws index_error");
  Interval i = GenericInterval<std::size_t>(1, 4);
  GenericInterval<std::size_t> back = i;
  check(i.size() == 3 && back == GenericInterval<std::size_t>(1, 4) && i <= Interval(1, 4) && Interval(2, 3) > i,
        "Interval converts to and from GenericInterval<std::size_t>");
  return checksDone("graph connections: all checks passed");
}
