// Replication in one process (issue 19): a graph of replication factor n runs as n copies on disjoint IPUs of one
// device; replicated streams give each replica its own data (REPLICATE) or the same (BROADCAST), device-to-host
// streams deliver each replica's copy to that replica's connection, remote buffers hold each replica's own rows, and
// the errors name the problem.
#include <cstdint>
#include <functional>
#include <sstream>
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

/// The tiny board with `ipus` IPUs of 4 tiles each.
Device tinyDevice(unsigned ipus) {
  IPUModel m("tiny");
  m.numIPUs = ipus;
  return m.createDevice();
}

const std::size_t kN = 8;

/// out = in + bias on the replica's tiles 1 and 2 (half each); `in` replicated, `bias` broadcast.
Sequence addBias(Graph &g) {
  Tensor a = g.addVariable(FLOAT, {kN}, "a"), b = g.addVariable(FLOAT, {kN}, "b"), out = g.addVariable(FLOAT, {kN}, "out");
  ComputeSet cs = g.addComputeSet("add");
  for (unsigned half = 0; half < 2; ++half) {
    const unsigned tile = 1 + half;
    Tensor pa = a.slice(half * kN / 2, (half + 1) * kN / 2), pb = b.slice(half * kN / 2, (half + 1) * kN / 2);
    Tensor po = out.slice(half * kN / 2, (half + 1) * kN / 2);
    g.setTileMapping(pa, tile);
    g.setTileMapping(pb, tile);
    g.setTileMapping(po, tile);
    VertexRef v = g.addVertex(cs, "AddVectors", {{"a", pa}, {"b", pb}, {"out", po}});
    g.setTileMapping(v, tile);
  }
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, kN);
  DataStream bias = g.addHostToDeviceFIFO("bias", FLOAT, kN, ReplicatedStreamMode::BROADCAST);
  DataStream result = g.addDeviceToHostFIFO("result", FLOAT, kN);
  return Sequence(Copy(in, a), Copy(bias, b), Execute(cs), Copy(out, result));
}

float inValue(unsigned replica, unsigned run, std::size_t i) { return float(replica * 100 + run * 10) + float(i); }
float biasValue(std::size_t i) { return 0.5f * float(i) - 1.0f; }

// Two replicas of one IPU each on a 2-IPU device: each replica adds the broadcast bias to its own input; the second
// run takes the next copy of each replica's circular buffer.
void test_replicate_and_broadcast(void **) {
  Device d = tinyDevice(2);
  Graph g(d.getTarget(), replication_factor(2));
  g.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  assert_int_equal(g.getReplicationFactor(), 2);
  assert_int_equal(g.getTarget().getNumIPUs(), 1);
  assert_int_equal(g.getTarget().getNumTiles(), 4);
  assert_int_equal(g.getTopLevelGraph().getTarget().getNumTiles(), 8);
  assert_int_equal(g.getTopLevelGraph().getReplicationFactor(), 1);
  Engine e(g, addBias(g));
  e.load(d);
  const unsigned replicas = 2, runs = 2;
  std::vector<std::vector<float>> in(replicas, std::vector<float>(kN * runs)), out(replicas, std::vector<float>(kN * runs));
  std::vector<float> bias(kN);
  for (std::size_t i = 0; i < kN; ++i)
    bias[i] = biasValue(i);
  for (unsigned r = 0; r < replicas; ++r) {
    for (unsigned run = 0; run < runs; ++run)
      for (std::size_t i = 0; i < kN; ++i)
        in[r][run * kN + i] = inValue(r, run, i);
    e.connectStream("in", r, in[r].data(), in[r].data() + in[r].size());
    e.connectStream("result", r, out[r].data(), out[r].data() + out[r].size());
  }
  e.connectStream("bias", bias.data());
  e.run(0);
  e.run(0);
  for (unsigned r = 0; r < replicas; ++r)
    for (unsigned run = 0; run < runs; ++run)
      for (std::size_t i = 0; i < kN; ++i)
        assert_true(out[r][run * kN + i] == inValue(r, run, i) + biasValue(i));
}

