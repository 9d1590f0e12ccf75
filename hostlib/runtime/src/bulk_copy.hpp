// The host's half of a large stream copy: the user's memory to or from a staging buffer.
#ifndef IPU_RUNTIME_BULK_COPY_HPP
#define IPU_RUNTIME_BULK_COPY_HPP

#include <cstddef>

namespace ipu {
namespace runtime {

/// memcpy(dst, src, bytes), split over up to four threads when it is large. Every tile waits in the host sync
/// while it runs, and the first write of a fresh staging buffer faults in one page per 4 KiB, which is most of
/// the cost (tutorial 7's 40 MB matrix: ~25 ms on one thread) and shrinks with the threads that share it.
void bulkCopy(void *dst, const void *src, std::size_t bytes);

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_BULK_COPY_HPP
