// Graph::getNonReplicatedTensor (issue 19): a replicated tensor seen from the top-level graph as one tensor whose
// outermost dimension is the replica. Its mapping names each replica's tiles, host handles on it read and write
// every replica's own values, Copy between such tensors moves data within and across replicas, and misuse is
// refused with a message that names the fix.
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

#include "expect_throw.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t kN = 8;
const unsigned kReplicas = 4;

/// The tiny board (4 tiles per IPU) with one IPU per replica.
Device tinyDevice() {
  IPUModel m("tiny");
  m.numIPUs = kReplicas;
  return m.createDevice();
}

/// A replicated [kN] variable, half on tile 1 and half on tile 2 of each replica.
Tensor splitVariable(Graph &g, const std::string &name) {
  Tensor t = g.addVariable(FLOAT, {kN}, name);
  g.setTileMapping(t.slice(0, kN / 2), 1);
  g.setTileMapping(t.slice(kN / 2, kN), 2);
  return t;
}

float value(unsigned replica, std::size_t i) { return float(replica * 100) + float(i); }

void test_shape_and_mapping(void **) {
  Device d = tinyDevice();
  Graph top(d.getTarget());
  Graph g = top.createReplicatedGraph(kReplicas);
  Tensor a = splitVariable(g, "a");
  Tensor nr = top.getNonReplicatedTensor(a);
  assert_true(nr.shape() == std::vector<std::size_t>({kReplicas, kN}));
  assert_true(nr.elementType() == FLOAT);
  const unsigned tilesPerReplica = top.getTarget().getNumTiles() / kReplicas;
  TileToTensorMapping m = top.getTileMapping(nr);
  assert_int_equal(m.size(), top.getTarget().getNumTiles());
  for (unsigned r = 0; r < kReplicas; ++r) {
    const unsigned first = r * tilesPerReplica;
    assert_int_equal(m[first + 1].size(), 1);
    assert_int_equal(m[first + 1][0].begin(), r * kN);
    assert_int_equal(m[first + 1][0].end(), r * kN + kN / 2);
    assert_int_equal(m[first + 2][0].begin(), r * kN + kN / 2);
    assert_int_equal(m[first + 2][0].end(), (r + 1) * kN);
  }
  // A slice keeps its replica: row 2 is mapped on replica 2's tiles only.
  TileToTensorMapping row = top.getTileMapping(nr[2]);
  assert_int_equal(row[2 * tilesPerReplica + 1].size(), 1);
  assert_int_equal(row[1].size(), 0);
}

// Every replica gets its own values through a write handle of the non-replicated tensor, doubles them on the
// device (a replicated Copy and a cross-replica-free program), and the read handle returns each replica's result;
// a read handle of the replicated tensor still reads replica 0.
void test_host_read_write_per_replica(void **) {
  Device d = tinyDevice();
  Graph top(d.getTarget());
  Graph g = top.createReplicatedGraph(kReplicas);
  Tensor a = splitVariable(g, "a"), b = g.addVariable(FLOAT, {kN}, "b");
  g.setTileMapping(b, 3);
  top.createHostWrite("a.all", top.getNonReplicatedTensor(a));
  top.createHostRead("b.all", top.getNonReplicatedTensor(b));
  g.createHostRead("b", b);
  Engine e(g, Sequence(Copy(a, b)));
  e.load(d);
  std::vector<float> in(kReplicas * kN), out(kReplicas * kN, -1.0f), first(kN);
  for (unsigned r = 0; r < kReplicas; ++r)
    for (std::size_t i = 0; i < kN; ++i)
      in[r * kN + i] = value(r, i);
  e.writeTensor("a.all", in.data(), in.data() + in.size());
  e.run(0);
  e.readTensor("b.all", out.data(), out.data() + out.size());
  assert_true(out == in);
  e.readTensor("b", first.data(), first.data() + first.size());
  for (std::size_t i = 0; i < kN; ++i)
    assert_true(first[i] == value(0, i));
}

