// Run control with a host-sync service thread, console streaming and hang diagnosis (see run.hpp).
#include "ipu_runtime/run.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <thread>

#include "device_error_info.hpp"
#include "pvti/pvti.hpp"

namespace ipu {
namespace runtime {
namespace {

using Clock = std::chrono::steady_clock;

// Slices of waiting: short enough that console output appears promptly and timeouts are checked often, long
// enough that the report ipudrv_wait builds at every timed-out slice (7.5 ms for ipu2's 1472 tiles) stays a
// small share of the run.
constexpr int kWaitSliceMs = 250;

/// The system trace's "device wait" interval: from the host starting to wait for the card until the card's next
/// event (a host sync or the end of the run), over as many wait slices as that takes.
class DeviceWaitTrace {
public:
  DeviceWaitTrace() : on_(pvti::checkTraceChannel(&pvti::traceDrivers)) {}
  DeviceWaitTrace(const DeviceWaitTrace &) = delete;
  DeviceWaitTrace &operator=(const DeviceWaitTrace &) = delete;
  ~DeviceWaitTrace() { stop(); }
  void start() {
    if (on_ && !waiting_)
      pvti::Tracepoint::begin(&pvti::traceDrivers, kLabel);
    waiting_ = true;
  }
  void stop() {
    if (on_ && waiting_)
      pvti::Tracepoint::end(&pvti::traceDrivers, kLabel);
    waiting_ = false;
  }

private:
  static constexpr const char *kLabel = "device wait";
  bool on_, waiting_ = false;
};

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

// Assembles console bytes into lines per tile.
class ConsoleLines {
public:
  ConsoleLines(const RunOptions &options, std::map<std::uint32_t, std::string> &collected)
      : sink_(options.console), collected_(collected) {}
  void add(std::uint32_t tile, char c) {
    if (!sink_) {
      collected_[tile] += c;
      return;
    }
    std::string &line = partial_[tile];
    if (c == '\n') {
      sink_(tile, line);
      line.clear();
    } else {
      line += c;
    }
  }
  void flush() {
    if (!sink_)
      return;
    for (auto &kv : partial_)
      if (!kv.second.empty()) {
        sink_(kv.first, kv.second);
        kv.second.clear();
      }
  }

private:
  std::function<void(std::uint32_t, const std::string &)> sink_;
  std::map<std::uint32_t, std::string> &collected_;
  std::map<std::uint32_t, std::string> partial_;
};

class Runner {
public:
  Runner(Device &device, const std::vector<std::uint32_t> &tiles, StreamRegistry *streams, const RunOptions &options,
         RunResult &result)
      : dev_(device), h_(device.handle()), tiles_(tiles), streams_(streams), opt_(options), result_(result),
        console_(options, result.console) {}

  // The service thread's body: returns when every tile exited, throws otherwise.
  void serve() {
    const Clock::time_point start = Clock::now();
    Clock::time_point lastEvent = start;
    DeviceWaitTrace waiting;
    for (;;) {
      ipudrv_event ev{};
      waiting.start();
      const int rc = ipudrv_wait(h_, kWaitSliceMs, &ev);
      if (rc != -ETIMEDOUT)
        waiting.stop();
      drainConsole();
      checkStop();
      if (rc == -ETIMEDOUT) {
        const double idle = since(lastEvent), total = since(start);
        if (idle > opt_.hostSyncTimeoutSeconds)
          hang("host sync timeout: no host sync and no end of run for " + seconds(idle) + " (limit " +
               seconds(opt_.hostSyncTimeoutSeconds) + ")");
        if (opt_.runTimeoutSeconds > 0 && total > opt_.runTimeoutSeconds)
          hang("run timeout: the run took more than " + seconds(opt_.runTimeoutSeconds));
        continue;
      }
      if (rc == -EIO || rc == -ENOLINK)
        throw unrecoverable_runtime_error("wait for the card: " + std::string(ipudrv_last_error(h_)) +
                                          "; the card stopped answering: detach, check it with gc-info, attach again");
      dev_.check(rc, "wait for the card");
      switch (ev.kind) {
      case IPUDRV_EVENT_HOST_SYNC:
        hostSync(ev.sync_id);
        lastEvent = Clock::now();
        break;
      case IPUDRV_EVENT_DONE:
        finish(ev.card_cycles);
        return;
      case IPUDRV_EVENT_ERROR:
        fault();
        return; // not reached: fault() throws
      default:
        throw application_runtime_error("run on " + dev_.describe() +
                                        ": the card is idle although a run was started: no tile is enabled, or "
                                        "another caller halted it; load a program before running");
      }
    }
  }

private:
  // Ends the run when the caller asked for it (Engine::stop), halting the tiles so that the card can be loaded again.
  void checkStop() {
    if (opt_.stopRequested && opt_.stopRequested()) {
      halt();
      throw run_stopped_error("the run was stopped on the host's request before the tiles finished");
    }
  }

  void drainConsole() {
    ipudrv_console_byte bytes[1024];
    for (;;) {
      std::size_t n = 0;
      if (ipudrv_console_read(h_, bytes, sizeof bytes / sizeof bytes[0], &n) != 0 || n == 0)
        return;
      for (std::size_t i = 0; i < n; ++i)
        console_.add(bytes[i].tile, char(bytes[i].byte));
      if (n < sizeof bytes / sizeof bytes[0])
        return;
    }
  }

  // Stops the tiles so that the card is usable again after a host-side failure.
  void halt() noexcept {
    ipudrv_halt(h_);
    drainConsole();
    console_.flush();
  }

