// The stream registry: staging buffers in the translation table and the host's half of each stream copy.
#include "ipu_runtime/streams.hpp"

#include <cstdio>
#include <exception>
#include <optional>

#include "bulk_copy.hpp"
#include "pvti/pvti.hpp"

namespace ipu {
namespace runtime {

StreamCallback::~StreamCallback() = default;

namespace {

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

const char *directionName(StreamDirection d) {
  return d == StreamDirection::HostToDevice ? "host-to-device" : "device-to-host";
}

} // namespace

struct StreamRegistry::Stream {
  enum class Kind { None, Buffer, Callback, Function };
  std::uint32_t id = 0;
  std::string name;
  StreamDirection direction = StreamDirection::HostToDevice;
  std::size_t bytes = 0;
  std::unique_ptr<HostBuffer> staging;
  Kind kind = Kind::None;
  std::uint8_t *begin = nullptr, *end = nullptr, *pos = nullptr;
  std::unique_ptr<StreamCallback> callback;
  std::function<void(void *)> function;
  bool prefetched = false;
  std::uint64_t copies = 0;

  std::string label() const { return "stream '" + name + "' (id " + std::to_string(id) + ")"; }

  // Disconnects. Also runs from destructors, so a throwing invalidatePrefetched() is ignored here.
  void reset() {
    if (callback && prefetched) {
      try {
        callback->invalidatePrefetched();
      } catch (...) {
      }
    }
    kind = Kind::None;
    begin = end = pos = nullptr;
    callback.reset();
    function = nullptr;
    prefetched = false;
  }

  // Runs a user callback; anything it throws becomes an application_runtime_error naming the stream.
  // Each call is an interval of the system trace ("callback fetch: <stream>").
  template <typename Fn> auto call(const char *what, Fn &&fn) -> decltype(fn()) {
    std::optional<pvti::Tracepoint> trace;
    if (pvti::checkTraceChannel(&pvti::traceDrivers))
      trace.emplace(&pvti::traceDrivers, "callback " + std::string(what) + ": " + name);
    try {
      return fn();
    } catch (const std::exception &e) {
      throw application_runtime_error(label() + ": the " + what + " callback threw: " + e.what() +
                                      "; the run was stopped, fix the callback");
    } catch (...) {
      throw application_runtime_error(label() + ": the " + what +
                                      " callback threw a non-standard exception; the run was stopped, fix the callback");
    }
  }