// createReplicatedGraph on a 4-IPU device: 2 replicas of 2 IPUs, each a pipeline of two virtual graphs (one per
// IPU of the replica): the first scales the replica's input by 2, the second (across the IPU-Link) by 3. Inputs
// come from per-replica functions, results go to per-replica buffers.
void test_replicated_pipeline(void **) {
  Device d = tinyDevice(4);
  Graph top(d.getTarget());
  top.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Graph g = top.createReplicatedGraph(2);
  assert_int_equal(g.getReplicationFactor(), 2);
  assert_int_equal(g.getTarget().getNumIPUs(), 2);
  const unsigned tpi = g.getTarget().getTilesPerIPU();
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, kN);
  DataStream result = g.addDeviceToHostFIFO("result", FLOAT, kN);
  Sequence prog;
  Tensor prev;
  for (unsigned stage = 0; stage < 2; ++stage) {
    Graph vg = g.createVirtualGraph(stage * tpi, (stage + 1) * tpi);
    Tensor a = vg.addVariable(FLOAT, {kN}, "in" + std::to_string(stage));
    Tensor b = vg.addVariable(FLOAT, {kN}, "out" + std::to_string(stage));
    vg.setTileMapping(a, 1);
    vg.setTileMapping(b, 3);
    ComputeSet cs = vg.addComputeSet("scale" + std::to_string(stage));
    VertexRef v = vg.addVertex(cs, "ScaleBy", {{"in", a}, {"out", b}});
    vg.setInitialValue(v["factor"], float(stage + 2));
    vg.setTileMapping(v, 3);
    prog.add(stage == 0 ? Copy(in, a) : Copy(prev, a));
    prog.add(Execute(cs));
    prev = b;
  }
  prog.add(Copy(prev, result));
  Engine e(g, prog);
  e.load(d);
  std::vector<std::vector<float>> out(2, std::vector<float>(kN));
  for (unsigned r = 0; r < 2; ++r) {
    e.connectStreamToCallback("in", r, [r](void *p) {
      for (std::size_t i = 0; i < kN; ++i)
        static_cast<float *>(p)[i] = inValue(r, 0, i);
    });
    e.connectStream("result", r, out[r].data());
  }
  e.run(0);
  for (unsigned r = 0; r < 2; ++r)
    for (std::size_t i = 0; i < kN; ++i)
      assert_true(out[r][i] == inValue(r, 0, i) * 6.0f);
}

// CrossReplicaCopy between 4 replicas (one per IPU): a rotation (replica r receives replica r-1's data, across
// the IPU-Links), and a partial map where only replica 0 receives (from replica 2) and the others keep their
// initial values. The x and y tensors sit on different tiles so that the copy moves data between tiles too.
void test_cross_replica_copy(void **) {
  Device d = tinyDevice(4);
  Graph g(d.getTarget(), replication_factor(4));
  Tensor x = g.addVariable(FLOAT, {kN}, "x"), y = g.addVariable(FLOAT, {kN}, "y"), z = g.addVariable(FLOAT, {kN}, "z");
  g.setTileMapping(x, 0);
  g.setTileMapping(y.slice(0, kN / 2), 1);
  g.setTileMapping(y.slice(kN / 2, kN), 2);
  g.setTileMapping(z, 3);
  g.setInitialValue(z, -1.0f);
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, kN);
  DataStream rotated = g.addDeviceToHostFIFO("rotated", FLOAT, kN);
  DataStream partial = g.addDeviceToHostFIFO("partial", FLOAT, kN);
  Sequence prog(Copy(in, x), CrossReplicaCopy(x, y, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}), Copy(y, rotated),
                CrossReplicaCopy(x, z, {{2, 0}}), Copy(z, partial));
  Engine e(g, prog);
  e.load(d);
  std::vector<std::vector<float>> rot(4, std::vector<float>(kN)), part(4, std::vector<float>(kN));
  for (unsigned r = 0; r < 4; ++r) {
    e.connectStreamToCallback("in", r, [r](void *p) {
      for (std::size_t i = 0; i < kN; ++i)
        static_cast<float *>(p)[i] = inValue(r, 0, i);
    });
    e.connectStream("rotated", r, rot[r].data());
    e.connectStream("partial", r, part[r].data());
  }
  e.run(0);
  for (unsigned r = 0; r < 4; ++r)
    for (std::size_t i = 0; i < kN; ++i) {
      assert_true(rot[r][i] == inValue((r + 3) % 4, 0, i));
      assert_true(part[r][i] == (r == 0 ? inValue(2, 0, i) : -1.0f));
    }
  expectThrow<poplar_error>([&] { CrossReplicaCopy(x, y, {{0, 1}, {2, 1}}); }, "both copy to replica 1");
  expectThrow<graph_program_compilation_error>([&] { Engine bad(g, CrossReplicaCopy(x, y, {{0, 4}})); },
                                               "the map names replica 4");
}

