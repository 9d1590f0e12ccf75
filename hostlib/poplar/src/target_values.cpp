// Internal: board loading and writing, the cache folder and content hashes.
#include "target_values.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <utility>
#define XXH_INLINE_ALL // header-only: no library to link (libxxhash-dev)
#include <xxhash.h>

#include "poplar/exceptions.hpp"

namespace poplar::detail {

void checkNumIPUs(const std::string &what, unsigned numIPUs, unsigned tilesPerIPU) {
  if (numIPUs < 1 || numIPUs > 64)
    throw invalid_option(what + ": " + std::to_string(numIPUs) +
                         " IPUs asked for; a card has 1 .. 64 IPUs (boards/README.md), ask for fewer");
  if (std::uint64_t(numIPUs) * tilesPerIPU > 65535)
    throw invalid_option(what + ": " + std::to_string(numIPUs) + " IPUs x " + std::to_string(tilesPerIPU) +
                         " tiles exceed the card's 65535 tiles; use fewer IPUs or fewer tiles per IPU");
}

ipu_board loadBoard(const std::string &name) {
  // ipu21 (the C600's IPU) has the tiles of ipu2; only its nominal conv-unit figures differ (archFor).
  bool ipu21 = name == "ipu21";
  ipu_board b{};
  char err[512] = {0};
  int rc = ipu_board_load(ipu21 ? "ipu2" : name.c_str(), &b, err, sizeof err);
  if (rc != 0)
    throw invalid_option("unknown IPU version or board '" + name + "': " + err +
                         " (known boards: ipu1, ipu2, ipu21, tiny; or set IPU_BOARD_PATH)");
  if (ipu21) {
    setBoardValue(b, "name", "ipu21");
    setBoardValue(b, "description", "1472 tiles x 624 KiB (IPU21, Mk2 with fp8)");
  }
  return b;
}

void setBoardValue(ipu_board &b, const char *key, const std::string &value) {
  char err[400];
  if (ipu_board_set(&b, key, value.c_str(), "libpoplar's board", err, sizeof err) != 0)
    throw invalid_option(err);
}

ArchValues archFor(const ipu_board &b) {
  ArchValues a; // Mk2 figures
  std::string name = b.name;
  if (name == "ipu1") {
    a.fp16ConvUnitInputLoadElemsPerCycle = 4;
    a.fp32ConvUnitInputLoadElemsPerCycle = 2;
    a.fp16InFp16OutConvUnitsPerTile = 8;
    a.fp16InFp32OutConvUnitsPerTile = 4;
    a.fp32InFp32OutConvUnitsPerTile = 4;
    a.convUnitCoeffLoadBytesPerCycle = 8;
  } else if (name == "ipu21") {
    a.fp8ConvUnitMaxPipelineDepth = 4;
    a.fp8ConvUnitInputLoadElemsPerCycle = 16;
    a.fp8InFp16OutConvUnitsPerTile = 16;
  }
  return a;
}

namespace {

template <typename E> E pickValue(const std::string &option, const std::string &value,
                                  std::initializer_list<std::pair<const char *, E> > choices) {
  std::string known;
  for (const auto &c : choices) {
    if (value == c.first)
      return c.second;
    known += (known.empty() ? "" : ", ") + std::string(c.first);
  }
  throw invalid_option("target option " + option + " = '" + value + "': not a valid value; use one of " + known);
}

void applyTargetOption(TargetOptionValues &v, const std::string &key, const std::string &value) {
  if (key == "ipuLinkConfiguration") {
    v.linkConfiguration = pickValue<IpuLinkConfiguration>(key, value,
                                                          {{"fixedWindow", IpuLinkConfiguration::Default},
                                                           {"default", IpuLinkConfiguration::Default},
                                                           {"slidingWindow", IpuLinkConfiguration::SlidingWindow},
                                                           {"barleyTwist", IpuLinkConfiguration::BarleyTwist}});
    v.linkConfigurationSet = true;
  } else if (key == "ipuLinkTopology") {
    v.linkTopology = pickValue<IpuLinkTopology>(
        key, value, {{"mesh", IpuLinkTopology::Mesh}, {"torus", IpuLinkTopology::Torus}, {"line", IpuLinkTopology::Line}});
  } else if (key == "syncConfiguration") {
    v.syncConfiguration = pickValue<SyncConfiguration>(key, value,
                                                       {{"intraReplicaAndAll", SyncConfiguration::IntraReplicaAndAll},
                                                        {"ipuAndAll", SyncConfiguration::IpuAndAll}});
  } else if (key == "ipuLinkDomainSize") {
    char *end = nullptr;
    errno = 0;
    unsigned long n = value.empty() || value[0] == '-' ? 0 : std::strtoul(value.c_str(), &end, 10);
    if (value.empty() || value[0] == '-' || !end || *end || errno || n == 0 || n > 1024)
      throw invalid_option("target option ipuLinkDomainSize = '" + value +
                           "': not a valid value; use a whole number of IPUs from 1 to 1024");
    v.linkDomainSize = unsigned(n);
  } else {
    throw invalid_option("unknown target option '" + key +
                         "'; the target options are ipuLinkConfiguration, ipuLinkTopology, syncConfiguration and "
                         "ipuLinkDomainSize");
  }
}

} // namespace

TargetOptionValues parseTargetOptions(const OptionFlags &opts) {
  TargetOptionValues v;
  for (const auto &o : opts)
    applyTargetOption(v, o.first, o.second);
  const char *env = std::getenv("POPLAR_TARGET_OPTIONS");
  if (env && *env) {
    OptionFlags fromEnv;
    try {
      readJSON(std::string(env), fromEnv);
    } catch (const invalid_option &e) {
      throw invalid_option(std::string("POPLAR_TARGET_OPTIONS is not a JSON object of options (") + e.what() +
                           "); set it like '{\"ipuLinkTopology\": \"line\"}'");
    }
    for (const auto &o : fromEnv) {
      try {
        applyTargetOption(v, o.first, o.second);
      } catch (const invalid_option &e) {
        throw invalid_option(std::string("POPLAR_TARGET_OPTIONS: ") + e.what());
      }
    }
  }
  return v;
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
  const std::uint64_t h = XXH3_64bits(data.data(), data.size());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string writeBoardFile(const ipu_board &b) {
  // The board reader's own writer: every key of its table, strings escaped, so the file reads back as `b`.
  char body[IPU_BOARD_WRITE_MAX], err[400];
  const int n = ipu_board_write(&b, body, sizeof body, err, sizeof err);
  if (n < 0)
    throw invalid_option(std::string("cannot write the target's board file: ") + err);
  if (n >= int(sizeof body)) // IPU_BOARD_WRITE_MAX holds any board; never cut a file short
    throw poplar_error("the board's text needs " + std::to_string(n) + " bytes, more than IPU_BOARD_WRITE_MAX");
  const std::string text =
      "# Written by libpoplar for an IPU Model or CPU target.\n" + std::string(body, std::size_t(n));
  std::string dir = cacheDir() + "/boards/" + contentHash(text);
  // The folder is the content's: a fixed file name keeps a board name holding '/' from choosing the path.
  std::string path = dir + "/board.toml";
  if (!std::filesystem::exists(path)) {
    std::filesystem::create_directories(dir);
    std::string tmp = path + ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp) << text;
    std::filesystem::rename(tmp, path);
  }
  return path;
}

} // namespace poplar::detail
