// Unit tests of device images and upload plans: shared code is sent once per run of tiles, per-tile data is
// merged where identical, bss shares one zero block, and bad images are rejected before any write.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "elf_builder.hpp"
#include "ipu_board.h"
#include "ipu_runtime/tile_image.hpp"

// cmocka.h defines fail() and friends as macros, so it comes after the C++ headers.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h> // cmocka 1.1 declares some functions without C linkage for C++
}

using namespace ipu::runtime;
using namespace ipu::runtime::testing;

namespace {

constexpr std::uint32_t kBase = 0x00100000u;

ElfTarget tinyTarget() {
  ipu_board board;
  ipu_board_default(&board);
  return ElfTarget::fromBoard(board);
}

TileImage minimalImage() {
  const std::vector<std::uint8_t> elf = minimalElf().build();
  return parseTileElf(elf.data(), elf.size(), tinyTarget());
}

TileSegment seg(std::uint32_t vaddr, std::vector<std::uint8_t> bytes, std::uint32_t memsz = 0) {
  TileSegment s;
  s.vaddr = vaddr;
  s.bytes = std::move(bytes);
  s.memsz = memsz ? memsz : std::uint32_t(s.bytes.size());
  s.flags = 6;
  return s;
}

struct Mem {
  std::vector<std::vector<std::uint8_t>> sram;
  Mem(std::size_t tiles, std::size_t bytes) : sram(tiles, std::vector<std::uint8_t>(bytes, 0xa5)) {}
  void apply(const UploadPlan &plan) {
    forEachTileWrite(plan, [&](std::uint32_t t, std::uint32_t a, const std::uint8_t *p, std::uint32_t n) {
      std::memcpy(sram[t].data() + (a - kBase), p, n);
    });
  }
  std::uint8_t at(std::uint32_t tile, std::uint32_t addr) const { return sram[tile][addr - kBase]; }
};

void test_shared_code_sent_once(void **) {
  const TileImage img = minimalImage();
  const UploadPlan plan = planUpload(DeviceImage::fromElf(img, {0, 1, 2, 3}), tinyTarget(), 4);
  // code bytes, data bytes, data bss: three writes, each broadcast to all four tiles.
  assert_int_equal(plan.writes.size(), 3);
  for (const TileWrite &w : plan.writes) {
    assert_int_equal(w.firstTile, 0);
    assert_int_equal(w.tileCount, 4);
  }
  assert_int_equal(plan.busBytes(), img.loadBytes());
  assert_int_equal(plan.tileBytes(), 4 * img.loadBytes());
  Mem mem(4, 0x10000);
  mem.apply(plan);
  for (std::uint32_t t = 0; t < 4; ++t) {
    assert_int_equal(mem.at(t, kBase), img.segments[0].bytes[0]);
    assert_int_equal(mem.at(t, kBase + 0x1000), 1);
    assert_int_equal(mem.at(t, kBase + 0x1007), 8);
    assert_int_equal(mem.at(t, kBase + 0x1008), 0);    // bss zeroed
    assert_int_equal(mem.at(t, kBase + 0x103f), 0);    // up to memsz
    assert_int_equal(mem.at(t, kBase + 0x1040), 0xa5); // and no further
  }
}

void test_tile_runs(void **) {
  const UploadPlan plan = planUpload(DeviceImage::fromElf(minimalImage(), {3, 0, 1}), tinyTarget(), 4);
  // Tiles {0,1} and {3} are two runs: each segment part is written twice.
  assert_int_equal(plan.writes.size(), 6);
  Mem mem(4, 0x10000);
  mem.apply(plan);
  assert_int_equal(mem.at(2, kBase + 0x1000), 0xa5); // tile 2 not selected
  assert_int_equal(mem.at(3, kBase + 0x1000), 1);
}

void test_per_tile_data_merged(void **) {
  DeviceImage d = DeviceImage::fromElf(minimalImage(), {0, 1, 2, 3});
  d.perTile[0].push_back(seg(kBase + 0x2000, {7, 7, 7, 7}));
  d.perTile[1].push_back(seg(kBase + 0x2000, {7, 7, 7, 7}));
  d.perTile[2].push_back(seg(kBase + 0x2000, {8, 8, 8, 8}));
  d.perTile[3].push_back(seg(kBase + 0x2000, {7, 7, 7, 7}, 32));
  const UploadPlan plan = planUpload(d, tinyTarget(), 4);
  // shared: 3 writes; per-tile: {7777} to tiles 0,1 and 3 (two runs), {8888} to 2, zeros to 3.
  assert_int_equal(plan.writes.size(), 3 + 2 + 1 + 1);
  Mem mem(4, 0x10000);
  mem.apply(plan);
  assert_int_equal(mem.at(0, kBase + 0x2003), 7);
  assert_int_equal(mem.at(1, kBase + 0x2003), 7);
  assert_int_equal(mem.at(2, kBase + 0x2003), 8);
  assert_int_equal(mem.at(3, kBase + 0x2003), 7);
  assert_int_equal(mem.at(3, kBase + 0x2004), 0);
  assert_int_equal(mem.at(0, kBase + 0x2004), 0xa5);
  // The payload {7,7,7,7} is stored once in the host bytes.
  std::size_t copies = 0;
  for (std::size_t i = 0; i + 4 <= plan.hostBytes.size(); i += 8)
    copies += std::memcmp(&plan.hostBytes[i], "\7\7\7\7", 4) == 0;
  assert_int_equal(copies, 1);
}

void test_boot(void **) {
  DeviceImage d = DeviceImage::fromElf(minimalImage(), {0, 1});
  d.boot[1] = TileBoot{kBase, 0x1234};
  assert_int_equal(d.bootOf(0).entry, kBase);
  assert_int_equal(d.bootOf(0).bootArg, 0);
  assert_int_equal(d.bootOf(1).bootArg, 0x1234);
}

void expectReject(const DeviceImage &d, std::uint32_t numTiles, const char *fragment) {
  try {
    planUpload(d, tinyTarget(), numTiles);
  } catch (const application_runtime_error &e) {
    std::printf("    rejected: %s\n", e.what());
    if (!std::strstr(e.what(), fragment))
      fail_msg("message '%s' lacks '%s'", e.what(), fragment);
    return;
  }
  fail_msg("image accepted; expected '%s'", fragment);
}

void test_rejections(void **) {
  const TileImage img = minimalImage();
  expectReject(DeviceImage::fromElf(img, {}), 4, "no tiles selected");
  expectReject(DeviceImage::fromElf(img, {0, 4}), 4, "tile 4 does not exist; the card has 4 tiles (0..3)");
  expectReject(DeviceImage::fromElf(img, {1, 1}), 4, "tile 1 is listed twice");
  DeviceImage d = DeviceImage::fromElf(img, {0, 1});
  d.perTile[2].push_back(seg(kBase + 0x2000, {1}));
  expectReject(d, 4, "per-tile data for tile 2, which is not in the image's tile list");
  d = DeviceImage::fromElf(img, {0, 1});
  d.perTile[1].push_back(seg(kBase + 0x1010, {1}));
  expectReject(d, 4, "per-tile segment 0 of tile 1 at [0x101010, 0x101011) overlaps shared segment 1 of tile 1");
  d = DeviceImage::fromElf(img, {0, 1});
  d.perTile[1].push_back(seg(kBase + 0xffff, {1, 2}));
  expectReject(d, 4, "per-tile segment 0 of tile 1: [0x10ffff, 0x110001) is not inside tile SRAM");
  d = DeviceImage::fromElf(img, {0, 1});
  d.perTile[0].push_back(seg(kBase + 0x3000, {1, 2, 3}, 2));
  expectReject(d, 4, "3 bytes of data exceed memsz 2");
  d = DeviceImage::fromElf(img, {0, 1});
  d.boot[3] = TileBoot{};
  expectReject(d, 4, "boot entry names tile 3");
  d = DeviceImage::fromElf(img, {0});
  ElfTarget t = tinyTarget();
  t.reserved.push_back({kBase, 4, "supervisor vector"});
  try {
    planUpload(d, t, 4);
    fail_msg("reserved overlap accepted");
  } catch (const application_runtime_error &e) {
    assert_non_null(std::strstr(e.what(), "overlaps the reserved supervisor vector"));
  }
}

// More tiles than one descriptor's 16-bit TILE_COUNT: the run is split.
void test_broadcast_split(void **) {
  std::vector<std::uint32_t> tiles(70000);
  for (std::uint32_t i = 0; i < tiles.size(); ++i)
    tiles[i] = i;
  const UploadPlan plan = planUpload(DeviceImage::fromElf(minimalImage(), tiles), tinyTarget(), 70000);
  assert_int_equal(plan.writes.size(), 6);
  assert_int_equal(plan.writes[0].tileCount, 0xffff);
  assert_int_equal(plan.writes[1].firstTile, 0xffff);
  assert_int_equal(plan.writes[1].tileCount, 70000 - 0xffff);
}

// ipu2-sized: 1472 tiles, 64 KiB of shared code and 1 KiB of distinct data per tile.
void test_ipu2_plan(void **) {
  ipu_board board;
  char err[256];
  assert_int_equal(ipu_board_load("ipu2", &board, err, sizeof err), 0);
  const ElfTarget t = ElfTarget::fromBoard(board);
  const std::uint32_t n = ipu_board_num_tiles(&board);
  DeviceImage d;
  for (std::uint32_t i = 0; i < n; ++i)
    d.tiles.push_back(i);
  d.shared.push_back(seg(kBase, std::vector<std::uint8_t>(65536, 0x13)));
  for (std::uint32_t i = 0; i < n; ++i)
    d.perTile[i].push_back(seg(kBase + 0x20000, std::vector<std::uint8_t>(1024, std::uint8_t(i)), 4096));
  const auto t0 = std::chrono::steady_clock::now();
  const UploadPlan plan = planUpload(d, t, n);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("    ipu2 plan: %zu writes, %llu bus bytes for %llu tile bytes, %.1f ms\n", plan.writes.size(),
              (unsigned long long)plan.busBytes(), (unsigned long long)plan.tileBytes(), ms);
  // Code once; data: 256 distinct byte values, each used by many tiles that are not consecutive.
  assert_true(plan.busBytes() < 65536 + std::uint64_t(n) * 1024 + 3072 + 1);
  assert_int_equal(plan.tileBytes(), std::uint64_t(n) * (65536 + 4096));
}

} // namespace

int main(void) {
  const CMUnitTest tests[] = {
      cmocka_unit_test(test_shared_code_sent_once), cmocka_unit_test(test_tile_runs),
      cmocka_unit_test(test_per_tile_data_merged),  cmocka_unit_test(test_boot),
      cmocka_unit_test(test_rejections),            cmocka_unit_test(test_broadcast_split),
      cmocka_unit_test(test_ipu2_plan),
  };
  return cmocka_run_group_tests_name("runtime_tile_image", tests, nullptr, nullptr);
}
