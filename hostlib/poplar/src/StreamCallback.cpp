// Stream callbacks: the function-backed LegacyStreamCallback.
#include "poplar/StreamCallback.hpp"

#include "poplar/exceptions.hpp"

namespace poplar {

StreamCallback::~StreamCallback() = default;

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

} // namespace poplar
