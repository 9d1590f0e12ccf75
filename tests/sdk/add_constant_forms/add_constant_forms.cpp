// Graph::addConstant in each of the forms a Poplar program writes: a non-const pointer (vector.data() of a
// non-const vector), a const pointer, an ArrayRef, a std::vector, a braced list with the element type given, and one
// value for every element. Each constant is copied into a variable on the device and read back. A pointer or a list
// taken as "one value" gives every element the same garbage, so each check compares every element.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;

int main() {
  IPUModel model("tiny");
  Device device = model.createDevice();
  Graph graph(device.getTarget());

  std::vector<unsigned> indices = {7, 1, 4};
  const std::vector<float> weights = {1.5f, -2.0f, 0.25f};
  Tensor fromPointer = graph.addConstant(UNSIGNED_INT, {3}, indices.data(), "fromPointer");
  Tensor fromConstPointer = graph.addConstant(FLOAT, {3}, weights.data(), "fromConstPointer");
  Tensor fromArrayRef = graph.addConstant(UNSIGNED_INT, {3}, ArrayRef<unsigned>(indices), "fromArrayRef");
  Tensor fromVector = graph.addConstant(FLOAT, {3}, weights, "fromVector");
  Tensor fromList = graph.addConstant<float>(FLOAT, {3}, {0.5, 1.0, 1.5}, "fromList");
  Tensor fromValue = graph.addConstant(INT, {3}, -9, "fromValue");

  Tensor u = graph.addVariable(UNSIGNED_INT, {2, 3}, "u");
  Tensor f = graph.addVariable(FLOAT, {3, 3}, "f");
  Tensor i = graph.addVariable(INT, {3}, "i");
  for (Tensor t : {fromPointer, fromConstPointer, fromArrayRef, fromVector, fromList, fromValue, u, f, i})
    graph.setTileMapping(t, 1);
  program::Sequence prog;
  prog.add(program::Copy(fromPointer, u[0]));
  prog.add(program::Copy(fromArrayRef, u[1]));
  prog.add(program::Copy(fromConstPointer, f[0]));
  prog.add(program::Copy(fromVector, f[1]));
  prog.add(program::Copy(fromList, f[2]));
  prog.add(program::Copy(fromValue, i));
  graph.createHostRead("u", u);
  graph.createHostRead("f", f);
  graph.createHostRead("i", i);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<unsigned> hu(6);
  std::vector<float> hf(9);
  std::vector<int> hi(3);
  engine.readTensor("u", hu.data(), hu.data() + hu.size());
  engine.readTensor("f", hf.data(), hf.data() + hf.size());
  engine.readTensor("i", hi.data(), hi.data() + hi.size());

  check(std::vector<unsigned>(hu.begin(), hu.begin() + 3) == indices, "addConstant(type, shape, T *): 7 1 4");
  check(std::vector<unsigned>(hu.begin() + 3, hu.end()) == indices, "addConstant(type, shape, ArrayRef<T>): 7 1 4");
  check(std::vector<float>(hf.begin(), hf.begin() + 3) == weights,
        "addConstant(type, shape, const T *): 1.5 -2 0.25");
  check(std::vector<float>(hf.begin() + 3, hf.begin() + 6) == weights,
        "addConstant(type, shape, std::vector<T>): 1.5 -2 0.25");
  check(std::vector<float>(hf.begin() + 6, hf.end()) == std::vector<float>({0.5f, 1.0f, 1.5f}),
        "addConstant<float>(type, shape, {...}): 0.5 1 1.5");
  check(hi == std::vector<int>({-9, -9, -9}), "addConstant(type, shape, value): -9 in every element");
  return checksDone("addConstant forms: all checks passed");
}
