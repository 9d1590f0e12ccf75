// IntervalMap, the tile of each element of a variable as runs: after every assign, in orders that do and do not
// follow the lookup cursor (ascending slices, tutorial 7's segment-by-segment passes, descending, random, whole-map
// overwrites), its runs must be exactly the runs of a per-element reference array, joined where neighbours share a
// tile. Copies and moves made part-way must go on agreeing with the reference.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "graph_impl.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using poplar::detail::IntervalMap;
using poplar::detail::kUnmapped;

namespace {

using Run = std::tuple<std::size_t, std::size_t, unsigned>;

// The map and the per-element array it must describe, assigned together.
struct Pair {
  explicit Pair(std::size_t n) : map(n), tiles(n, kUnmapped) {}
  void assign(std::size_t begin, std::size_t end, unsigned tile) {
    map.assign(begin, end, tile);
    for (std::size_t i = begin; i < end; ++i)
      tiles[i] = tile;
  }
  IntervalMap map;
  std::vector<unsigned> tiles;
};

std::vector<Run> runsOf(const IntervalMap &m) {
  std::vector<Run> out;
  m.forEach([&](std::size_t b, std::size_t e, unsigned t) { out.emplace_back(b, e, t); });
  return out;
}

std::vector<Run> runsOf(const std::vector<unsigned> &tiles) {
  std::vector<Run> out;
  for (std::size_t b = 0, e; b < tiles.size(); b = e) {
    for (e = b + 1; e < tiles.size() && tiles[e] == tiles[b];)
      ++e;
    out.emplace_back(b, e, tiles[b]);
  }
  return out;
}

// The runs forEachIn gives for [begin, end), against the reference's runs cut to that window.
void expectSameWindow(const IntervalMap &m, const std::vector<unsigned> &tiles, std::size_t begin, std::size_t end,
                      const std::string &step) {
  std::vector<Run> got, want;
  m.forEachIn(begin, end, [&](std::size_t b, std::size_t e, unsigned t) { got.emplace_back(b, e, t); });
  for (const auto &[b, e, t] : runsOf(tiles))
    if (b < end && e > begin)
      want.emplace_back(std::max(b, begin), std::min(e, end), t);
  if (got != want)
    fail_msg("%s: forEachIn [%zu, %zu) differs from the per-element reference", step.c_str(), begin, end);
}

// Fails the test at the first assign whose result differs from the reference, naming the step. Also checks windows
// of forEachIn, which start by a lookup (across the map's chunks when it has several).
void expectSame(const IntervalMap &m, const std::vector<unsigned> &tiles, const std::string &step) {
  if (runsOf(m) != runsOf(tiles))
    fail_msg("%s: the map's runs differ from the per-element reference", step.c_str());
  const std::size_t n = tiles.size();
  for (std::size_t b : {std::size_t(0), n / 3, n / 2 + 1, n - 1})
    for (std::size_t len : {std::size_t(1), std::size_t(7), n / 4 + 3, n})
      expectSameWindow(m, tiles, b, std::min(n, b + len), step);
}

void check(Pair &p, std::size_t begin, std::size_t end, unsigned tile, const char *order) {
  p.assign(begin, end, tile);
  expectSame(p.map, p.tiles,
             std::string(order) + " [" + std::to_string(begin) + ", " + std::to_string(end) + ") -> " +
                 std::to_string(tile));
}

void test_ascending_slices(void **) {
  Pair p(1000);
  for (std::size_t b = 0; b < 1000; b += 10)
    check(p, b, b + 10, unsigned(b / 40), "ascending"); // four slices a tile: neighbours join
  assert_int_equal(runsOf(p.map).size(), 25);
}

void test_tutorial7_passes(void **) {
  // Rows of 100 cut into 7 segments, mapped one segment of every row per pass, as tutorial 7 maps its matrix.
  const std::size_t rows = 60, cols = 100, split = 7;
  Pair p(rows * cols);
  for (std::size_t i = 0; i < split; ++i)
    for (std::size_t r = 0; r < rows; ++r)
      check(p, r * cols + i * cols / split, r * cols + (i + 1) * cols / split, unsigned((i * rows + r) / 9),
            "tutorial 7");
  for (unsigned t : p.tiles)
    assert_true(t != kUnmapped);
}

void test_descending_and_random(void **) {
  Pair p(500);
  for (std::size_t b = 500; b >= 20; b -= 20)
    check(p, b - 20, b - 3, unsigned(b % 3), "descending");
  std::mt19937 rng(35);
  for (int k = 0; k < 3000; ++k) {
    std::size_t b = rng() % 500, e = b + rng() % 40;
    check(p, b, std::min<std::size_t>(e, 500), unsigned(rng() % 4), "random");
  }
  check(p, 0, 500, 2, "whole map");
  assert_int_equal(runsOf(p.map).size(), 1);
}

void test_copies_and_moves(void **) {
  Pair p(300);
  for (std::size_t b = 0; b < 150; b += 5)
    check(p, b, b + 3, unsigned(b % 7), "before the copy");
  IntervalMap copy(p.map);          // shares nothing with p.map
  IntervalMap source(p.map);
  IntervalMap moved(std::move(source));
  IntervalMap assigned(1);
  assigned = p.map;
  std::vector<unsigned> tiles = p.tiles;
  for (std::size_t b = 150; b < 300; b += 5) {
    for (IntervalMap *m : {&copy, &moved, &assigned})
      m->assign(b, b + 3, unsigned(b % 7));
    for (std::size_t i = b; i < b + 3; ++i)
      tiles[i] = unsigned(b % 7);
    expectSame(copy, tiles, "copy at " + std::to_string(b));
    expectSame(moved, tiles, "move at " + std::to_string(b));
    expectSame(assigned, tiles, "assigned copy at " + std::to_string(b));
  }
  expectSame(p.map, p.tiles, "the original after its copies changed"); // the copies share nothing with it
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ascending_slices),
      cmocka_unit_test(test_tutorial7_passes),
      cmocka_unit_test(test_descending_and_random),
      cmocka_unit_test(test_copies_and_moves),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
