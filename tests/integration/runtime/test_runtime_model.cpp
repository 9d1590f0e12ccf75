// Integration tests of the host runtime on the in-process card model ("tiny", 4 tiles): loading, runs, exit
// codes, streams (circular buffers, callbacks and their order, every error case), hang diagnosis, and recovery
// from a tile fault by reset, reload and a successful run in the same process.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ipu_runtime/tile_program.hpp"
#include "programs.hpp"

// cmocka.h defines fail() and friends as macros, so it comes after the C++ headers.
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h> // cmocka 1.1 declares some functions without C linkage for C++
}

using namespace ipu::runtime;
using programs::kBase;
using programs::kData;

namespace {

std::unique_ptr<Device> gDevice;

Device &dev() { return *gDevice; }

TileImage parse(const std::vector<std::uint8_t> &elf, const char *name) {
  return parseTileElf(elf.data(), elf.size(), dev().elfTarget(), name);
}

bool contains(const std::string &s, const char *part) { return s.find(part) != std::string::npos; }

#define ASSERT_CONTAINS(s, part)                                                                                      \
  do {                                                                                                                \
    if (!contains((s), (part)))                                                                                       \
      fail_msg("'%s' does not contain '%s'", std::string(s).c_str(), (part));                                         \
  } while (0)

// Each test starts from a freshly reset card.
int setup(void **) {
  dev().reset();
  return 0;
}

// ---- loading and running -------------------------------------------------------------------------------------

void test_hello_on_every_tile(void **) {
  TileProgram prog(dev());
  const LoadStats ls = prog.load(parse(programs::hello(), "hello"), parseTileList("all", dev().numTiles()));
  // The image is sent once for all four tiles.
  assert_int_equal(ls.busBytes, prog.image().loadBytes());
  assert_int_equal(ls.tileBytes, 4 * prog.image().loadBytes());
  const RunResult r = prog.run();
  assert_int_equal(r.tiles.size(), 4);
  for (std::uint32_t t = 0; t < 4; ++t) {
    assert_int_equal(r.tiles[t].state, IPU_TILE_STATE_EXITED);
    assert_int_equal(r.tiles[t].exitCode, 0);
    char want[8];
    std::snprintf(want, sizeof want, "hi %u\n", t);
    assert_string_equal(r.console.at(t).c_str(), want);
  }
  assert_int_equal(r.exitCode(), 0);
  // A second run of the same program works without reloading.
  assert_int_equal(prog.run().exitCode(), 0);
}

void test_console_sink_gets_lines(void **) {
  TileProgram prog(dev());
  prog.load(parse(programs::hello(), "hello"), {1, 3});
  std::vector<std::string> lines;
  RunOptions o;
  o.console = [&](std::uint32_t tile, const std::string &line) {
    lines.push_back(std::to_string(tile) + ":" + line);
  };
  const RunResult r = prog.run(o);
  assert_int_equal(r.tiles.size(), 2);
  assert_int_equal(lines.size(), 2);
  assert_true((lines[0] == "1:hi 1" && lines[1] == "3:hi 3") || (lines[0] == "3:hi 3" && lines[1] == "1:hi 1"));
}

void test_exit_code_first_nonzero(void **) {
  TileProgram prog(dev());
  prog.load(parse(programs::exitCodes(), "exit"), {0, 1, 2, 3});
  const RunResult r = prog.run();
  assert_int_equal(r.tiles[0].exitCode, 0);
  assert_int_equal(r.tiles[2].exitCode, 6);
  assert_int_equal(r.exitCode(), 3);
}

void test_bad_elf_leaves_tiles_untouched(void **) {
  std::vector<std::uint8_t> pattern(256);
  for (std::size_t i = 0; i < pattern.size(); ++i)
    pattern[i] = std::uint8_t(i * 7 + 1);
  for (std::uint32_t t = 0; t < 4; ++t)
    dev().writeTile(t, kBase, pattern.data(), pattern.size());
  std::vector<std::uint8_t> elf = programs::hello();
  ipu::runtime::testing::put32(elf, ipu::runtime::testing::off::ph(0, ipu::runtime::testing::off::p_memsz), 4);
  TileProgram prog(dev());
  try {
    prog.load(parse(elf, "bad.elf"), {0, 1, 2, 3});
    fail_msg("a segment with p_filesz > p_memsz was loaded");
  } catch (const elf_error &e) {
    assert_string_equal(e.field().c_str(), "program header 0 p_filesz");
  }
  // A valid image on a tile the card does not have is rejected before any write, too.
  try {
    prog.load(parse(programs::hello(), "hello"), {0, 4});
    fail_msg("tile 4 accepted");
  } catch (const application_runtime_error &e) {
    ASSERT_CONTAINS(e.what(), "tile 4 does not exist");
  }
  for (std::uint32_t t = 0; t < 4; ++t) {
    std::vector<std::uint8_t> back(pattern.size());
    dev().readTile(t, kBase, back.data(), back.size());
    assert_memory_equal(back.data(), pattern.data(), pattern.size());
  }
  try {
    prog.run();
    fail_msg("run without a loaded program");
  } catch (const application_runtime_error &e) {
    ASSERT_CONTAINS(e.what(), "no program is loaded");
  }
}

// Batching: distinct per-tile data through a staging window of one tile's SRAM and chains of 3 descriptors.
void test_upload_in_batches(void **) {
  const std::uint32_t sram = dev().info().tile_mem_bytes;
  DeviceImage d = DeviceImage::fromElf(parse(programs::hello(), "hello"), {0, 1, 2, 3});
  for (std::uint32_t t = 0; t < 4; ++t) {
    TileSegment seg;
    seg.vaddr = kBase + 0x4000;
    seg.bytes.assign(sram / 2, std::uint8_t(0x30 + t)); // each tile's data fills half the window
    seg.memsz = sram / 2 + 4096;
    seg.flags = 6;
    d.perTile[t].push_back(seg);
  }
  LoadOptions lo;
  lo.stagingBytes = sram;
  lo.maxChain = 3;
  const LoadStats st = loadImage(dev(), d, lo);
  std::printf("    %zu writes in %zu chains, %llu bus bytes\n", st.writes, st.chains, (unsigned long long)st.busBytes);
  assert_true(st.chains >= 3);
  for (std::uint32_t t = 0; t < 4; ++t) {
    std::uint8_t b[3];
    dev().readTile(t, kBase + 0x4000, &b[0], 1);
    dev().readTile(t, kBase + 0x4000 + sram / 2 - 1, &b[1], 1);
    dev().readTile(t, kBase + 0x4000 + sram / 2, &b[2], 1);
    assert_int_equal(b[0], 0x30 + t);
    assert_int_equal(b[1], 0x30 + t);
    assert_int_equal(b[2], 0);
  }
  assert_int_equal(runDevice(dev(), {0, 1, 2, 3}, nullptr).exitCode(), 0);
  lo.maxChain = 0;
  try {
    loadImage(dev(), d, lo);
    fail_msg("maxChain 0 accepted");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "outside 1..65536");
  }
}

