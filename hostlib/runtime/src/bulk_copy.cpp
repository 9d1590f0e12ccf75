// Large stream copies between the user's memory and staging buffers (see bulk_copy.hpp).
#include "bulk_copy.hpp"

#include <algorithm>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

namespace ipu {
namespace runtime {

void bulkCopy(void *dst, const void *src, std::size_t bytes) {
  // Below this a thread's start (tens of microseconds) costs more than it saves.
  constexpr std::size_t kSplitFrom = std::size_t(4) << 20;
  constexpr unsigned kMaxThreads = 4;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t pieces = bytes < kSplitFrom ? 1 : std::min<std::size_t>({cores, kMaxThreads, bytes / (kSplitFrom / 2)});
  auto *d = static_cast<unsigned char *>(dst);
  const auto *s = static_cast<const unsigned char *>(src);
  // Whole pages per piece, so that no two threads fault the same page in.
  const std::size_t piece = ((bytes + pieces - 1) / pieces + 4095) & ~std::size_t(4095);
  std::vector<std::thread> helpers;
  std::size_t done = std::min(piece, bytes); // the calling thread's piece
  while (done < bytes) {
    const std::size_t n = std::min(piece, bytes - done);
    try {
      helpers.emplace_back([=] { std::memcpy(d + done, s + done, n); });
    } catch (const std::system_error &) {
      break; // no thread to be had: this thread copies the rest
    }
    done += n;
  }
  std::memcpy(d, s, std::min(piece, bytes));
  if (done < bytes)
    std::memcpy(d + done, s + done, bytes - done);
  for (std::thread &t : helpers)
    t.join();
}

} // namespace runtime
} // namespace ipu
