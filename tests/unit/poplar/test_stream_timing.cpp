// Stream copies in the execution profile (with debug.cycleModel=measured) follow the board's host link: the same program on two IPU Models that
// differ only in host_link_bytes_per_second and host_link_latency_ns takes latency + bytes / bandwidth more or less.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "poplar/Engine.hpp"
#include "poplar/IPUModel.hpp"
#include "ipu_board.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr unsigned kTiles = 4, kFloatsPerTile = 4096; // 64 KiB in all, 16 KiB per tile
constexpr std::uint64_t kClockHz = 1330000000ull;

struct Link {
  std::uint64_t bytesPerSecond;
  std::uint64_t latencyNs;
  // The cycles the card model charges for `bytes` over this link (each part rounded up).
  std::uint64_t cycles(std::uint64_t bytes) const {
    return (latencyNs * kClockHz + 999999999) / 1000000000 + (bytes * kClockHz + bytesPerSecond - 1) / bytesPerSecond;
  }
};

// The "tiny" board with 256 KiB per tile (room for the copy) and the given link, written by the board library's
// writer (every key, as the reader wants it) into a fresh folder.
std::string writeBoard(const std::string &name, const Link &link) {
  ipu_board b;
  char text[IPU_BOARD_WRITE_MAX], err[512] = "";
  if (ipu_board_load("tiny", &b, err, sizeof err) != 0)
    fail_msg("%s", err);
  std::snprintf(b.name, sizeof b.name, "%s", name.c_str());
  std::snprintf(b.description, sizeof b.description, "tiny with another host link");
  b.bytes_per_tile = 262144;
  b.tile_clock_hz = kClockHz;
  b.host_link_bytes_per_second = link.bytesPerSecond;
  b.host_link_latency_ns = std::uint32_t(link.latencyNs);
  const int n = ipu_board_write(&b, text, sizeof text, err, sizeof err);
  if (n < 0 || n >= int(sizeof text))
    fail_msg("ipu_board_write: %s", err);
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("poplar-link-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / (name + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

// Runs one host-to-device copy of 64 KiB spread over the four tiles; returns the StreamCopy step's cycles.
std::uint64_t streamCopyCycles(const std::string &board) {
  IPUModel model(board.c_str());
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(FLOAT, {kTiles * kFloatsPerTile}, "x");
  for (unsigned t = 0; t < kTiles; ++t)
    graph.setTileMapping(x.slice(t * kFloatsPerTile, (t + 1) * kFloatsPerTile), t);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, kTiles * kFloatsPerTile);
  // The card model's link timing is what this test checks: ask for the measured cycles (an IPU Model reports its
  // time model's estimate by default, docs/time-model.md).
  Engine engine(graph, Sequence({Copy(in, x)}),
                OptionFlags{{"debug.instrument", "true"}, {"debug.cycleModel", "measured"}});
  engine.load(device);
  std::vector<float> host(kTiles * kFloatsPerTile, 1.5f);
  engine.connectStream("in", host.data());
  engine.run(0);
  const ProfileValue profile = engine.getExecutionProfile();
  std::uint64_t cycles = 0;
  unsigned copies = 0;
  for (const auto &step : profile["simulation"]["steps"].asVector())
    if (step["type"].asString() == "StreamCopy") {
      cycles = step["cycles"].asUInt();
      ++copies;
    }
  assert_int_equal(copies, 1);
  assert_true(cycles <= engine.getLastRunCycles());
  return cycles;
}

void test_stream_copy_follows_link(void **) {
  const std::uint64_t bytes = kTiles * kFloatsPerTile * 4;
  const Link fast{25000000000ull, 1000}, slow{2500000000ull, 10000};
  const std::uint64_t fastCycles = streamCopyCycles(writeBoard("fast-link", fast));
  const std::uint64_t slowCycles = streamCopyCycles(writeBoard("slow-link", slow));
  print_message("stream copy of %llu bytes: %llu cycles on the fast link (link %llu), %llu on the slow (link %llu)\n",
                (unsigned long long)bytes, (unsigned long long)fastCycles, (unsigned long long)fast.cycles(bytes),
                (unsigned long long)slowCycles, (unsigned long long)slow.cycles(bytes));
  // The copy takes the link's time and a little more: the tiles' control program and copy code, the two syncs of a
  // copy and the cycle stamp (about 2,400 cycles on this model, the same for both links).
  assert_true(fastCycles >= fast.cycles(bytes) && fastCycles <= fast.cycles(bytes) + 5000);
  assert_true(slowCycles >= slow.cycles(bytes) && slowCycles <= slow.cycles(bytes) + 5000);
  // Everything but the link is the same program on the same tiles: the difference is the links' difference.
  assert_int_equal(slowCycles - fastCycles, slow.cycles(bytes) - fast.cycles(bytes));
  std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                              ("poplar-link-" + std::to_string(::getpid())));
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stream_copy_follows_link),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
