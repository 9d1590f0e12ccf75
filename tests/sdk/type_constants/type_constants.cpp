// A user's program on the type constants of poplar/Type.hpp beyond the basic nine: SIGNED_CHAR, LONG,
// UNSIGNED_LONG, LONGLONG, UNSIGNED_LONGLONG, QUARTER, QUARTER_METADATA. 64-bit integers live on the device, move
// to and from the host and through codelets; quarter (fp8) tensors can be made, copied and moved, and a vertex or
// a constant of them is refused with an error that says why.
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

template <typename F> static std::string errorOf(F f) {
  try {
    f();
  } catch (const poplar_error &e) {
    return e.what();
  }
  return "";
}

int main() {
  struct Row {
    const Type *type;
    const char *name;
    std::size_t size;
  } rows[] = {{&SIGNED_CHAR, "signed char", 1}, {&LONG, "long", 8},       {&UNSIGNED_LONG, "unsigned long", 8},
              {&LONGLONG, "long long", 8},      {&UNSIGNED_LONGLONG, "unsigned long long", 8},
              {&QUARTER, "quarter", 1},         {&QUARTER_METADATA, "quarter_metadata", 1}};
  for (const Row &r : rows)
    check(r.type->isValid() && r.type->toString() == r.name && r.type->getSize() == r.size &&
              typeFromString(r.name) == *r.type,
          std::string("Type ") + r.name);
  check(SIGNED_CHAR != CHAR && LONG != LONGLONG && QUARTER.isFloatingPoint() && !LONGLONG.isFloatingPoint(),
        "the new types are distinct types");
  check(equivalent_device_type<signed char>().value == SIGNED_CHAR && equivalent_device_type<long>().value == LONG &&
            equivalent_device_type<unsigned long>().value == UNSIGNED_LONG &&
            equivalent_device_type<long long>().value == LONGLONG &&
            equivalent_device_type<unsigned long long>().value == UNSIGNED_LONGLONG,
        "equivalent_device_type maps signed char, long, unsigned long, long long, unsigned long long");

  IPUModel model;
  model.tilesPerIPU = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("wide_codelets.cpp");
  Tensor big = graph.addVariable(LONGLONG, {3}, "big");
  Tensor moved = graph.addVariable(LONGLONG, {3}, "moved");
  Tensor offset = graph.addConstant<long long>(LONGLONG, {3}, 1LL << 40, "offset");
  Tensor ul = graph.addVariable(UNSIGNED_LONG, {2}, "ul");
  Tensor sc = graph.addVariable(SIGNED_CHAR, {2}, "sc");
  Tensor q = graph.addVariable(QUARTER, {4}, "q");
  Tensor q2 = graph.addVariable(QUARTER, {4}, "q2");
  graph.setTileMapping(big, 0);
  graph.setTileMapping(moved, 1);
  graph.setTileMapping(offset, 1);
  graph.setTileMapping(ul, 0);
  graph.setTileMapping(sc, 1);
  graph.setTileMapping(q, 0);
  graph.setTileMapping(q2, 1);
  ComputeSet cs = graph.addComputeSet("times1000");
  VertexRef vx = graph.addVertex(cs, "TimesThousand", {{"v", moved}});
  graph.setTileMapping(vx, 1);
  Sequence prog({Copy(big, moved), Execute(cs), Copy(q, q2)});
  graph.createHostWrite("big", big);
  graph.createHostRead("moved", moved);
  graph.createHostRead("offset", offset);
  graph.createHostWrite("q", q);
  graph.createHostRead("q2", q2);
  graph.createHostWrite("ul", ul);
  graph.createHostRead("ul_out", ul);
  graph.createHostWrite("sc", sc);
  graph.createHostRead("sc_out", sc);
  Engine engine(graph, prog);
  engine.load(device);
  std::vector<long long> bigIn = {-3, 5000000000LL, 7}, out(3, 0), offsets(3, 0);
  std::vector<unsigned char> quarters = {0x38, 0x40, 0x44, 0xb8}, quartersOut(4, 0);
  std::vector<unsigned long> ulIn = {~0UL, 12}, ulOut(2, 0);
  std::vector<signed char> scIn = {-100, 100}, scOut(2, 0);
  engine.writeTensor("big", bigIn.data());
  engine.writeTensor("q", quarters.data());
  engine.writeTensor("ul", ulIn.data());
  engine.writeTensor("sc", scIn.data());
  engine.run(0);
  engine.readTensor("moved", out.data());
  engine.readTensor("offset", offsets.data());
  engine.readTensor("q2", quartersOut.data());
  engine.readTensor("ul_out", ulOut.data());
  engine.readTensor("sc_out", scOut.data());
  check(out[0] == -3000 && out[1] == 5000000000000LL && out[2] == 7000,
        "LONGLONG through a copy and a long long codelet");
  check(offsets[0] == (1LL << 40) && offsets[2] == (1LL << 40), "a LONGLONG constant");
  check(quartersOut == quarters, "QUARTER tensors copy on the device and move to and from the host");
  check(ulOut == ulIn && scOut == scIn, "UNSIGNED_LONG and SIGNED_CHAR to the device and back");

  Graph refused(device.getTarget());
  refused.addCodelets("wide_codelets.cpp");
  Tensor rq = refused.addVariable(QUARTER, {2}, "rq");
  refused.setTileMapping(rq, 0);
  ComputeSet rcs = refused.addComputeSet("bytes");
  refused.setTileMapping(refused.addVertex(rcs, "Bytes", {{"v", rq}}), 0);
  std::string vertexError = errorOf([&] { Engine e(refused, Execute(rcs)); });
  check(vertexError.find("quarter") != std::string::npos && vertexError.find("fp8") != std::string::npos,
        "a vertex on a QUARTER tensor is refused: " + vertexError);
  std::string constantError = errorOf([&] { refused.addConstant<float>(QUARTER, {1}, 1.0f); });
  check(constantError.find("quarter") != std::string::npos, "a QUARTER constant is refused: " + constantError);
  Graph printing(device.getTarget());
  Tensor p = printing.addVariable(LONGLONG, {1}, "p");
  printing.setTileMapping(p, 0);
  std::string printError = errorOf([&] { Engine e(printing, PrintTensor("p", p)); });
  check(printError.find("long long") != std::string::npos, "PrintTensor of LONGLONG is refused: " + printError);
  return checksDone("type constants: all checks passed");
}