// ---- streams ---------------------------------------------------------------------------------------------------

struct EchoProgram {
  TileProgram prog;
  explicit EchoProgram(std::uint32_t copies, std::uint32_t firstSync = programs::kInStream) : prog(dev()) {
    prog.streams().declare(programs::kInStream, "in", StreamDirection::HostToDevice, 16, programs::kInDev);
    prog.streams().declare(programs::kOutStream, "out", StreamDirection::DeviceToHost, 16, programs::kOutDev);
    prog.setBootArg(0, copies);
    prog.load(parse(programs::echoPlusOne(firstSync), "echo"), {0});
  }
};

void test_stream_circular_buffers_wrap(void **) {
  EchoProgram e(4);
  std::uint32_t in[12], out[8] = {0};
  for (std::uint32_t i = 0; i < 12; ++i)
    in[i] = 100 * i;
  e.prog.streams().connect("in", in, in + 12);   // three copies' worth: the fourth copy reads the first again
  e.prog.streams().connect("out", out, out + 8); // two copies' worth: copies 3 and 4 overwrite 1 and 2
  const RunResult r = e.prog.run();
  assert_int_equal(r.exitCode(), 0);
  assert_int_equal(r.hostSyncs, 16);
  // out[0..3] = copy 3 = in chunk 2 + 1; out[4..7] = copy 4 = in chunk 0 + 1
  for (std::uint32_t i = 0; i < 4; ++i) {
    assert_int_equal(out[i], in[8 + i] + 1);
    assert_int_equal(out[4 + i], in[i] + 1);
  }
  assert_int_equal(e.prog.streams().copiesOf("in"), 4);
  assert_int_equal(e.prog.streams().copiesOf("out"), 4);
  // The positions persist across runs: the second run reads chunks 1, 2, 0, 1 and writes out chunks 0, 1, 0, 1.
  e.prog.run();
  assert_int_equal(out[0], in[0] + 1);
  assert_int_equal(out[4], in[4] + 1);
}

