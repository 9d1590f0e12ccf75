// Host runtime benchmark (issue 6): stream throughput in both directions through ipu_runtime on the driver's
// in-process model card, each beside a host memcpy of the same size measured in the same run, and the time to load
// a real tile ELF onto every tile of ipu2.
//
// Usage: bench_runtime [--quick] [--board NAME] [--elf PATH]
//   --quick  fewer repetitions and no 64 MiB stream (a smoke run)
//   --board  the model board to use (default ipu2); the card is always the in-process model
//   --elf    the tile ELF for the image-load figure (default: the firmware's hello for ipu2 from this build)
// Environment: IPU_EMU_DEVICES is overwritten with model:<board>, so that device 0 is the card measured here
// whatever the caller's shell names. IPU_EMU_LOCK_DIR is honoured when set (bench/run.sh sets one); otherwise a
// private folder is used and removed at exit, so that the benchmark never waits for, or takes, a card of a test
// run on the same machine.
//
// Figures are medians of several repetitions after a warm-up, printed with min and max (the machine is shared and
// noisy); each speed is a ratio to a memcpy baseline sampled alternately with it (bench_stats.hpp). The benchmark
// asserts nothing about speed; it exits non-zero with a message when an operation fails.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "bench_stats.hpp"
#include "elf_builder.hpp"
#include "ipu_card/hw.h"
#include "ipu_runtime/tile_program.hpp"

using namespace ipu::runtime;
namespace rv = ipu::runtime::testing::rv;
using Clock = std::chrono::steady_clock;

