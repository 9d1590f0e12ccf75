// A bare tile program without the graph compiler: load an ELF onto tiles, connect streams, run, read results.
//
//   ipu::runtime::Device device(0);
//   ipu::runtime::TileProgram prog(device);
//   prog.load("hello.elf", ipu::runtime::parseTileList("all", device.numTiles()));
//   ipu::runtime::RunResult r = prog.run();
//   std::uint32_t word; prog.read(0, 0x00100400, &word, 4);
//
// After a recoverable_runtime_error: device.reset(); prog.reload(); prog.run();
#ifndef IPU_RUNTIME_TILE_PROGRAM_HPP
#define IPU_RUNTIME_TILE_PROGRAM_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ipu_runtime/device.hpp"
#include "ipu_runtime/host_buffer.hpp"
#include "ipu_runtime/loader.hpp"
#include "ipu_runtime/run.hpp"
#include "ipu_runtime/streams.hpp"
#include "ipu_runtime/tile_image.hpp"

namespace ipu {
namespace runtime {

/// Parses a tile list: "all", "3", "0-3", "0,2,5-7". Throws application_runtime_error naming the bad part and the
/// card's tile range when a tile does not exist, a range is reversed or the text is malformed.
std::vector<std::uint32_t> parseTileList(const std::string &text, std::uint32_t numTiles);

/// One ELF on a set of tiles of one device, with its streams.
class TileProgram {
public:
  /// The program will run on `device`, which must outlive it.
  explicit TileProgram(Device &device);
  ~TileProgram();
  TileProgram(const TileProgram &) = delete;
  TileProgram &operator=(const TileProgram &) = delete;

  /// Reads, validates and loads the tile ELF at `path` onto `tiles` (shared code broadcast once per run of
  /// consecutive tiles). Nothing is written to any tile unless the whole image validates. Throws elf_error for a bad
  /// ELF, application_runtime_error for bad tiles.
  LoadStats load(const std::string &path, const std::vector<std::uint32_t> &tiles);
  /// As load(path, tiles) for an image already parsed with the device's elfTarget().
  LoadStats load(const TileImage &image, const std::vector<std::uint32_t> &tiles);
  /// Loads the last image again (after Device::reset(), which clears tile memory).
  LoadStats reload();

  /// Sets the value `tile` finds in a0 at its entry point (default 0). Takes effect at the next load()/reload().
  void setBootArg(std::uint32_t tile, std::uint32_t value);

  /// The program's streams: declare them (before or after load) and connect them before run().
  StreamRegistry &streams() noexcept { return *streams_; }

  /// Maps a host buffer the tiles reach directly with host exchange (the HX_* CSRs), at device address `devAddr`
  /// (0: anywhere; read the address from HostBuffer::deviceAddress() and hand it to the tiles, e.g. as a boot
  /// argument). The program owns it and unmaps it when destroyed. Limits as for HostBuffer (128 MiB).
  HostBuffer &mapHostBuffer(std::size_t bytes, HostAccess access, std::uint32_t devAddr = 0);

  /// Runs the loaded tiles until they all exit (see runDevice() for the errors). Throws application_runtime_error
  /// when nothing is loaded or the device was reset since the load (call reload()).
  RunResult run(const RunOptions &options = RunOptions());

  /// Reads or writes a tile's SRAM between runs (tile addresses start at IPU_TILE_SRAM_BASE).
  void read(std::uint32_t tile, std::uint32_t tileAddr, void *data, std::size_t len);
  void write(std::uint32_t tile, std::uint32_t tileAddr, const void *data, std::size_t len);

  /// The tiles the program runs on (sorted), empty before load().
  const std::vector<std::uint32_t> &tiles() const noexcept { return tiles_; }
  /// The loaded image.
  const TileImage &image() const noexcept { return image_; }

private:
  Device &device_;
  std::unique_ptr<StreamRegistry> streams_;
  std::vector<std::unique_ptr<HostBuffer>> buffers_;
  TileImage image_;
  std::vector<std::uint32_t> tiles_;
  std::map<std::uint32_t, std::uint32_t> bootArgs_;
  bool loaded_ = false;
  std::uint64_t loadedAtReset_ = 0;
};

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_TILE_PROGRAM_HPP