// Records every callback in order; prefetch succeeds on every other call.
struct Recorder : StreamCallback {
  std::vector<std::string> &log;
  std::uint32_t next = 1;
  unsigned prefetches = 0;
  explicit Recorder(std::vector<std::string> &l) : log(l) {}
  Result prefetch(void *p) override {
    if (++prefetches % 2 == 0) {
      log.push_back("in.prefetch:NotAvailable");
      return Result::NotAvailable;
    }
    fill(p);
    log.push_back("in.prefetch:Success");
    return Result::Success;
  }
  void fetch(void *p) override {
    fill(p);
    log.push_back("in.fetch");
  }
  void complete() override { log.push_back("in.complete"); }
  void invalidatePrefetched() override {
    log.push_back("in.invalidate");
    --next;
  }
  void fill(void *p) {
    std::uint32_t v[4] = {next, next, next, next};
    std::memcpy(p, v, 16);
    ++next;
  }
};

struct OutRecorder : StreamCallback {
  std::vector<std::string> &log;
  explicit OutRecorder(std::vector<std::string> &l) : log(l) {}
  Result prefetch(void *) override {
    log.push_back("out.prefetch");
    return Result::NotAvailable;
  }
  void fetch(void *p) override {
    std::uint32_t v[4];
    std::memcpy(v, p, 16);
    log.push_back("out.fetch:" + std::to_string(v[0]));
  }
  void complete() override { log.push_back("out.complete"); }
};

void test_stream_callbacks_in_documented_order(void **) {
  EchoProgram e(3);
  std::vector<std::string> log;
  e.prog.streams().connect("in", std::unique_ptr<StreamCallback>(new Recorder(log)));
  e.prog.streams().connect("out", std::unique_ptr<StreamCallback>(new OutRecorder(log)));
  e.prog.run();
  const std::vector<std::string> want = {
      "in.fetch",                 // copy 1: nothing prefetched
      "in.complete", "in.prefetch:Success", "out.fetch:2", "out.complete",
      "in.complete", "in.prefetch:NotAvailable", "out.fetch:3", "out.complete", // copy 2 used the prefetch
      "in.fetch", "in.complete", "in.prefetch:Success", "out.fetch:4", "out.complete",
      "in.invalidate", // end of run: the last prefetch was not used
  };
  for (std::size_t i = 0; i < log.size(); ++i)
    std::printf("    %zu %s\n", i, log[i].c_str());
  assert_int_equal(log.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    assert_string_equal(log[i].c_str(), want[i].c_str());
}

void test_stream_function_callbacks(void **) {
  EchoProgram e(2);
  std::uint32_t n = 10;
  std::vector<std::uint32_t> got;
  e.prog.streams().connect("in", std::function<void(void *)>([&](void *p) {
                             std::uint32_t v[4] = {n, n, n, n};
                             std::memcpy(p, v, 16);
                             n += 10;
                           }));
  e.prog.streams().connect("out", std::function<void(void *)>([&](void *p) {
                             std::uint32_t v;
                             std::memcpy(&v, p, 4);
                             got.push_back(v);
                           }));
  e.prog.run();
  assert_int_equal(got.size(), 2);
  assert_int_equal(got[0], 11);
  assert_int_equal(got[1], 21);
}

void test_stream_unconnected(void **) {
  EchoProgram e(1);
  std::uint32_t in[4] = {1, 2, 3, 4};
  e.prog.streams().connect("in", in, in + 4);
  try {
    e.prog.run();
    fail_msg("a copy through an unconnected stream ran");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "stream 'out' (id 2) (device-to-host, 16 bytes per copy) is not connected");
  }
  // Misuse leaves the device usable: connect and run again.
  std::uint32_t out[4];
  e.prog.streams().connect("out", out, out + 4);
  assert_int_equal(e.prog.run().exitCode(), 0);
  assert_int_equal(out[3], 5);
}