namespace {

// A failed operation: main() prints it and exits non-zero.
struct BenchFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string sizeName(std::size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
    return std::to_string(bytes >> 20) + "MiB";
  if (bytes >= 1024 && bytes % 1024 == 0)
    return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

// Keeps the compiler from dropping a memcpy whose result nobody reads.
void clobber(void *p) { asm volatile("" : : "r"(p) : "memory"); }

// A host memcpy of `bytes`, the baseline of a stream's speed: each sample times enough copies to last ~20 ms, so
// that the clock's resolution and one page fault do not dominate the small sizes.
class MemcpySampler {
public:
  explicit MemcpySampler(std::size_t bytes) : src_(bytes), dst_(bytes) {
    for (std::size_t i = 0; i < bytes; ++i)
      src_[i] = std::uint8_t(i * 13 + 7);
    copy(1); // warm-up: faults in both buffers
    for (reps_ = 1; reps_ < (1u << 20); reps_ *= 2) { // calibrate the copies per sample
      const Clock::time_point t0 = Clock::now();
      copy(reps_);
      if (since(t0) > 0.02)
        break;
    }
  }
  // Bytes per second of one sample.
  double rate() {
    const Clock::time_point t0 = Clock::now();
    copy(reps_);
    return double(src_.size()) * double(reps_) / since(t0);
  }

private:
  void copy(std::size_t reps) {
    for (std::size_t r = 0; r < reps; ++r) {
      std::memcpy(dst_.data(), src_.data(), src_.size());
      clobber(dst_.data());
    }
  }
  std::vector<std::uint8_t> src_, dst_;
  std::size_t reps_ = 1;
};

// Baseline for an image load: seconds to memcpy one `bytes` image into `copies` distinct destinations (every byte
// the load puts into tile memory; one destination per tile, so the copy does not stay in cache).
class BroadcastMemcpy {
public:
  BroadcastMemcpy(std::size_t bytes, std::size_t copies) : src_(bytes), dst_(bytes * copies), copies_(copies) {
    for (std::size_t i = 0; i < bytes; ++i)
      src_[i] = std::uint8_t(i * 13 + 7);
  }
  double seconds() {
    const Clock::time_point t0 = Clock::now();
    for (std::size_t c = 0; c < copies_; ++c)
      std::memcpy(dst_.data() + c * src_.size(), src_.data(), src_.size());
    clobber(dst_.data());
    return since(t0);
  }

private:
  std::vector<std::uint8_t> src_, dst_;
  std::size_t copies_;
};

// ---- the stream program ----------------------------------------------------------------------------------------

constexpr std::uint32_t kBase = IPU_TILE_SRAM_BASE;
constexpr std::uint32_t kTable = kBase + 0x1000; // per-tile (offset, length) pairs, 8 bytes per tile
constexpr std::uint32_t kBuf = kBase + 0x8000;   // the tile's part of every copy (bss)
constexpr std::uint32_t kStreamId = 1;
// Registers the program keeps its state in (callee-saved names; the program calls nothing).
constexpr std::uint32_t s1 = 9, s2 = 18, s3 = 19, s4 = 20, s5 = 21;

std::uint32_t syncWord(std::uint32_t id) { return (id << 8) | IPU_SYNC_KIND_EXTERNAL; }

// Tile t of `tiles` moves bytes [offset(t), offset(t+1)) of every copy: equal 4-byte-aligned parts, so that every
// byte of the stream goes through exactly one tile.
std::uint32_t partOffset(std::size_t bytes, std::uint32_t t, std::uint32_t tiles) {
  return std::uint32_t((std::uint64_t(bytes) * t / tiles) & ~std::uint64_t(3));
}

// A bare program for tiles 0..tiles-1: `copies` stream copies of stream kStreamId (devAddr is its staging buffer),
// each tile moving its part by host exchange (STREAM_COPY done by hand, as streams.hpp describes it), then exit 0.
// The part table is shared data, so the image is still one broadcast for all tiles.
std::vector<std::uint8_t> streamProgram(std::size_t bytes, std::uint32_t tiles, bool toHost, std::uint32_t copies,
                                        std::uint32_t devAddr, std::uint32_t &maxPart) {
  std::vector<std::uint8_t> table(8 * std::size_t(tiles));
  maxPart = 0;
  for (std::uint32_t t = 0; t < tiles; ++t) {
    const std::uint32_t off = partOffset(bytes, t, tiles);
    const std::uint32_t len = (t + 1 == tiles ? std::uint32_t(bytes) : partOffset(bytes, t + 1, tiles)) - off;
    maxPart = std::max(maxPart, len);
    testing::put32(table, 8 * std::size_t(t), off);
    testing::put32(table, 8 * std::size_t(t) + 4, len);
  }
  rv::Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID) << rv::slli(rv::t0, rv::t0, 3);
  a.li(rv::t1, kTable);
  a << rv::add(rv::t1, rv::t1, rv::t0) << rv::lw(s2, rv::t1, 0) << rv::lw(s3, rv::t1, 4);
  a.li(s4, devAddr);
  a << rv::add(s4, s4, s2);
  a.li(s5, kBuf);
  if (toHost) { // HX_START's top bit: tile to host
    a.li(rv::t2, 0x80000000u);
    a << rv::add(s3, s3, rv::t2);
  }
  a.li(s1, copies);
  const std::int32_t loop = a.here();
  a.csrwi32(IPU_CSR_SYNC, syncWord(kStreamId)); // the host has put host-to-device data in the staging buffer
  a << rv::csrw(IPU_CSR_HX_DEV_ADDR, s4) << rv::csrw(IPU_CSR_HX_TILE_ADDR, s5) << rv::csrw(IPU_CSR_HX_START, s3);
  a.csrwi32(IPU_CSR_SYNC, syncWord(kStreamId | kStreamSyncConsume)); // the host takes device-to-host data
  a << rv::addi(s1, s1, -1) << rv::bne(s1, rv::zero, (loop - a.here()) * 4);
  a << rv::csrw(IPU_CSR_EXIT, rv::zero) << rv::jal(rv::zero, 0);

  testing::ElfBuilder e;
  e.entry = kBase;
  e.code(kBase, a.words);
  e.data(kTable, table);
  e.data(kBuf, {}, (maxPart + 15) & ~15u);
  return e.build();
}

struct StreamFigure {
  bench::Pair rates;        // bytes per second: memcpy (baseline) and the stream (subject), sampled alternately
  std::uint32_t tiles = 0;  // tiles the stream is spread over
  std::uint32_t copies = 0; // copies per run
};

// Runs `copies` copies of a `bytes` stream in one direction, connected to a circular buffer of one copy (the
// seed's connectStream(begin, end)): one warm-up run, then `samples` timed runs, each after a memcpy sample.
StreamFigure measureStream(Device &dev, std::size_t bytes, bool toHost, std::uint32_t copies, int samples,
                           MemcpySampler &baseline) {
  StreamFigure f;
  f.copies = copies;
  // At least 1 KiB per tile: smaller parts would measure the per-tile host-exchange setup, not the stream.
  f.tiles = std::uint32_t(std::min<std::size_t>(dev.numTiles(), std::max<std::size_t>(1, bytes / 1024)));
  TileProgram prog(dev);
  const std::uint32_t devAddr = prog.streams().declare(
      kStreamId, "bench", toHost ? StreamDirection::DeviceToHost : StreamDirection::HostToDevice, bytes);
  std::uint32_t maxPart = 0;
  const std::vector<std::uint8_t> elf = streamProgram(bytes, f.tiles, toHost, copies, devAddr, maxPart);
  if (kBuf + std::uint64_t(maxPart) > kBase + std::uint64_t(dev.info().tile_mem_bytes))
    throw BenchFailure(sizeName(bytes) + " over " + std::to_string(f.tiles) + " tiles is " + std::to_string(maxPart) +
                       " bytes per tile, more than " + dev.describe() + " holds; use a larger board");
  std::vector<std::uint32_t> tiles(f.tiles);
  for (std::uint32_t t = 0; t < f.tiles; ++t)
    tiles[t] = t;
  prog.load(parseTileElf(elf.data(), elf.size(), dev.elfTarget(), "stream program"), tiles);

  std::vector<std::uint8_t> host(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    host[i] = std::uint8_t(i * 31 + 5);
  prog.streams().connect("bench", host.data(), host.data() + bytes);

  auto run = [&] {
    const RunResult r = prog.run();
    if (r.exitCode() != 0)
      throw BenchFailure("stream program exited with " + std::to_string(r.exitCode()));
    if (r.hostSyncs != 2ull * copies)
      throw BenchFailure("stream program served " + std::to_string(r.hostSyncs) + " host syncs, expected " +
                         std::to_string(2ull * copies));
  };
  // The data must really move, or the figure would measure nothing: the warm-up run is checked at the first and
  // the last tile's part (markers in tile memory that the host does not have, for device to host).
  const std::uint32_t last = f.tiles - 1, lastOff = partOffset(bytes, last, f.tiles);
  const std::uint8_t mark0 = 0xa5, mark1 = 0x5a;
  if (toHost) {
    prog.write(0, kBuf, &mark0, 1);
    prog.write(last, kBuf, &mark1, 1);
    host[0] = host[lastOff] = 0;
  }
  run(); // warm-up: also faults in the staging buffer and the card's pages
  std::uint8_t b0 = 0, b1 = 0;
  if (toHost) {
    b0 = host[0];
    b1 = host[lastOff];
  } else {
    prog.read(0, kBuf, &b0, 1);
    prog.read(last, kBuf, &b1, 1);
  }
  if (b0 != (toHost ? mark0 : host[0]) || b1 != (toHost ? mark1 : host[lastOff]))
    throw BenchFailure(std::string(toHost ? "device-to-host" : "host-to-device") + " stream of " + sizeName(bytes) +
                       ": the data did not arrive (first or last tile's part differs)");
  f.rates = bench::alternate(
      samples, [&] { return baseline.rate(); },
      [&] {
        const Clock::time_point t0 = Clock::now();
        run();
        return double(bytes) * copies / since(t0);
      },
      false); // both are warm already
  return f;
}

// ---- image load ------------------------------------------------------------------------------------------------

void measureImageLoad(Device &dev, const std::string &elfPath, int samples) {
  const TileImage image = loadTileElf(elfPath, dev.elfTarget());
  const std::vector<std::uint32_t> all = parseTileList("all", dev.numTiles());
  const std::string elfName = std::filesystem::path(elfPath).filename().string();
  std::printf("image: %s, %llu bytes per tile in %zu segment(s)\n", elfName.c_str(),
              (unsigned long long)image.loadBytes(), image.segments.size());

  // One tile first: the fixed cost of a load (plan, staging buffer, one chain, tile setup). The all-tile loads run
  // alternately with their baseline, a memcpy of the same bytes.
  TileProgram prog1(dev), progN(dev);
  LoadStats one, many;
  bench::Samples plan1, up1, planN, upN;
  auto timeLoad = [&](TileProgram &prog, const std::vector<std::uint32_t> &tiles, LoadStats &last,
                      bench::Samples &plan, bench::Samples &upload) {
    const Clock::time_point t0 = Clock::now();
    last = prog.load(elfPath, tiles); // what a user pays: read, validate, plan, DMA, set up tiles
    const double s = since(t0);
    plan.add(last.planSeconds);
    upload.add(last.uploadSeconds);
    return s;
  };
  prog1.load(elfPath, {0}); // warm-up
  const bench::Samples t1 = bench::sample(samples, [&] { return timeLoad(prog1, {0}, one, plan1, up1); });
  BroadcastMemcpy broadcast(std::size_t(image.loadBytes()), all.size());
  progN.load(elfPath, all); // warm-up
  broadcast.seconds();
  const bench::Pair pn = bench::alternate(
      samples, [&] { return broadcast.seconds(); }, [&] { return timeLoad(progN, all, many, planN, upN); }, false);
  const double tn = pn.subject.median();

  // Wall time includes reading and checking the ELF; plan and upload are the loader's own split of the rest.
  std::printf("image_load_%s_1tile: %s (plan %.3f ms, upload %.3f ms)\n", dev.info().board.name,
              bench::format(t1, 1e3, "ms").c_str(), plan1.median() * 1e3, up1.median() * 1e3);
  std::printf("image_load_%s_%utiles: %s (plan %.3f ms, upload %.3f ms; %zu DMA writes in %zu chains, "
              "%llu bus bytes for %llu tile bytes)\n",
              dev.info().board.name, unsigned(all.size()), bench::format(pn.subject, 1e3, "ms").c_str(),
              planN.median() * 1e3, upN.median() * 1e3, many.writes, many.chains, (unsigned long long)many.busBytes,
              (unsigned long long)many.tileBytes);
  // Two per-tile figures: the whole load shared out, and what each tile beyond the first adds.
  std::printf("image_load_%s_per_tile: %.2f us (all-tile load / %u; marginal (all - 1 tile) / %u: %.2f us)\n",
              dev.info().board.name, tn / double(all.size()) * 1e6, unsigned(all.size()), unsigned(all.size() - 1),
              (tn - t1.median()) / double(all.size() - 1) * 1e6);
  std::printf("image_load_%s_vs_memcpy: %s memcpy of the same %llu tile bytes, run alternately (ratio %.2f: load "
              "time / memcpy time, medians)\n",
              dev.info().board.name, bench::format(pn.baseline, 1e3, "ms").c_str(),
              (unsigned long long)many.tileBytes, pn.ratio());
}

// ---- driver ----------------------------------------------------------------------------------------------------

struct Options {
  bool quick = false;
  std::string board = "ipu2";
  std::string elf;
};

Options parseArgs(int argc, char **argv) {
  Options o;
#ifdef IPU_BENCH_HELLO_ELF
  o.elf = IPU_BENCH_HELLO_ELF;
#endif
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      o.quick = true;
    else if ((a == "--board" || a == "--elf") && i + 1 < argc)
      (a == "--board" ? o.board : o.elf) = argv[++i];
    else
      throw BenchFailure("usage: bench_runtime [--quick] [--board NAME] [--elf PATH] (unknown argument '" + a + "')");
  }
  return o;
}

// A lock folder of our own unless the caller chose one: the driver locks device ids per folder, and a shared
// folder would make this benchmark wait for (or block) the test suite's card 0.
struct LockDir {
  std::string made;
  LockDir() {
    const char *env = std::getenv("IPU_EMU_LOCK_DIR");
    if (env && *env)
      return;
    char tmpl[] = "/tmp/ipu-emu-bench-runtime-XXXXXX";
    if (!mkdtemp(tmpl))
      throw BenchFailure(std::string("cannot create a lock folder in /tmp: ") + std::strerror(errno) +
                         "; set IPU_EMU_LOCK_DIR");
    made = tmpl;
    setenv("IPU_EMU_LOCK_DIR", made.c_str(), 1);
  }
  ~LockDir() {
    std::error_code ec; // best effort: a leftover empty folder in /tmp is harmless
    if (!made.empty())
      std::filesystem::remove_all(made, ec);
  }
  LockDir(const LockDir &) = delete;
  LockDir &operator=(const LockDir &) = delete;
};

int run(int argc, char **argv) {
  const Options opt = parseArgs(argc, argv);
  LockDir lockDir;
  const std::string devices = "model:" + opt.board;
  setenv("IPU_EMU_DEVICES", devices.c_str(), 1);
  const int samples = opt.quick ? 3 : 7;

  const Clock::time_point attach0 = Clock::now();
  Device dev(0);
  std::printf("device: %s, attached in %.3f s\n", dev.describe().c_str(), since(attach0));

  // Sizes up to 64 MiB where the card can hold one copy spread over its tiles (the stream must fit in SRAM).
  const std::uint64_t cardBytes = std::uint64_t(dev.numTiles()) * dev.info().tile_mem_bytes;
  std::vector<std::size_t> sizes = {64u << 10, 1u << 20, 16u << 20};
  if (!opt.quick)
    sizes.push_back(64u << 20);
  for (std::size_t bytes : sizes) {
    if (std::uint64_t(bytes) * 2 > cardBytes) {
      std::printf("stream_%s: skipped (%s holds %llu bytes of SRAM in all)\n", sizeName(bytes).c_str(),
                  dev.describe().c_str(), (unsigned long long)cardBytes);
      continue;
    }
    // Enough copies per run that the run's fixed cost (start and end of the run) is shared out, but at most
    // ~1 GiB per run so that the default stays well within a minute on two busy cores. The two host syncs of each
    // copy stay in the figure: a stream copy costs them.
    const std::uint32_t copies =
        std::uint32_t(std::clamp<std::size_t>((opt.quick ? 64u << 20 : 1024u << 20) / bytes, 4, 256));
    MemcpySampler baseline(bytes);
    for (bool toHost : {false, true}) {
      const StreamFigure f = measureStream(dev, bytes, toHost, copies, samples, baseline);
      std::printf("stream_%s_%s: %s (%u copies per run over %u tiles); memcpy %s run alternately; ratio %.3f "
                  "(stream / memcpy, medians)\n",
                  toHost ? "d2h" : "h2d", sizeName(bytes).c_str(), bench::format(f.rates.subject, 1e-6, "MB/s", 1).c_str(),
                  f.copies, f.tiles, bench::format(f.rates.baseline, 1e-6, "MB/s", 1).c_str(), f.rates.ratio());
      std::fflush(stdout);
    }
  }

  if (opt.elf.empty() || !std::filesystem::exists(opt.elf)) {
    std::printf("image_load: skipped: no tile ELF%s%s (build the firmware, or pass --elf PATH)\n",
                opt.elf.empty() ? "" : " at ", opt.elf.c_str());
    return 0;
  }
  measureImageLoad(dev, opt.elf, samples);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "bench_runtime: FAILED: %s\n", e.what());
    return 1;
  }
}
