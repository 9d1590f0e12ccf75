// popops::createHostSliceableTensor / createHostTransferableTensor: the tensors are completely mapped in 1 KiB
// packets placed as Graphcore's are, starting on the tile the offset names, the indices have one element per
// slice, and they work as the targets of a multi-row remote-buffer copy and a data stream copy (values checked
// against the host's); and the shape error.
#include <popops/HostSliceTensor.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

/// Every element of t is mapped; returns the tile holding element 0.
unsigned firstTile(Graph &g, const Tensor &t) {
  auto m = g.getTileMapping(t);
  std::size_t mapped = 0;
  unsigned tile0 = ~0u;
  for (unsigned tile = 0; tile < m.size(); ++tile)
    for (const Interval &iv : m[tile]) {
      mapped += iv.size();
      if (iv.begin() == 0)
        tile0 = tile;
    }
  assert_int_equal(mapped, t.numElements());
  return tile0;
}

void test_layout_and_copies(void **) {
  Fixture f(8);
  const std::size_t rows = 4, width = 10;
  popops::IndicesAndTensor s = popops::createHostSliceableTensor(f.graph, FLOAT, {2, width}, true);
  assert_true(s.tensor.shape() == (std::vector<std::size_t>{2, width}));
  assert_true(s.indices.shape() == std::vector<std::size_t>{2});
  assert_true(s.indices.elementType() == UNSIGNED_INT);
  assert_int_equal(firstTile(f.graph, s.tensor), 0);
  // 3 packets of 1 KiB already sent: the one packet goes to tile 3.
  popops::IndicesAndTensor o = popops::createHostSliceableTensor(f.graph, HALF, {1, 40}, false, 3 * 1024);
  assert_int_equal(firstTile(f.graph, o.tensor), 3);
  Tensor t = popops::createHostTransferableTensor(f.graph, INT, {3, 5, 2}, false, 9 * 1024 - 100, "t");
  assert_true(t.shape() == (std::vector<std::size_t>{3, 5, 2}));
  assert_int_equal(firstTile(f.graph, t), 1); // 9 packets (rounded up) modulo 8 tiles
  assert_int_equal(firstTile(f.graph, popops::createHostTransferableTensor(f.graph, FLOAT, {5}, true)), 0);

  RemoteBuffer rb = f.graph.addRemoteBuffer("rb", FLOAT, width, rows);
  f.graph.createHostWrite("idx", s.indices);
  f.graph.createHostRead("s", s.tensor);
  f.prog.add(Copy(rb, s.tensor, s.indices));
  DataStream in = f.graph.addHostToDeviceFIFO("in", INT, t.numElements());
  f.prog.add(Copy(in, t));
  f.readable(t, "t.r");
  f.build();
  std::vector<float> host(rows * width);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = float(i) * 0.5f;
  for (std::size_t r = 0; r < rows; ++r)
    f.engine->copyToRemoteBuffer(host.data() + r * width, "rb", r);
  f.write("idx", std::vector<unsigned>{3, 1});
  std::vector<int> ints(t.numElements());
  for (std::size_t i = 0; i < ints.size(); ++i)
    ints[i] = int(i) - 7;
  f.engine->connectStream("in", ints.data(), ints.data() + ints.size());
  f.engine->run(0);
  std::vector<float> want(host.begin() + 3 * width, host.begin() + 4 * width);
  want.insert(want.end(), host.begin() + 1 * width, host.begin() + 2 * width);
  expectNear(f.read<float>("s", 2 * width), want, "remote rows");
  expectEqual(f.read<int>("t.r", ints.size()), ints, "stream");
}

/// The tiles holding part of t.
std::vector<unsigned> tilesOf(Graph &g, const Tensor &t) {
  std::vector<unsigned> r;
  auto m = g.getTileMapping(t);
  for (unsigned tile = 0; tile < m.size(); ++tile)
    if (!m[tile].empty())
      r.push_back(tile);
  return r;
}

// The packet layout: every row is its own run of 1 KiB packets, spread evenly and in order over the tiles, with
// the packets left over going to tiles taken round the exchange blocks (on 8 tiles: 0, 3, 4, 7, 2, 1, 6, 5), and
// each row's index on the tile of its first packet.
void test_packet_layout(void **) {
  Fixture f(8);
  // A small tensor is one packet on one tile, its index with it.
  popops::IndicesAndTensor a = popops::createHostSliceableTensor(f.graph, FLOAT, {1, 255}, false);
  assert_true(tilesOf(f.graph, a.tensor) == std::vector<unsigned>{0});
  assert_true(tilesOf(f.graph, a.indices) == std::vector<unsigned>{0});
  // Two short rows: two packets, on the first two tiles of the remainder order.
  popops::IndicesAndTensor b = popops::createHostSliceableTensor(f.graph, FLOAT, {2, 10}, false);
  assert_true(tilesOf(f.graph, b.tensor) == (std::vector<unsigned>{0, 3}));
  assert_true(tilesOf(f.graph, b.indices[1]) == std::vector<unsigned>{3});
  // One row of 9 packets on 8 tiles: one each, and tile 0 takes the ninth (two packets, one region).
  popops::IndicesAndTensor c = popops::createHostSliceableTensor(f.graph, FLOAT, {1, 256 * 9}, false);
  auto m = f.graph.getTileMapping(c.tensor);
  assert_int_equal(m[0].size(), 1);
  assert_int_equal(m[0][0].size(), 512);
  for (unsigned tile = 1; tile < 8; ++tile) {
    assert_int_equal(m[tile].size(), 1);
    assert_int_equal(m[tile][0].size(), 256);
  }
  // Six rows of two packets (HALF: 512 per packet): 12 packets, 6 index tiles.
  popops::IndicesAndTensor d = popops::createHostSliceableTensor(f.graph, HALF, {6, 520}, false);
  assert_int_equal(tilesOf(f.graph, d.tensor).size(), 8);
  assert_int_equal(tilesOf(f.graph, d.indices).size(), 6);
  // The offset shifts where the leftover packets go: one packet after 10 packets sent lands on tile 2.
  Tensor e = popops::createHostTransferableTensor(f.graph, FLOAT, {4, 64}, false, 10 * 1024);
  assert_true(tilesOf(f.graph, e) == std::vector<unsigned>{2});
}

void test_errors(void **) {
  Fixture f(4);
  expectThrow<poputil::poplibs_error>(
      [&] { popops::createHostSliceableTensor(f.graph, FLOAT, {2, 3, 4}, true); }, "must be [slice indices");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_layout_and_copies),
      cmocka_unit_test(test_packet_layout),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