void test_stream_wrong_sizes(void **) {
  EchoProgram e(1);
  std::uint32_t buf[5];
  try {
    e.prog.streams().connect("in", buf, buf + 5);
    fail_msg("20-byte circular buffer accepted for a 16-byte stream");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "holds 20 bytes, not a multiple of the 16 bytes each copy moves");
  }
  try {
    e.prog.streams().connect("in", buf + 4, buf);
    fail_msg("reversed buffer accepted");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "needs begin < end");
  }
  try {
    e.prog.streams().connect("nope", buf, buf + 4);
    fail_msg("unknown stream accepted");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "stream 'nope' is not declared by this program; declared streams: 'in', 'out'");
  }
  try {
    e.prog.streams().declare(7, "huge", StreamDirection::HostToDevice, (128u << 20) + 1);
    fail_msg("a 128 MiB + 1 stream copy accepted");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "exceed the 128 MiB per-stream-copy limit");
  }
  try {
    e.prog.streams().declare(1, "again", StreamDirection::HostToDevice, 4);
    fail_msg("duplicate id accepted");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "id 1 is already used by stream 'in'");
  }
}

void test_stream_callback_throws(void **) {
  EchoProgram e(2);
  e.prog.streams().connect("in", std::function<void(void *)>([](void *) { throw std::runtime_error("boom"); }));
  std::uint32_t out[4];
  e.prog.streams().connect("out", out, out + 4);
  try {
    e.prog.run();
    fail_msg("a throwing callback did not stop the run");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "stream 'in' (id 1): the stream callback threw: boom");
  }
  std::uint32_t in[4] = {7, 7, 7, 7};
  e.prog.streams().connect("in", in, in + 4);
  assert_int_equal(e.prog.run().exitCode(), 0);
  assert_int_equal(out[0], 8);
}

void test_undeclared_sync_id(void **) {
  EchoProgram e(1, 9);
  try {
    e.prog.run();
    fail_msg("undeclared sync id served");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "host sync id 0x9 (stream id 9, first sync of a copy) belongs to no declared stream");
  }
}

void test_host_sync_timeout_in_callback(void **) {
  EchoProgram e(1);
  e.prog.streams().connect("in", std::function<void(void *)>([](void *) {
                             std::this_thread::sleep_for(std::chrono::milliseconds(300));
                           }));
  std::uint32_t out[4];
  e.prog.streams().connect("out", out, out + 4);
  RunOptions o;
  o.hostSyncTimeoutSeconds = 0.1;
  try {
    e.prog.run(o);
    fail_msg("slow callback not reported");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "host sync timeout: serving host sync id 0x1 took");
  }
}

void test_streams_unmapped_on_teardown(void **) {
  ipudrv_info before, during, after;
  assert_int_equal(ipudrv_get_info(dev().handle(), &before), 0);
  {
    EchoProgram e(1);
    assert_int_equal(ipudrv_get_info(dev().handle(), &during), 0);
    assert_int_equal(during.xlat_used, before.xlat_used + 2);
    assert_int_equal(e.prog.streams().deviceAddressOf("in"), programs::kInDev);
  }
  assert_int_equal(ipudrv_get_info(dev().handle(), &after), 0);
  assert_int_equal(after.xlat_used, before.xlat_used);
}

void test_host_exchange_buffer(void **) {
  ipudrv_info before, after;
  assert_int_equal(ipudrv_get_info(dev().handle(), &before), 0);
  {
    TileProgram prog(dev());
    HostBuffer &buf = prog.mapHostBuffer(16, HostAccess::DeviceWrites);
    for (std::uint32_t t = 0; t < 4; ++t)
      prog.setBootArg(t, buf.deviceAddress());
    prog.load(parse(programs::hostExchangeIds(), "hx"), {0, 1, 2, 3});
    assert_int_equal(prog.run().exitCode(), 0);
    std::uint32_t got[4];
    std::memcpy(got, buf.data(), 16);
    for (std::uint32_t t = 0; t < 4; ++t)
      assert_int_equal(got[t], 100 + t);
    // A buffer the card may only read: the tiles' writes fault with a permission error, recoverably.
    HostBuffer &ro = prog.mapHostBuffer(16, HostAccess::DeviceReads);
    for (std::uint32_t t = 0; t < 4; ++t)
      prog.setBootArg(t, ro.deviceAddress());
    prog.reload();
    try {
      prog.run();
      fail_msg("write through a read-only translation entry");
    } catch (const recoverable_runtime_error &err) {
      ASSERT_CONTAINS(err.what(), "XLAT_PERMISSION");
    }
    try {
      prog.mapHostBuffer((128u << 20) + 1, HostAccess::Both);
      fail_msg("129 MiB host buffer mapped");
    } catch (const application_runtime_error &err) {
      ASSERT_CONTAINS(err.what(), "exceed the 128 MiB");
    }
  }
  assert_int_equal(ipudrv_get_info(dev().handle(), &after), 0);
  assert_int_equal(after.xlat_used, before.xlat_used); // unmapped on teardown
}

