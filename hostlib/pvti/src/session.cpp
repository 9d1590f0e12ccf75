// The trace session: reads PVTI_OPTIONS once, opens the trace file and writes one JSON line per record
// (docs/system-trace.md). Every public entry point first asks the session whether anything would be recorded, so a
// process without PVTI_OPTIONS pays one check per call.
#include "session.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

namespace pvti::detail {

namespace {
using Json = nlohmann::ordered_json;

std::int64_t nowNs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - since).count();
}

/// The kernel's id of the calling thread: what `ps -L` and gdb show, so events can be matched with other tools.
std::int64_t threadId() {
  thread_local const std::int64_t id = static_cast<std::int64_t>(::syscall(SYS_gettid));
  return id;
}

/// An option that is a boolean or a string "true"/"false" (the SDK's documentation writes the string form).
bool flag(const Json &v, bool fallback) {
  if (v.is_boolean())
    return v.get<bool>();
  if (v.is_string())
    return v.get<std::string>() != "false";
  return fallback;
}

/// <directory>/<UTC date and time>_<pid>.pvti.jsonl: a new file per process, sortable by start time.
std::string traceFileName(const std::string &directory) {
  std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  return (std::filesystem::path(directory) / (std::string(stamp) + "_" + std::to_string(::getpid()) + ".pvti.jsonl"))
      .string();
}
} // namespace

Session &Session::get() {
  // Never destroyed: events from other objects' static destructors still find it; the file is closed at exit.
  static Session *s = new Session();
  return *s;
}

Session::Session() : start_(std::chrono::steady_clock::now()) {
  const char *env = std::getenv("PVTI_OPTIONS");
  if (!env)
    return;
  // Set but not JSON: tracing on with the defaults, as the SDK documents.
  Json options = Json::parse(env, nullptr, false);
  std::string directory = ".";
  if (options.is_object()) {
    if (!flag(options.value("enable", Json(true)), true))
      return;
    if (options.contains("directory") && options["directory"].is_string())
      directory = options["directory"].get<std::string>();
    if (options.contains("channels") && options["channels"].is_array())
      for (const auto &c : options["channels"])
        if (c.is_string())
          only_.push_back(c.get<std::string>());
  } else {
    std::cerr << "PVTI_OPTIONS is not a JSON object; tracing with the default options\n";
  }
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  filename_ = traceFileName(directory);
  file_ = std::fopen(filename_.c_str(), "w");
  if (!file_) {
    std::cerr << "PVTI_OPTIONS: cannot create the trace file '" << filename_ << "'; tracing is off\n";
    filename_.clear();
    return;
  }
  // Line buffered: each record reaches the file when written, so a run that crashes keeps its trace up to then.
  std::setvbuf(file_, nullptr, _IOLBF, 1 << 16);
  const auto unixNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  Json header;
  header["format"] = "ipu-emu-pvti";
  header["version"] = kFormatVersion;
  header["pid"] = ::getpid();
  header["startUnixNs"] = unixNs;
  header["clock"] = "steady";
  writeLine(header.dump());
  on_.store(true, std::memory_order_release);
  std::atexit([] { Session::get().close(); });
}

bool Session::wants(const TraceChannel *channel) const {
  if (!on_.load(std::memory_order_acquire) || !channel || !channel->enabled)
    return false;
  if (only_.empty())
    return true;
  for (const auto &name : only_)
    if (name == channel->name)
      return true;
  return false;
}

void Session::record(const char *type, const TraceChannel *channel, const std::string &label) {
  Json j;
  j["ts"] = nowNs(start_);
  j["type"] = type;
  j["channel"] = channel->name;
  j["name"] = label;
  j["tid"] = threadId();
  writeLine(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Session::sample(const std::string &graph, const std::string &unit, const std::string &series, double value) {
  Json j;
  j["ts"] = nowNs(start_);
  j["type"] = "sample";
  j["graph"] = graph;
  j["unit"] = unit;
  j["series"] = series;
  j["value"] = value;
  j["tid"] = threadId();
  writeLine(j.dump(-1, ' ', false, Json::error_handler_t::replace));
}

void Session::writeLine(const std::string &line) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!file_)
    return;
  std::fputs(line.c_str(), file_);
  std::fputc('\n', file_);
  ++records_;
}

void Session::close() {
  if (!on_.exchange(false))
    return;
  Json j;
  j["ts"] = nowNs(start_);
  j["type"] = "close";
  j["records"] = records_ + 1; // every line of the file, this one included
  writeLine(j.dump());
  std::lock_guard<std::mutex> lock(mutex_);
  std::fclose(file_);
  file_ = nullptr;
}

std::string Session::filename() const { return on_.load() ? filename_ : std::string(); }

} // namespace pvti::detail
