// gc-run: load a tile ELF onto chosen tiles of a device, run it, stream its console, return its exit code.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <getopt.h>
#include <sys/stat.h>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ipu_runtime/tile_program.hpp"

using namespace ipu::runtime;

namespace {

// Exit codes of the tool itself; a tile program's own exit code is returned as is (modulo 256), so these are
// documented in --help and told apart in --json output by the "error" member.
constexpr int kExitUsage = 64;       // bad command line (EX_USAGE)
constexpr int kExitBadProgram = 65;  // the ELF or the tile list was rejected (EX_DATAERR)
constexpr int kExitNoDevice = 69;    // the device could not be attached (EX_UNAVAILABLE)
constexpr int kExitFault = 70;       // a tile or the DMA engine faulted (recoverable: reset the device)
constexpr int kExitTimeout = 75;     // the run hung: host sync timeout or --run-timeout (EX_TEMPFAIL)
constexpr int kExitBroken = 74;      // the device stopped answering (unrecoverable) (EX_IOERR)

const char kUsage[] =
    "usage: gc-run [options] PROGRAM.elf\n"
    "Loads a bare tile program onto tiles of an IPU device, runs it, prints each tile's console output\n"
    "line by line as '[tile N] text' and exits with the program's exit code (the first non-zero one in\n"
    "tile order, modulo 256).\n"
    "\n"
    "options:\n"
    "  -d, --device N        device id (default 0; see gc-info)\n"
    "  -t, --tiles LIST      tiles to run on: all (default), N, N-M, or a comma-separated list\n"
    "      --timeout SEC     host sync timeout: longest wait for the program's next host sync or end\n"
    "                        (default 300, as in Poplar)\n"
    "      --run-timeout SEC longest the whole run may take (default: no limit)\n"
    "      --watchdog KINSN  per-tile instruction budget in units of 1024 instructions (default: off)\n"
    "      --arg VALUE       value of a0 at the entry point of every tile (default 0)\n"
    "  -j, --json            print a JSON summary on stdout; console lines go to stderr\n"
    "  -v, --verbose         on failure, print the whole report (every error record, every tile's state)\n"
    "                        instead of one line\n"
    "  -h, --help            this text\n"
    "  -V, --version         version\n"
    "\n"
    "exit status: the program's exit code, or\n"
    "  64 bad command line      65 the ELF or tile list was rejected    69 the device is unavailable\n"
    "  70 a tile faulted (reset the device with gc-reset)                75 the run hung (timeout)\n"
    "  74 the device stopped answering\n";

bool parseDouble(const char *s, double &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtod(s, &end);
  return errno == 0 && end && *end == '\0' && end != s && out > 0;
}

bool parseU32(const char *s, std::uint32_t &out) {
  char *end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || !end || *end || end == s || v > 0xffffffffull || s[0] == '-')
    return false;
  out = std::uint32_t(v);
  return true;
}

struct Options {
  unsigned device = 0;
  std::string tiles = "all";
  RunOptions run;
  std::uint32_t arg = 0;
  bool json = false;
  bool verbose = false;
  std::string elf;
};

int usageError(const std::string &msg) {
  std::fprintf(stderr, "gc-run: %s (see gc-run --help)\n", msg.c_str());
  return kExitUsage;
}

// Returns -1 to go on, or the exit status.
int parseArgs(int argc, char **argv, Options &o) {
  enum { kTimeout = 1000, kRunTimeout, kWatchdog, kArg };
  static const option longOpts[] = {
      {"device", required_argument, nullptr, 'd'}, {"tiles", required_argument, nullptr, 't'},
      {"timeout", required_argument, nullptr, kTimeout}, {"run-timeout", required_argument, nullptr, kRunTimeout},
      {"watchdog", required_argument, nullptr, kWatchdog}, {"arg", required_argument, nullptr, kArg},
      {"json", no_argument, nullptr, 'j'}, {"verbose", no_argument, nullptr, 'v'}, {"help", no_argument, nullptr, 'h'},
      {"version", no_argument, nullptr, 'V'}, {nullptr, 0, nullptr, 0}};
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":d:t:jvhV", longOpts, nullptr)) != -1) {
    std::uint32_t u = 0;
    switch (c) {
    case 'd':
      if (!parseU32(optarg, u))
        return usageError(std::string("--device '") + optarg + "' is not a device id");
      o.device = u;
      break;
    case 't':
      o.tiles = optarg;
      break;
    case kTimeout:
      if (!parseDouble(optarg, o.run.hostSyncTimeoutSeconds))
        return usageError(std::string("--timeout '") + optarg + "' is not a positive number of seconds");
      break;
    case kRunTimeout:
      if (!parseDouble(optarg, o.run.runTimeoutSeconds))
        return usageError(std::string("--run-timeout '") + optarg + "' is not a positive number of seconds");
      break;
    case kWatchdog:
      if (!parseU32(optarg, o.run.watchdogKiloInsns))
        return usageError(std::string("--watchdog '") + optarg + "' is not a number");
      break;
    case kArg:
      if (!parseU32(optarg, o.arg))
        return usageError(std::string("--arg '") + optarg + "' is not a 32-bit unsigned number");
      break;
    case 'j':
      o.json = true;
      break;
    case 'v':
      o.verbose = true;
      break;
    case 'h':
      std::fputs(kUsage, stdout);
      return 0;
    case 'V':
      std::printf("gc-run (ipu-emu) %s, libipudrv %s\n", IPU_EMU_VERSION, ipudrv_version());
      return 0;
    case ':':
      return usageError(std::string("option '") + argv[optind - 1] + "' needs a value");
    default:
      return usageError(std::string("unknown option '") + argv[optind - 1] + "'");
    }
  }
  if (optind != argc - 1)
    return usageError(optind == argc ? "no tile program given" : "only one tile program may be given");
  o.elf = argv[optind];
  return -1;
}

