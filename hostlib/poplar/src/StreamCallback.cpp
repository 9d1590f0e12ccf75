// Stream callbacks: the function-backed LegacyStreamCallback, the metadata holder of StreamCallbackWithMetadata and
// the wait/notify handshake of ResumableStreamCallback.
#include "poplar/StreamCallback.hpp"

#include <condition_variable>
#include <mutex>

#include "poplar/exceptions.hpp"

namespace poplar {

StreamCallbackBase::~StreamCallbackBase() = default;

StreamCallbackWithMetadata::StreamCallbackWithMetadata(const QuarterMetadata &metadata) : metadata_(metadata) {}
QuarterMetadata StreamCallbackWithMetadata::getMetadata() const { return metadata_; }
void StreamCallbackWithMetadata::setMetadata(const QuarterMetadata &metadata) { metadata_ = metadata; }

/// One pending notification at most: notify() before wait() is remembered, as a binary semaphore would.
struct ResumableStreamCallback::State {
  mutable std::mutex m;
  std::condition_variable cv;
  bool notified = false;
  bool awaiting = false;
};

ResumableStreamCallback::ResumableStreamCallback() : state_(new State) {}
ResumableStreamCallback::~ResumableStreamCallback() = default;

void ResumableStreamCallback::notify() {
  {
    std::lock_guard<std::mutex> lock(state_->m);
    state_->notified = true;
  }
  state_->cv.notify_all();
}

bool ResumableStreamCallback::isAwaiting() const {
  std::lock_guard<std::mutex> lock(state_->m);
  return state_->awaiting;
}

void ResumableStreamCallback::wait() {
  std::unique_lock<std::mutex> lock(state_->m);
  state_->awaiting = true;
  state_->cv.wait(lock, [this] { return state_->notified; });
  state_->notified = false;
  state_->awaiting = false;
}

LegacyStreamCallback::LegacyStreamCallback() {}
LegacyStreamCallback::LegacyStreamCallback(std::function<void(void *)> f) : f_(std::move(f)) {}
StreamCallback::Result LegacyStreamCallback::prefetch(void *) { return Result::NotAvailable; }
void LegacyStreamCallback::fetch(void *p) {
  if (!f_)
    throw poplar_error("LegacyStreamCallback::fetch: this callback has no function; derive from LegacyStreamCallback "
                       "and override fetch(void *), or construct it with a function");
  f_(p);
}
void LegacyStreamCallback::complete() {}
void LegacyStreamCallback::invalidatePrefetched() {}


std::unique_ptr<StreamCallback> StreamCallbackHandle::nonNull(std::unique_ptr<StreamCallback> callback) {
  if (!callback)
    throw poplar_error("StreamCallbackHandle: the stream callback is a null pointer; pass a std::unique_ptr that "
                       "owns a StreamCallback object, or a function of the buffer (void *)");
  return callback;
}

std::unique_ptr<StreamCallback> StreamCallbackHandle::fromFunction(std::function<void(void *)> f) {
  if (!f)
    throw poplar_error("StreamCallbackHandle: the stream callback function is empty (a null function pointer or an "
                       "empty std::function); pass a function that fills or reads the buffer (void *)");
  return std::unique_ptr<StreamCallback>(new LegacyStreamCallback(std::move(f)));
}

} // namespace poplar