  void hostSync(std::uint32_t syncId) {
    if (!streams_) {
      halt();
      throw application_runtime_error("host sync id " + hex(syncId) +
                                      ": the tile program asked the host for a stream copy, but this run has no "
                                      "streams; declare and connect the program's streams");
    }
    const Clock::time_point t0 = Clock::now();
    pvti::Tracepoint trace(&pvti::traceDrivers, "host sync"); // the interval the tiles wait for the host
    try {
      streams_->serve(syncId);
    } catch (...) {
      halt();
      throw;
    }
    const double took = since(t0);
    if (took > opt_.hostSyncTimeoutSeconds) {
      halt();
      throw application_runtime_error("host sync timeout: serving host sync id " + hex(syncId) + " took " +
                                      seconds(took) + ", more than the limit of " +
                                      seconds(opt_.hostSyncTimeoutSeconds) +
                                      "; make the stream callback faster or raise the host sync timeout");
    }
    checkStop(); // a stream callback may have asked for it
    dev_.check(ipudrv_host_sync_release(h_), "release host sync " + hex(syncId));
    ++result_.hostSyncs;
  }

  [[noreturn]] void hang(const std::string &headline) {
    int need = ipudrv_watchdog_report(h_, nullptr, 0);
    std::string report;
    if (need > 0) {
      report.resize(std::size_t(need) + 1);
      ipudrv_watchdog_report(h_, &report[0], report.size());
      report.resize(std::size_t(need));
    }
    halt();
    throw run_timeout_error(headline + " on " + dev_.describe() + "; the program is probably hung. " + report +
                                        "\nrecovery: IPU_RESET: reset the device, reload the program and run again");
  }

  [[noreturn]] void fault() {
    drainConsole();
    console_.flush();
    // The first record goes on the first line, so that a one-line report (gc-run) names the fault.
    std::string msg = "run on " + dev_.describe() + " failed: ";
    ipudrv_error_record recs[16], first{};
    std::size_t n = 0, total = 0;
    while (ipudrv_error_read(h_, recs, 16, &n) == 0 && n > 0) {
      if (total == 0)
        first = recs[0];
      for (std::size_t i = 0; i < n; ++i, ++total) {
        char line[512];
        ipudrv_error_format(&recs[i], line, sizeof line);
        msg += (total ? std::string("\n  ") : std::string()) + line;
      }
    }
    if (total == 0)
      msg += "the card reported an error but no error record was queued";
    ipudrv_info info;
    if (ipudrv_get_info(h_, &info) == 0 && info.errors_lost)
      msg += "\n  (" + std::to_string(info.errors_lost) + " more error records were lost: the FIFO was full)";
    recoverable_runtime_error err(RecoveryAction::IPU_RESET,
                                  msg + "\nrecovery: IPU_RESET: reset the device, reload the program and run again");
    if (total > 0)
      err.setErrorInfo(deviceErrorInfo(first));
    throw err;
  }

  void finish(std::uint64_t cycles) {
    drainConsole();
    console_.flush();
    result_.cycles = cycles;
    for (std::uint32_t t : tiles_) {
      struct ipudrv_tile_status st;
      dev_.check(ipudrv_tile_status(h_, t, &st), "read the status of tile " + std::to_string(t));
      TileOutcome o;
      o.tile = t;
      o.state = st.state;
      o.exitCode = st.exit_code;
      o.cycles = st.cycles;
      result_.tiles.push_back(o);
    }
  }

  Device &dev_;
  ipudrv_device *h_;
  const std::vector<std::uint32_t> &tiles_;
  StreamRegistry *streams_;
  const RunOptions &opt_;
  RunResult &result_;
  ConsoleLines console_;
};

} // namespace

std::uint32_t RunResult::exitCode() const noexcept {
  for (const TileOutcome &t : tiles)
    if (t.exitCode != 0)
      return t.exitCode;
  return 0;
}

RunResult runDevice(Device &device, const std::vector<std::uint32_t> &tiles, StreamRegistry *streams,
                    const RunOptions &options) {
  if (!(options.hostSyncTimeoutSeconds > 0))
    throw application_runtime_error("run: the host sync timeout must be positive (got " +
                                    std::to_string(options.hostSyncTimeoutSeconds) + " s)");
  for (std::uint32_t t : tiles)
    if (t >= device.numTiles())
      throw application_runtime_error("run: tile " + std::to_string(t) + " does not exist on " + device.describe());
  RunResult result;
  const Clock::time_point t0 = Clock::now();
  pvti::Tracepoint trace(&pvti::traceDrivers, "device run"); // from the start of the tiles to the end of the run
  device.check(ipudrv_set_watchdog(device.handle(), options.watchdogKiloInsns), "set the instruction watchdog");
  device.check(ipudrv_start(device.handle()), "start the run");
  Runner runner(device, tiles, streams, options, result);
  std::exception_ptr error;
  // The service thread answers host syncs and drains the console while this thread waits for it; stream
  // callbacks therefore always run on a thread the runtime owns, never inside a driver call of the caller.
  std::thread service([&] {
    try {
      runner.serve();
    } catch (...) {
      error = std::current_exception();
    }
  });
  service.join();
  if (streams) {
    try {
      streams->endRun();
    } catch (...) {
      if (!error)
        error = std::current_exception();
    }
  }
  if (error)
    std::rethrow_exception(error);
  result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return result;
}

} // namespace runtime
} // namespace ipu