// What the run came to, for the summary.
struct Outcome {
  int status = 0;
  std::string errorClass, errorMessage, recovery;
  LoadStats load;
  RunResult run;
  bool ran = false;
  std::string location;
};

// The --json summary, written by nlohmann-json (the project's one JSON writer) in the order a reader expects the
// members. A program path that is not UTF-8 gets U+FFFD for each bad byte instead of making the line invalid JSON.
void printJson(const Options &o, const Outcome &r) {
  using Json = nlohmann::ordered_json;
  Json j = {{"device", o.device}, {"location", r.location}, {"program", o.elf}, {"exit_code", r.status}};
  j["load"] = {{"bus_bytes", r.load.busBytes},
               {"tile_bytes", r.load.tileBytes},
               {"dma_descriptors", r.load.writes},
               {"seconds", r.load.planSeconds + r.load.uploadSeconds}};
  if (r.ran) {
    j["cycles"] = r.run.cycles;
    j["host_syncs"] = r.run.hostSyncs;
    j["run_seconds"] = r.run.seconds;
    Json tiles = Json::array();
    for (const TileOutcome &t : r.run.tiles)
      tiles.push_back({{"tile", t.tile},
                       {"state", ipudrv_tile_state_name(t.state)},
                       {"exit_code", t.exitCode},
                       {"cycles", t.cycles}});
    j["tiles"] = std::move(tiles);
  }
  if (r.errorClass.empty())
    j["error"] = nullptr;
  else
    j["error"] = {{"class", r.errorClass},
                  {"recovery", r.recovery.empty() ? Json(nullptr) : Json(r.recovery)},
                  {"message", r.errorMessage}};
  std::printf("%s\n", j.dump(-1, ' ', false, Json::error_handler_t::replace).c_str());
}

// One line on stderr (the message's first line) unless --verbose asks for the whole report: a hang report lists
// every tile, which is 1472 lines on ipu2.
void printError(const std::string &msg, bool verbose) {
  const std::size_t nl = msg.find('\n');
  if (verbose || nl == std::string::npos)
    std::fprintf(stderr, "gc-run: error: %s\n", msg.c_str());
  else
    std::fprintf(stderr, "gc-run: error: %s (gc-run -v shows the whole report)\n", msg.substr(0, nl).c_str());
}

// The tile program must be a regular file: a FIFO would block the loader's open forever and a directory reads
// as a file of 2^63-1 bytes. Returns an error message, or "" when the file is fine.
std::string programFileProblem(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode))
    return ""; // a missing file is reported by the loader
  const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "not a regular file";
  return path + ": is " + kind + ", not a tile program; give the path of a RISC-V ELF file (e.g. built with gc-elf)";
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  const int parsed = parseArgs(argc, argv, o);
  if (parsed >= 0)
    return parsed;
  FILE *consoleOut = o.json ? stderr : stdout;
  o.run.console = [consoleOut](std::uint32_t tile, const std::string &line) {
    std::fprintf(consoleOut, "[tile %u] %s\n", tile, line.c_str());
    std::fflush(consoleOut);
  };
  Outcome r;
  int stage = 0; // 0 attach, 1 load, 2 run: decides the exit status of an application error
  if (std::string problem = programFileProblem(o.elf); !problem.empty()) {
    r.status = kExitBadProgram;
    r.errorClass = "application_runtime_error";
    r.errorMessage = problem;
  } else try {
    Device device(o.device);
    r.location = device.describe();
    stage = 1;
    TileProgram prog(device);
    const std::vector<std::uint32_t> tiles = parseTileList(o.tiles, device.numTiles());
    if (o.arg)
      for (std::uint32_t t : tiles)
        prog.setBootArg(t, o.arg);
    r.load = prog.load(o.elf, tiles);
    stage = 2;
    r.run = prog.run(o.run);
    r.ran = true;
    r.status = int(r.run.exitCode() & 0xff);
    if (r.status == 0 && r.run.exitCode() != 0)
      r.status = 1; // a non-zero code that is a multiple of 256 must not look like success
  } catch (const run_timeout_error &e) {
    r.status = kExitTimeout;
    r.errorClass = "recoverable_runtime_error";
    r.recovery = toString(e.getRecoveryAction());
    r.errorMessage = e.what();
  } catch (const recoverable_runtime_error &e) {
    r.status = kExitFault;
    r.errorClass = "recoverable_runtime_error";
    r.recovery = toString(e.getRecoveryAction());
    r.errorMessage = e.what();
  } catch (const unrecoverable_runtime_error &e) {
    r.status = kExitBroken;
    r.errorClass = "unrecoverable_runtime_error";
    r.errorMessage = e.what();
  } catch (const application_runtime_error &e) {
    r.status = stage == 0 ? kExitNoDevice : stage == 1 ? kExitBadProgram : kExitFault;
    r.errorClass = "application_runtime_error";
    r.errorMessage = e.what();
  } catch (const std::exception &e) {
    r.status = kExitBroken;
    r.errorClass = "std::exception";
    r.errorMessage = e.what();
  }
  if (!r.errorMessage.empty())
    printError(r.errorMessage, o.verbose);
  if (o.json)
    printJson(o, r);
  std::fflush(stdout);
  return r.status;
}
