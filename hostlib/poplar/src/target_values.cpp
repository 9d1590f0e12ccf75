// Internal: board loading and writing, the cache folder and content hashes.
#include "target_values.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "poplar/exceptions.hpp"

namespace poplar::detail {

ipu_board loadBoard(const std::string &name) {
  ipu_board b{};
  char err[512] = {0};
  int rc = ipu_board_load(name.c_str(), &b, err, sizeof err);
  if (rc != 0)
    throw invalid_option("unknown IPU version or board '" + name + "': " + err +
                         " (known boards: ipu1, ipu2, tiny; or set IPU_BOARD_PATH)");
  return b;
}

std::string cacheDir() {
  const char *env = std::getenv("IPU_EMU_CACHE");
  std::string dir;
  if (env && *env)
    dir = env;
  else {
    const char *home = std::getenv("HOME");
    dir = std::string(home && *home ? home : "/tmp") + "/.cache/ipu-emu";
  }
  // A user without a writable home (a service account, a read-only HOME) still compiles: the cache is only a
  // cache, so fall back to a per-user folder under /tmp.
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || ::access(dir.c_str(), W_OK) != 0) {
    dir = "/tmp/ipu-emu-cache-" + std::to_string(::getuid());
    std::filesystem::create_directories(dir, ec);
  }
  return dir;
}

std::string contentHash(const std::string &data) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string writeBoardFile(const ipu_board &b) {
  std::ostringstream os;
  os << "# Written by libpoplar for an IPU Model or CPU target.\n"
     << "name = \"" << b.name << "\"\n"
     << "description = \"" << b.description << "\"\n"
     << "num_ipus = " << b.num_ipus << "\n"
     << "tiles_per_ipu = " << b.tiles_per_ipu << "\n"
     << "bytes_per_tile = " << b.bytes_per_tile << "\n"
     << "worker_contexts = " << b.worker_contexts << "\n"
     << "isa = \"" << b.isa << "\"\n"
     << "abi = \"" << b.abi << "\"\n"
     << "tile_clock_hz = " << b.tile_clock_hz << "\n"
     << "exchange_bytes_per_cycle = " << b.exchange_bytes_per_cycle << "\n"
     << "memcpy_bytes_per_cycle = " << b.memcpy_bytes_per_cycle << "\n"
     << "data_path_width = " << b.data_path_width << "\n"
     << "min_ipu_sync_delay = " << b.min_ipu_sync_delay << "\n"
     << "global_sync_cycles = " << b.global_sync_cycles << "\n"
     << "rpt_count_max = " << b.rpt_count_max << "\n"
     << "num_stride_bits = " << b.num_stride_bits << "\n"
     << "tiles_per_shared_exchange_bus = " << b.tiles_per_shared_exchange_bus << "\n"
     << "atomic_store_granularity = " << b.atomic_store_granularity << "\n"
     << "supervisor_stack_bytes = " << b.supervisor_stack_bytes << "\n"
     << "worker_stack_bytes = " << b.worker_stack_bytes << "\n"
     << "transport = \"" << b.transport << "\"\n";
  std::string text = os.str();
  std::string dir = cacheDir() + "/boards/" + contentHash(text);
  std::string path = dir + "/" + b.name + ".toml";
  if (!std::filesystem::exists(path)) {
    std::filesystem::create_directories(dir);
    std::string tmp = path + ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp) << text;
    std::filesystem::rename(tmp, path);
  }
  return path;
}

} // namespace poplar::detail