  void advance() {
    pos += bytes;
    if (pos >= end)
      pos = begin;
  }
};

StreamRegistry::StreamRegistry(Device &device) : device_(device) {}

StreamRegistry::~StreamRegistry() {
  for (auto &kv : streams_)
    kv.second->reset();
}

std::uint32_t StreamRegistry::declare(std::uint32_t id, const std::string &name, StreamDirection direction,
                                      std::size_t bytes, std::uint32_t devAddr) {
  if (id > kMaxStreamId)
    throw application_runtime_error("stream '" + name + "': id " + hex(id) + " is above " + hex(kMaxStreamId) +
                                    "; sync ids are 24 bits and bit 23 marks the second sync of a copy");
  if (streams_.count(id))
    throw application_runtime_error("stream '" + name + "': id " + std::to_string(id) + " is already used by " +
                                    streams_.at(id)->label() + "; give each stream its own id");
  if (names_.count(name))
    throw application_runtime_error("stream '" + name + "': the name is already declared; names must be unique");
  if (bytes == 0)
    throw application_runtime_error("stream '" + name + "': 0 bytes per copy; a stream moves at least one byte");
  if (bytes > kMaxHostBufferBytes)
    throw application_runtime_error("stream '" + name + "': " + std::to_string(bytes) +
                                    " bytes per copy exceed the 128 MiB per-stream-copy limit of the translation "
                                    "table; split it into several copies separated by syncs");
  std::unique_ptr<Stream> s(new Stream);
  s->id = id;
  s->name = name;
  s->direction = direction;
  s->bytes = bytes;
  s->staging.reset(new HostBuffer(device_, bytes,
                                  direction == StreamDirection::HostToDevice ? HostAccess::DeviceReads
                                                                              : HostAccess::DeviceWrites,
                                  devAddr, "stream '" + name + "' staging buffer"));
  const std::uint32_t addr = s->staging->deviceAddress();
  names_[name] = id;
  streams_[id] = std::move(s);
  return addr;
}

StreamRegistry::Stream &StreamRegistry::find(const std::string &name) {
  return const_cast<Stream &>(static_cast<const StreamRegistry *>(this)->find(name));
}

const StreamRegistry::Stream &StreamRegistry::find(const std::string &name) const {
  auto it = names_.find(name);
  if (it == names_.end()) {
    std::string known;
    for (const auto &kv : names_)
      known += (known.empty() ? "'" : ", '") + kv.first + "'";
    throw application_runtime_error("stream '" + name + "' is not declared by this program" +
                                    (known.empty() ? std::string("; it declares no streams")
                                                   : "; declared streams: " + known));
  }
  return *streams_.at(it->second);
}

void StreamRegistry::connect(const std::string &name, void *begin, void *end) {
  Stream &s = find(name);
  auto *b = static_cast<std::uint8_t *>(begin), *e = static_cast<std::uint8_t *>(end);
  if (!b || !e || e <= b)
    throw application_runtime_error(s.label() + ": connectStream(begin, end) needs begin < end (got " +
                                    (b && e ? std::to_string(e - b) + " bytes" : std::string("a null pointer")) + ")");
  const std::size_t size = std::size_t(e - b);
  if (size % s.bytes != 0)
    throw application_runtime_error(s.label() + ": the circular buffer holds " + std::to_string(size) +
                                    " bytes, not a multiple of the " + std::to_string(s.bytes) +
                                    " bytes each copy moves; make end - begin a multiple of " +
                                    std::to_string(s.bytes));
  s.reset();
  s.kind = Stream::Kind::Buffer;
  s.begin = s.pos = b;
  s.end = e;
}

void StreamRegistry::connect(const std::string &name, std::unique_ptr<StreamCallback> callback) {
  Stream &s = find(name);
  if (!callback)
    throw application_runtime_error(s.label() + ": connectStreamToCallback with a null callback");
  s.reset();
  s.kind = Stream::Kind::Callback;
  s.callback = std::move(callback);
}

void StreamRegistry::connect(const std::string &name, std::function<void(void *)> function) {
  Stream &s = find(name);
  if (!function)
    throw application_runtime_error(s.label() + ": connectStreamToCallback with an empty function");
  s.reset();
  s.kind = Stream::Kind::Function;
  s.function = std::move(function);
}

void StreamRegistry::disconnect(const std::string &name) { find(name).reset(); }

std::uint32_t StreamRegistry::idOf(const std::string &name) const { return find(name).id; }

std::uint32_t StreamRegistry::deviceAddressOf(const std::string &name) const {
  return find(name).staging->deviceAddress();
}

std::uint64_t StreamRegistry::copiesOf(const std::string &name) const { return find(name).copies; }

void StreamRegistry::serve(std::uint32_t syncId) {
  const bool consume = (syncId & kStreamSyncConsume) != 0;
  const std::uint32_t id = syncId & kMaxStreamId;
  auto it = streams_.find(id);
  if (it == streams_.end() || syncId > (kStreamSyncConsume | kMaxStreamId))
    throw application_runtime_error("host sync id " + hex(syncId) + " (stream id " + std::to_string(id) + ", " +
                                    (consume ? "second" : "first") +
                                    " sync of a copy) belongs to no declared stream; declare the stream before "
                                    "running, or fix the id in the tile program");
  Stream &s = *it->second;
  void *p = s.staging->data();
  const bool toDevice = s.direction == StreamDirection::HostToDevice;
  // The host's half of the copy is an interval of the system trace: "stream copy <name> host-to-device, sync 1".
  std::optional<pvti::Tracepoint> trace;
  if (pvti::checkTraceChannel(&pvti::traceDrivers))
    trace.emplace(&pvti::traceDrivers, "stream copy " + s.name + " " + directionName(s.direction) +
                                           (consume ? ", sync 2" : ", sync 1"));
  if (s.kind == Stream::Kind::None)
    throw application_runtime_error(s.label() + " (" + directionName(s.direction) +
                                    ", " + std::to_string(s.bytes) +
                                    " bytes per copy) is not connected; call connectStream() or "
                                    "connectStreamToCallback() before run()");
  if (toDevice && !consume) {
    switch (s.kind) {
    case Stream::Kind::Buffer:
      bulkCopy(p, s.pos, s.bytes);
      s.advance();
      break;
    case Stream::Kind::Callback:
      if (s.prefetched)
        s.prefetched = false; // the previous copy's prefetch already filled the staging buffer
      else
        s.call("fetch", [&] { s.callback->fetch(p); });
      break;
    case Stream::Kind::Function:
      s.call("stream", [&] { s.function(p); });
      break;
    case Stream::Kind::None:
      break;
    }
  } else if (toDevice && consume) {
    ++s.copies;
    if (s.kind == Stream::Kind::Callback) {
      s.call("complete", [&] { s.callback->complete(); });
      const StreamCallback::Result r = s.call("prefetch", [&] { return s.callback->prefetch(p); });
      s.prefetched = r == StreamCallback::Result::Success;
    }
  } else if (!toDevice && consume) {
    ++s.copies;
    switch (s.kind) {
    case Stream::Kind::Buffer:
      bulkCopy(s.pos, p, s.bytes);
      s.advance();
      break;
    case Stream::Kind::Callback:
      s.call("fetch", [&] { s.callback->fetch(p); });
      s.call("complete", [&] { s.callback->complete(); });
      break;
    case Stream::Kind::Function:
      s.call("stream", [&] { s.function(p); });
      break;
    case Stream::Kind::None:
      break;
    }
  }
  // Device to host, first sync: nothing to prepare; the tiles write the staging buffer next.
}

void StreamRegistry::endRun() {
  for (auto &kv : streams_) {
    Stream &s = *kv.second;
    if (s.kind == Stream::Kind::Callback && s.prefetched) {
      s.prefetched = false;
      s.call("invalidatePrefetched", [&] { s.callback->invalidatePrefetched(); });
    }
  }
}

} // namespace runtime
} // namespace ipu