// The reads of one round move on the card's host threads (the driver's transports allow it): each tile gets its
// own bytes, and a tile that reads an unmapped address gets the fault record, naming it.
void test_host_exchange_reads_per_tile(void **) {
  TileProgram prog(dev());
  HostBuffer &buf = prog.mapHostBuffer(8192, HostAccess::Both);
  auto *bytes = static_cast<std::uint8_t *>(buf.data());
  for (unsigned i = 0; i < 64; ++i)
    bytes[i] = std::uint8_t(7 * i + 1);
  for (std::uint32_t t = 0; t < 4; ++t)
    prog.setBootArg(t, buf.deviceAddress());
  prog.load(parse(programs::hostExchangeEcho(), "hx-echo"), {0, 1, 2, 3});
  assert_int_equal(prog.run().exitCode(), 0);
  assert_memory_equal(bytes + 4096, bytes, 64);
  prog.setBootArg(2, 0x7f000000u); // no translation entry there
  prog.reload();
  try {
    prog.run();
    fail_msg("host exchange from an unmapped device address");
  } catch (const recoverable_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "tile 2 context 0: XLAT_MISS");
    ASSERT_CONTAINS(err.what(), "address 0x7f000020");
  }
}

// ---- hangs, faults and recovery ----------------------------------------------------------------------------------

void test_hang_is_diagnosed_then_recovered(void **) {
  TileProgram prog(dev());
  prog.load(parse(programs::hangOnTile2(), "hang"), {0, 1, 2, 3});
  RunOptions o;
  o.hostSyncTimeoutSeconds = 0.3;
  try {
    prog.run(o);
    fail_msg("hang not detected");
  } catch (const run_timeout_error &err) {
    std::printf("    %s\n", err.what());
    assert_int_equal(int(err.getRecoveryAction()), int(RecoveryAction::IPU_RESET));
    ASSERT_CONTAINS(err.what(), "host sync timeout");
    ASSERT_CONTAINS(err.what(), "tile 2: RUNNING");
    ASSERT_CONTAINS(err.what(), "tile 0: EXITED");
  }
  dev().reset();
  prog.load(parse(programs::hello(), "hello"), {0, 1, 2, 3});
  assert_int_equal(prog.run().exitCode(), 0);
}

void test_fault_reset_reload_run(void **) {
  TileProgram prog(dev());
  prog.setBootArg(1, 1); // tile 1 faults
  prog.load(parse(programs::faultIfArg(), "fault"), {0, 1, 2, 3});
  try {
    prog.run();
    fail_msg("fault not reported");
  } catch (const recoverable_runtime_error &err) {
    std::printf("    %s\n", err.what());
    assert_int_equal(int(err.getRecoveryAction()), int(RecoveryAction::IPU_RESET));
    ASSERT_CONTAINS(err.what(), "LOAD_FAULT");
    ASSERT_CONTAINS(err.what(), "tile 1");
  }
  // Without the reset the card refuses to start: that is a recoverable error too.
  try {
    prog.run();
    fail_msg("ran on a card in ERROR");
  } catch (const recoverable_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "reset");
  }
  dev().reset();
  try {
    prog.run();
    fail_msg("ran a program that the reset erased");
  } catch (const application_runtime_error &err) {
    ASSERT_CONTAINS(err.what(), "call reload() first");
  }
  prog.setBootArg(1, 0);
  prog.reload();
  const RunResult r = prog.run();
  assert_int_equal(r.exitCode(), 0);
  for (const TileOutcome &t : r.tiles)
    assert_int_equal(t.state, IPU_TILE_STATE_EXITED);
}

