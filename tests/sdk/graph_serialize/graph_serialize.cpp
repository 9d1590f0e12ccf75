// Graph::serialize (the graph's structure, JSON or binary, with the transfers of the programs given) and
// Graph::serializeTensors / deserializeTensors (tensors' types, shapes, views and tile mapping written from one
// graph and made again in another), as a user of the SDK's API reference would call them.
#include <cstddef>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/SerializationFormat.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

/// The graph's structure as JSON (to see whether it changed).
static std::string structure(const Graph &g) {
  std::ostringstream out;
  g.serialize(out, SerializationFormat::JSON);
  return out.str();
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("twice.cpp");
  Tensor x = graph.addVariable(FLOAT, {2, 3}, "weights");
  graph.setTileMapping(x.slice(0, 1), 1);
  graph.setTileMapping(x.slice(1, 2), 3);
  Tensor y = graph.addVariable(INT, {4}, "counts");
  graph.setTileMapping(y, 2);
  ComputeSet cs = graph.addComputeSet("double");
  VertexRef v = graph.addVertex(cs, "Twice", {{"data", x.flatten()}});
  graph.setTileMapping(v, 1);
  DataStream in = graph.addHostToDeviceFIFO("weights-in", FLOAT, 6);
  Sequence prog(Copy(in, x), Execute(cs), Copy(y.slice(0, 2), y.slice(2, 4)));

  // The structure as JSON: pretty-printed text naming what the graph holds.
  std::ostringstream json;
  graph.serialize(json, SerializationFormat::JSON);
  const std::string j = json.str();
  check(has(j, "\"weights\"") && has(j, "\"counts\"") && has(j, "\"double\"") && has(j, "\"Twice\""),
        "serialize(JSON) names the variables, the compute set and the vertex class");
  check(has(j, "\n  ") && j[0] == '{', "the JSON is one object, pretty-printed");
  check(has(j, "\"streams\"") && has(j, "\"weights-in\""), "the streams are listed");
  check(!has(j, "\"src\""), "serialize(out, format) lists no copies (it is serialize(out, {}, format))");

  // With the programs: their transfers, by stream name and variable elements.
  std::ostringstream withProgs;
  graph.serialize(withProgs, {prog}, SerializationFormat::JSON);
  check(has(withProgs.str(), "\"copies\"") && has(withProgs.str(), "\"weights-in\"") &&
            has(withProgs.str(), "\"src\"") && has(withProgs.str(), "\"dst\""),
        "serialize(out, progs, JSON) lists the Copy programs' streams and tensors");
  std::vector<Program> progList(1, prog);
  std::ostringstream withVector;
  graph.serialize(withVector, progList, SerializationFormat::JSON);
  check(withVector.str() == withProgs.str(), "a std::vector of programs gives the same document");

  // The binary form: a CBOR map, not text.
  std::ostringstream bin;
  graph.serialize(bin, SerializationFormat::Binary);
  const std::string b = bin.str();
  check(!b.empty() && (static_cast<unsigned char>(b[0]) & 0xe0) == 0xa0 && b.size() < j.size(),
        "serialize(Binary) writes a binary map, smaller than the JSON");

  // Tensors round trip into a second graph: views, types, shapes and mapping kept, each variable made anew once.
  Tensor xt = x.transpose();
  Tensor part = x.slice(1, 3, 1);
  std::vector<Tensor> saved;
  saved.push_back(xt);
  saved.push_back(part);
  saved.push_back(y.reinterpret(UNSIGNED_INT));
  std::stringstream file;
  graph.serializeTensors(file, saved, SerializationFormat::Binary);
  Graph other(device.getTarget());
  Tensor before = other.addVariable(HALF, {1}, "already-there");
  other.setTileMapping(before, 0);
  std::vector<Tensor> back = other.deserializeTensors(file, SerializationFormat::Binary);
  check(back.size() == 3, "deserializeTensors returns as many tensors as were written");
  bool same = back.size() == 3;
  for (std::size_t i = 0; same && i < 3; ++i)
    same = back[i].shape() == saved[i].shape() && back[i].elementType() == saved[i].elementType() &&
           other.getTileMapping(back[i]) == graph.getTileMapping(saved[i]);
  check(same, "each tensor comes back with its shape, element type and tile mapping");
  check(back.size() == 3 && back[0].intersectsWith(back[1]) && !back[0].intersectsWith(back[2]) &&
            !back[0].intersectsWith(before),
        "tensors that shared a variable share one new variable; others do not");
  check(back.size() == 3 && back[0].getVarRegions().size() == saved[0].getVarRegions().size(),
        "a transposed view comes back as the same view");

  // The new tensors work in programs: the transposed view reads the host data in transposed order.
  if (back.size() == 3) {
    Tensor w = back[0].transpose(); // the new "weights" variable, row-major again
    DataStream hostIn = other.addHostToDeviceFIFO("in", FLOAT, 6);
    DataStream hostOut = other.addDeviceToHostFIFO("out", FLOAT, 6);
    Engine engine(other, Sequence(Copy(hostIn, w), Copy(back[0], hostOut)));
    engine.load(device);
    std::vector<float> data = {1, 2, 3, 4, 5, 6}, got(6, 0);
    engine.connectStream("in", data.data());
    engine.connectStream("out", got.data());
    engine.run(0);
    check(got == std::vector<float>({1, 4, 2, 5, 3, 6}), "a deserialized view reads its variable as the saved one did");
  }

  // JSON tensors: readable, not readable back (as in the SDK).
  std::stringstream jsonTensors;
  graph.serializeTensors(jsonTensors, saved, SerializationFormat::JSON);
  check(has(jsonTensors.str(), "\"weights\"") && has(jsonTensors.str(), "\"unsigned int\""),
        "serializeTensors(JSON) names the variables and element types");
  checkMessage(refusal<poplar_error>([&] { other.deserializeTensors(jsonTensors, SerializationFormat::JSON); }),
          "SerializationFormat::Binary", "deserializeTensors(JSON) is refused, naming Binary");

  // Bad input.
  checkMessage(refusal<poplar_error>([&] { graph.serializeTensors(file, {before}, SerializationFormat::Binary); }),
          "another graph", "a tensor of another graph is refused");
  checkMessage(refusal<poplar_error>([&] { graph.serializeTensors(file, {Tensor()}, SerializationFormat::Binary); }),
          "invalid", "an invalid tensor is refused");
  std::stringstream garbage("not a tensor file");
  const std::string otherBefore = structure(other);
  checkMessage(refusal<poplar_error>([&] { other.deserializeTensors(garbage, SerializationFormat::Binary); }),
          "serializeTensors", "a stream of something else is refused, naming serializeTensors");
  std::stringstream wholeGraph(b);
  checkMessage(refusal<poplar_error>([&] { other.deserializeTensors(wholeGraph, SerializationFormat::Binary); }),
          "serializeTensors", "a serialized graph is not a tensor file");
  check(structure(other) == otherBefore, "a refused stream leaves the graph as it was");
  IPUModel small;
  small.tilesPerIPU = 2;
  Device smallDevice = small.createDevice();
  Graph tooSmall(smallDevice.getTarget());
  std::stringstream again;
  graph.serializeTensors(again, saved, SerializationFormat::Binary);
  checkMessage(refusal<poplar_error>([&] { tooSmall.deserializeTensors(again, SerializationFormat::Binary); }),
          "tile", "tensors mapped beyond the graph's tiles are refused");
  return checksDone("graph serialization checked");
}
