// Stream callbacks: the function-backed LegacyStreamCallback.
#include "poplar/StreamCallback.hpp"

namespace poplar {

StreamCallback::~StreamCallback() = default;

LegacyStreamCallback::LegacyStreamCallback(std::function<void(void *)> f) : f_(std::move(f)) {}
StreamCallback::Result LegacyStreamCallback::prefetch(void *) { return Result::NotAvailable; }
void LegacyStreamCallback::fetch(void *p) { f_(p); }
void LegacyStreamCallback::complete() {}

} // namespace poplar