// The same recovery with the firmware's own programs (newlib, crt0, supervisor runtime), when the tile build made
// them: fw_faults with boot argument 3 loads from address 0; then hello runs on every tile.
void test_firmware_fault_then_hello(void **) {
  const char *dir = std::getenv("IPU_TILE_ELF_DIR");
  const std::string faults = dir ? std::string(dir) + "/fw_faults.elf" : std::string();
  const std::string hello = dir ? std::string(dir) + "/hello.elf" : std::string();
  if (!dir || access(faults.c_str(), R_OK) != 0 || access(hello.c_str(), R_OK) != 0) {
    std::printf("    firmware ELFs not built (IPU_TILE_ELF_DIR): skipped\n");
    skip();
  }
  TileProgram prog(dev());
  for (std::uint32_t t = 0; t < 4; ++t)
    prog.setBootArg(t, t == 2 ? 3 : 0);
  prog.load(faults, {2});
  try {
    prog.run();
    fail_msg("firmware fault not reported");
  } catch (const recoverable_runtime_error &err) {
    std::printf("    %s\n", err.what());
    ASSERT_CONTAINS(err.what(), "tile 2 context 0: LOAD_FAULT");
  }
  dev().reset();
  prog.load(hello, parseTileList("all", dev().numTiles()));
  const RunResult r = prog.run();
  assert_int_equal(r.exitCode(), 0);
  for (std::uint32_t t = 0; t < 4; ++t)
    ASSERT_CONTAINS(r.console.at(t), ("hello from tile " + std::to_string(t) + " of 4\n").c_str());
}

// ---- tile lists --------------------------------------------------------------------------------------------------

void test_tile_lists(void **) {
  assert_int_equal(parseTileList("all", 4).size(), 4);
  const std::vector<std::uint32_t> l = parseTileList("3,0-1,1", 4);
  assert_int_equal(l.size(), 3);
  assert_int_equal(l[0], 0);
  assert_int_equal(l[2], 3);
  const char *bad[] = {"4", "2-1", "x", "", "1,,2", "-1", "0-"};
  const char *why[] = {"tile 4 does not exist; the card has tiles 0-3", "runs backwards", "is not a tile number",
                       "is not a tile number", "is not a tile number", "is not a tile number", "is not a tile number"};
  for (std::size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    try {
      parseTileList(bad[i], 4);
      fail_msg("tile list '%s' accepted", bad[i]);
    } catch (const application_runtime_error &err) {
      ASSERT_CONTAINS(err.what(), why[i]);
    }
  }
}

} // namespace

int main(void) {
  try {
    gDevice.reset(new Device(0));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cannot attach device 0: %s\n", e.what());
    return 1;
  }
  std::printf("device 0: %s\n", gDevice->describe().c_str());
  const CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_hello_on_every_tile, setup),
      cmocka_unit_test_setup(test_console_sink_gets_lines, setup),
      cmocka_unit_test_setup(test_exit_code_first_nonzero, setup),
      cmocka_unit_test_setup(test_bad_elf_leaves_tiles_untouched, setup),
      cmocka_unit_test_setup(test_upload_in_batches, setup),
      cmocka_unit_test_setup(test_stream_circular_buffers_wrap, setup),
      cmocka_unit_test_setup(test_stream_callbacks_in_documented_order, setup),
      cmocka_unit_test_setup(test_stream_function_callbacks, setup),
      cmocka_unit_test_setup(test_stream_unconnected, setup),
      cmocka_unit_test_setup(test_stream_wrong_sizes, setup),
      cmocka_unit_test_setup(test_stream_callback_throws, setup),
      cmocka_unit_test_setup(test_undeclared_sync_id, setup),
      cmocka_unit_test_setup(test_host_sync_timeout_in_callback, setup),
      cmocka_unit_test_setup(test_streams_unmapped_on_teardown, setup),
      cmocka_unit_test_setup(test_host_exchange_buffer, setup),
      cmocka_unit_test_setup(test_host_exchange_reads_per_tile, setup),
      cmocka_unit_test_setup(test_hang_is_diagnosed_then_recovered, setup),
      cmocka_unit_test_setup(test_fault_reset_reload_run, setup),
      cmocka_unit_test_setup(test_firmware_fault_then_hello, setup),
      cmocka_unit_test(test_tile_lists),
  };
  const int failed = cmocka_run_group_tests_name("runtime_model", tests, nullptr, nullptr);
  gDevice.reset();
  return failed;
}