// A remote buffer in a replicated graph: every replica has its own rows. Each replica reads the row its own
// offset names (replica r: row r % 3, written through the offset's non-replicated handle), doubles it and writes
// it back; the host fills and checks every replica's rows with the replicationIndex of copyTo/FromRemoteBuffer.
void test_remote_buffer_per_replica(void **) {
  const unsigned replicas = 4, rows = 3;
  Device d = tinyDevice(replicas);
  Graph top(d.getTarget());
  top.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Graph g = top.createReplicatedGraph(replicas);
  RemoteBuffer rb = g.addRemoteBuffer("rb", FLOAT, kN, rows);
  Tensor a = g.addVariable(FLOAT, {kN}, "a"), b = g.addVariable(FLOAT, {kN}, "b");
  Tensor offset = g.addVariable(UNSIGNED_INT, {1}, "offset");
  g.setTileMapping(a, 1);
  g.setTileMapping(b, 2);
  g.setTileMapping(offset, 0);
  top.createHostWrite("offset", top.getNonReplicatedTensor(offset));
  ComputeSet cs = g.addComputeSet("double");
  VertexRef twice = g.addVertex(cs, "ScaleBy", {{"in", a}, {"out", b}});
  g.setInitialValue(twice["factor"], 2.0f);
  g.setTileMapping(twice, 2);
  Engine e(g, Sequence(Copy(rb, a, offset), Execute(cs), Copy(b, rb, offset)));
  e.load(d);
  auto value = [](unsigned r, unsigned row, std::size_t i) { return float(r * 1000 + row * 100) + float(i); };
  for (unsigned r = 0; r < replicas; ++r)
    for (unsigned row = 0; row < rows; ++row) {
      std::vector<float> v(kN);
      for (std::size_t i = 0; i < kN; ++i)
        v[i] = value(r, row, i);
      e.copyToRemoteBuffer(v.data(), "rb", row, r);
    }
  std::vector<unsigned> offsets(replicas);
  for (unsigned r = 0; r < replicas; ++r)
    offsets[r] = r % rows;
  e.writeTensor("offset", offsets.data(), offsets.data() + replicas);
  e.run(0);
  for (unsigned r = 0; r < replicas; ++r)
    for (unsigned row = 0; row < rows; ++row) {
      std::vector<float> v(kN);
      e.copyFromRemoteBuffer("rb", v.data(), row, r);
      for (std::size_t i = 0; i < kN; ++i)
        assert_true(v[i] == value(r, row, i) * (row == r % rows ? 2.0f : 1.0f));
    }
  std::vector<float> buf(kN);
  expectThrow<invalid_option>([&] { e.copyFromRemoteBuffer("rb", buf.data(), 0, replicas); },
                              "replica index 4 does not exist");
}

// profiler.replicaToProfile: the cycle stamps go on the chosen replica's tile (replica 2's copy of tile 1 is tile
// 9 with 4 tiles per replica), the steps are measured all the same, and a replica that does not exist is refused.
void test_replica_to_profile(void **) {
  Device d = tinyDevice(4);
  Graph g(d.getTarget(), replication_factor(4));
  g.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Sequence prog = addBias(g);
  // The measured stamps are what this checks (an IPU Model shows its time model's estimate by default).
  Engine e(g, prog, {{"debug.instrument", "true"}, {"profiler.replicaToProfile", "2"}, {"debug.cycleModel", "measured"}});
  e.load(d);
  std::vector<float> buf(kN, 1.0f);
  e.connectStream("in", buf.data());
  e.connectStream("bias", buf.data());
  e.connectStream("result", buf.data());
  e.run(0);
  assert_true(buf[0] == 2.0f);
  std::ostringstream summary;
  e.printProfileSummary(summary);
  assert_true(summary.str().find("measured on tile 9,") != std::string::npos);
  expectThrow<invalid_option>([&] { Engine bad(g, prog, {{"profiler.replicaToProfile", "4"}}); },
                              "profiler.replicaToProfile 4: the graph has 4 replica(s)");
}

void test_replication_errors(void **) {
  Device d = tinyDevice(4);
  expectThrow<invalid_option>([&] { Graph g(d.getTarget(), replication_factor(3)); },
                              "replication factor 3 does not divide the target's 4 IPUs");
  Graph top(d.getTarget());
  expectThrow<invalid_option>([&] { top.createReplicatedGraph(8); }, "does not divide");
  Graph g = top.createReplicatedGraph(2);
  expectThrow<invalid_option>([&] { top.createReplicatedGraph(2); }, "already replicated");
  expectThrow<invalid_option>([&] { g.createVirtualGraph(0, 4).createReplicatedGraph(2); }, "virtual graph");
  expectThrow<poplar_error>([&] { g.getNonReplicatedTensor(g.addVariable(FLOAT, {2})); }, "call it on the top-level graph");

  // A tensor of the top-level graph past the first replica's tiles cannot be replicated.
  Graph top2(d.getTarget());
  top2.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Graph rg = top2.createReplicatedGraph(4);
  Tensor far = top2.addVariable(FLOAT, {kN}, "far");
  top2.setTileMapping(far, 9);
  DataStream s = rg.addHostToDeviceFIFO("s", FLOAT, kN);
  expectThrow<graph_program_compilation_error>([&] { Engine e(rg, Copy(s, far)); }, "tile 9 is used");

  // Replica indices and unconnected replicas.
  Graph g2(d.getTarget(), replication_factor(4));
  g2.addCodelets(POPLAR_TEST_REPLICA_CODELETS);
  Engine e(g2, addBias(g2));
  e.load(d);
  std::vector<float> buf(kN);
  expectThrow<invalid_option>([&] { e.connectStream("in", 4u, buf.data()); }, "replica index 4 does not exist");
  e.connectStream("bias", buf.data());
  e.connectStream("result", buf.data());
  for (unsigned r = 0; r < 4; ++r)
    if (r != 2)
      e.connectStream("in", r, buf.data());
  expectThrow<application_runtime_error>([&] { e.run(0); }, "replica 2 is not connected");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_replicate_and_broadcast),
      cmocka_unit_test(test_replicated_pipeline),
      cmocka_unit_test(test_cross_replica_copy),
      cmocka_unit_test(test_remote_buffer_per_replica),
      cmocka_unit_test(test_replica_to_profile),
      cmocka_unit_test(test_replication_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
