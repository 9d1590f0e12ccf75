// Internal: the one trace session of a process (docs/system-trace.md has the file format).
#ifndef PVTI_SESSION_HPP
#define PVTI_SESSION_HPP

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "pvti/pvti.hpp"

namespace pvti::detail {

/// The trace file's format version (its first line's "version"); raise it when a record changes meaning.
constexpr int kFormatVersion = 1;

class Session {
public:
  /// The session, created on first use from PVTI_OPTIONS.
  static Session &get();
  /// Whether an event on `channel` is recorded now.
  bool wants(const TraceChannel *channel) const;
  /// Writes one event record: `type` is "begin", "end" or "event".
  void record(const char *type, const TraceChannel *channel, const std::string &label);
  /// Writes one value of a graph's series.
  void sample(const std::string &graph, const std::string &unit, const std::string &series, double value);
  /// Writes the closing record and closes the file; later events are dropped.
  void close();
  /// Whether tracing is on (a file is open).
  bool on() const { return on_.load(std::memory_order_acquire); }
  std::string filename() const;

private:
  Session();
  void writeLine(const std::string &line);

  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> on_{false};
  std::vector<std::string> only_; ///< PVTI_OPTIONS "channels": empty means every channel
  std::string filename_;
  std::mutex mutex_;
  std::FILE *file_ = nullptr;
  std::uint64_t records_ = 0; ///< lines written so far
};

} // namespace pvti::detail

#endif // PVTI_SESSION_HPP