// Copy between non-replicated tensors in a program of the top-level graph: a whole copy (each replica to itself),
// and a rotation of rows (replica r's x to replica r+1's z), element by element across the replicas' IPUs.
void test_copy_between_replicas(void **) {
  Device d = tinyDevice();
  Graph top(d.getTarget());
  Graph g = top.createReplicatedGraph(kReplicas);
  Tensor x = splitVariable(g, "x"), y = g.addVariable(FLOAT, {kN}, "y"), z = g.addVariable(FLOAT, {kN}, "z");
  g.setTileMapping(y, 0);
  g.setTileMapping(z, 3);
  Tensor nx = top.getNonReplicatedTensor(x), ny = top.getNonReplicatedTensor(y), nz = top.getNonReplicatedTensor(z);
  top.createHostWrite("x", nx);
  top.createHostRead("y", ny);
  top.createHostRead("z", nz);
  Sequence prog(Copy(nx, ny));
  for (unsigned r = 0; r < kReplicas; ++r)
    prog.add(Copy(nx[r], nz[(r + 1) % kReplicas]));
  Engine e(top, prog);
  e.load(d);
  std::vector<float> in(kReplicas * kN), outY(kReplicas * kN), outZ(kReplicas * kN);
  for (unsigned r = 0; r < kReplicas; ++r)
    for (std::size_t i = 0; i < kN; ++i)
      in[r * kN + i] = value(r, i);
  e.writeTensor("x", in.data(), in.data() + in.size());
  e.run(0);
  e.readTensor("y", outY.data(), outY.data() + outY.size());
  e.readTensor("z", outZ.data(), outZ.data() + outZ.size());
  for (unsigned r = 0; r < kReplicas; ++r)
    for (std::size_t i = 0; i < kN; ++i) {
      assert_true(outY[r * kN + i] == value(r, i));
      assert_true(outZ[r * kN + i] == value((r + kReplicas - 1) % kReplicas, i));
    }
}

void test_errors(void **) {
  Device d = tinyDevice();
  Graph plain(d.getTarget());
  Tensor p = plain.addVariable(FLOAT, {kN}, "p");
  expectThrow<poplar_error>([&] { plain.getNonReplicatedTensor(p); }, "the graph is not replicated");

  Graph top(d.getTarget());
  top.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Graph g = top.createReplicatedGraph(kReplicas);
  Tensor a = splitVariable(g, "a"), b = splitVariable(g, "b");
  expectThrow<poplar_error>([&] { g.getNonReplicatedTensor(a); }, "call it on the top-level graph");
  expectThrow<poplar_error>([&] { top.getNonReplicatedTensor(Tensor()); }, "invalid");
  expectThrow<poplar_error>([&] { top.getNonReplicatedTensor(p); }, "belongs to another graph");
  Tensor na = top.getNonReplicatedTensor(a);
  expectThrow<poplar_error>([&] { top.getNonReplicatedTensor(na); }, "pass the replicated tensor itself");
  expectThrow<poplar_error>([&] { top.setTileMapping(na, 0); }, "call it with the replicated tensor");
  expectThrow<poplar_error>([&] { top.setInitialValue(na[0], 1.0f); }, "call it with the replicated tensor");

  // A copy that mixes the two kinds, a stream and a vertex connected to a non-replicated tensor: compile errors.
  expectThrow<graph_program_compilation_error>([&] { Engine e(top, Copy(na[0], b)); }, "one side names");
  DataStream s = g.addHostToDeviceFIFO("s", FLOAT, kN);
  expectThrow<graph_program_compilation_error>([&] { Engine e(top, Copy(s, na[1])); },
                                               "connect vertices and streams to the replicated tensor");
  ComputeSet cs = top.addComputeSet("add");
  VertexRef v = top.addVertex(cs, "AddVectors", {{"a", na[0]}, {"b", na[0]}, {"out", na[1]}});
  top.setTileMapping(v, 1);
  expectThrow<graph_program_compilation_error>([&] { Engine e(top, Execute(cs)); }, "names the elements of specific");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shape_and_mapping),
      cmocka_unit_test(test_host_read_write_per_replica),
      cmocka_unit_test(test_copy_between_replicas),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
