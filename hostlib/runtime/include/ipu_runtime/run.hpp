// Run control: start the enabled tiles, answer host syncs on a service thread, stream the console, and turn the
// way a run ends (done, fault, hang, misuse) into a RunResult or the matching runtime error.
#ifndef IPU_RUNTIME_RUN_HPP
#define IPU_RUNTIME_RUN_HPP

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ipu_runtime/device.hpp"
#include "ipu_runtime/errors.hpp"
#include "ipu_runtime/streams.hpp"

namespace ipu {
namespace runtime {

/// How a run is watched.
struct RunOptions {
  /// Longest the host waits for the tiles' next host sync or the end of the run, and longest one host sync may
  /// take to serve; beyond it the run fails with a hang diagnosis. Poplar's default: 300 s.
  double hostSyncTimeoutSeconds = 300.0;
  /// Longest the whole run may take; 0 for no limit.
  double runTimeoutSeconds = 0.0;
  /// The card's per-tile instruction budget in units of 1024 instructions (WATCHDOG_INSNS); 0 disables it.
  std::uint32_t watchdogKiloInsns = 0;
  /// Receives each complete console line of a tile (without the newline), and the unterminated rest of each tile's
  /// output at the end of the run. Called on the service thread. When empty, lines go to RunResult::console.
  std::function<void(std::uint32_t tile, const std::string &line)> console;
  /// Asked after every host sync and at least every 250 ms while the tiles run (on the service thread); when it
  /// returns true the tiles are halted and the run ends with run_stopped_error. Empty: runs are never stopped.
  std::function<bool()> stopRequested;
};

/// A run that ended because RunOptions::stopRequested asked for it (Poplar's Engine::stop).
struct run_stopped_error : application_runtime_error {
  using application_runtime_error::application_runtime_error;
};

/// How one tile ended.
struct TileOutcome {
  std::uint32_t tile = 0;
  std::uint32_t state = 0;    ///< IPU_TILE_STATE_*
  std::uint32_t exitCode = 0; ///< what the tile wrote to its EXIT CSR
  std::uint64_t cycles = 0;
};

/// A run that ended with every enabled tile exited.
struct RunResult {
  std::vector<TileOutcome> tiles;               ///< the tiles that took part, in tile order
  std::uint64_t cycles = 0;                     ///< simulated card cycles
  std::uint64_t hostSyncs = 0;                  ///< host syncs served
  double seconds = 0;                           ///< wall-clock time of the run
  std::map<std::uint32_t, std::string> console; ///< per-tile output when RunOptions::console is empty

  /// The first non-zero exit code in tile order, or 0.
  std::uint32_t exitCode() const noexcept;
};

/// Runs the tiles that are set up on `device` (see loadImage()) until they all exit. `tiles` names the tiles to
/// report on (normally the image's tiles). Host syncs are served by `streams` (may be null when the program uses
/// none) on a service thread, which also drains the console.
/// Throws:
///  - recoverable_runtime_error(IPU_RESET) when a tile or the DMA engine faults (the message lists every error
///    record with its fix) or when no host sync or end of run comes within the host sync timeout (the message is
///    the hang diagnosis: every tile's state and every context's state and PC); the device can be reset, the
///    program reloaded and run again;
///  - application_runtime_error for misuse: an unconnected or undeclared stream, a callback that threw, a callback
///    slower than the host sync timeout, a card that is not set up (the tiles are halted first);
///  - unrecoverable_runtime_error when the card stops answering.
RunResult runDevice(Device &device, const std::vector<std::uint32_t> &tiles, StreamRegistry *streams,
                    const RunOptions &options = RunOptions());

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_RUN_HPP
